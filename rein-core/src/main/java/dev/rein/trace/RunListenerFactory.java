package dev.rein.trace;

/** Creates a fresh listener for each run, so listeners never share state across runs. */
@FunctionalInterface
public interface RunListenerFactory {
    /**
     * The listener for run {@code runId}, or null for none (a factory that traces only some runs).
     * A factory that throws stops the run before it starts.
     */
    RunListener create(String runId);
}
