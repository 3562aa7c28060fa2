package dev.rein.agent;

import dev.rein.trace.TraceEvent;
import dev.rein.trace.Tracer;
import java.time.Instant;

/** A run seen as a {@link Tracer}, for policies outside this package. */
final class RunTracer implements Tracer {
    private final Run run;

    RunTracer(Run run) {
        this.run = run;
    }

    @Override
    public String runId() {
        return run.runId;
    }

    @Override
    public int step() {
        return run.step();
    }

    @Override
    public Instant now() {
        return run.now();
    }

    @Override
    public void emit(TraceEvent event) {
        run.emit(event);
    }
}
