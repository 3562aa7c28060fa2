package dev.rein.model;

import dev.rein.ReinException;

/** Extended thinking. Kept opaque: the signature must be sent back unchanged with the text. */
public record ThinkingBlock(String thinking, String signature) implements ContentBlock {
    /** @throws ReinException when the thinking or the signature is null */
    public ThinkingBlock {
        if (thinking == null) {
            throw new ReinException("a thinking block was given no thinking (null): give the text as the provider sent it"
                    + " (\"\" when it was omitted)");
        }
        if (signature == null) {
            throw new ReinException("a thinking block was given no signature (null): give the signature as the provider"
                    + " sent it (\"\" for none)");
        }
    }
}
