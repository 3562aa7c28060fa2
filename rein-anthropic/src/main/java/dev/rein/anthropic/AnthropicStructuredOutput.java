package dev.rein.anthropic;

import dev.rein.model.ModelOption;

/**
 * Opt-in: send the agent's {@link dev.rein.model.OutputSchema} as the Messages API's structured
 * output ({@code output_config.format} of type {@code json_schema}), so the model's answer is
 * constrained to it. Off unless set, because the API accepts only a subset of JSON Schema and only
 * on some models; Rein validates the final answer against the schema either way.
 *
 * <pre>{@code
 * Agent.builder().model(model).outputType(Verdict.class).modelOption(AnthropicStructuredOutput.ENABLED)
 * }</pre>
 */
public record AnthropicStructuredOutput(boolean enabled) implements ModelOption {
    public static final AnthropicStructuredOutput ENABLED = new AnthropicStructuredOutput(true);
}
