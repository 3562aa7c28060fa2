package dev.rein.model;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Who authored a message in the conversation. Written as the API writes it: {@code user}, {@code assistant}. */
public enum Role {
    USER,
    ASSISTANT;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
