package dev.rein.model;

/**
 * Makes an extra model call on a run's behalf (a compaction summary, a critic's review) through
 * the run's model-call chain: traced with its {@code purpose}, retried on transient failures,
 * bounded by the run's deadline and counted in its budget, like the loop's own calls. Implemented
 * by the loop.
 */
@FunctionalInterface
public interface ModelGateway {

    /**
     * Calls {@code model} with {@code request}.
     *
     * @throws ModelException       when the call failed for good (the failure is already in the trace)
     * @throws InterruptedException when the run is cancelled during the call
     */
    ModelResponse call(Model model, ModelRequest request, String purpose) throws ModelException, InterruptedException;

    /**
     * Counts the input tokens of {@code request} with {@code model}, through the chain (within the
     * deadline, traced); -1 when the provider cannot count. The default asks the model directly.
     */
    default long countTokens(Model model, ModelRequest request) throws ModelException, InterruptedException {
        return model.countTokens(request);
    }
}
