package dev.rein.stall;

import dev.rein.ReinException;
import dev.rein.json.Hashing;
import dev.rein.tool.Risk;
import java.util.Optional;

/**
 * The result of an executed call, exactly as the model received it (after truncation). Calls the
 * stall guard blocked are never observations: they did not run.
 *
 * @param source where the result came from (a URL, a file, a record id), or null when the tool gave none
 */
public record Observed(ProposedCall call, String content, boolean isError, String source) {
    /** @throws ReinException when the call or the content is null, naming it */
    public Observed {
        if (call == null) {
            throw new ReinException("an observation was given no call (null): give the ProposedCall whose result it is");
        }
        if (content == null) {
            throw new ReinException("the observation of call " + call.callId() + " (" + call.tool() + ") was given no"
                    + " content (null): give the text the model received (\"\" for none)");
        }
    }

    /** An observation without a source. */
    public Observed(ProposedCall call, String content, boolean isError) {
        this(call, content, isError, null);
    }

    /** The content hash: two identical results are one observation, whichever call produced them. */
    public String hash() {
        return Hashing.sha256(content);
    }

    /**
     * The fact this observation establishes, as a hash of its source and content, when it succeeded
     * and has a source: the same text from another source is another fact.
     */
    public Optional<String> fact() {
        return isError || source == null || source.isBlank() ? Optional.empty() : Optional.of(Hashing.sha256(source + "\n" + content));
    }

    /**
     * The resource a successful side-effecting call touched: the tool's resource argument when it
     * declares one, otherwise the call itself (tool and canonical arguments), since Rein cannot tell
     * which argument names the resource. Empty for reads and failures.
     */
    public Optional<String> touched() {
        if (isError || call.risk() == null || call.risk() == Risk.READ) {
            return Optional.empty();
        }
        return Optional.of(call.resource().map(r -> Hashing.sha256(call.tool() + "\n" + r)).orElse(call.key()));
    }
}
