package dev.rein.agent;

import dev.rein.ReinException;
import dev.rein.budget.Budget;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.model.Model;
import dev.rein.model.ModelOption;
import dev.rein.model.ServerContextEdit;
import dev.rein.provider.ModelDefaults;
import dev.rein.state.Runs;
import dev.rein.tool.Principal;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolRegistry;
import dev.rein.tool.ToolSource;
import dev.rein.trace.RunListenerFactory;
import java.util.Collection;
import java.util.List;
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

    /**
     * Runs the agent on {@code goal} to the end (or to a pause) on the calling thread's behalf. Called
     * from a virtual thread, the loop runs on that thread (named {@code rein-run-<run id>} meanwhile);
     * from a platform thread, on a virtual thread of its own while the caller waits. Either way an
     * interrupt of the caller cancels the run, which returns its {@code CANCELLED} result with the
     * caller's interrupt status set. On a virtual caller's thread that interrupt reaches whatever call
     * runs there (a model or {@link dev.rein.tool.Tool#abortsOnInterrupt() tool} that aborts on
     * interrupt): one that clears it without ending (a handler that returns and does not set it again)
     * ends only that call, and the run goes on. A cancel no call can swallow is {@link #start}'s
     * {@link RunHandle#cancel()}.
     */
    public RunResult run(String goal) {
        // Not through run(goal, principal): a run parks with this stack at every wait, and at thousands of runs in
        // flight each frame of it is copied to the heap at each park (docs/performance-log.md, 2026-12-07, perf5).
        return runHere(newRun(goal, config.principal()));
    }

    /**
     * Runs the agent on {@code goal} with a typed final answer: the answer must be JSON that
     * validates against the schema generated from {@code type}; read it with
     * {@link RunResult#output(Class)}. An invalid answer goes back to the model with the validation
     * errors; the run ends {@code FAILED/invalid_output} at the {@link Builder#maxVerificationFailures}-th
     * refused answer (with the default of 2, the second invalid answer ends it). The run store keeps the
     * schema (not the type) with the run: a {@link #resume} by an agent built with no output schema or the same
     * one checks the answer against it the same way (an agent with another is refused), and a {@link #reply} by
     * an agent with no output schema of its own too (one with its own types the new turn with it).
     */
    public RunResult run(String goal, Class<?> type) {
        if (type == null) { // said here: the builder's setter, and OutputSchema.of below it, are not what the caller called
            throw new dev.rein.ReinException("Agent.run(goal, type) was given no type (null): pass the class of the answer,"
                    + " e.g. a record (Shipment.class), or call run(goal) for an answer in plain text");
        }
        return config.toBuilder().outputType(type).build().run(goal);
    }

    /**
     * Like {@link #run(String, Class)} for a generic type ({@code new TypeRef<List<Verdict>>() {}}); read the answer
     * with {@link RunResult#output(dev.rein.model.TypeRef)}.
     */
    public RunResult run(String goal, dev.rein.model.TypeRef<?> type) {
        if (type == null) {
            throw new dev.rein.ReinException("Agent.run(goal, type) was given no TypeRef (null): pass the type of the answer,"
                    + " e.g. new TypeRef<List<Verdict>>() {}, or call run(goal) for an answer in plain text");
        }
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

    /**
     * Like {@link #stream(String)}, on behalf of {@code principal} (whose scopes the executor
     * enforces), as {@link #start(String, Principal)}.
     */
    public RunStream stream(String goal, Principal principal) {
        return RunStream.start(config, RunStream.DEFAULT_BUFFER, agent -> agent.start(goal, principal));
    }

    /**
     * Like {@link #reply(String, String)}, with the turn's events reaching the caller as they happen
     * ({@code turn_started} first, then the turn's text deltas, tool calls and results, then its
     * result), as {@link #stream(String)} gives a run's.
     *
     * @throws ReinException when the store has no such run, the text is empty, the run is not one that
     *                       answered, asked for input or was cancelled, or its stored output schema cannot be
     *                       used (when this agent has none of its own)
     */
    public RunStream streamReply(String runId, String text) {
        return RunStream.start(config, RunStream.DEFAULT_BUFFER, agent -> agent.startReply(runId, text));
    }

    /**
     * Like {@link #resume(String)}, with the events of the resumed run reaching the caller as they
     * happen ({@code run_resumed} first, then the decided calls, the next steps and the result), as
     * {@link #stream(String)} gives a run's.
     *
     * @throws ReinException     when the store has no such run, it already ended, this agent was built with
     *                           another output schema than the run's (a {@link dev.rein.ConfigurationException}), or the
     *                           run's stored one cannot be used
     *                           (nothing of the run changes)
     * @throws dev.rein.approval.ApprovalException when an action still waits for a decision
     */
    public RunStream streamResume(String runId) {
        return RunStream.start(config, RunStream.DEFAULT_BUFFER, agent -> agent.startResume(runId));
    }

    /** Runs the agent on {@code goal} on behalf of {@code principal} (whose scopes the executor enforces). */
    public RunResult run(String goal, Principal principal) {
        return runHere(newRun(goal, principal));
    }

    /**
     * Continues a stored run from where it stopped: after a pause for approval once every pending
     * action is decided (see {@link #runs()}), or after its process died. Works in any process that
     * builds an agent with the same tools and store.
     *
     * <p>A typed run keeps its output schema ({@link dev.rein.state.RunSnapshot#outputSchema()}): the answer is
     * checked against it as in the first run, also when this agent has none; this agent's own is used when it
     * is the same schema (it may also check the answer reads as its Java type). An agent with another schema is
     * refused: the paused turn was asked in the stored shape. An agent built with {@code outputType(X)} that ran
     * {@code run(goal, Y.class)} resumes it as {@code agent.config().toBuilder().outputType(Y.class).build().resume(runId)}.
     *
     * <p>The run continues on the calling thread or a virtual thread of its own, as {@link #run(String)} says.
     *
     * @throws ReinException     when the store has no such run, it already ended, this agent was built with
     *                           another output schema than the run's (a {@link dev.rein.ConfigurationException}), or the
     *                           run's stored one cannot be used
     *                           (nothing of the run changes; it can still be shown and cancelled)
     * @throws dev.rein.approval.ApprovalException when an action still waits for a decision
     * @throws dev.rein.state.StoreConflictException when another process resumed it first
     */
    public RunResult resume(String runId) {
        return runHere(Resumption.claim(config, runId));
    }

    /** Like {@link #resume(String)}, on a virtual thread; returns a handle to await or cancel it. */
    public RunHandle startResume(String runId) {
        return launch(Resumption.claim(config, runId));
    }

    /**
     * Continues an ended run with a person's {@code text} as its next turn: the answer to a run that
     * ended {@code needs_user_input}, a follow-up after an answer, or what to do now in a run that was
     * cancelled. The run keeps its history, state, approvals and principal; the agent's
     * {@link Builder#budget budget} applies to the turn, {@link Builder#conversationBudget} to all
     * turns together. The trace shows the turn ({@code turn_started}).
     *
     * <p>A cancelled run's stored history ends as it was, possibly with calls that have no result
     * (the cancel cut them off, or they waited for approval). The reply answers each such call once,
     * before the reply's text: a call that ended before the cancel with its own result, any other
     * with an error result saying the run was cancelled before it finished (or, for a call still
     * waiting for a decision, that it was never run); the trace says which with an {@code intervention} of kind {@code cancelled_calls}.
     *
     * <p>The turn runs on the calling thread or a virtual thread of its own, as {@link #run(String)} says.
     *
     * <p>A typed run's turns are typed too: an agent built with no output schema continues with the run's
     * stored one, as {@link #resume} says; an agent with one of its own types the new turn with it (a reply
     * asks a new question, which may want another shape), and it replaces the run's for later turns.
     *
     * @throws ReinException when the store has no such run, the text is empty, the run is not
     *                       one that answered, asked for input or was cancelled, or its stored output schema
     *                       cannot be used (when this agent has none of its own)
     * @throws dev.rein.state.StoreConflictException when another process continued it first
     */
    public RunResult reply(String runId, String text) {
        return runHere(Replies.claim(config, runId, text));
    }

    /** Like {@link #reply(String, String)}, on a virtual thread; returns a handle to await or cancel it. */
    public RunHandle startReply(String runId, String text) {
        return launch(Replies.claim(config, runId, text));
    }

    /**
     * Lists, shows and decides this agent's stored runs (approve, reject, edit, cancel); a cancel tells
     * this agent's listeners of the run's end, as the run's own end does ({@link Runs#withListeners}).
     */
    public Runs runs() {
        return Runs.in(config.safety().store(), config.currentTools(), config.clock(), config.secrets())
                .withListeners(config.model(), config.listeners());
    }

    /**
     * Runs {@code run} to its end for a caller that waits for it. A virtual thread runs the loop itself: a
     * second thread per run would only park beside it, and at many runs at once its stack and the
     * hand-over cost memory and wake-ups. A platform thread hands the run to a virtual thread and
     * waits, as {@link #start} does, so the loop's blocking calls park a virtual thread. A caller
     * interrupted before it called gets the run cancelled before its first step, and its interrupt back.
     */
    private static RunResult runHere(Run run) {
        Thread caller = Thread.currentThread();
        if (!caller.isVirtual()) {
            if (caller.isInterrupted()) {
                run.cancel(); // before it starts: an interrupted caller wants no run, and gets none whatever the timing
            }
            return await(launch(run));
        }
        // The caller's interrupt from before is its own: the run starts without it (a store's or listener's I/O
        // would fail on it), is cancelled at once, and the caller gets it back.
        boolean interruptedBefore = Thread.interrupted();
        if (interruptedBefore) {
            run.cancel();
        }
        String name = caller.getName();
        caller.setName(runThreadName(run));
        run.bindThread(caller);
        run.onCallersThread = true;
        RunResult result;
        try {
            result = AgentLoop.runToEnd(run);
        } finally {
            run.unbindThread();
            caller.setName(name);
        }
        if (run.cancelled()) {
            // a cancel's interrupt is the run's, not the caller's; the one that came after the loop's last look goes here
            Thread.interrupted();
        }
        if (interruptedBefore || run.interrupted) {
            caller.interrupt(); // the caller's own interrupt, which ended the run: it keeps it, as a waiting caller does
        }
        return result;
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
        return launch(newRun(goal, principal));
    }

    private Run newRun(String goal, Principal principal) {
        // only spaces and invisible characters (U+00A0, U+200B, a BOM) show nothing, as isBlank() misses
        if (goal == null || !dev.rein.internal.text.Visible.any(goal)) {
            throw new ReinException("the goal is empty: say what the agent should do");
        }
        if (principal == null) {
            throw new ReinException("start(goal, principal) was given no principal: pass the Principal the run acts for");
        }
        return Run.start(suppliedRunId(), goal, config, principal);
    }

    /** The next id of the supplier given to runIds(...), refused (before anything runs) when no run could have it. */
    private String suppliedRunId() {
        String runId = config.runIdSupplier().get();
        if (runId == null || !dev.rein.internal.text.Visible.any(runId)) {
            throw new ReinException("the run id supplier given to runIds(...) returned " + (runId == null ? "null" : "a blank id")
                    + ": it must return a new, non-blank id for each run");
        }
        String problem = dev.rein.internal.text.RunIds.problem(runId);
        if (problem != null) {
            throw new ReinException("the run id supplier given to runIds(...) returned '" + dev.rein.internal.text.RunIds.shown(runId)
                    + "', which cannot be a run's id: " + problem + "; return ids of whole characters and no control characters");
        }
        // The JDBC store refused a longer id only at the run's first save, the in-memory store ran it, and Temporal takes no
        // longer workflow id: refused here, before anything is written, whatever the store. Not a replay's: it has the
        // recorded run's id, which a store without the limit kept, and keeps its run in memory.
        if (config.runIdSupplier() instanceof dev.rein.internal.replay.RecordedRunId) {
            return runId;
        }
        String overLimit = dev.rein.internal.text.RunIds.overLimit(runId);
        if (overLimit != null) {
            throw new ReinException("the run id supplier given to runIds(...) returned " + overLimit + ": return shorter ids");
        }
        return runId;
    }

    private static RunHandle launch(Run run) {
        CompletableFuture<RunResult> future = new CompletableFuture<>();
        Thread thread = Thread.ofVirtual().name(runThreadName(run)).unstarted(() -> {
            try {
                future.complete(AgentLoop.runToEnd(run));
            } catch (Throwable failure) { // runToEnd's last resort failed too: the caller and a stream still get an end
                future.completeExceptionally(failure);
            }
        });
        run.bindThread(thread);
        thread.start();
        return new RunHandle(run.runId, future, run::cancel);
    }

    private static String runThreadName(Run run) {
        return "rein-run-" + run.runId;
    }

    /**
     * Builder for {@link Agent}; {@link #build()} validates the configuration. The model, prompt,
     * tools, budget and request settings are here; the guards, safety and runtime settings are
     * inherited from {@code BuilderSettings}.
     */
    public static final class Builder extends BuilderSettings {
        private static final String TOOLS_HINT = "pass tools made with Tool.builder(...).build() or AnnotatedTools.from(...)";

        private Builder() {}

        /** An independent copy of this builder (what {@link AgentConfig#toBuilder()} returns). */
        Builder copy() {
            return AgentValidation.copy(this);
        }

        /** The model to call (required). */
        public Builder model(Model model) {
            this.model = given(model, "model", "pass the Model that answers the run's requests");
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
            return tools(java.util.Arrays.asList(given(tools, "tools", TOOLS_HINT)));
        }

        /** @throws ReinException when a tool is null (an unset field, a failed lookup) */
        public Builder tools(Collection<Tool> tools) {
            given(tools, "tools", TOOLS_HINT);
            int position = 0;
            for (Tool tool : tools) {
                if (tool == null) {
                    throw new ReinException("tools(...) was given null at position " + position + " (counting from 0):"
                            + " pass tools made with Tool.builder(...).build() or AnnotatedTools.from(...)");
                }
                position++;
            }
            this.tools.addAll(tools);
            return this;
        }

        public Builder tools(ToolRegistry registry) {
            return tools(given(registry, "tools", TOOLS_HINT).tools());
        }

        /**
         * Adds tools that may change while the agent exists (an MCP server's list, say). Before each
         * model request a run offers the source's current tools, and the executor gates calls with
         * them; a call of a tool the source dropped gets an unknown-tool error result. A name that
         * clashes with another tool fails {@link #build()}; a clash or an invalid schema appearing
         * later leaves that tool out and is recorded as an audit event {@code tools_changed}.
         */
        public Builder toolSource(ToolSource source) {
            this.toolSources.add(given(source, "toolSource", "pass the ToolSource whose tools to add"));
            return this;
        }

        public Builder budget(Budget budget) {
            this.budget = given(budget, "budget", "pass a Budget (Budget.defaults() for 15 steps, USD 1.00 and 300 s; a null limit"
                    + " inside a Budget means none of that kind)");
            return this;
        }

        /**
         * Prices for the money budget, replacing the default: the tables of every installed
         * {@link dev.rein.provider.ModelProvider}, plus the model's own ({@link ModelDefaults}).
         */
        public Builder prices(PriceTable prices) {
            this.prices = given(prices, "prices", "pass a PriceTable (PriceTable.empty().with(model, price) for your own)");
            return this;
        }

        /** Adds (or replaces) the price of one model on top of the table in use. */
        public Builder price(String model, ModelPrice price) {
            this.extraPrices = extraPrices.with(given(model, "price", "pass the model name the price is for"),
                    given(price, "price", "pass a ModelPrice, e.g. ModelPrice.of(\"2.00\", \"0.20\", \"8.00\")"));
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
            this.modelOptions = modelOptions.with(given(option, "modelOption", "pass the ModelOption to send"));
            return this;
        }

        /**
         * Requires the final answer to be JSON valid against the schema generated from {@code type}
         * (victools, draft 2020-12); see {@link Agent#run(String, Class)}.
         */
        public Builder outputType(Class<?> type) {
            given(type, "outputType", "pass the class of the answer, e.g. a record (Shipment.class); leave outputType unset"
                    + " for an answer in plain text");
            return outputSchema(dev.rein.model.OutputSchema.of(type));
        }

        /**
         * Requires the final answer to be JSON valid against the schema generated from a generic type ({@code new
         * TypeRef<List<Verdict>>() {}}), named after it ({@link dev.rein.model.TypeRef#name()}); see {@link
         * Agent#run(String, dev.rein.model.TypeRef)}.
         */
        public Builder outputType(dev.rein.model.TypeRef<?> type) {
            given(type, "outputType", "pass the type, e.g. new TypeRef<List<Verdict>>() {}");
            return outputSchema(dev.rein.model.OutputSchema.of(type.name(), type.type()));
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
            this.serverContextEdits = List.copyOf(given(edits, "serverContextEdits", "pass a list (List.of() for none)"));
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
