package dev.rein.model;

/**
 * Receives a response while it is generated, for live views. All methods default to no-ops;
 * providers that do not stream simply never call them.
 */
public interface StreamObserver {
    StreamObserver NONE = new StreamObserver() {};

    /** A fragment of assistant text. */
    default void onTextDelta(String text) {}

    /** The model started a tool call. */
    default void onToolUseStart(String id, String name) {}

    /** A fragment of the JSON arguments of the tool call {@code id}. */
    default void onToolInputDelta(String id, String partialJson) {}
}
