package dev.rein.model;

import java.util.Objects;

/** Plain text. */
public record TextBlock(String text) implements ContentBlock {
    public TextBlock {
        Objects.requireNonNull(text, "text");
    }
}
