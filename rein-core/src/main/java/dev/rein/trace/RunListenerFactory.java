package dev.rein.trace;

import dev.rein.model.Model;

/** Creates a fresh listener for each run, so listeners never share state across runs. */
@FunctionalInterface
public interface RunListenerFactory {
    /**
     * The listener for run {@code runId}, or null for none (a factory that traces only some runs).
     * A factory that throws stops the run before it starts.
     */
    RunListener create(String runId);

    /**
     * The listener for run {@code runId} of an agent whose model is {@code model} (the agent's own:
     * a critic's or a fallback's may be another), for a factory that must know about the model
     * before its first call (telemetry naming the provider on the spans it begins earlier). The run
     * calls this one; by default it is {@link #create(String)}.
     */
    default RunListener create(String runId, Model model) {
        return create(runId);
    }
}
