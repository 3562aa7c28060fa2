package dev.rein.model;

import java.util.Objects;

/** Extended thinking. Kept opaque: the signature must be sent back unchanged with the text. */
public record ThinkingBlock(String thinking, String signature) implements ContentBlock {
    public ThinkingBlock {
        Objects.requireNonNull(thinking, "thinking");
        Objects.requireNonNull(signature, "signature");
    }
}
