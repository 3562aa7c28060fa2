package dev.rein.context;

import dev.rein.ReinException;
import dev.rein.model.ServerContextEdit;
import java.util.List;
import java.util.Objects;

/**
 * Clearing old tool results once the input passes {@code triggerTokens}: all but the newest
 * {@code keep} results are replaced. Client-side, each cleared result becomes a placeholder saying
 * what it was, where the full text is kept and to call the tool again if needed; results shorter
 * than the placeholder are left alone. Server-side the provider clears them (sent as a
 * {@link dev.rein.model.ServerContextEdit.ClearToolUses}; each provider module documents its
 * mapping). Results of {@code excludeTools} are never cleared.
 *
 * <p>Defaults: trigger at {@value #DEFAULT_TRIGGER_TOKENS} input tokens,
 * keep the newest {@value #DEFAULT_KEEP}.
 */
public record ClearToolResults(Side side, int triggerTokens, int keep, List<String> excludeTools) {
    public static final int DEFAULT_TRIGGER_TOKENS = 100_000;
    public static final int DEFAULT_KEEP = 3;

    public ClearToolResults {
        Objects.requireNonNull(side, "side");
        if (triggerTokens < 1) {
            throw new ReinException("the tool result clearing trigger must be positive, was " + triggerTokens
                    + ": give the input tokens at which to clear old tool results (the default is " + DEFAULT_TRIGGER_TOKENS + ")");
        }
        if (keep < 0) {
            throw new ReinException("the number of tool results to keep cannot be negative, was " + keep);
        }
        excludeTools = excludeTools == null ? List.of() : List.copyOf(excludeTools);
    }

    /** Rein clears results itself, with the defaults. */
    public static ClearToolResults client() {
        return client(DEFAULT_TRIGGER_TOKENS, DEFAULT_KEEP);
    }

    public static ClearToolResults client(int triggerTokens, int keep) {
        return new ClearToolResults(Side.CLIENT, triggerTokens, keep, List.of());
    }

    /** The provider clears results, with the defaults. */
    public static ClearToolResults server() {
        return server(DEFAULT_TRIGGER_TOKENS, DEFAULT_KEEP);
    }

    public static ClearToolResults server(int triggerTokens, int keep) {
        return new ClearToolResults(Side.SERVER, triggerTokens, keep, List.of());
    }

    /** The same setting, never clearing the results of {@code tools}. */
    public ClearToolResults excluding(String... tools) {
        return new ClearToolResults(side, triggerTokens, keep, List.of(tools));
    }

    ServerContextEdit toServerEdit() {
        return new ServerContextEdit.ClearToolUses(triggerTokens, keep, null, excludeTools, false);
    }
}
