package dev.rein.model;

/**
 * Whether the model may propose several tool calls in one response. Models may by default; set
 * {@link #DISABLED} on an agent ({@code Agent.builder().modelOption(ParallelToolCalls.DISABLED)})
 * when each call's result should be seen before the next call is chosen. Providers send it as their
 * API's field (and only on requests that offer tools); a provider whose API has no such field
 * ignores it. It asks the model: if a response still holds several calls, Rein runs each of them
 * through the same checks as always.
 */
public record ParallelToolCalls(boolean allowed) implements ModelOption {
    /** At most one tool call per response. */
    public static final ParallelToolCalls DISABLED = new ParallelToolCalls(false);

    /** Several tool calls per response (what models do when the option is not set). */
    public static final ParallelToolCalls ALLOWED = new ParallelToolCalls(true);

    /** Whether {@code request} asks for at most one tool call per response. */
    public static boolean disabledFor(ModelRequest request) {
        return request.option(ParallelToolCalls.class).map(option -> !option.allowed()).orElse(false);
    }
}
