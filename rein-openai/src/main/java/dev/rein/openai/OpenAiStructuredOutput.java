package dev.rein.openai;

import dev.rein.model.ModelOption;

/**
 * Opt-in: send the agent's {@link dev.rein.model.OutputSchema} as Chat Completions structured
 * output ({@code response_format} of type {@code json_schema}, {@code strict: false}), so the
 * model's answer is constrained to it. Off unless set, because not every model or compatible
 * server supports it, and those that do accept only part of JSON Schema; Rein validates the final
 * answer against the schema either way.
 *
 * <p>OpenAI's API takes only an object at the schema's top: on the public API and Azure OpenAI a request whose output
 * schema is not one there (a sealed interface's {@code anyOf}, a one-value class's string, a list) is refused before it
 * is sent; ask for a record that holds the value instead. Other servers (Ollama, vLLM) are sent any top.
 *
 * <pre>{@code
 * Agent.builder().model(model).outputType(Verdict.class).modelOption(OpenAiStructuredOutput.ENABLED)
 * }</pre>
 *
 * @param enabled whether to send {@code response_format}
 */
public record OpenAiStructuredOutput(boolean enabled) implements ModelOption {
    /** Sends the output schema as {@code response_format}. */
    public static final OpenAiStructuredOutput ENABLED = new OpenAiStructuredOutput(true);
}
