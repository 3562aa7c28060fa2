package dev.rein.model;

/**
 * One stage of the model-call chain, the pipeline every model call of a run passes (the loop's
 * steps, the final summary, compaction and critic calls, and token counts). A stage either answers
 * the call itself (a response cache) or calls {@link Chain#proceed} and may look at or replace the
 * response (a fallback model after a failure). Application stages are added with
 * {@code Agent.builder().modelInterceptor(...)}.
 *
 * <p>The order, outermost first: tracing; secret masking of the response; the application's
 * interceptors, in the order added; the attempts stage (only when there is an application interceptor);
 * pricing and the money budget; retry (the provider's {@link ModelException#retryable()} and
 * {@code retryAfter}, within the deadline); the models of the application's stages
 * ({@link #aroundModel}); the deadline; the model. So an application stage sees
 * one logical call (retries happen below it) and everything it returns is traced. Under a durable engine
 * (rein-temporal), which makes the retries itself, a stage sees each retryable failure instead, after its
 * {@code model_retry} was traced: a fallback there moves on at the first one.
 *
 * <p>Every {@link Chain#proceed} of an application stage (of the innermost one, when there are several: an outer
 * stage's attempts pass the inner stages first) is one attempt of the call through the attempts stage, which sits
 * below all of them. When a stage catches an attempt's {@link ModelException} and proceeds again (a fallback to a
 * backup model, set with {@code call.withRequest(call.request().withModel("backup"))}), the attempts stage traces the
 * failed attempt as a {@code model_fallback} event (the model it failed on and the one the stage moved on to, taken
 * from the requests' model names; its failure, request id and the usage its server reported) and calls the call's
 * {@link StreamObserver#onRetry} before the next attempt streams, so a live view drops the failed attempt's text.
 * The next attempt is priced as the model its request names, within the same money budget, and gets its own retries
 * below. A stage that ends the call with an earlier attempt's failure leaves the last attempt's failure traced as a
 * {@code model_fallback} to no model; the call's {@code model_failed} says the failure it ended with. The run's
 * deadline ({@link ModelDeadlineException}) is no attempt's failure: it passes the attempts stage untraced, and the
 * next attempt of a stage that moves on from it fails the same way at once, the time being spent.
 *
 * <p>The chain polices the contract: a stage proceeds at most once per call unless it is a
 * retrying stage ({@link #retries()}: the built-in retry, a fallback model); it may change the model, the model name or the options of the
 * request, never the conversation (system prompt, tools, messages), so the response always
 * belongs to the request the run made; it never returns null. A breach ends the run with
 * {@code internal_error} and a message naming the stage, as does an unchecked exception a stage
 * throws (a failed call is reported as a {@link ModelException}). A model a stage chose that has no
 * price, while a money limit is set, is refused before it is called: the run ends
 * {@code configuration_error} (a {@link dev.rein.ConfigurationException}, which a stage may throw too).
 */
public interface ModelInterceptor {

    /** Handles one model call. */
    ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException;

    /**
     * Handles one token count ({@link Model#countTokens}); by default passes it on. A result of -1
     * means "unknown" and makes the caller estimate.
     */
    default long interceptCount(ModelCall call, Chain chain) throws ModelException, InterruptedException {
        return chain.proceedCount(call);
    }

    /**
     * True for a stage that may proceed more than once with one call because it tries again (a
     * fallback to another model after a failure); false by default, so a stage proceeding twice
     * by mistake is caught.
     */
    default boolean retries() {
        return false;
    }

    /**
     * The model this stage puts around the one an attempt reaches; by default the call's model
     * itself. Called for each attempt of a call and each token count, on the thread that runs the
     * chain, after every stage (and retry) below this one and before the deadline stage, which may
     * run the model on a thread of its own: {@code call} has the model and request as the model will
     * get them. A stage that must be around the provider's own call wherever it runs (tracing that
     * makes its span current there) wraps the model here, since a model a stage added after this
     * one sets with {@link ModelCall#withModel} (a fallback) never passed this stage's
     * {@link #intercept}. The application's stages wrap in their order, the first added outermost.
     * The model returned must call the given one with the same request and context, and answer
     * {@link Model#abortsOnInterrupt()} as it does.
     */
    default Model aroundModel(ModelCall call) {
        return call.model();
    }

    /** The rest of the chain. */
    interface Chain {
        /** Passes {@code call} to the next stage and returns its response. */
        ModelResponse proceed(ModelCall call) throws ModelException, InterruptedException;

        /** Passes a token count to the next stage. */
        long proceedCount(ModelCall call) throws ModelException, InterruptedException;
    }
}
