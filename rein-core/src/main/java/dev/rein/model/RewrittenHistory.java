package dev.rein.model;

import java.util.List;
import java.util.Objects;

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
    public RewrittenHistory {
        causes = List.copyOf(Objects.requireNonNull(causes, "causes"));
        if (causes.isEmpty()) {
            throw new IllegalArgumentException("RewrittenHistory needs at least one cause");
        }
    }
}
