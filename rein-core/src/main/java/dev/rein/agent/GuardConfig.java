package dev.rein.agent;

import dev.rein.ReinException;
import dev.rein.context.ContextPolicy;
import dev.rein.internal.collect.NullElements;
import dev.rein.reflection.Reflection;
import dev.rein.stall.StallPolicy;
import java.util.List;

/**
 * The loop's guards against its own failure modes: stall detection, context management and
 * reflection. (The premature-finish guard is a verifier: see {@link Agent.Builder#requiredFact}.)
 * Set through {@link Agent.Builder#stallPolicy}, {@link Agent.Builder#contextPolicy} and
 * {@link Agent.Builder#reflection}.
 */
public record GuardConfig(StallPolicy stall, ContextPolicy context, List<Reflection> reflection) {
    /** @throws ReinException when a part is null (or a reflection in the list), naming it and what to give */
    public GuardConfig {
        if (stall == null) {
            throw new ReinException("GuardConfig was given no stall (null): give a StallPolicy (StallPolicy.defaults(),"
                    + " or StallPolicy.disabled() for no stall detection)");
        }
        if (context == null) {
            throw new ReinException("GuardConfig was given no context (null): give a ContextPolicy (ContextPolicy.defaults())");
        }
        if (reflection == null) {
            throw new ReinException("GuardConfig was given no reflection (null): give a list of Reflection, List.of() for none");
        }
        int at = NullElements.firstNull(reflection);
        if (at >= 0) {
            throw new ReinException("GuardConfig was given a null reflection at position " + at + " (counting from 0):"
                    + " give each Reflection, or leave it out");
        }
        reflection = List.copyOf(reflection);
    }

    /** Every stall detector on, tool output truncated at 4,000 characters, no reflection prompts. */
    public static GuardConfig defaults() {
        return new GuardConfig(StallPolicy.defaults(), ContextPolicy.defaults(), List.of());
    }
}
