package dev.rein.model;

import dev.rein.ReinException;
import dev.rein.internal.collect.NullElements;
import java.util.List;

/**
 * Marks the requests of an agent whose earlier turns Rein may send otherwise than the model saw them when it
 * answered: the working state or recalled memory added to the latest user message only, old turns left out or
 * summarised, old tool results cleared, a tool list that can change during the run. The agent adds it itself
 * ({@code Agent.Builder.stateInPrompt}, {@code memoryInjection}, a client-side {@code ContextPolicy}, tool sources),
 * also to the request its options' {@link ModelOption#check} sees when it is built; a provider whose models bind
 * their thinking to the conversation before it (Anthropic's preserved thinking) uses it to ask the API to drop
 * thinking that no longer matches instead of refusing the request, and refuses, when the agent is built, a kind of
 * thinking that cannot ask that. Other providers ignore it.
 *
 * <p>Traces leave it out ({@link ModelOptions}): it is derived from settings whose effect the messages show.
 *
 * @param causes what rewrites the history ({@code state_in_prompt}, {@code memory_recall},
 *     {@code clear_tool_results}, {@code compaction}, {@code tool_sources}); at least one
 */
public record RewrittenHistory(List<String> causes) implements ModelOption {
    /** @throws ReinException when no cause is named, saying which to name */
    public RewrittenHistory {
        String name = "name what rewrites the history (state_in_prompt, memory_recall, clear_tool_results, compaction or"
                + " tool_sources)";
        if (causes == null) {
            throw new ReinException("RewrittenHistory was given no causes (null): " + name + ", or leave the option out"
                    + " when nothing does");
        }
        int at = NullElements.firstNull(causes);
        if (at >= 0) {
            throw new ReinException("RewrittenHistory's cause " + (at + 1) + " of " + causes.size() + " is null: " + name
                    + " in its place, or leave it out");
        }
        causes = List.copyOf(causes);
        if (causes.isEmpty()) {
            throw new ReinException("RewrittenHistory needs at least one cause: " + name + ", or leave the option out when"
                    + " nothing does");
        }
    }
}
