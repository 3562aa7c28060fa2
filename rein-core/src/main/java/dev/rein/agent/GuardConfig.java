package dev.rein.agent;

import dev.rein.context.ContextPolicy;
import dev.rein.reflection.Reflection;
import dev.rein.stall.StallPolicy;
import java.util.List;
import java.util.Objects;

/**
 * The loop's guards against its own failure modes: stall detection, context management and
 * reflection. (The premature-finish guard is a verifier: see {@link Agent.Builder#requiredFact}.)
 * Set through {@link Agent.Builder#stallPolicy}, {@link Agent.Builder#contextPolicy} and
 * {@link Agent.Builder#reflection}.
 */
public record GuardConfig(StallPolicy stall, ContextPolicy context, List<Reflection> reflection) {
    public GuardConfig {
        Objects.requireNonNull(stall, "stall");
        Objects.requireNonNull(context, "context");
        reflection = List.copyOf(reflection);
    }

    /** Every stall detector on, tool output truncated at 4,000 characters, no reflection prompts. */
    public static GuardConfig defaults() {
        return new GuardConfig(StallPolicy.defaults(), ContextPolicy.defaults(), List.of());
    }
}
