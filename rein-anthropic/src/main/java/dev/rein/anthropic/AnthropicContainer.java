package dev.rein.anthropic;

import dev.rein.ReinException;
import dev.rein.model.ModelOption;

/**
 * The code execution tool's container a run starts in, sent as the request's {@code container}:
 * the id of one an earlier response named (its {@code "container": {"id": ...}}), so files it holds
 * and state it keeps are there from the run's first step, as the code execution docs describe
 * reusing a container across requests. Once a response of the run names a container, that newer
 * one is sent instead ({@link AnthropicServerTools} docs). Not sent to count_tokens, which takes no
 * such field.
 *
 * <pre>{@code
 * Agent.builder().model(model)
 *         .modelOption(AnthropicServerTools.of("{\"type\": \"code_execution_20250825\", \"name\": \"code_execution\"}"))
 *         .modelOption(AnthropicContainer.id("container_011CPR5CNjB747bTd36fQLFk"))
 * }</pre>
 *
 * @param id the container's id
 */
public record AnthropicContainer(String id) implements ModelOption {
    public AnthropicContainer {
        if (id == null || id.isBlank() || !id.strip().equals(id)) {
            throw new ReinException("the container id of AnthropicContainer is " + (id == null ? "null" : "'" + id + "'")
                    + ": give the id a response named (\"container\": {\"id\": \"container_...\"}), or leave the option out");
        }
    }

    /** The container with {@code id}. */
    public static AnthropicContainer id(String id) {
        return new AnthropicContainer(id);
    }
}
