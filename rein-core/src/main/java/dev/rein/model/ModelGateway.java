package dev.rein.model;

import java.util.Optional;

/**
 * Makes an extra model call on a run's behalf (a compaction summary, a critic's review): traced
 * with its {@code purpose}, retried on transient failures, bounded by the run's deadline and
 * counted in its budget, like the loop's own calls. Implemented by the loop.
 */
@FunctionalInterface
public interface ModelGateway {

    /**
     * Calls {@code model} with {@code request}.
     *
     * @return the response, or empty when the call failed for good (the failure is in the trace)
     * @throws InterruptedException when the run is cancelled during the call
     */
    Optional<ModelResponse> call(Model model, ModelRequest request, String purpose) throws InterruptedException;
}
