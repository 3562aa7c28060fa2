package dev.rein.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * Why the model stopped generating, in provider-neutral terms. Each provider maps its own wire
 * values onto these; {@link #traceName()} is Rein's stable name for traces, snapshots and scripts.
 */
public enum StopReason {
    /** The model finished its turn. */
    END_TURN,
    /** The model asks for one or more tool calls. */
    TOOL_USE,
    /** The output hit the request's token limit. */
    MAX_TOKENS,
    /** The output reached one of the request's stop sequences. */
    STOP_SEQUENCE,
    /** The provider paused a long turn; sending the turn back lets it continue. */
    PAUSE_TURN,
    /** The model declined to answer. */
    REFUSAL,
    /** The conversation no longer fits the model's context window. */
    MODEL_CONTEXT_WINDOW_EXCEEDED,
    /** A value this version of Rein does not know; treated like an end of turn without tool use. */
    UNKNOWN;

    /** Rein's stable name, e.g. {@code max_tokens}; also how traces write it. */
    @JsonValue
    public String traceName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a {@link #traceName()}; unknown or null values map to {@link #UNKNOWN}. */
    public static StopReason ofTraceName(String value) {
        if (value == null) {
            return UNKNOWN;
        }
        for (StopReason r : values()) {
            if (r.traceName().equals(value)) {
                return r;
            }
        }
        return UNKNOWN;
    }
}
