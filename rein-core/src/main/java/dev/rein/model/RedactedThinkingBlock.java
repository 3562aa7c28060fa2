package dev.rein.model;

import dev.rein.ReinException;

/** Encrypted thinking; echoed back to the provider unchanged. */
public record RedactedThinkingBlock(String data) implements ContentBlock {
    /** @throws ReinException when the data is null */
    public RedactedThinkingBlock {
        if (data == null) {
            throw new ReinException("a redacted thinking block was given no data (null): give the encrypted data as the"
                    + " provider sent it");
        }
    }
}
