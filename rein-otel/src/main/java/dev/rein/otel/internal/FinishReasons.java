package dev.rein.otel.internal;

import dev.rein.model.StopReason;
import dev.rein.run.RunStatus;

/**
 * Rein's stop reasons in the two vocabularies the GenAI conventions use: the provider's own for
 * {@code gen_ai.response.finish_reasons}, and the output-message schema's well-known values
 * ({@code stop}, {@code length}, {@code content_filter}, {@code tool_call}, {@code error}) for the
 * {@code finish_reason} of {@code gen_ai.output.messages}.
 */
final class FinishReasons {
    private FinishReasons() {}

    /**
     * As the provider would have reported it, for a response that does not carry the provider's own word
     * ({@code ModelResponse.providerStopReason}, which is used when present): Chat Completions names for
     * {@code openai}; otherwise Rein's names, which are the Messages API's own ({@code end_turn}, {@code tool_use}, ...).
     */
    static String asReported(StopReason reason, String providerName) {
        if (!"openai".equals(providerName)) {
            return reason.traceName();
        }
        return switch (reason) {
            case END_TURN, STOP_SEQUENCE -> "stop";
            case TOOL_USE -> "tool_calls";
            case MAX_TOKENS -> "length";
            case REFUSAL -> "content_filter";
            case PAUSE_TURN, MODEL_CONTEXT_WINDOW_EXCEEDED, UNKNOWN -> reason.traceName();
        };
    }

    /** The output-message schema's value; reasons it has no value for keep Rein's name, as the schema allows. */
    static String wellKnown(StopReason reason) {
        return switch (reason) {
            case END_TURN, STOP_SEQUENCE -> "stop";
            case TOOL_USE -> "tool_call";
            case MAX_TOKENS, MODEL_CONTEXT_WINDOW_EXCEEDED -> "length";
            case REFUSAL -> "content_filter";
            case PAUSE_TURN, UNKNOWN -> reason.traceName();
        };
    }

    /** How a run ended, for the answer recorded on its span: a finished run stopped, a failed one is an error. */
    static String ofRun(RunStatus status, String reason) {
        return switch (status) {
            case SUCCEEDED -> "stop";
            case FAILED -> "error";
            case RUNNING, WAITING_APPROVAL, STOPPED_BUDGET, CANCELLED -> reason;
        };
    }
}
