package dev.rein.anthropic;

import dev.rein.ReinException;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.ModelIds;
import dev.rein.model.ModelOption;
import dev.rein.model.ModelRequest;
import dev.rein.model.RedactedThinkingBlock;
import dev.rein.model.RewrittenHistory;
import dev.rein.model.ThinkingBlock;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Extended thinking, sent as the Messages API's {@code thinking} parameter. Models do not think
 * unless a request asks them to. Thinking blocks come back as {@code ThinkingBlock}s and are sent back
 * unchanged with the rest of the turn (the API requires that during tool use), and thinking tokens
 * are billed, and counted against the budgets, as output tokens.
 *
 * <pre>{@code
 * Agent.builder().model(model).modelOption(AnthropicThinking.adaptive())       // Claude 4.6 on; with AnthropicEffort
 * Agent.builder().model(model).modelOption(AnthropicThinking.budget(8_000))    // before Claude 4.7; below max tokens
 * Agent.builder().model(model).modelOption(AnthropicThinking.betweenTools())   // Claude Sonnet 5.5: none up front
 * }</pre>
 *
 * <p>The API refuses thinking with a forced tool choice (an agent's steps never force one) and
 * with sampling parameters (Rein sends none unless you set them). Every model from Claude 4.7 on (Claude Opus 4.7
 * and 4.8, Sonnet 5, the default model, Opus 5, Fable 5, Mythos 5 and the 5.x releases after them:
 * {@link #refusesBudgets}) refuses a budget with a 400 while it takes adaptive thinking, so an agent with a budget on
 * one of them is refused when it is built, saying to use {@link #adaptive()} and {@link AnthropicEffort}. Otherwise
 * which kind of thinking a model accepts is the API's to say: its refusal ends the call with the API's message. Models that always
 * think (Claude Opus 5.5, Sonnet 5.5, Fable 5 and 5.1, Mythos 5 and 5.1) refuse {@link #disabled()} and budgets, so an
 * agent with either on one of them is refused when it is built; that refusal also says to use {@link #adaptive()} (or no
 * thinking option) and {@link AnthropicEffort}, or, on Claude Sonnet 5.5, {@link #betweenTools()}. A request switched
 * to such a model after the agent was built (a {@code ModelInterceptor}, a fallback) or built by hand is refused the
 * same way before it is sent; the API's own refusal of a model Rein does not list gets the same advice.
 *
 * @param type the kind of thinking
 * @param budgetTokens for {@link Type#ENABLED} the most tokens to think with: at least 1,024 (checked
 *     here) and fewer than the request's max tokens (checked when an agent is built, and before a
 *     request is sent); {@code null} for the other kinds
 * @param display whether thinking is returned summarized, omitted, or as progress updates only; {@code null}
 *     for the API's default; not for {@link Type#DISABLED} or {@link Type#BETWEEN_TOOLS}
 */
public record AnthropicThinking(Type type, Integer budgetTokens, Display display) implements ModelOption {
    /** The {@code thinking.type} values. */
    public enum Type {
        /** Thinking with a fixed token budget ({@code budget_tokens}). */
        ENABLED,
        /** The model decides when and how much to think ({@link AnthropicEffort} guides how hard). */
        ADAPTIVE,
        /** No thinking. */
        DISABLED,
        /**
         * No thinking before the first tool call, only short progress notes between tool calls
         * ({@code "between_tools"}): Claude Sonnet 5.5's lowest setting, in place of {@link #DISABLED}, which
         * it refuses; at effort low, medium or high.
         */
        BETWEEN_TOOLS;

        String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The {@code thinking.display} values. Left unset, the model's default applies ({@code omitted} on the newest
     * models, {@code summarized} on older ones).
     */
    public enum Display {
        /** Thinking blocks carry a summary of the thinking. */
        SUMMARIZED,
        /** Thinking blocks carry no text, only the signature that lets them be sent back. */
        OMITTED,
        /**
         * Like {@link #OMITTED} for the reasoning, but the short progress notes the model writes between tool calls
         * come back as text in their thinking blocks (Claude Opus 5.5, Sonnet 5.5, Fable 5 and 5.1, Mythos 5.1). A
         * beta: Rein sends {@value #UPDATES_BETA} in the {@code anthropic-beta} header with it.
         */
        UPDATES;

        /** The beta that defines {@link #UPDATES}. */
        public static final String UPDATES_BETA = "thinking-display-updates-2026-08-18";

        String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public AnthropicThinking {
        if (type == null) {
            throw new ReinException("AnthropicThinking was given no type (null): use AnthropicThinking.budget(n),"
                    + " adaptive() or disabled()");
        }
        if (type == Type.ENABLED && (budgetTokens == null || budgetTokens < MIN_BUDGET_TOKENS)) {
            throw new ReinException("thinking with a token budget needs budgetTokens of at least " + MIN_BUDGET_TOKENS
                    + " (the API refuses less), got " + budgetTokens + "; use AnthropicThinking.budget(n) with n >= "
                    + MIN_BUDGET_TOKENS + ", or AnthropicThinking.adaptive() on models that think adaptively");
        }
        if (type != Type.ENABLED && budgetTokens != null) {
            throw new ReinException("budgetTokens is only for thinking of type ENABLED, not " + type
                    + "; use AnthropicThinking.budget(" + budgetTokens + ")");
        }
        if (type == Type.DISABLED && display != null) {
            throw new ReinException("display is not for disabled thinking: there is nothing to show");
        }
        // The API's between_tools config has no display field: its progress notes always come back as text.
        if (type == Type.BETWEEN_TOOLS && display != null) {
            throw new ReinException("display is not for between_tools thinking (the API takes only its type, and its progress"
                    + " notes between tool calls always come back as text); for another display use"
                    + " AnthropicThinking.adaptive().withDisplay(" + display + ")");
        }
    }

    /** The smallest {@code budget_tokens} the API takes. */
    public static final int MIN_BUDGET_TOKENS = 1024;

    /**
     * A token budget must be less than the request's max tokens: thinking tokens count toward
     * them, and the API refuses a budget that leaves no room (HTTP 400). With the interleaved
     * thinking beta ({@link AnthropicBetas}) the budget is the whole turn's and may exceed them.
     *
     * between_tools thinking is refused at effort {@code xhigh} or {@code max}, and so is thinking off on Claude Opus 5
     * ({@link #OFF_ONLY_UP_TO_HIGH}). A budget or between_tools thinking is
     * refused on a model with preserved thinking when the request's earlier turns are rewritten
     * ({@link RewrittenHistory}): only adaptive thinking can ask the API to drop the thinking the rewrite invalidated
     * ({@code block_binding}), so from the second step the API would refuse the request.
     *
     * A budget is refused on a model that takes none ({@link #refusesBudgets}), thinking off on a model that always thinks
     * ({@link #ALWAYS_THINKING}), and between_tools thinking on one of those
     * other than Claude Sonnet 5.5, the only model that takes it; these checks are made for the agent's own model when
     * it is built, and for the model a request names before it is sent ({@link #checkBeforeSending}: one a
     * {@code ModelInterceptor} or a fallback switched to, or a request built by hand), so the API's 400 is not met.
     *
     * @throws ReinException for a budget on a model from Claude 4.7 on, for thinking off on a model that always thinks,
     *     for between_tools on one other than Claude Sonnet 5.5, when the budget is not below
     *     {@code request.maxTokens()}, for between_tools at xhigh or max, for thinking off on Claude Opus 5 at xhigh or max,
     *     or for a budget or between_tools with a rewritten history on a model with preserved thinking
     */
    @Override
    public void check(ModelRequest request) {
        check(request, false);
    }

    /**
     * {@link #check} of a request about to be sent, against the model it names: its refusals (of the thinking on that
     * model, or with a rewritten history) also say that the model was set after the agent was built (the agent's own
     * model was checked then), by a {@code ModelInterceptor} or a fallback, or that the request was built by hand, and
     * how to switch the thinking along with the model.
     */
    void checkBeforeSending(ModelRequest request) {
        check(request, true);
    }

    private void check(ModelRequest request, boolean sending) {
        // The same refusals for the agent's own model when it is built and, before it is sent, for the model a request
        // names (a ModelInterceptor's or a fallback's switch, or a request built by hand): Rein's words, not the API's
        // bare 400 (whose wording the docs do not give for between_tools).
        String model = request.model();
        if (type == Type.ENABLED && refusesBudgets(model)) {
            throw refused("AnthropicThinking.budget(" + budgetTokens + ")", model, sending, "the API refuses a thinking"
                    + " budget on every model from Claude 4.7 on (400 \"thinking.type.enabled\" is not supported for this"
                    + " model), while it takes adaptive thinking", "use AnthropicThinking.adaptive() (or no thinking option)"
                    + " and set how much it thinks with AnthropicEffort (for the rein command, --thinking adaptive, or leave"
                    + " --thinking out)");
        }
        if (type == Type.DISABLED && listed(ALWAYS_THINKING, model)) {
            boolean sonnet55 = listed(BETWEEN_TOOLS_MODELS, model);
            throw refused("AnthropicThinking.disabled()", model, sending, "this model always thinks, and the API refuses"
                    + " thinking off there (400 \"thinking.type.disabled\" is not supported for this model)", (sonnet55
                    ? "use AnthropicThinking.betweenTools() for no thinking before the first tool call (for the rein command,"
                    + " --thinking between_tools), or " : "use ") + "AnthropicThinking.adaptive() (or no thinking option) and"
                    + " set how much it thinks with AnthropicEffort");
        }
        // The thinking troubleshooting page: only Claude Sonnet 5.5 takes between_tools. Refused on the other models Rein
        // lists (the default among them), as a budget is; a model it does not list is left to the API.
        if (type == Type.BETWEEN_TOOLS && refusesBetweenTools(model)) {
            throw refused("AnthropicThinking.betweenTools()", model, sending, "only Claude Sonnet 5.5 takes between_tools"
                    + " thinking, and the API refuses it on other models (400)", "use AnthropicThinking.adaptive() (or no"
                    + " thinking option) and set how much it thinks with AnthropicEffort (for the rein command, --thinking"
                    + " adaptive, or leave --thinking out)");
        }
        // Claude Sonnet 5.5's "What's new": between_tools is taken at effort low, medium and high; xhigh or max is a 400.
        String effort = request.option(AnthropicEffort.class).map(AnthropicEffort::level).orElse("");
        if (type == Type.BETWEEN_TOOLS && (effort.equals("xhigh") || effort.equals("max"))) {
            throw new ReinException("between_tools thinking works at effort low, medium or high, and the API refuses it at"
                    + " effort " + effort + ": use AnthropicThinking.adaptive() (or no thinking option) at effort " + effort
                    + ", or lower the effort to low, medium or high");
        }
        // Claude Opus 5's "What's new": thinking off is taken at effort high or below; xhigh or max is a 400.
        if (type == Type.DISABLED && (effort.equals("xhigh") || effort.equals("max")) && listed(OFF_ONLY_UP_TO_HIGH, request.model())) {
            throw new ReinException("AnthropicThinking.disabled() cannot be used on " + request.model() + " at effort " + effort
                    + ": the API takes thinking off there only at effort low, medium or high (400 \"output_config.effort '"
                    + effort + "' is not supported when thinking is disabled on this model\"); lower the effort to low,"
                    + " medium or high, or use AnthropicThinking.adaptive() (or no thinking option) at effort " + effort);
        }
        Optional<RewrittenHistory> rewritten = request.option(RewrittenHistory.class);
        if ((type == Type.ENABLED || type == Type.BETWEEN_TOOLS) && rewritten.isPresent() && preservesThinking(request.model())) {
            String kind = type == Type.ENABLED ? "AnthropicThinking.budget(" + budgetTokens + ")" : "AnthropicThinking.betweenTools()";
            String settings = String.join(", ", rewritten.get().causes().stream().map(AnthropicThinking::setting).toList());
            String cli = rewritten.get().causes().contains("tool_sources") ? " (for the rein command: --thinking adaptive, or no --mcp)" : "";
            String why = " with settings that send earlier turns otherwise than the model saw them (" + settings + "): the"
                    + " model binds its thinking to the conversation before it, so from the second step the API would refuse"
                    + " the request ('The block is bound to a different conversation'), and only adaptive thinking can ask it"
                    + " to drop that thinking instead";
            if (!sending) {
                throw new ReinException(kind + " cannot be used on " + request.model() + why
                        + "; use AnthropicThinking.adaptive() (or no thinking option), or leave those settings off" + cli);
            }
            throw new ReinException(kind + " cannot be sent to " + request.model() + why + setLater(request.model())
                    + "; or use AnthropicThinking.adaptive() (or no thinking option) for the agent, or leave those settings off"
                    + cli);
        }
        // With interleaved thinking the budget is the whole turn's and may exceed max tokens (the extended thinking docs).
        if (budgetTokens != null && budgetTokens >= request.maxTokens() && !AnthropicBetas.interleavedThinking(request)) {
            throw new ReinException("thinking's budget of " + budgetTokens + " tokens must be less than the max tokens of "
                    + request.maxTokens() + " (thinking counts toward max tokens, and the API refuses a budget that leaves"
                    + " no room for the answer): raise maxTokens above " + budgetTokens
                    + " (Agent.Builder.maxTokens; an agent's default is 8192) or lower the budget (with the beta"
                    + " AnthropicBetas.of(\"interleaved-thinking-2025-05-14\") on a model that takes it, a budget may exceed max tokens)");
        }
    }

    /**
     * The refusal of {@code kind} on {@code model}: {@code why} the API refuses it and what to use {@code instead}; for a
     * request about to be sent, also that its model was set after the agent was built and how to switch the thinking too.
     */
    private static ReinException refused(String kind, String model, boolean sending, String why, String instead) {
        return new ReinException(sending ? kind + " cannot be sent to " + model + ": " + why + setLater(model) + "; or "
                + instead : kind + " cannot be used on " + model + ": " + why + "; " + instead);
    }

    /** Why a request's model was not checked when the agent was built, and how to switch the thinking with it. */
    private static String setLater(String model) {
        // An agent checks its own model when it is built: this one came later, or the request was built by hand.
        return ". An agent refuses this when it is built for such a model, so " + model + " was set on the request after"
                + " that, by a ModelInterceptor or a fallback (or the request was built by hand): where the request is"
                + " switched to " + model + ", switch its thinking too (request.withModel(\"" + model + "\")"
                + ".withOption(AnthropicThinking.adaptive()))";
    }

    /** Thinking with at most {@code budgetTokens} tokens ({@code {"type":"enabled","budget_tokens":n}}). */
    public static AnthropicThinking budget(int budgetTokens) {
        return new AnthropicThinking(Type.ENABLED, budgetTokens, null);
    }

    /** Adaptive thinking ({@code {"type":"adaptive"}}). */
    public static AnthropicThinking adaptive() {
        return new AnthropicThinking(Type.ADAPTIVE, null, null);
    }

    /**
     * No thinking ({@code {"type":"disabled"}}), for a request that should not think where an agent's would. Claude
     * Opus 5 takes it at effort {@code high} or below only (its default is high); at {@code xhigh} or {@code max} it is
     * refused when the agent is built, as it is on the models that always think (Claude Opus 5.5, Sonnet 5.5, Fable 5
     * and 5.1, Mythos 5 and 5.1), which refuse it at any effort (and before a request switched to one of them is sent).
     */
    public static AnthropicThinking disabled() {
        return new AnthropicThinking(Type.DISABLED, null, null);
    }

    /**
     * Thinking only between tool calls ({@code {"type":"between_tools"}}): on Claude Sonnet 5.5, which refuses
     * {@link #disabled()}, the way to turn off thinking before the first tool call. The API refuses it at effort
     * {@code xhigh} or {@code max}, and on any other model: on the models from Claude 4.7 on ({@link #refusesBudgets})
     * it is refused when the agent is built, and before a request switched to one of them is sent.
     */
    public static AnthropicThinking betweenTools() {
        return new AnthropicThinking(Type.BETWEEN_TOOLS, null, null);
    }

    /** The betas this thinking needs in the {@code anthropic-beta} header: {@link Display#UPDATES_BETA} for {@link Display#UPDATES}. */
    List<String> betas() {
        return display == Display.UPDATES ? List.of(Display.UPDATES_BETA) : List.of();
    }

    /**
     * The models that refuse a thinking budget ({@code "thinking.type.enabled" is not supported for this model}, HTTP 400):
     * the thinking troubleshooting docs say every model from Claude 4.7 on; they take adaptive thinking (and most of them
     * thinking off). Claude Mythos Preview, which takes both, is not one.
     */
    static final Set<String> NO_BUDGET = Set.of("claude-opus-4-7", "claude-opus-4-8", "claude-sonnet-5", "claude-opus-5",
            "claude-fable-5", "claude-mythos-5", "claude-opus-5-5", "claude-sonnet-5-5", "claude-haiku-5-5",
            "claude-fable-5-1", "claude-fable-5-2", "claude-mythos-5-1", "claude-mythos-5-2");

    /**
     * Whether the API refuses a thinking budget ({@link #budget}) on {@code model}: every model from Claude 4.7 on
     * (Claude Opus 4.7 and 4.8, Sonnet 5, Opus 5, Fable 5, Mythos 5 and the 5.x releases after them), also with a date
     * suffix ({@code -20261015}). A model not listed here is left to the API.
     *
     * @param model a model name, as a request names it
     * @return true when a budget on it would be a 400; use {@link #adaptive()} with {@link AnthropicEffort} there
     */
    public static boolean refusesBudgets(String model) {
        if (model == null) {
            throw new ReinException("AnthropicThinking.refusesBudgets(...) was given no model name (null): pass the model"
                    + " name a request names, e.g. \"claude-sonnet-4-5\"");
        }
        return listed(NO_BUDGET, model);
    }

    /**
     * Whether {@code model} refuses {@link #betweenTools()} when an agent is built: a model from Claude 4.7 on
     * ({@link #refusesBudgets}) other than Claude Sonnet 5.5, the only one that takes it (the thinking troubleshooting
     * page), also with a date suffix. A model not listed here is left to the API.
     *
     * @param model a model name, as a request names it
     * @return true when between_tools thinking on it would be a 400; use {@link #adaptive()} with {@link AnthropicEffort}
     *     there
     */
    public static boolean refusesBetweenTools(String model) {
        return refusesBudgets(model) && !listed(BETWEEN_TOOLS_MODELS, model);
    }

    /**
     * The models that always think and refuse {@link #disabled()} with a 400: Claude Opus 5.5 and Fable 5.1 (their "What's
     * new", which Mythos 5.1 shares), Fable 5 and Mythos 5 (the thinking troubleshooting table, their migration guide) and
     * Sonnet 5.5 (its "What's new": {@link #betweenTools()} instead). A model not listed here is left to the API.
     */
    static final Set<String> ALWAYS_THINKING = Set.of("claude-opus-5-5", "claude-sonnet-5-5", "claude-fable-5",
            "claude-fable-5-1", "claude-mythos-5", "claude-mythos-5-1");

    /** The models that take {@link #betweenTools()} (the thinking troubleshooting page: Claude Sonnet 5.5 only). */
    static final Set<String> BETWEEN_TOOLS_MODELS = Set.of("claude-sonnet-5-5");

    /**
     * The models that take thinking off ({@link #disabled()}) only at effort high or below: at {@code xhigh} or
     * {@code max} it is a 400 (Claude Opus 5's "What's new").
     */
    static final Set<String> OFF_ONLY_UP_TO_HIGH = Set.of("claude-opus-5");

    /** The beta of {@code thinking.block_binding} (preserved thinking's controls). */
    static final String BINDING_BETA = "thinking-binding-controls-2026-08-01";

    /**
     * The models with preserved thinking ("Preserved thinking", supported models): a thinking block sent back to
     * them is refused (400, "The block is bound to a different conversation") when the system prompt, the tools or
     * a message before it changed since it was made, unless the request asks for such blocks to be dropped.
     */
    static final Set<String> PRESERVED_THINKING = Set.of("claude-opus-5-5", "claude-sonnet-5-5",
            "claude-haiku-5-5", "claude-fable-5-1", "claude-fable-5-2", "claude-mythos-5-1", "claude-mythos-5-2");

    /**
     * Whether {@code request} asks the API to drop thinking blocks whose prefix changed
     * ({@code "block_binding": {"prefix_mismatch_behavior": "drop_block"}}, with {@link #BINDING_BETA}): when the
     * agent rewrites earlier turns ({@link RewrittenHistory}: its state or recalled memory on the latest message only,
     * old turns left out or summarised, tool results cleared, a tool list that can change), the model binds its
     * thinking, and the request sends thinking back. The docs give the field with adaptive thinking only, so a
     * request without a thinking option gets {@code adaptive} (which these models use anyway) and disabled thinking
     * gets none (a budget or between_tools is refused by {@link #check}). Decided once per request, for its
     * {@code anthropic-beta} header and its body alike.
     *
     * @param sendsThinkingBack whether a history holds a thinking block: the model's request writer answers it from
     *     what it remembers of each message ({@link RequestMapper#dropsStaleBlocks}), so a request does not read the
     *     whole history again
     */
    static boolean dropsStaleBlocks(ModelRequest request, Predicate<List<Message>> sendsThinkingBack) {
        if (request.option(RewrittenHistory.class).isEmpty() || !preservesThinking(request.model())) {
            return false;
        }
        Type type = request.option(AnthropicThinking.class).map(AnthropicThinking::type).orElse(Type.ADAPTIVE);
        return type == Type.ADAPTIVE && sendsThinkingBack.test(request.messages());
    }

    /** Whether {@code message} holds a thinking block (one a request sends back). */
    static boolean holdsThinking(Message message) {
        for (ContentBlock block : message.content()) {
            if (block instanceof ThinkingBlock || block instanceof RedactedThinkingBlock) {
                return true;
            }
        }
        return false;
    }

    /** The agent setting behind a {@link RewrittenHistory} cause, for a message that says what to change. */
    private static String setting(String cause) {
        return switch (cause) {
            case "state_in_prompt" -> "stateInPrompt other than StateInPrompt.OFF";
            case "memory_recall" -> "memoryInjection";
            case "clear_tool_results" -> "the context policy's client-side tool result clearing";
            case "compaction" -> "the context policy's client-side compaction";
            case "tool_sources" -> "toolSource (the rein command's --mcp)";
            default -> cause;
        };
    }

    private static boolean preservesThinking(String model) {
        return listed(PRESERVED_THINKING, model);
    }

    /** Whether {@code model} is one of {@code models}, or one of them with a date suffix, as PriceTable reads one. */
    private static boolean listed(Set<String> models, String model) {
        return ModelIds.listed(models, model);
    }

    /** The same thinking, returned as {@code display} says. */
    public AnthropicThinking withDisplay(Display display) {
        if (display == null) {
            throw new ReinException("withDisplay(...) was given null: pass Display.SUMMARIZED, Display.OMITTED or"
                    + " Display.UPDATES, or leave withDisplay out for the model's default");
        }
        return new AnthropicThinking(type, budgetTokens, display);
    }
}
