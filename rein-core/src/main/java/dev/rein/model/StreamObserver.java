package dev.rein.model;

/**
 * Receives a response while it is generated, for live views. All methods default to no-ops;
 * providers that do not stream simply never call them.
 */
public interface StreamObserver {
    StreamObserver NONE = new StreamObserver() {};

    /** A fragment of assistant text. */
    default void onTextDelta(String text) {}

    /**
     * A fragment of the model's thinking, as the provider returns it (Anthropic's thinking blocks: a summary of
     * the reasoning, or the newest models' short notes between tool calls; an OpenAI-compatible server's
     * {@code reasoning_content} or {@code reasoning}). Never part of the answer, and never
     * passed to {@link #onTextDelta}; empty when the provider omits the thinking's text.
     */
    default void onThinkingDelta(String thinking) {}

    /** The model started a tool call. */
    default void onToolUseStart(String id, String name) {}

    /** A fragment of the JSON arguments of the tool call {@code id}. */
    default void onToolInputDelta(String id, String partialJson) {}

    /**
     * Attempt {@code failedAttempt} (from 1) of the current model call failed, and the call is retried:
     * everything streamed since the call began, or since the previous {@code onRetry}, belongs to the failed
     * attempt and is not part of the response (text, thinking, tool call starts and their arguments); discard it.
     * What follows is the next attempt's, from its start. Called for every retried attempt, whether it streamed
     * part of a response before failing or nothing at all (a 429 or 503 refused before any output: then there is
     * nothing to discard). Called after the failed attempt's last fragment, after the run traced its
     * {@code model_retry}, and before the retry's wait; never for a call that is not retried. Also called when an
     * application's model-call stage moves on from a failed attempt to another (a fallback to a backup model), after
     * the run traced its {@code model_fallback} and before the next attempt streams; {@code failedAttempt} then counts
     * the stage's attempts of the call.
     *
     * <p>The retry stage calls it on the observer of the call it got, below the application's model interceptors:
     * an interceptor that passes the call on with its own observer wrapped around {@code call.context().stream()}
     * must forward {@code onRetry} to the wrapped observer, as it forwards the deltas; this default does nothing, so
     * a wrapper that does not override it swallows the signal and the live view shows the failed attempt's text
     * joined to the retry's.
     */
    default void onRetry(int failedAttempt) {}
}
