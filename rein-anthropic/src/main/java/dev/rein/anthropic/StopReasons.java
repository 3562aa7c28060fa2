package dev.rein.anthropic;

import dev.rein.model.StopReason;

/** The Messages API's {@code stop_reason} values, mapped to Rein's neutral stop reasons. */
final class StopReasons {
    private StopReasons() {}

    static StopReason fromWire(String value) {
        if (value == null) {
            return StopReason.UNKNOWN;
        }
        return switch (value) {
            case "end_turn" -> StopReason.END_TURN;
            case "tool_use" -> StopReason.TOOL_USE;
            case "max_tokens" -> StopReason.MAX_TOKENS;
            case "stop_sequence" -> StopReason.STOP_SEQUENCE;
            case "pause_turn" -> StopReason.PAUSE_TURN;
            case "refusal" -> StopReason.REFUSAL;
            case "model_context_window_exceeded" -> StopReason.MODEL_CONTEXT_WINDOW_EXCEEDED;
            default -> StopReason.UNKNOWN;
        };
    }
}
