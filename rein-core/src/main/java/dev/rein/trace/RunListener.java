package dev.rein.trace;

import dev.rein.model.StreamObserver;

/**
 * Observes one run: every {@link TraceEvent} and, for live views, the streamed model output.
 * All methods default to no-ops. Called from the run's threads; implementations must not throw
 * (a listener that throws, an exception or any Error such as an AssertionError or a
 * StackOverflowError, is logged and ignored).
 */
public interface RunListener extends StreamObserver {
    RunListener NONE = new RunListener() {};

    default void onEvent(TraceEvent event) {}

    /**
     * The run is over, or it could not start after this listener was made (a tool source failed to list
     * its tools, say); release files and flush. Called once.
     */
    default void close() {}
}
