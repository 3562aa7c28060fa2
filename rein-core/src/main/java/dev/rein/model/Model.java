package dev.rein.model;

/**
 * A language model behind one method. Implementations translate the provider-neutral request to
 * their wire protocol and back; they do not retry (the runtime retries, traced and within the
 * deadline) and report failures as {@link ModelException}. A response's usage is what the provider
 * reported; when it reported none, pass {@code null} (or {@link Usage#NOT_REPORTED}), never
 * {@link Usage#ZERO}, so that the run charges an estimate and its token and money limits still bind.
 */
public interface Model {

    /**
     * Makes one model call.
     *
     * @throws ModelException when the provider fails; {@link ModelException#retryable()} tells the
     *                        runtime whether trying again can help. Anything else the call throws
     *                        (an unchecked exception, an {@code Error} such as {@code AssertionError})
     *                        ends the run as a non-retryable provider failure naming the model and
     *                        this class
     * @throws InterruptedException when the calling thread is interrupted (cancel or deadline)
     */
    ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException;

    /**
     * Counts the input tokens {@code request} would use, if the provider can. The default returns
     * -1, meaning "unknown": callers fall back to an estimate, as they do when the count fails (a
     * {@link ModelException} or any unchecked exception, e.g. {@code UnsupportedOperationException}).
     */
    default long countTokens(ModelRequest request) throws ModelException, InterruptedException {
        return -1;
    }

    /**
     * Whether interrupting the thread that runs {@link #call} or {@link #countTokens} makes it end
     * promptly, with {@link InterruptedException} (or any failure), abandoning the exchange with
     * the provider. When true, the runtime runs the call on the run's own thread and enforces the
     * run's deadline by interrupting that thread; when false (the default), each call runs on a
     * thread of its own that the run stops waiting for at the deadline, so a model that ignores
     * interrupts still cannot hold the run past it. Return true only if every blocking wait of the
     * call (connecting, sending, reading the response) ends on interrupt, e.g. a JDK
     * {@code HttpClient.send} and reads of its response body.
     */
    default boolean abortsOnInterrupt() {
        return false;
    }
}
