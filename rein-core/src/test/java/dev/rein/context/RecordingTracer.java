package dev.rein.context;

import dev.rein.trace.TraceEvent;
import dev.rein.trace.Tracer;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A tracer that keeps the events, for assertions. */
public final class RecordingTracer implements Tracer {
    public final List<TraceEvent> events = new CopyOnWriteArrayList<>();
    int step = 1;

    @Override
    public String runId() {
        return "run_test";
    }

    @Override
    public int step() {
        return step;
    }

    @Override
    public Instant now() {
        return Instant.parse("2026-01-01T00:00:00Z");
    }

    @Override
    public void emit(TraceEvent event) {
        events.add(event);
    }

    public <T extends TraceEvent> List<T> events(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }
}
