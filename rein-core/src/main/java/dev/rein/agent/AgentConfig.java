package dev.rein.agent;

import dev.rein.run.Verifier;
import dev.rein.budget.Budget;
import dev.rein.budget.PriceTable;
import dev.rein.context.StateInPrompt;
import dev.rein.model.Model;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelOptions;
import dev.rein.model.RewrittenHistory;
import dev.rein.model.ServerContextEdit;
import dev.rein.retry.RetryPolicy;
import dev.rein.tool.Principal;
import dev.rein.tool.Secrets;
import dev.rein.tool.ToolInterceptor;
import dev.rein.tool.ToolRegistry;
import dev.rein.tool.ToolSource;
import dev.rein.trace.RunListenerFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * The validated, immutable configuration of an {@link Agent}. Only {@link Agent.Builder#build()}
 * makes one, so every configuration passed its checks; {@link #toBuilder()} starts a variant.
 */
public final class AgentConfig {
    private final Agent.Builder source;
    private final Model model;
    private final String modelName;
    private final String systemPrompt;
    private final ToolRegistry tools;
    private final Budget budget;
    private final PriceTable prices;
    private final int maxTokens;
    private final ModelOptions modelOptions;
    private final List<ServerContextEdit> serverContextEdits;
    private final List<Verifier> verifiers;
    private final int maxVerificationFailures;
    private final boolean finishTool;
    private final boolean capOutputToMoneyLeft;
    private final Duration toolTimeout;
    private final List<ToolInterceptor> interceptors;
    private final List<ModelInterceptor> modelInterceptors;
    private final List<RunListenerFactory> listeners;
    private final RetryPolicy retryPolicy;
    private final Clock clock;
    private final Principal principal;
    private final Secrets secrets;
    private final Double temperature;
    private final Supplier<String> runIdSupplier;
    private final GuardConfig guards;
    private final SafetyConfig safety;
    private final Budget conversationBudget;
    private final StateInPrompt stateInPrompt;
    private final dev.rein.memory.MemoryInjection memoryInjection;
    /** Made once: every request of every run sends them. */
    private final ModelOptions requestOptions;
    /** Made once: what every run of this agent builds alike (see {@link RunParts}). */
    private final RunParts runParts;

    /** The values {@link Agent.Builder#build()} validated and derived, in one place. */
    record Validated(Agent.Builder source, String modelName, ToolRegistry tools, PriceTable prices,
                     List<ServerContextEdit> serverContextEdits, List<Verifier> verifiers, GuardConfig guards,
                     SafetyConfig safety, ModelOptions requestOptions) {}

    private AgentConfig(Validated v, Agent.Builder b) {
        this.source = v.source();
        this.model = b.model;
        this.modelName = v.modelName();
        this.systemPrompt = b.systemPrompt;
        this.tools = v.tools();
        this.budget = b.budget;
        this.prices = v.prices();
        this.maxTokens = b.maxTokens;
        this.modelOptions = b.modelOptions;
        this.serverContextEdits = List.copyOf(v.serverContextEdits());
        this.verifiers = List.copyOf(v.verifiers());
        this.maxVerificationFailures = b.maxVerificationFailures;
        this.finishTool = b.finishTool;
        this.capOutputToMoneyLeft = b.capOutputToMoneyLeft;
        this.toolTimeout = b.toolTimeout;
        this.interceptors = List.copyOf(b.interceptors);
        this.modelInterceptors = List.copyOf(b.modelInterceptors);
        this.listeners = List.copyOf(b.listeners);
        this.retryPolicy = b.retryPolicy;
        this.clock = b.clock;
        this.principal = b.principal;
        this.secrets = b.secrets;
        this.temperature = b.temperature;
        this.runIdSupplier = b.runIds;
        this.guards = v.guards();
        this.safety = v.safety();
        this.conversationBudget = b.conversationBudget;
        this.stateInPrompt = b.stateInPrompt;
        this.memoryInjection = b.memoryInjection;
        this.requestOptions = v.requestOptions();
        this.runParts = RunParts.of(this); // last: it reads the fields above
    }

    /** What every run of this agent builds alike, made once (see {@link RunParts}). */
    RunParts runParts() {
        return runParts;
    }

    /** Made by {@link Agent.Builder#build()} only, after validation. */
    static AgentConfig of(Validated validated) {
        return new AgentConfig(validated, validated.source());
    }

    /**
     * A builder holding everything this configuration was built from; change it and build a variant.
     * The variant keeps this configuration's run store, also the in-memory one an agent built without
     * {@code .store(...)} made for itself, so the runs a variant starts ({@link Agent#stream},
     * {@link Agent#run(String, Class)}, {@link Agent#withListener}) can be decided, resumed and replied
     * to by the agent it came from; give the builder another {@code store(...)} for one of its own. A
     * {@code safety(...)} given to it replaces that store with the SafetyConfig's, as it replaces all of them:
     * give {@code store(...)} after it to keep this one.
     */
    public Agent.Builder toBuilder() {
        return source.copy().inheritedStore(safety.store());
    }

    /** A copy that also creates a listener from {@code factory} for each run (harnesses record runs this way). */
    public AgentConfig withListener(RunListenerFactory factory) {
        if (factory == null) {
            throw new dev.rein.ReinException("withListener was given null: give the RunListenerFactory that makes each"
                    + " run's listener");
        }
        return toBuilder().listener(factory).build().config();
    }

    /**
     * The options of each model request: {@link #modelOptions()} (with those of a {@link dev.rein.provider.OptionedModel}
     * given as the model, which replace ones of their type), plus the server-side context edits if any, plus
     * {@link RewrittenHistory} when a setting makes Rein send earlier turns otherwise than the model
     * saw them.
     */
    public ModelOptions requestOptions() {
        return requestOptions;
    }

    /** The required shape of the final answer, when the agent has one ({@link Agent.Builder#outputType}). */
    public java.util.Optional<dev.rein.model.OutputSchema> outputSchema() {
        return modelOptions.get(dev.rein.model.OutputSchema.class);
    }

    /** The system prompt each step's request carries: the agent's, plus the output instruction when a schema is required. */
    String requestSystemPrompt() {
        return outputSchema().map(schema -> systemPrompt.isEmpty() ? schema.instruction()
                : systemPrompt + "\n\n" + schema.instruction()).orElse(systemPrompt);
    }

    public Model model() {
        return model;
    }

    /** The model name sent with each request and used for pricing. */
    public String modelName() {
        return modelName;
    }

    public String systemPrompt() {
        return systemPrompt;
    }

    /** The fixed tools, with the finish tool when it is on (without those of {@link #toolSources()}). */
    public ToolRegistry tools() {
        return tools;
    }

    /** The sources of tools that may change while the agent exists, consulted before each model request. */
    public List<ToolSource> toolSources() {
        return source.toolSources.isEmpty() ? List.of() : List.copyOf(source.toolSources);
    }

    /** The fixed tools plus the sources' tools as they are now. */
    public ToolRegistry currentTools() {
        return source.toolSources.isEmpty() ? tools : new LiveTools(tools, source.toolSources).registry();
    }

    public Budget budget() {
        return budget;
    }

    public PriceTable prices() {
        return prices;
    }

    public int maxTokens() {
        return maxTokens;
    }

    /** Provider options sent with every model request. */
    public ModelOptions modelOptions() {
        return modelOptions;
    }

    /** The builder's edits plus those of the context policy's server side. */
    public List<ServerContextEdit> serverContextEdits() {
        return serverContextEdits;
    }

    /** The builder's verifiers, then the required facts (if any). */
    public List<Verifier> verifiers() {
        return verifiers;
    }

    public int maxVerificationFailures() {
        return maxVerificationFailures;
    }

    public boolean finishTool() {
        return finishTool;
    }

    /** Whether a money limit lowers each call's max_tokens to what the money left buys (see {@link Agent.Builder#capOutputToMoneyLeft}). */
    public boolean capOutputToMoneyLeft() {
        return capOutputToMoneyLeft;
    }

    public Duration toolTimeout() {
        return toolTimeout;
    }

    /** The application's tool-chain stages. */
    public List<ToolInterceptor> interceptors() {
        return interceptors;
    }

    /** The application's model-call chain stages, in the order added. */
    public List<ModelInterceptor> modelInterceptors() {
        return modelInterceptors;
    }

    public List<RunListenerFactory> listeners() {
        return listeners;
    }

    public RetryPolicy retryPolicy() {
        return retryPolicy;
    }

    public Clock clock() {
        return clock;
    }

    public Principal principal() {
        return principal;
    }

    public Secrets secrets() {
        return secrets;
    }

    public Double temperature() {
        return temperature;
    }

    public Supplier<String> runIdSupplier() {
        return runIdSupplier;
    }

    public GuardConfig guards() {
        return guards;
    }

    public SafetyConfig safety() {
        return safety;
    }

    /** The budget of all turns of a conversation together, or null for none (only the per-turn budget). */
    public Budget conversationBudget() {
        return conversationBudget;
    }

    /** Whether requests carry the working-state block, and with how much history. */
    public StateInPrompt stateInPrompt() {
        return stateInPrompt;
    }

    /** The memory recalled into each request, or null for none. */
    public dev.rein.memory.MemoryInjection memoryInjection() {
        return memoryInjection;
    }
}
