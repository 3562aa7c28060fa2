package dev.rein.agent;

import dev.rein.run.FinalAnswer;
import dev.rein.run.Verifier;
import dev.rein.ReinException;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.budget.Budget;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.context.ContextPolicy;
import dev.rein.guard.RequiredFact;
import dev.rein.model.Model;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelOption;
import dev.rein.model.ModelOptions;
import dev.rein.model.ServerContextEdit;
import dev.rein.provider.ModelDefaults;
import dev.rein.reflection.Reflection;
import dev.rein.retry.RetryPolicy;
import dev.rein.state.RunStore;
import dev.rein.state.Runs;
import dev.rein.stall.StallPolicy;
import dev.rein.tool.Principal;
import dev.rein.tool.Secrets;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolInterceptor;
import dev.rein.tool.ToolRegistry;
import dev.rein.tool.ToolSource;
import dev.rein.trace.RunListenerFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * An agent: a model, a system prompt, tools and limits. Immutable and thread-safe; each
 * {@link #run(String)} is an independent run with its own state and listeners.
 *
 * <pre>{@code
 * RunResult result = Agent.builder()
 *         .model(model)
 *         .systemPrompt("You are a careful assistant.")
 *         .tools(BuiltinTools.all())
 *         .budget(Budget.defaults())
 *         .build()
 *         .run("What date is 100 days from today?");
 * }</pre>
 */
public final class Agent {
    private final AgentConfig config;

    private Agent(AgentConfig config) {
        this.config = config;
    }

    public static Builder builder() {
        return new Builder();
    }

    public AgentConfig config() {
        return config;
    }

    /**
     * A copy of this agent whose runs also report to a listener from {@code factory}; this agent is
     * unchanged. Evaluation harnesses use it to record each trial's trace.
     */
    public Agent withListener(RunListenerFactory factory) {
        return config.toBuilder().listener(factory).build();
    }

    /** Runs the agent on {@code goal} to the end (or to a pause) on the calling thread's behalf. */
    public RunResult run(String goal) {
        return await(start(goal));
    }

    /**
     * Runs the agent on {@code goal} with a typed final answer: the answer must be JSON that
     * validates against the schema generated from {@code type}; read it with
     * {@link RunResult#output(Class)}. An invalid answer goes back to the model with the validation
     * errors; past {@link Builder#maxVerificationFailures} refusals the run ends
     * {@code FAILED/invalid_output}.
     */
    public RunResult run(String goal, Class<?> type) {
        return config.toBuilder().outputType(type).build().run(goal);
    }

    /**
     * Starts a run on {@code goal} whose events reach the caller as they happen: text deltas, tool
     * calls and results, approvals requested, interventions, then the result (see {@link RunStream}
     * for back-pressure and cancellation).
     */
    public RunStream stream(String goal) {
        return RunStream.start(config, goal, RunStream.DEFAULT_BUFFER);
    }

    /** Like {@link #stream(String)} with a buffer of {@code bufferEvents} for a slow consumer. */
    public RunStream stream(String goal, int bufferEvents) {
        return RunStream.start(config, goal, bufferEvents);
    }

    /** Runs the agent on {@code goal} on behalf of {@code principal} (whose scopes the executor enforces). */
    public RunResult run(String goal, Principal principal) {
        return await(start(goal, principal));
    }

    /**
     * Continues a stored run from where it stopped: after a pause for approval once every pending
     * action is decided (see {@link #runs()}), or after its process died. Works in any process that
     * builds an agent with the same tools and store.
     *
     * @throws ReinException     when the store has no such run, or it already ended
     * @throws dev.rein.approval.ApprovalException when an action still waits for a decision
     * @throws dev.rein.state.StoreConflictException when another process resumed it first
     */
    public RunResult resume(String runId) {
        return await(startResume(runId));
    }

    /** Like {@link #resume(String)}, on a virtual thread; returns a handle to await or cancel it. */
    public RunHandle startResume(String runId) {
        return launch(Resumption.claim(config, runId));
    }

    /**
     * Continues an ended run with a person's {@code text} as its next turn: the answer to a run that
     * ended {@code needs_user_input}, or a follow-up after an answer. The run keeps its history,
     * state, approvals and principal; the agent's {@link Builder#budget budget} applies to the
     * turn, {@link Builder#conversationBudget} to all turns together. The trace shows the turn
     * ({@code turn_started}).
     *
     * @throws ReinException when the store has no such run, the text is empty, or the run is not
     *                       one that answered or asked for input
     * @throws dev.rein.state.StoreConflictException when another process continued it first
     */
    public RunResult reply(String runId, String text) {
        return await(startReply(runId, text));
    }

    /** Like {@link #reply(String, String)}, on a virtual thread; returns a handle to await or cancel it. */
    public RunHandle startReply(String runId, String text) {
        return launch(Replies.claim(config, runId, text));
    }

    /** Lists, shows and decides this agent's stored runs (approve, reject, edit, cancel). */
    public Runs runs() {
        return Runs.in(config.safety().store(), config.currentTools(), config.clock());
    }

    private static RunResult await(RunHandle handle) {
        try {
            return handle.await();
        } catch (InterruptedException e) {
            handle.cancel();
            Thread.currentThread().interrupt();
            return handle.future().join();
        }
    }

    /** Starts a run on a virtual thread and returns a handle to await or cancel it. */
    public RunHandle start(String goal) {
        return start(goal, config.principal());
    }

    /** Starts a run on behalf of {@code principal}. */
    public RunHandle start(String goal, Principal principal) {
        if (goal == null || goal.isBlank()) {
            throw new ReinException("the goal is empty: say what the agent should do");
        }
        Objects.requireNonNull(principal, "principal");
        return launch(Run.start(config.runIdSupplier().get(), goal, config, principal));
    }

    private static RunHandle launch(Run run) {
        CompletableFuture<RunResult> future = new CompletableFuture<>();
        Thread thread = Thread.ofVirtual().name("rein-run-" + run.runId).unstarted(() -> future.complete(AgentLoop.runToEnd(run)));
        run.bindThread(thread);
        thread.start();
        return new RunHandle(run.runId, future, run::cancel);
    }

    /** Builder for {@link Agent}; {@link #build()} validates the configuration. */
    public static final class Builder {
        Model model;
        String modelName;
        String systemPrompt = "";
        final List<Tool> tools = new ArrayList<>();
        final List<ToolSource> toolSources = new ArrayList<>();
        Budget budget = Budget.defaults();
        PriceTable prices;
        PriceTable extraPrices = PriceTable.empty();
        int maxTokens = 8192;
        ModelOptions modelOptions = ModelOptions.NONE;
        List<ServerContextEdit> serverContextEdits = List.of();
        final List<Verifier> verifiers = new ArrayList<>();
        int maxVerificationFailures = 2;
        boolean finishTool;
        Duration toolTimeout = dev.rein.tool.ToolExecutor.DEFAULT_TIMEOUT;
        final List<ToolInterceptor> interceptors = new ArrayList<>();
        final List<ModelInterceptor> modelInterceptors = new ArrayList<>();
        final List<RunListenerFactory> listeners = new ArrayList<>();
        RetryPolicy retryPolicy = RetryPolicy.DEFAULT;
        Clock clock = Clock.systemUTC();
        Principal principal = Principal.ANONYMOUS;
        Secrets secrets = Secrets.NONE;
        Double temperature;
        StallPolicy stallPolicy = StallPolicy.defaults();
        ContextPolicy contextPolicy = ContextPolicy.defaults();
        List<Reflection> reflection = List.of();
        final List<RequiredFact> requiredFacts = new ArrayList<>();
        SafetyConfig.Builder safety = SafetyConfig.builder();
        Budget conversationBudget;
        dev.rein.context.StateInPrompt stateInPrompt = dev.rein.context.StateInPrompt.OFF;
        dev.rein.memory.MemoryInjection memoryInjection;
        java.util.function.Supplier<String> runIds = () -> "run_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);

        private Builder() {}

        /** An independent copy of this builder (what {@link AgentConfig#toBuilder()} returns). */
        Builder copy() {
            return AgentValidation.copy(this);
        }

        /** The model to call (required). */
        public Builder model(Model model) {
            this.model = Objects.requireNonNull(model, "model");
            return this;
        }

        /**
         * The model name sent with each request and used for pricing; by default the model's own
         * default ({@link ModelDefaults}), required for a model without one.
         */
        public Builder modelName(String modelName) {
            this.modelName = modelName;
            return this;
        }

        public Builder systemPrompt(String systemPrompt) {
            this.systemPrompt = systemPrompt == null ? "" : systemPrompt;
            return this;
        }

        public Builder tools(Tool... tools) {
            return tools(List.of(tools));
        }

        public Builder tools(Collection<Tool> tools) {
            this.tools.addAll(tools);
            return this;
        }

        public Builder tools(ToolRegistry registry) {
            return tools(registry.tools());
        }

        /**
         * Adds tools that may change while the agent exists (an MCP server's list, say). Before each
         * model request a run offers the source's current tools, and the executor gates calls with
         * them; a call of a tool the source dropped gets an unknown-tool error result. A name that
         * clashes with another tool fails {@link #build()}; a clash or an invalid schema appearing
         * later leaves that tool out and is recorded as an audit event {@code tools_changed}.
         */
        public Builder toolSource(ToolSource source) {
            this.toolSources.add(Objects.requireNonNull(source, "source"));
            return this;
        }

        public Builder budget(Budget budget) {
            this.budget = Objects.requireNonNull(budget, "budget");
            return this;
        }

        /**
         * Prices for the money budget, replacing the default: the tables of every installed
         * {@link dev.rein.provider.ModelProvider}, plus the model's own ({@link ModelDefaults}).
         */
        public Builder prices(PriceTable prices) {
            this.prices = Objects.requireNonNull(prices, "prices");
            return this;
        }

        /** Adds (or replaces) the price of one model on top of the table in use. */
        public Builder price(String model, ModelPrice price) {
            this.extraPrices = extraPrices.with(Objects.requireNonNull(model, "model"), Objects.requireNonNull(price, "price"));
            return this;
        }

        /** The max_tokens of each model call (default 8192). */
        public Builder maxTokens(int maxTokens) {
            this.maxTokens = maxTokens;
            return this;
        }

        /**
         * Adds a provider option sent with every model request (for example the provider's prompt
         * caching settings), replacing one of the same type. Providers ignore options they do not know.
         */
        public Builder modelOption(ModelOption option) {
            this.modelOptions = modelOptions.with(Objects.requireNonNull(option, "option"));
            return this;
        }

        /**
         * Requires the final answer to be JSON valid against the schema generated from {@code type}
         * (victools, draft 2020-12); see {@link Agent#run(String, Class)}.
         */
        public Builder outputType(Class<?> type) {
            return outputSchema(dev.rein.model.OutputSchema.of(type));
        }

        /**
         * Requires the final answer to be JSON valid against {@code schema}. The schema also travels
         * as a neutral model option that providers with a structured-output feature may map.
         */
        public Builder outputSchema(dev.rein.model.OutputSchema schema) {
            return modelOption(schema);
        }

        /** Context management applied by the provider's server. */
        public Builder serverContextEdits(List<ServerContextEdit> edits) {
            this.serverContextEdits = List.copyOf(edits);
            return this;
        }

        /** Adds a verifier that must pass before a final answer is accepted. */
        public Builder verifier(Verifier verifier) {
            this.verifiers.add(Objects.requireNonNull(verifier, "verifier"));
            return this;
        }

        /** How many refused answers are tolerated before the run fails (default 2). */
        public Builder maxVerificationFailures(int max) {
            this.maxVerificationFailures = max;
            return this;
        }

        /**
         * Stall detection: which detectors watch the run, how often they warn before stopping it
         * (default {@link StallPolicy#defaults()}: all six detectors; {@link StallPolicy#disabled()}
         * for none).
         */
        public Builder stallPolicy(StallPolicy policy) {
            this.stallPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * Context management: tool output truncation, clearing of old tool results and compaction,
         * client- or server-side (default {@link ContextPolicy#defaults()}: truncation at 4,000
         * characters only).
         */
        public Builder contextPolicy(ContextPolicy policy) {
            this.contextPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * Reflection strategies (default none, i.e. strategy A). Strategies combine, e.g. a
         * checkpoint every 5 steps and a critic; at most one critic.
         */
        public Builder reflection(Reflection... strategies) {
            this.reflection = List.of(strategies);
            return this;
        }

        /**
         * Adds a fact a final answer must establish (the premature-finish guard): an answer without
         * it is refused and the model told what is missing; refusals count toward
         * {@link #maxVerificationFailures}.
         */
        public Builder requiredFact(RequiredFact fact) {
            this.requiredFacts.add(Objects.requireNonNull(fact, "fact"));
            return this;
        }

        /** Adds a required fact given by name and a test over the proposed answer. */
        public Builder requiredFact(String name, java.util.function.Predicate<FinalAnswer> present) {
            return requiredFact(RequiredFact.of(name, present));
        }

        /** Offers the model the {@code finish} tool (off by default). */
        public Builder finishTool(boolean enabled) {
            this.finishTool = enabled;
            return this;
        }

        /** The timeout of a tool call unless the tool sets its own (default 30 s). */
        public Builder toolTimeout(Duration timeout) {
            this.toolTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** Adds a stage to the tool executor's pipeline. */
        public Builder toolInterceptor(ToolInterceptor interceptor) {
            this.interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
            return this;
        }

        /**
         * Adds a stage to the model-call chain, after tracing and before pricing, retry and the
         * deadline (see {@link ModelInterceptor} for the order and the contract): a fallback model,
         * a response cache, a guard on requests. Stages run in the order added.
         */
        public Builder modelInterceptor(ModelInterceptor interceptor) {
            this.modelInterceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
            return this;
        }

        /** Adds a listener factory; it creates one listener per run. */
        public Builder listener(RunListenerFactory factory) {
            this.listeners.add(Objects.requireNonNull(factory, "factory"));
            return this;
        }

        /** Retries of failed model calls (default: 4 retries, exponential backoff, within the deadline). */
        public Builder retryPolicy(RetryPolicy retryPolicy) {
            this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** On whose behalf runs act (default anonymous, no scopes). */
        public Builder principal(Principal principal) {
            this.principal = Objects.requireNonNull(principal, "principal");
            return this;
        }

        /** Secrets handed to tool handlers; never shown to the model. */
        public Builder secrets(Secrets secrets) {
            this.secrets = Objects.requireNonNull(secrets, "secrets");
            return this;
        }

        /** Sampling temperature; not sent unless set. */
        public Builder temperature(Double temperature) {
            this.temperature = temperature;
            return this;
        }

        /** Approvals, run store, scopes, tool retries, provenance and output wrapping (see {@link SafetyConfig}). */
        public Builder safety(SafetyConfig safety) {
            this.safety = safety.toBuilder();
            return this;
        }

        /** Which calls wait for a person (default: WRITE and IRREVERSIBLE tools). */
        public Builder approvalPolicy(ApprovalPolicy policy) {
            this.safety.approvalPolicy(policy);
            return this;
        }

        /** Where runs are saved after every step (default: in memory, this process only). */
        public Builder store(RunStore store) {
            this.safety.store(store);
            return this;
        }

        /**
         * A budget for all turns of a conversation together (see {@link Agent#reply}); by default
         * none, so only the per-turn {@link #budget} applies.
         */
        public Builder conversationBudget(Budget budget) {
            this.conversationBudget = budget;
            return this;
        }

        /**
         * Whether each request carries the run's working state as a {@code <rein_state>} block, and
         * with how much history (default {@link dev.rein.context.StateInPrompt#OFF}).
         */
        public Builder stateInPrompt(dev.rein.context.StateInPrompt mode) {
            this.stateInPrompt = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /**
         * Recalls long-term memory into each request of a turn (see {@link dev.rein.memory.MemoryInjection});
         * default none: memory is read only through the {@code recall} tool.
         */
        public Builder memoryInjection(dev.rein.memory.MemoryInjection injection) {
            this.memoryInjection = injection;
            return this;
        }

        /** How run ids are made (default: random). */
        public Builder runIds(java.util.function.Supplier<String> supplier) {
            this.runIds = Objects.requireNonNull(supplier, "supplier");
            return this;
        }

        /**
         * Validates the configuration and builds the agent.
         *
         * @throws ReinException when a setting cannot work, saying which and what to do
         */
        public Agent build() {
            return new Agent(AgentConfig.of(AgentValidation.validate(this)));
        }
    }
}
