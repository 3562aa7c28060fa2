package dev.rein.anthropic;

import dev.rein.ReinException;
import dev.rein.model.ModelOption;

/**
 * How many tokens the model may spend on a response (its text, tool calls and thinking), sent as
 * the Messages API's {@code output_config.effort}. The API's default is {@code high}; lower levels
 * answer faster and cost less. The value is sent as given, so a level this class has no constant
 * for can be used too ({@link #of(String)}); the API refuses a level a model does not support.
 *
 * <pre>{@code
 * Agent.builder().model(model).modelOption(AnthropicEffort.MEDIUM)
 * }</pre>
 *
 * @param level the wire value, such as {@code "medium"}
 */
public record AnthropicEffort(String level) implements ModelOption {
    public static final AnthropicEffort LOW = new AnthropicEffort("low");
    public static final AnthropicEffort MEDIUM = new AnthropicEffort("medium");
    public static final AnthropicEffort HIGH = new AnthropicEffort("high");
    public static final AnthropicEffort XHIGH = new AnthropicEffort("xhigh");
    public static final AnthropicEffort MAX = new AnthropicEffort("max");

    public AnthropicEffort {
        if (level == null || level.isBlank()) {
            throw new ReinException("an effort level is a word such as low, medium, high, xhigh or max, not "
                    + (level == null ? "null" : "blank text"));
        }
    }

    /** The effort {@code level} as the API names it (for example {@code "low"}). */
    public static AnthropicEffort of(String level) {
        return new AnthropicEffort(level);
    }
}
