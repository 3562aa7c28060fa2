package dev.rein.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Why the model stopped generating, as reported by the provider. */
public enum StopReason {
    END_TURN,
    TOOL_USE,
    MAX_TOKENS,
    STOP_SEQUENCE,
    PAUSE_TURN,
    REFUSAL,
    MODEL_CONTEXT_WINDOW_EXCEEDED,
    /** A value this version of Rein does not know; treated like an end of turn without tool use. */
    UNKNOWN;

    /** The wire name, e.g. {@code max_tokens}; also how traces write it. */
    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a wire name; unknown or null values map to {@link #UNKNOWN}. */
    public static StopReason fromWire(String value) {
        if (value == null) {
            return UNKNOWN;
        }
        for (StopReason r : values()) {
            if (r.wireName().equals(value)) {
                return r;
            }
        }
        return UNKNOWN;
    }
}
