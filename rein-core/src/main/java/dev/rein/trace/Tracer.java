package dev.rein.trace;

import java.time.Instant;

/**
 * Lets a policy running inside a run record trace events: the run's id, its current step, its
 * clock and its listeners. Implemented by the loop; never null inside a run.
 */
public interface Tracer {
    String runId();

    int step();

    Instant now();

    void emit(TraceEvent event);
}
