package dev.rein.tool;

import dev.rein.ReinException;
import dev.rein.internal.concurrent.Sleeper;
import dev.rein.internal.text.Excerpts;
import dev.rein.internal.text.Fence;
import dev.rein.retry.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The single gate between a proposed tool call and its effect. Every call passes the same
 * pipeline of stages, assembled in {@link #stages}; whatever happens comes back as a
 * {@link ToolResult} with an error flag. Nothing a model proposes can get around it.
 *
 * <p>One executor serves one run (per-tool call counts live here).
 */
public final class ToolExecutor {
    /** The default per-call timeout. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    /** Transient tool failures: 2 retries, 0.2 s doubling to at most 5 s, 20 % jitter. */
    public static final RetryPolicy DEFAULT_TOOL_RETRY = new RetryPolicy(2, Duration.ofMillis(200), Duration.ofSeconds(5), 0.2);
    /** The largest accepted arguments object, in bytes of JSON (256 KiB). */
    public static final int DEFAULT_MAX_ARGUMENT_BYTES = 256 * 1024;

    /** Why {@code bytes} is no limit on a tool call's arguments, and what to give instead; for a configuration error. */
    public static String maxArgumentBytesProblem(int bytes) {
        return "maxArgumentBytes must be positive, was " + bytes + ": give the largest arguments object a tool call may"
                + " have, in bytes of JSON (the default is " + DEFAULT_MAX_ARGUMENT_BYTES + ", 256 KiB)";
    }
    /** The deepest accepted arguments object (levels of objects and arrays); real tool arguments stay far below it. */
    public static final int MAX_ARGUMENT_DEPTH = 64;

    private static final ToolInterceptor PASS = (invocation, chain) -> chain.proceed(invocation);

    private final ToolRegistry registry;
    private final CallLimits callLimits;
    private final ToolChain chain;
    private final ToolEvents events;

    private ToolExecutor(Builder b) {
        this.registry = b.registry;
        this.events = b.events;
        this.callLimits = new CallLimits(b.callLimits, b.callCounts);
        this.chain = new ToolChain(stages(b, callLimits)); // bound once: each of Rein's stages one frame (see ToolChain)
    }

    /** @throws ReinException when {@code registry} is null */
    public static Builder builder(ToolRegistry registry) {
        return new Builder(Builder.given(registry, "builder", "pass the run's tools, e.g. ToolRegistry.of(tool, ...)"));
    }

    /**
     * The pipeline, outermost first. A stage near the top refuses a call before anything below it
     * runs; results travel back up, so the masking near the bottom sees the handler's raw output
     * and truncation sees it masked and attributed.
     */
    private static List<ToolInterceptor> stages(Builder b, CallLimits callLimits) {
        List<ToolInterceptor> stages = new ArrayList<>();
        stages.add(new ArgumentValidation(b.maxArgumentBytes, b.events)); // size and JSON schema
        // the application's stages see valid calls only; a replay's recorded answers come after Rein's own checks
        for (ToolInterceptor stage : b.interceptors) { // a loop, not a stream: this runs for every run
            if (stage != b.recordedAnswers) {
                stages.add(stage);
            }
        }
        stages.add(new ScopeCheck(b.scopePolicy, b.events));  // least privilege, before anyone is asked to approve
        addUnlessPass(stages, b.approvalGate);                  // a person decides risky calls (pauses the run)
        // per-tool caps, counted for every approved call: also one answered from its idempotency record on resume
        // (its count may have died with its process), and a call over its cap records no intent
        stages.add(callLimits);
        // a replay answers a call from its recording only once the checks above let it through, as they would a live call
        addUnlessPass(stages, b.recordedAnswers);
        addUnlessPass(stages, b.idempotency);                   // intent before a side effect, completion after
        stages.add(new CallOrder());                            // the calls of one response pass every stage above in call order
        stages.add(new TimeoutStage(b.defaultTimeout));         // everything below runs under the call's timeout
        stages.add(new ToolRetry(b.retryPolicy, b.events, b.sleeper)); // transient failures, same idempotency key
        stages.addAll(b.outputStages);                          // truncation of long output (context policy)
        stages.add(new Provenance(b.strictProvenance));         // source and time on every observation
        stages.add(new SecretMasking(b.events));                // no secret value leaves the handler
        stages.add(new HandlerInvocation(b.interceptors, b.events)); // with the application's aroundHandler wrappers
        return List.copyOf(stages);
    }

    /**
     * A stage left unset (one that only passes the call on) is left out, not run: each stage is two frames (and its
     * lambda's) on the stack the run's thread waits with while its tool call runs on a thread of its own, and at
     * thousands of runs in flight every frame of it is copied to the heap at each park (docs/performance-log.md,
     * 2026-12-07, perf5).
     */
    private static void addUnlessPass(List<ToolInterceptor> stages, ToolInterceptor stage) {
        if (stage != PASS) {
            stages.add(stage);
        }
    }

    /**
     * Calls made so far of each tool that has a cap, by tool name (restored when a run resumes); a call
     * refused for its cap was not made and is not counted.
     */
    public Map<String, Integer> callCounts() {
        return callLimits.counts();
    }

    public ToolRegistry registry() {
        return registry;
    }

    /**
     * Runs one call through the chain. Never throws for anything the tool or the model did.
     *
     * @throws ToolChainException   when a stage broke the chain's contract (returned null, threw...) or a
     *                              scope or approval policy threw: a programmer error
     * @throws InterruptedException when the run is cancelled while the call is in flight (the
     *                              handler is interrupted too)
     */
    public ToolOutcome run(ToolCall proposed, ToolContext context) throws InterruptedException {
        Instant start = context.clock().instant();
        // A trust boundary: what the stages and the handler get is theirs; mutating it must not
        // rewrite the assistant turn in the history or the next request.
        ToolCall call = new ToolCall(proposed.id(), proposed.name(), proposed.arguments().deepCopy(), proposed.index());
        Tool tool = registry.get(call.name());
        // A stage that throws is a ToolChainException (a programmer error: the run ends internal_error, the model never
        // sees it); the handler's own failures are results, made by the last stage. The chain is entered here, not
        // through a helper: the run's thread waits for its tool call with this stack (see stages).
        ToolInvocation invocation = tool != null ? new ToolInvocation(call, tool, context.withRisk(tool.risk())) : null;
        ToolOutcome outcome = tool != null ? chain.start().proceed(invocation) : unknownTool(call, context);
        Instant end = context.clock().instant();
        // Results were stamped with the system clock where they were made; the run's clock wins.
        Duration took = Duration.between(start, end);
        return outcome.map(result -> result.stamped(took, end));
    }

    /**
     * Runs one call outside a run and returns its result; a call that waits for approval comes back
     * as an {@link ErrorClass#AWAITING_APPROVAL} error (inside a run the loop uses {@link #run}'s
     * {@link ToolOutcome.Deferred} instead).
     */
    public ToolResult execute(ToolCall call, ToolContext context) throws InterruptedException {
        return resultOf(run(call, context), context);
    }

    private static ToolResult resultOf(ToolOutcome outcome, ToolContext context) {
        return switch (outcome) {
            case ToolOutcome.Done done -> done.result();
            case ToolOutcome.Deferred deferred -> new ToolResult(deferred.callId(), deferred.toolName(),
                    "(waiting for a person to approve this call)", true, ErrorClass.AWAITING_APPROVAL, "rein",
                    context.clock().instant(), Duration.ZERO, null, true);
        };
    }

    private ToolOutcome unknownTool(ToolCall call, ToolContext context) {
        // The name is the model's, quoted in Rein's own message (unwrapped): one of a tool name's form cannot close a
        // fence or hold a sentence and reads as it is; any other is fenced as data, its first 100 characters, masked
        // before that cut, which could leave part of a secret that the masking of the whole result no longer knows.
        String named = Tool.NAME.matcher(call.name()).matches() ? "Unknown tool '" + call.name() + "'. "
                : "Unknown tool, named as quoted here:\n" + Fence.quoted(Excerpts.first(MaskedQuote.of(call.name(), context,
                audit -> events.audit(call, context, "secret_masked", audit),
                "the unknown tool name the model gave"), 100), "tool call name") + "\n";
        return ToolOutcome.of(ToolResult.reinError(call, ErrorClass.UNKNOWN_TOOL, named + "Available tools: "
                + (registry.isEmpty() ? "(none)" : String.join(", ", registry.names()))
                + ". Call one of these by its exact name."));
    }

    /** As {@link #runAll}, with each outcome's result ({@link #execute}'s form), for callers outside a run. */
    public List<ToolResult> executeAll(List<ToolCall> calls, Function<ToolCall, ToolContext> contexts)
            throws InterruptedException {
        return executeAll(calls, contexts, result -> { });
    }

    /** As {@link #runAll}, with results: {@code onResult} sees each as its call ends. */
    public List<ToolResult> executeAll(List<ToolCall> calls, Function<ToolCall, ToolContext> contexts,
                                       Consumer<ToolResult> onResult) throws InterruptedException {
        Map<String, ToolContext> made = new ConcurrentHashMap<>();
        Function<ToolCall, ToolContext> once = call -> made.computeIfAbsent(call.id(), id -> contexts.apply(call));
        return runAll(calls, once, outcome -> onResult.accept(resultOf(outcome, made.get(outcome.callId())))).stream()
                .map(outcome -> resultOf(outcome, made.get(outcome.callId()))).toList();
    }

    /**
     * Runs the calls of one model response and returns their outcomes in call order, handing each to
     * {@code onOutcome} as soon as its call ends (on the call's thread, in completion order). Reads
     * run first, concurrently, each on its own virtual thread with its own timeout, admitted in call
     * order (argument validation and the application's stages see one call at a time); calls with
     * side effects (WRITE, IRREVERSIBLE) run after every read has ended, one at a time in call
     * order, so no read observes a half-applied write and the writes keep the model's order.
     */
    public List<ToolOutcome> runAll(List<ToolCall> calls, Function<ToolCall, ToolContext> contexts,
                                    Consumer<ToolOutcome> onOutcome) throws InterruptedException {
        if (calls.size() == 1) { // the usual step: one call, nothing to order; run here, one frame less under its wait
            ToolOutcome outcome = run(calls.get(0), contexts.apply(calls.get(0)));
            onOutcome.accept(outcome);
            return List.of(outcome);
        }
        ToolOutcome[] outcomes = new ToolOutcome[calls.size()];
        int[] reads = new int[calls.size()];
        List<ToolCall> readCalls = new ArrayList<>(calls.size());
        for (int i = 0; i < calls.size(); i++) {
            if (!sideEffecting(calls.get(i))) {
                reads[readCalls.size()] = i;
                readCalls.add(calls.get(i));
            }
        }
        List<ToolOutcome> readOutcomes = concurrently(readCalls, contexts, onOutcome);
        for (int r = 0; r < readCalls.size(); r++) {
            outcomes[reads[r]] = readOutcomes.get(r);
        }
        for (int i = 0; i < calls.size(); i++) {
            if (outcomes[i] == null) {
                outcomes[i] = run(calls.get(i), contexts.apply(calls.get(i)));
                onOutcome.accept(outcomes[i]);
            }
        }
        return List.of(outcomes);
    }

    /**
     * Whether {@link #runAll} runs {@code call} after the reads, one at a time in call order (a
     * WRITE or IRREVERSIBLE tool); an engine that runs each call as its own task orders them by this.
     */
    public boolean sideEffecting(ToolCall call) {
        Tool tool = registry.get(call.name());
        return tool != null && tool.risk() != Risk.READ;
    }

    private List<ToolOutcome> concurrently(List<ToolCall> calls, Function<ToolCall, ToolContext> contexts,
                                           Consumer<ToolOutcome> onOutcome) throws InterruptedException {
        if (calls.size() <= 1) {
            if (calls.isEmpty()) {
                return List.of();
            }
            ToolCall only = calls.get(0);
            ToolOutcome outcome = run(only, contexts.apply(only));
            onOutcome.accept(outcome);
            return List.of(outcome);
        }
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<ToolOutcome>> futures = new ArrayList<>();
            List<ToolOutcome> outcomes = new ArrayList<>();
            try {
                // Every call's thread starts at once; each waits for the one before it to pass the
                // admission stages (CallOrder), so the caller is not woken between calls.
                CountDownLatch previous = null;
                for (ToolCall call : calls) {
                    ToolContext context = contexts.apply(call);
                    CountDownLatch admitted = new CountDownLatch(1);
                    CountDownLatch turn = previous;
                    futures.add(pool.submit(() -> {
                        awaitTurn(turn, admitted);
                        ToolOutcome outcome = CallOrder.inTurn(admitted, () -> run(call, context));
                        onOutcome.accept(outcome);
                        return outcome;
                    }));
                    previous = admitted;
                }
                for (Future<ToolOutcome> future : futures) {
                    outcomes.add(future.get());
                }
            } catch (InterruptedException e) {
                futures.forEach(f -> f.cancel(true));
                throw e;
            } catch (ExecutionException e) {
                futures.forEach(f -> f.cancel(true));
                // a broken chain or a failing caller callback is a bug to report as such, never a cancel
                if (e.getCause() instanceof RuntimeException failure) {
                    throw failure;
                }
                if (e.getCause() instanceof Error error) {
                    throw error;
                }
                throw new InterruptedException("tool calls interrupted: " + e.getCause());
            }
            return outcomes;
        }
    }

    /** Waits until the previous call was admitted; a cancelled call lets the next one go on to its own cancellation. */
    private static void awaitTurn(CountDownLatch previous, CountDownLatch admitted) throws InterruptedException {
        if (previous == null) {
            return;
        }
        try {
            previous.await();
        } catch (InterruptedException e) {
            admitted.countDown();
            throw e;
        }
    }

    /** Builder for {@link ToolExecutor}. */
    public static final class Builder {
        private final ToolRegistry registry;
        private final List<ToolInterceptor> interceptors = new ArrayList<>();
        private final List<ToolInterceptor> outputStages = new ArrayList<>();
        private Duration defaultTimeout = DEFAULT_TIMEOUT;
        private Map<String, Integer> callLimits = Map.of();
        private Map<String, Integer> callCounts = Map.of();
        private ScopePolicy scopePolicy = ScopePolicy.REQUIRED_SCOPES;
        private ToolInterceptor approvalGate = PASS;
        private ToolInterceptor idempotency = PASS;
        private ToolInterceptor recordedAnswers = PASS;
        private RetryPolicy retryPolicy = DEFAULT_TOOL_RETRY;
        private boolean strictProvenance;
        private int maxArgumentBytes = DEFAULT_MAX_ARGUMENT_BYTES;
        private ToolEvents events = ToolEvents.NONE;
        private Sleeper sleeper = Sleeper.THREAD;

        private Builder(ToolRegistry registry) {
            this.registry = registry;
        }

        /** Adds a stage after argument validation, before the scope check, approval and the handler. */
        public Builder interceptor(ToolInterceptor interceptor) {
            interceptors.add(given(interceptor, "interceptor", "pass the stage to add"));
            return this;
        }

        /** Adds each stage, in order, as {@link #interceptor} does. */
        public Builder interceptors(List<ToolInterceptor> list) {
            given(list, "interceptors", "pass a list of stages (List.of() for none)");
            list.forEach(stage -> given(stage, "interceptors", "the list holds a null stage; pass only stages"));
            interceptors.addAll(list);
            return this;
        }

        /**
         * Adds a stage close to the handler, inside the timeout and retries: it sees each result
         * after provenance and secret masking, before the caller's stages do (output truncation goes here).
         */
        public Builder outputStage(ToolInterceptor stage) {
            outputStages.add(given(stage, "outputStage", "pass the stage to add"));
            return this;
        }

        /**
         * The timeout of a call to a tool that declares none (default {@link #DEFAULT_TIMEOUT}).
         *
         * @throws ReinException when {@code timeout} is null or shorter than 1 ms
         */
        public Builder defaultTimeout(Duration timeout) {
            given(timeout, "defaultTimeout", "pass a positive Duration (the default is 30 s)");
            // the timeout stage and its message count milliseconds: less would time out every call "at 0 s"
            if (timeout.compareTo(Duration.ofMillis(1)) < 0) {
                throw new ReinException("defaultTimeout(...) was given " + timeout + ": pass a Duration of at least 1 ms (the default is 30 s)");
            }
            this.defaultTimeout = timeout;
            return this;
        }

        /** Per-tool call caps for the run, by tool name (with a tool's own {@code maxCalls}, the lower applies). */
        public Builder callLimits(Map<String, Integer> limits) {
            this.callLimits = counts(limits, "callLimits", 1, "pass each tool's cap, at least 1 (Map.of() for none)");
            return this;
        }

        /** Calls already made in this run, by tool name (a resumed run continues counting). */
        public Builder callCounts(Map<String, Integer> counts) {
            this.callCounts = counts(counts, "callCounts", 0, "pass each tool's calls so far, 0 or more (Map.of() for none)");
            return this;
        }

        /** Who may call what (default: every scope the tool requires). */
        public Builder scopePolicy(ScopePolicy policy) {
            this.scopePolicy = given(policy, "scopePolicy", "pass a ScopePolicy, e.g. ScopePolicy.REQUIRED_SCOPES (the default)");
            return this;
        }

        /** The stage that asks a person before risky calls (default: none, every call proceeds). */
        public Builder approvalGate(ToolInterceptor gate) {
            this.approvalGate = given(gate, "approvalGate", "pass the approval stage, or leave it unset for none");
            return this;
        }

        /**
         * The stage that answers calls from a recording instead of running them (a replay's; default: none). It runs
         * after the scope check, the approval stage and the call caps, and before idempotency, so a call those checks
         * refuse or hold today is refused or held as in a live run. Given also among {@link #interceptors}, it is taken
         * out of the application's stages there (its {@code aroundHandler} still wraps the handler).
         */
        public Builder recordedAnswers(ToolInterceptor stage) {
            this.recordedAnswers = given(stage, "recordedAnswers", "pass the replay's answering stage, or leave it unset for none");
            return this;
        }

        /** The stage that records side effects so they are never repeated (default: none). */
        public Builder idempotency(ToolInterceptor stage) {
            this.idempotency = given(stage, "idempotency", "pass the idempotency stage, or leave it unset for none");
            return this;
        }

        /** Retries of transient tool failures (default {@link #DEFAULT_TOOL_RETRY}). */
        public Builder retryPolicy(RetryPolicy policy) {
            this.retryPolicy = given(policy, "retryPolicy", "pass a RetryPolicy, e.g. RetryPolicy.NONE for no retries");
            return this;
        }

        /** Reject results that carry no source (default off: they are attributed to the tool). */
        public Builder strictProvenance(boolean strict) {
            this.strictProvenance = strict;
            return this;
        }

        /** The largest arguments object accepted, in bytes of JSON. */
        public Builder maxArgumentBytes(int bytes) {
            if (bytes < 1) {
                throw new ReinException(maxArgumentBytesProblem(bytes));
            }
            this.maxArgumentBytes = bytes;
            return this;
        }

        /** Receives retries and audit events of the stages. */
        public Builder events(ToolEvents events) {
            this.events = given(events, "events", "pass a ToolEvents, e.g. ToolEvents.NONE");
            return this;
        }

        /** For tests: how the retry stage waits. */
        Builder sleeper(Sleeper sleeper) {
            this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
            return this;
        }

        public ToolExecutor build() {
            return new ToolExecutor(this);
        }

        /** {@code value}, or a ReinException naming the setter and what to pass instead of null. */
        static <T> T given(T value, String setter, String instead) {
            if (value == null) {
                throw new ReinException(setter + "(...) was given null: " + instead);
            }
            return value;
        }

        /** A copy of {@code map}, each tool named and each number at least {@code least}; else a ReinException saying so. */
        private static Map<String, Integer> counts(Map<String, Integer> map, String setter, int least, String instead) {
            given(map, setter, instead);
            map.forEach((tool, n) -> {
                if (tool == null || n == null || n < least) {
                    throw new ReinException(setter + "(...) was given " + tool + "=" + n + ": " + instead);
                }
            });
            return Map.copyOf(map);
        }
    }
}
