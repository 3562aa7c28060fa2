package dev.rein.trace;

/** Creates a fresh listener for each run, so listeners never share state across runs. */
@FunctionalInterface
public interface RunListenerFactory {
    RunListener create(String runId);
}
