package dev.rein.state;

import java.time.Instant;
import java.util.Objects;

/**
 * Something a tool returned, with where it came from and when: a confirmed fact, as opposed to a
 * hypothesis of the model.
 *
 * @param text the observation (shortened to {@link AgentState#MAX_FACT_CHARS}; the full text is in
 *             the history under {@code callId})
 */
public record Fact(String text, String source, Instant observedAt, String tool, String callId) {
    public Fact {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(observedAt, "observedAt");
    }
}
