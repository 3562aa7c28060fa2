package dev.rein.openai;

import dev.rein.ReinException;
import dev.rein.model.ModelOption;
import java.util.List;

/**
 * How hard a reasoning model thinks before it answers, sent as Chat Completions'
 * {@code reasoning_effort}. Lower effort answers faster and spends fewer reasoning tokens (which are
 * billed, and counted against the budgets, as output tokens). The value is sent as given, so a level
 * this class has no constant for can be used too ({@link #of(String)}); models that do not reason,
 * and servers that do not know the field, may refuse it.
 *
 * <pre>{@code
 * Agent.builder().model(model).modelOption(OpenAiReasoningEffort.LOW)
 * }</pre>
 *
 * <p>On the command line: {@code rein run --reasoning-effort low}. OpenAI's gpt-5.4 and later take function tools on
 * Chat Completions only with {@link #NONE}.
 *
 * @param effort the wire value, such as {@code "low"}
 */
public record OpenAiReasoningEffort(String effort) implements ModelOption {
    /**
     * No reasoning: gpt-5.1 and later (their default; the only effort with which they take a temperature or top_p);
     * the models before gpt-5.1 refuse it.
     */
    public static final OpenAiReasoningEffort NONE = new OpenAiReasoningEffort("none");
    /** The least reasoning of the first gpt-5 models (gpt-5, gpt-5-mini, gpt-5-nano); gpt-5.1 and later refuse it. */
    public static final OpenAiReasoningEffort MINIMAL = new OpenAiReasoningEffort("minimal");
    /** Low effort; every OpenAI reasoning model takes it. */
    public static final OpenAiReasoningEffort LOW = new OpenAiReasoningEffort("low");
    /** Medium effort, the default of the models before gpt-5.1. */
    public static final OpenAiReasoningEffort MEDIUM = new OpenAiReasoningEffort("medium");
    /** High effort; every OpenAI reasoning model takes it. */
    public static final OpenAiReasoningEffort HIGH = new OpenAiReasoningEffort("high");
    /** The most reasoning, for the models after gpt-5.1-codex-max (gpt-5.2 and later); older ones refuse it. */
    public static final OpenAiReasoningEffort XHIGH = new OpenAiReasoningEffort("xhigh");

    /** The values the Chat Completions reference lists for {@code reasoning_effort}, in its order. */
    public static final List<OpenAiReasoningEffort> LISTED = List.of(NONE, MINIMAL, LOW, MEDIUM, HIGH, XHIGH);

    /** Refuses a null or blank effort. */
    public OpenAiReasoningEffort {
        if (effort == null || effort.isBlank()) {
            throw new ReinException("a reasoning effort is a word such as minimal, low, medium or high, not "
                    + (effort == null ? "null" : "blank text"));
        }
    }

    /** The reasoning {@code effort} as the API names it (for example {@code "low"}). */
    public static OpenAiReasoningEffort of(String effort) {
        return new OpenAiReasoningEffort(effort);
    }
}
