package dev.rein.model;

/**
 * A language model behind one method. Implementations translate the provider-neutral request to
 * their wire protocol and back; they do not retry (the runtime retries, traced and within the
 * deadline) and report failures as {@link ModelException}.
 */
public interface Model {

    /**
     * Makes one model call.
     *
     * @throws ModelException when the provider fails; {@link ModelException#retryable()} tells the
     *                        runtime whether trying again can help
     * @throws InterruptedException when the calling thread is interrupted (cancel or deadline)
     */
    ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException;

    /**
     * Counts the input tokens {@code request} would use, if the provider can. The default returns
     * -1, meaning "unknown": callers fall back to an estimate.
     */
    default long countTokens(ModelRequest request) throws ModelException, InterruptedException {
        return -1;
    }
}
