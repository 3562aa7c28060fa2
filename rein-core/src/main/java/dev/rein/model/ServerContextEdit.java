package dev.rein.model;

import java.util.List;

/**
 * Context management that the provider applies server-side instead of Rein: clearing old tool
 * results or compacting earlier turns. Each provider maps these to its own API; null numbers mean
 * "provider default". Sent as the {@link ServerContextEdits} request option.
 */
public sealed interface ServerContextEdit {

    /** Clear old tool results server-side once the input passes {@code triggerInputTokens}. */
    record ClearToolUses(Integer triggerInputTokens, Integer keepToolUses, Integer clearAtLeastTokens,
                         List<String> excludeTools, boolean clearToolInputs) implements ServerContextEdit {
        public ClearToolUses {
            excludeTools = excludeTools == null ? List.of() : List.copyOf(excludeTools);
        }

        public static ClearToolUses defaults() {
            return new ClearToolUses(null, null, null, List.of(), false);
        }
    }

    /** Summarise earlier turns server-side once the input passes {@code triggerInputTokens}. */
    record Compact(Integer triggerInputTokens, String instructions) implements ServerContextEdit {
        public static Compact defaults() {
            return new Compact(null, null);
        }
    }
}
