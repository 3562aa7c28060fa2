package dev.rein.agent;

import dev.rein.ReinException;
import dev.rein.ConfigurationException;
import dev.rein.budget.PriceTable;
import dev.rein.context.ContextPolicy;
import dev.rein.context.Side;
import dev.rein.context.StateInPrompt;
import dev.rein.guard.RequiredFacts;
import dev.rein.internal.provider.InstalledProviders;
import dev.rein.model.ModelOption;
import dev.rein.model.ModelOptions;
import dev.rein.model.ModelRequest;
import dev.rein.model.RewrittenHistory;
import dev.rein.model.ServerContextEdit;
import dev.rein.model.ServerContextEdits;
import dev.rein.provider.ModelDefaults;
import dev.rein.provider.OptionedModel;
import dev.rein.reflection.Reflection;
import dev.rein.run.Verifier;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolRegistry;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** What {@link Agent.Builder#build()} checks and derives, and the builder copy behind {@link AgentConfig#toBuilder()}. */
final class AgentValidation {
    private static final String TOOL_TIMEOUT_TO_GIVE = ": give the longest one tool call may take, e.g. Duration.ofSeconds(30)"
            + " (the default)";
    private AgentValidation() {}

    static AgentConfig.Validated validate(Agent.Builder b) {
        if (b.model == null) {
            throw new ReinException("no model set: call Agent.builder().model(...)");
        }
        String modelName = b.modelName;
        if (modelName == null && b.model instanceof ModelDefaults defaults) {
            modelName = defaults.defaultModelName();
        }
        if (modelName == null) {
            throw new ReinException("no model name set: call Agent.builder().modelName(...) (the model has no default)");
        }
        if (modelName.isBlank()) {
            throw new ReinException("the model name is empty: give the name its provider knows the model by, as in modelName(...)");
        }
        PriceTable prices = pricesInUse(b);
        if (b.maxTokens < 1) {
            throw new ReinException("maxTokens must be positive, was " + b.maxTokens + ": give the most tokens the model may"
                    + " write in one response, e.g. 8192 (the default)");
        }
        // as Tool.Builder.timeout refuses it: a zero limit would answer every call "the run's deadline has passed"
        if (b.toolTimeout.isZero() || b.toolTimeout.isNegative()) {
            throw new ReinException("toolTimeout must be positive, was " + b.toolTimeout + TOOL_TIMEOUT_TO_GIVE);
        }
        // the timeout stage and its message count milliseconds: less would time out every call "at 0 s"
        if (b.toolTimeout.compareTo(Duration.ofMillis(1)) < 0) {
            throw new ReinException("toolTimeout must be at least 1 ms, was " + b.toolTimeout + TOOL_TIMEOUT_TO_GIVE);
        }
        // the upper bound is the provider's (1 on Anthropic, 2 on OpenAI); below 0 or not a number, no provider takes it
        if (b.temperature != null && !(b.temperature >= 0 && b.temperature < Double.POSITIVE_INFINITY)) {
            throw new ReinException("temperature must be a number of at least 0, was " + b.temperature
                    + "; leave it unset (null) for the provider's default");
        }
        if (b.maxVerificationFailures < 0) {
            throw new ReinException("maxVerificationFailures cannot be negative, was " + b.maxVerificationFailures
                    + ": give after how many refused answers the run ends, e.g. 2 (the default; 0 and 1 end it at the first)");
        }
        List<Tool> all = new ArrayList<>(b.tools);
        if (b.finishTool) {
            all.add(FinishTool.tool());
        }
        ToolRegistry registry = ToolRegistry.of(all);
        registry.requireValidSchemas();
        // the sources' tools as they are now: a clash or a bad schema is the builder's error, not a silent omission
        List<Tool> withSources = new ArrayList<>(all);
        b.toolSources.forEach(source -> withSources.addAll(source.tools()));
        ToolRegistry.of(withSources).requireValidSchemas();
        SafetyConfig safety = b.safety.build();
        if (b.toolSources.isEmpty()) { // a source's list may change later, so only a fixed set of tools can be checked
            requireKnownCaps(b.budget.toolCallLimits().keySet(), all, "budget");
            if (b.conversationBudget != null) {
                requireKnownCaps(b.conversationBudget.toolCallLimits().keySet(), all, "conversationBudget");
            }
            requireKnownExclusions(b.contextPolicy.clearing(), all);
            requireKnownApprovalTools(safety.approvalPolicy().namedTools(), all);
            requireKnownGuardedTools(b.interceptors, all);
        }
        requirePrices(b, prices, modelName, "model");
        GuardConfig guards = guards(b, prices);
        List<Verifier> allVerifiers = new ArrayList<>(b.verifiers);
        if (!b.requiredFacts.isEmpty()) {
            allVerifiers.add(new RequiredFacts(b.requiredFacts));
        }
        List<ServerContextEdit> edits = new ArrayList<>(b.serverContextEdits);
        edits.addAll(b.contextPolicy.serverEdits());
        ModelOptions requestOptions = requestOptions(b, edits, guards.context());
        checkOptions(b, modelName, requestOptions, withSources);
        return new AgentConfig.Validated(copy(b), modelName, registry, prices, List.copyOf(edits), List.copyOf(allVerifiers),
                guards, safety, requestOptions);
    }

    /**
     * The options of each of the agent's requests: its own (with those of an {@link OptionedModel}, which replace ones of
     * their type), plus the server-side context edits if any, plus
     * {@link RewrittenHistory} when a setting makes Rein send earlier turns otherwise than the model saw them.
     */
    private static ModelOptions requestOptions(Agent.Builder b, List<ServerContextEdit> edits, ContextPolicy context) {
        ModelOptions own = b.modelOptions;
        // an OptionedModel's options are the agent's own, as modelOption's, so its requests (traced, stored, checked
        // against max_tokens here) carry what is sent, not only the wire below the tracing stage
        if (b.model instanceof OptionedModel optioned) {
            for (ModelOption option : optioned.options()) {
                own = own.with(option);
            }
        }
        ModelOptions options = edits.isEmpty() ? own : own.with(new ServerContextEdits(edits));
        List<String> rewrites = historyRewrites(b, context);
        return rewrites.isEmpty() ? options : options.with(new RewrittenHistory(rewrites));
    }

    /** What makes the agent's requests differ in their earlier turns from what the model saw (see RewrittenHistory). */
    private static List<String> historyRewrites(Agent.Builder b, ContextPolicy context) {
        List<String> causes = new ArrayList<>();
        if (!(b.stateInPrompt instanceof StateInPrompt.Off)) {
            causes.add("state_in_prompt");
        }
        if (b.memoryInjection != null) {
            causes.add("memory_recall");
        }
        if (context.clearing() != null && context.clearing().side() == Side.CLIENT) {
            causes.add("clear_tool_results");
        }
        if (context.compaction() != null && context.compaction().side() == Side.CLIENT) {
            causes.add("compaction");
        }
        if (!b.toolSources.isEmpty()) {
            causes.add("tool_sources");
        }
        return causes;
    }

    /**
     * Each model option checked against the settings every request of the agent carries, its request options
     * included (see {@link ModelOption#check}), so a combination the provider refuses fails here, not at a call.
     */
    private static void checkOptions(Agent.Builder b, String modelName, ModelOptions options, List<Tool> tools) {
        ModelRequest settings = ModelRequest.builder(modelName).maxTokens(b.maxTokens).options(options)
                .temperature(b.temperature).tools(tools.stream().map(Tool::definition).toList()).build();
        options.check(settings);
    }

    /** A cap on a tool the agent does not have would never bind: most likely a misspelled name. */
    private static void requireKnownCaps(java.util.Set<String> capped, List<Tool> tools, String where) {
        List<String> names = tools.stream().map(Tool::name).toList();
        for (String tool : capped) {
            if (!names.contains(tool)) {
                throw new ReinException("the " + where + "'s toolCallLimit names '" + tool + "', which is not a tool of this agent,"
                        + " so the cap would never apply; its tools are: " + (names.isEmpty() ? "(none)" : String.join(", ", names)));
            }
        }
    }

    /**
     * A tool named by the approval policy ({@code ApprovalPolicy.tools}) that the agent does not have
     * guards nothing, and the tool meant runs without approval: most likely a misspelled name.
     */
    private static void requireKnownApprovalTools(java.util.Set<String> named, List<Tool> tools) {
        List<String> names = tools.stream().map(Tool::name).toList();
        for (String tool : named) {
            if (!names.contains(tool)) {
                throw new ReinException("the approval policy names '" + tool + "', which is not a tool of this agent, so no call"
                        + " would wait for approval under that name; its tools are: "
                        + (names.isEmpty() ? "(none)" : String.join(", ", names)));
            }
        }
    }

    /** A domain allowlist guard on a tool the agent does not have checks no URL: most likely a misspelled name. */
    private static void requireKnownGuardedTools(List<dev.rein.tool.ToolInterceptor> interceptors, List<Tool> tools) {
        List<String> names = tools.stream().map(Tool::name).toList();
        for (dev.rein.tool.ToolInterceptor interceptor : interceptors) {
            if (interceptor instanceof dev.rein.security.DomainAllowlist.Guard guard && !names.contains(guard.toolName())) {
                throw new ReinException("the domain allowlist guard names tool '" + guard.toolName() + "', which is not a tool of"
                        + " this agent, so no URL would be checked before a call; its tools are: "
                        + (names.isEmpty() ? "(none)" : String.join(", ", names)));
            }
        }
    }

    /**
     * A tool kept from client-side clearing that the agent does not have would protect nothing: most
     * likely a misspelled name. Not checked for server-side clearing, where a name may be one of the
     * provider's own server tools, which are no tools of the agent.
     */
    private static void requireKnownExclusions(dev.rein.context.ClearToolResults clearing, List<Tool> tools) {
        if (clearing == null || clearing.side() != dev.rein.context.Side.CLIENT) {
            return;
        }
        List<String> names = tools.stream().map(Tool::name).toList();
        for (String tool : clearing.excludeTools()) {
            if (!names.contains(tool)) {
                throw new ReinException("the context policy's ClearToolResults.excluding names '" + tool + "', which is not a tool"
                        + " of this agent, so its results would not be protected; its tools are: "
                        + (names.isEmpty() ? "(none)" : String.join(", ", names)));
            }
        }
    }

    /**
     * Refuses a money limit, of the run budget or the conversation budget, that cannot be enforced
     * because {@code model} has no price: its calls would count as free and the limit would never
     * trigger. {@code whose} names the model in the message ("model", "the critic's model").
     */
    private static void requirePrices(Agent.Builder b, PriceTable prices, String model, String whose) {
        requirePrice(prices, model, whose, b.budget.maxCostUsd(), "the USD %s budget", "remove the money budget");
        // a conversation's money limit on an unpriced model would count every turn as free and never stop it
        requirePrice(prices, model, whose, b.conversationBudget == null ? null : b.conversationBudget.maxCostUsd(),
                "the conversation budget's USD %s limit", "remove the money limit from conversationBudget(...)");
    }

    private static void requirePrice(PriceTable prices, String model, String whose, BigDecimal limit, String what,
                                     String orElse) {
        if (limit != null && prices.find(model).isEmpty()) {
            throw new ConfigurationException("no price is known for " + whose + " '" + model + "', so "
                    + what.formatted(limit.toPlainString()) + " cannot be enforced. Add it with price(\"" + model
                    + "\", ModelPrice.of(input, cacheRead, output)) or " + orElse + ".");
        }
    }

    /** The prices set, else every installed provider's table plus the model's own; then the single prices added. */
    private static PriceTable pricesInUse(Agent.Builder b) {
        if (b.prices != null) {
            return b.prices.withAll(b.extraPrices);
        }
        PriceTable base = InstalledProviders.prices();
        if (b.model instanceof ModelDefaults defaults) {
            base = base.withAll(defaults.prices());
        }
        return base.withAll(b.extraPrices);
    }

    private static GuardConfig guards(Agent.Builder b, PriceTable prices) {
        List<Reflection.Critique> critics = b.reflection.stream()
                .filter(Reflection.Critique.class::isInstance).map(Reflection.Critique.class::cast).toList();
        if (critics.size() > 1) {
            throw new ReinException("at most one critic per agent; " + critics.size() + " were given");
        }
        for (Reflection.Critique critic : critics) {
            if (critic.modelName() != null) {
                requirePrices(b, prices, critic.modelName(), "the critic's model");
            }
        }
        for (ServerContextEdit own : b.contextPolicy.serverEdits()) {
            if (b.serverContextEdits.stream().anyMatch(e -> e.getClass() == own.getClass())) {
                throw new ReinException("server-side " + own.getClass().getSimpleName() + " is set twice: by"
                        + " serverContextEdits(...) and by the context policy. Set it in one place (the context policy).");
            }
        }
        return new GuardConfig(b.stallPolicy, b.contextPolicy, b.reflection);
    }

    /** An independent copy of {@code b}. */
    static Agent.Builder copy(Agent.Builder b) {
        Agent.Builder c = Agent.builder();
        c.model = b.model;
        c.modelName = b.modelName;
        c.systemPrompt = b.systemPrompt;
        c.tools.addAll(b.tools);
        c.toolSources.addAll(b.toolSources);
        c.budget = b.budget;
        c.prices = b.prices;
        c.extraPrices = b.extraPrices;
        c.maxTokens = b.maxTokens;
        c.modelOptions = b.modelOptions;
        c.serverContextEdits = b.serverContextEdits;
        c.verifiers.addAll(b.verifiers);
        c.maxVerificationFailures = b.maxVerificationFailures;
        c.finishTool = b.finishTool;
        c.capOutputToMoneyLeft = b.capOutputToMoneyLeft;
        c.toolTimeout = b.toolTimeout;
        c.interceptors.addAll(b.interceptors);
        c.modelInterceptors.addAll(b.modelInterceptors);
        c.listeners.addAll(b.listeners);
        c.retryPolicy = b.retryPolicy;
        c.clock = b.clock;
        c.principal = b.principal;
        c.secrets = b.secrets;
        c.temperature = b.temperature;
        c.stallPolicy = b.stallPolicy;
        c.contextPolicy = b.contextPolicy;
        c.reflection = b.reflection;
        c.requiredFacts.addAll(b.requiredFacts);
        c.safety = b.safety.build().toBuilder();
        c.runIds = b.runIds;
        c.conversationBudget = b.conversationBudget;
        c.stateInPrompt = b.stateInPrompt;
        c.memoryInjection = b.memoryInjection;
        return c;
    }
}
