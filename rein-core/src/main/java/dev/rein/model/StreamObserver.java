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
}
