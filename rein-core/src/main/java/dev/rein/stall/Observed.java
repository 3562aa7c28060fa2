package dev.rein.stall;

import dev.rein.json.Hashing;
import java.util.Objects;

/**
 * The result of an executed call, exactly as the model received it (after truncation). Calls the
 * stall guard blocked are never observations: they did not run.
 */
public record Observed(ProposedCall call, String content, boolean isError) {
    public Observed {
        Objects.requireNonNull(call, "call");
        Objects.requireNonNull(content, "content");
    }

    /** The content hash: two identical results are one observation, whichever call produced them. */
    public String hash() {
        return Hashing.sha256(content);
    }
}
