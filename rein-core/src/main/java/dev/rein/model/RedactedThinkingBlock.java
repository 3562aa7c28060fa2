package dev.rein.model;

import java.util.Objects;

/** Encrypted thinking; echoed back to the provider unchanged. */
public record RedactedThinkingBlock(String data) implements ContentBlock {
    public RedactedThinkingBlock {
        Objects.requireNonNull(data, "data");
    }
}
