package dev.rein.agent;

import dev.rein.ReinException;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.budget.Budget;
import dev.rein.budget.PriceTable;
import dev.rein.context.ContextPolicy;
import dev.rein.guard.RequiredFact;
import dev.rein.model.Model;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelOptions;
import dev.rein.model.ServerContextEdit;
import dev.rein.reflection.Reflection;
import dev.rein.retry.RetryPolicy;
import dev.rein.run.FinalAnswer;
import dev.rein.run.Verifier;
import dev.rein.state.RunStore;
import dev.rein.stall.StallPolicy;
import dev.rein.tool.Principal;
import dev.rein.tool.Secrets;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolInterceptor;
import dev.rein.tool.ToolSource;
import dev.rein.trace.RunListenerFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The settings of {@link Agent.Builder}, and the setters of the guards (verifiers, stall and
 * context policies, reflection, the finish tool), safety (approvals, store, secrets, principal)
 * and the runtime (interceptors, listeners, retries, clock, run ids). Only {@code Agent.Builder}
 * extends it; {@link AgentValidation} reads the fields.
 */
abstract sealed class BuilderSettings permits Agent.Builder {
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
    boolean capOutputToMoneyLeft = true;
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
    /**
     * What {@link #store} and {@link #approvalPolicy} were given since the last {@link #safety}, which a later
     * {@code safety(...)} would replace (null: nothing given). Not copied into a copy of the builder.
     */
    private RunStore givenStore;
    private ApprovalPolicy givenApprovalPolicy;
    Budget conversationBudget;
    dev.rein.context.StateInPrompt stateInPrompt = dev.rein.context.StateInPrompt.OFF;
    dev.rein.memory.MemoryInjection memoryInjection;
    java.util.function.Supplier<String> runIds = () -> "run_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);

    BuilderSettings() {}

    private Agent.Builder self() {
        return (Agent.Builder) this;
    }

    /**
     * A setter's argument; null is refused naming the setter, since a null here is a mistake (an
     * unset field, a failed lookup), never a way to ask for the default.
     *
     * @param instead what to pass, said after the setter's name
     * @throws ReinException when {@code value} is null
     */
    static <T> T given(T value, String setter, String instead) {
        if (value == null) {
            throw new ReinException(setter + "(...) was given null: " + instead);
        }
        return value;
    }

    /** Adds a verifier that must pass before a final answer is accepted. */
    public Agent.Builder verifier(Verifier verifier) {
        this.verifiers.add(given(verifier, "verifier", "pass the Verifier to consult before an answer is accepted"));
        return self();
    }

    /**
     * After how many refusals of a proposed answer (by the verifiers, required facts, the critic,
     * the output schema, or the finish tool's schema refusing a finish call's arguments) the run
     * ends {@code FAILED} (default 2: the first refusal goes back to the
     * model, the second ends the run; 0 and 1 end it at the first).
     */
    public Agent.Builder maxVerificationFailures(int max) {
        this.maxVerificationFailures = max;
        return self();
    }

    /**
     * Stall detection: which detectors watch the run, how often they warn before stopping it
     * (default {@link StallPolicy#defaults()}: all six detectors; {@link StallPolicy#disabled()}
     * for none).
     */
    public Agent.Builder stallPolicy(StallPolicy policy) {
        this.stallPolicy = given(policy, "stallPolicy", "pass a StallPolicy (StallPolicy.disabled() for no stall detection)");
        return self();
    }

    /**
     * Context management: tool output truncation, clearing of old tool results and compaction,
     * client- or server-side (default {@link ContextPolicy#defaults()}: truncation at 4,000
     * characters only).
     */
    public Agent.Builder contextPolicy(ContextPolicy policy) {
        this.contextPolicy = given(policy, "contextPolicy", "pass a ContextPolicy (ContextPolicy.defaults() for the default)");
        return self();
    }

    /**
     * Reflection strategies (default none, i.e. strategy A). Strategies combine, e.g. a
     * checkpoint every 5 steps and a critic; at most one critic.
     */
    public Agent.Builder reflection(Reflection... strategies) {
        given(strategies, "reflection", "pass the strategies, or none for no reflection");
        for (Reflection strategy : strategies) {
            given(strategy, "reflection", "pass only strategies made by Reflection's factory methods");
        }
        this.reflection = List.of(strategies);
        return self();
    }

    /**
     * Adds a fact a final answer must establish (the premature-finish guard): an answer without
     * it is refused and the model told what is missing; refusals count toward
     * {@link #maxVerificationFailures}.
     */
    public Agent.Builder requiredFact(RequiredFact fact) {
        this.requiredFacts.add(given(fact, "requiredFact", "pass the RequiredFact an answer must establish"));
        return self();
    }

    /** Adds a required fact given by name and a test over the proposed answer. */
    public Agent.Builder requiredFact(String name, java.util.function.Predicate<FinalAnswer> present) {
        return requiredFact(RequiredFact.of(name, present));
    }

    /** Offers the model the {@code finish} tool (off by default). */
    public Agent.Builder finishTool(boolean enabled) {
        this.finishTool = enabled;
        return self();
    }

    /**
     * Whether a money limit caps each model call's output (default on): the call's {@code max_tokens} is lowered to
     * the output tokens the money still left (the run's limit, or the conversation's) buys at the model's highest
     * output rate, with a {@code max_tokens_lowered} intervention saying so, so that a call spends past the limit at
     * most its input. Off, every call keeps the agent's {@code max_tokens} and the limit is checked after each call,
     * so the last call may write a whole {@code max_tokens} past it (what Rein did before the cap; a replay of a trace
     * recorded then, which carries no {@code model_price}, turns it off to reproduce the run). An output token limit
     * lowers {@code max_tokens} either way.
     */
    public Agent.Builder capOutputToMoneyLeft(boolean enabled) {
        this.capOutputToMoneyLeft = enabled;
        return self();
    }

    /** The timeout of a tool call unless the tool sets its own (default 30 s); must be positive. */
    public Agent.Builder toolTimeout(Duration timeout) {
        this.toolTimeout = given(timeout, "toolTimeout", "pass a positive Duration (the default is 30 s)");
        return self();
    }

    /** Adds a stage to the tool executor's pipeline. */
    public Agent.Builder toolInterceptor(ToolInterceptor interceptor) {
        this.interceptors.add(given(interceptor, "toolInterceptor", "pass the ToolInterceptor to add"));
        return self();
    }

    /**
     * Adds a stage to the model-call chain, after tracing and before pricing, retry and the
     * deadline (see {@link ModelInterceptor} for the order and the contract): a fallback model,
     * a response cache, a guard on requests. Stages run in the order added.
     */
    public Agent.Builder modelInterceptor(ModelInterceptor interceptor) {
        this.modelInterceptors.add(given(interceptor, "modelInterceptor", "pass the ModelInterceptor to add"));
        return self();
    }

    /** Adds a listener factory; it creates one listener per run. */
    public Agent.Builder listener(RunListenerFactory factory) {
        this.listeners.add(given(factory, "listener", "pass the RunListenerFactory to add"));
        return self();
    }

    /** Retries of failed model calls (default: 4 retries, exponential backoff, within the deadline). */
    public Agent.Builder retryPolicy(RetryPolicy retryPolicy) {
        this.retryPolicy = given(retryPolicy, "retryPolicy", "pass a RetryPolicy (RetryPolicy.NONE for no retries)");
        return self();
    }

    public Agent.Builder clock(Clock clock) {
        this.clock = given(clock, "clock", "pass a Clock (Clock.systemUTC() is the default)");
        return self();
    }

    /** On whose behalf runs act (default anonymous, no scopes). */
    public Agent.Builder principal(Principal principal) {
        this.principal = given(principal, "principal", "pass a Principal (Principal.ANONYMOUS is the default)");
        return self();
    }

    /** Secrets handed to tool handlers; never shown to the model. */
    public Agent.Builder secrets(Secrets secrets) {
        this.secrets = given(secrets, "secrets", "pass Secrets (Secrets.NONE for none)");
        return self();
    }

    /**
     * Sampling temperature; not sent unless set. It must be a number of at least 0 (the upper bound
     * is the provider's), else {@link Agent.Builder#build()} fails.
     */
    public Agent.Builder temperature(Double temperature) {
        this.temperature = temperature;
        return self();
    }

    /**
     * Approvals, run store, scopes, tool retries, provenance and output wrapping (see {@link SafetyConfig}). It
     * replaces all of them; a {@link #store} or {@link #approvalPolicy} given before it that the {@code SafetyConfig}
     * does not carry too is refused rather than dropped: call it first, or set those on the {@code SafetyConfig}.
     *
     * @throws ReinException when it would replace a store or approval policy given to this builder before it
     */
    public Agent.Builder safety(SafetyConfig safety) {
        given(safety, "safety", "pass a SafetyConfig (SafetyConfig.builder().build() for the defaults)");
        if (givenStore != null && safety.store() != givenStore) {
            throw replaced("store", "a store given to store(...)", "SafetyConfig.builder().store(...)");
        }
        if (givenApprovalPolicy != null && !safety.approvalPolicy().equals(givenApprovalPolicy)) {
            throw replaced("approvalPolicy", "an approval policy given to approvalPolicy(...)", "SafetyConfig.builder().approvalPolicy(...)");
        }
        this.safety = safety.toBuilder();
        givenStore = null;
        givenApprovalPolicy = null;
        return self();
    }

    private static ReinException replaced(String setting, String what, String instead) {
        return new ReinException("Agent.Builder.safety(...) would replace " + what + " before it with the SafetyConfig's"
                + " own " + setting + ", and the earlier one would be lost: call safety(...) first and " + setting
                + "(...) after it, or set it on the SafetyConfig (" + instead + ")");
    }

    /**
     * The store a variant ({@link AgentConfig#toBuilder()}) keeps from its agent: not given by the application, so a
     * later {@code safety(...)} replaces it with the SafetyConfig's, as it replaces all of them, rather than being refused.
     */
    Agent.Builder inheritedStore(RunStore store) {
        this.safety.store(store);
        return self();
    }

    /** Which calls wait for a person (default: WRITE and IRREVERSIBLE tools). */
    public Agent.Builder approvalPolicy(ApprovalPolicy policy) {
        this.safety.approvalPolicy(given(policy, "approvalPolicy", "pass an ApprovalPolicy (ApprovalPolicy.NEVER for no approvals)"));
        givenApprovalPolicy = policy;
        return self();
    }

    /** Where runs are saved after every step (default: in memory, this process only). */
    public Agent.Builder store(RunStore store) {
        this.safety.store(given(store, "store", "pass a RunStore (new InMemoryRunStore() is the default)"));
        givenStore = store;
        return self();
    }

    /**
     * A budget for all turns of a conversation together (see {@link Agent#reply}); by default
     * none, so only the per-turn {@link Agent.Builder#budget} applies. Null removes it.
     *
     * <p>As with the per-turn budget, a money limit ({@link Budget#maxCostUsd()}) needs a price for
     * the model (and for a critic's model): {@link Agent.Builder#build()} fails when none is known,
     * rather than count every call as free. Add one with {@link Agent.Builder#price} or set
     * {@code maxCostUsd(null)} on this budget.
     *
     * <p>Per-tool caps ({@link Budget.Builder#toolCallLimit}) count the calls of every turn, in this
     * budget as in the per-turn one; where both cap a tool, the lower cap applies.
     */
    public Agent.Builder conversationBudget(Budget budget) {
        this.conversationBudget = budget;
        return self();
    }

    /**
     * Whether each request carries the run's working state as a {@code <rein_state>} block, and
     * with how much history (default {@link dev.rein.context.StateInPrompt#OFF}).
     */
    public Agent.Builder stateInPrompt(dev.rein.context.StateInPrompt mode) {
        this.stateInPrompt = given(mode, "stateInPrompt", "pass a StateInPrompt (StateInPrompt.OFF is the default)");
        return self();
    }

    /**
     * Recalls long-term memory into each request of a turn (see {@link dev.rein.memory.MemoryInjection});
     * default none: memory is read only through the {@code recall} tool.
     */
    public Agent.Builder memoryInjection(dev.rein.memory.MemoryInjection injection) {
        this.memoryInjection = injection;
        return self();
    }

    /**
     * How run ids are made (default: random). Each id must be new, not blank, of whole characters (no half
     * of a surrogate pair) and without control characters (a line break, an escape): a run whose id is
     * not is refused with a {@link dev.rein.ReinException} before it starts.
     */
    public Agent.Builder runIds(java.util.function.Supplier<String> supplier) {
        this.runIds = given(supplier, "runIds", "pass a supplier of run ids");
        return self();
    }
}
