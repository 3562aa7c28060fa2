package dev.rein.internal.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.budget.Budget;
import dev.rein.budget.BudgetMeter;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.model.Message;
import dev.rein.model.Model;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelDeadlineException;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.Usage;
import dev.rein.retry.RetryPolicy;
import dev.rein.trace.TraceEvent;
import dev.rein.trace.Tracer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ModelChainTest {
    private static final PriceTable PRICES = PriceTable.empty()
            .with("main", ModelPrice.of("1", "0", "0")).with("fallback", ModelPrice.of("2", "0", "0"));
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final List<TraceEvent> events = new CopyOnWriteArrayList<>();
    /** The time the tracer tells, for a test that times waits against a deadline; null: the clock's. */
    private volatile Instant fixedNow;
    private final Tracer tracer = new Tracer() {
        @Override
        public String runId() {
            return "run_chain";
        }

        @Override
        public int step() {
            return 1;
        }

        @Override
        public Instant now() {
            return fixedNow == null ? Instant.now() : fixedNow;
        }

        @Override
        public void emit(TraceEvent event) {
            events.add(event);
            log.add("trace:" + event.getClass().getSimpleName());
        }
    };

    private static ModelRequest request(String model) {
        return ModelRequest.builder(model).maxTokens(10).addMessage(Message.user("hi")).build();
    }

    private static ModelResponse answer(ModelRequest request) {
        return new ModelResponse("r", request.model(), List.of(new TextBlock("ok")), StopReason.END_TURN, null,
                Usage.of(1_000_000, 0, 0, 0));
    }

    private BudgetMeter meter(Duration limit) {
        return new BudgetMeter(Budget.builder().maxDuration(limit).build(), PRICES, "main", Clock.systemUTC(), Instant.now());
    }

    /** The chain as the loop assembles it, with {@code app} as the application's stages. */
    private ModelChain chain(BudgetMeter meter, List<ModelInterceptor> app) {
        List<ModelInterceptor> stages = new ArrayList<>();
        stages.add(new TracingStage(tracer, meter));
        stages.addAll(app);
        stages.add(new PricingStage(meter, "main", PRICES));
        stages.add(new RetryStage(new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(1), 0), meter, tracer));
        stages.add(new AroundModelStage(app));
        stages.add(new DeadlineStage(meter, "run_chain", () -> log.add("end of attempt")));
        stages.add(ModelChain.MODEL);
        return new ModelChain(stages);
    }

    /** The chain as an engine that retries by itself (Temporal) assembles it for its attempt {@code attempt}. */
    private ModelChain engineChain(BudgetMeter meter, int attempt) {
        return new ModelChain(List.of(new TracingStage(tracer, meter, attempt == 1),
                RetryStage.engineAttempt(new RetryPolicy(2, Duration.ofMillis(40), Duration.ofSeconds(1), 0), meter, tracer, attempt),
                ModelChain.MODEL));
    }

    /** A stage that puts {@code name} around whatever model an attempt reaches. */
    private ModelInterceptor around(String name) {
        return new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                return chain.proceed(call);
            }

            @Override
            public Model aroundModel(ModelCall call) {
                Model inner = call.model();
                return new Model() {
                    @Override
                    public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
                        log.add(name + " around " + request.model());
                        return inner.call(request, context);
                    }

                    @Override
                    public long countTokens(ModelRequest request) throws ModelException, InterruptedException {
                        log.add(name + " counts");
                        return inner.countTokens(request);
                    }
                };
            }
        };
    }

    /**
     * A run waiting for a model that aborts on interrupt parks with the whole chain on its stack, and at thousands of
     * runs in flight every frame of it is copied to the heap at each park (docs/performance-log.md, 2026-12-07): the
     * deadline stage passes the call on directly, with no frames of its own (a helper, the time limit's runner, a
     * lambda) between it and the next stage.
     */
    @Test
    void theDeadlineStageAddsNoFramesOfItsOwnUnderAModelThatAbortsOnInterrupt() throws Exception {
        List<StackTraceElement> stack = new ArrayList<>();
        Model model = new Model() {
            @Override
            public ModelResponse call(ModelRequest request, ModelCallContext context) {
                stack.addAll(List.of(Thread.currentThread().getStackTrace()));
                return answer(request);
            }

            @Override
            public boolean abortsOnInterrupt() {
                return true;
            }
        };
        chain(meter(Duration.ofMinutes(1)), List.of())
                .call(new ModelCall(model, request("main"), "step", ModelCallContext.until(Instant.now().plusSeconds(60))));

        List<String> frames = stack.stream().map(f -> f.getClassName() + "." + f.getMethodName()).toList();
        int deadline = frames.indexOf(DeadlineStage.class.getName() + "$Bound.proceed"); // bound to the model stage
        assertThat(deadline).as("the deadline stage is on the stack: %s", frames).isPositive();
        assertThat(frames.get(deadline - 1)).as("the frame above the deadline stage's, in %s", frames)
                .isEqualTo(ModelChain.class.getName() + "$Innermost.proceed");
        assertThat(log).contains("end of attempt");
    }

    /**
     * The stages that build a response anew (the estimate for an unreported usage, the masking of a
     * secret) keep the provider's own stop reason and stop detail, its service tiers and its system
     * fingerprint: the traced response carries them.
     */
    @Test
    void theProvidersStopReasonSurvivesTheStagesThatRebuildTheResponse() throws Exception {
        Model model = (request, context) -> new ModelResponse("r", request.model(), List.of(new TextBlock("key sk-123")),
                StopReason.UNKNOWN, null, null, "filtered", "eos", "flex", "flex", "fp_44709d6fcb");
        MaskingStage masking = new MaskingStage(block -> block instanceof TextBlock t
                ? new TextBlock(t.text().replace("sk-123", "[masked]")) : block, (before, after) -> { });
        ModelResponse response = chain(meter(Duration.ofMinutes(1)), List.of(masking))
                .call(new ModelCall(model, request("main"), "step", ModelCallContext.until(Instant.now().plusSeconds(60))));

        assertThat(response.text()).isEqualTo("key [masked]");
        assertThat(response.usage().estimated()).isTrue();
        assertThat(response.providerStopReason()).isEqualTo("eos");
        assertThat(response.stopDetail()).isEqualTo("filtered");
        assertThat(response.serviceTier()).isEqualTo("flex");
        assertThat(response.providerServiceTier()).isEqualTo("flex");
        assertThat(response.systemFingerprint()).isEqualTo("fp_44709d6fcb");
        assertThat(events).filteredOn(TraceEvent.ModelResponded.class::isInstance).map(e -> ((TraceEvent.ModelResponded) e).response())
                .singleElement().satisfies(traced -> {
                    assertThat(traced.providerStopReason()).isEqualTo("eos");
                    assertThat(traced.systemFingerprint()).isEqualTo("fp_44709d6fcb");
                });
    }

    /**
     * The application stages' models are around the model each attempt reaches, a fallback a stage
     * further in chose included (it never passed the outer stages' intercept), the first added
     * outermost; token counts pass them too. A stage that returns null from aroundModel is named.
     */
    @Test
    void theStagesModelsAreAroundAFallbackModelChosenFurtherInFirstAddedOutermost() throws Exception {
        Model main = (request, context) -> {
            throw new ModelException(ModelException.Kind.AUTHENTICATION, 401, "bad key");
        };
        Model backup = (request, context) -> answer(request);
        ModelInterceptor fallback = new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                try {
                    return chain.proceed(call);
                } catch (ModelException e) {
                    return chain.proceed(call.withModel(backup).withRequest(call.request().withModel("fallback")));
                }
            }

            @Override
            public boolean retries() {
                return true;
            }
        };
        BudgetMeter meter = meter(Duration.ofMinutes(1));
        ModelChain chain = chain(meter, List.of(around("outer"), around("inner"), fallback));
        chain.call(new ModelCall(main, request("main"), "step", ModelCallContext.until(Instant.now().plusSeconds(60))));
        assertThat(log).filteredOn(line -> line.contains(" around ")).containsExactly("outer around main", "inner around main",
                "outer around fallback", "inner around fallback");

        log.clear();
        chain.count(new ModelCall(backup, request("main"), "count_tokens", ModelCallContext.until(Instant.now().plusSeconds(60))));
        assertThat(log).filteredOn(line -> line.endsWith(" counts")).containsExactly("outer counts", "inner counts");

        ModelInterceptor broken = new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                return chain.proceed(call);
            }

            @Override
            public Model aroundModel(ModelCall call) {
                return null;
            }

            @Override
            public String toString() {
                return "broken";
            }
        };
        assertThatThrownBy(() -> chain(meter, List.of(broken)).call(new ModelCall(backup, request("main"), "step",
                ModelCallContext.until(Instant.now().plusSeconds(60))))).isInstanceOf(ReinException.class).hasMessageContaining("broken returned null from aroundModel");
    }

    @Test
    void anEngineAttemptTracesTheRetryAndLeavesTheWaitToTheEngineAndOnlyTheFirstTracesTheRequest() throws Exception {
        Model overloaded = (request, context) -> {
            throw new ModelException(ModelException.Kind.OVERLOADED, 529, "overloaded");
        };
        BudgetMeter meter = meter(Duration.ofMinutes(1));

        assertThatThrownBy(() -> engineChain(meter, 1).call(call(overloaded, request("main"), Duration.ofMinutes(1))))
                .isInstanceOfSatisfying(RetryStage.RetryLater.class, later -> {
                    assertThat(later.attempt()).isEqualTo(1);
                    assertThat(later.delay()).isEqualTo(Duration.ofMillis(40));
                });
        assertThatThrownBy(() -> engineChain(meter, 2).call(call(overloaded, request("main"), Duration.ofMinutes(1))))
                .isInstanceOfSatisfying(RetryStage.RetryLater.class, later -> assertThat(later.delay()).isEqualTo(Duration.ofMillis(80)));
        assertThatThrownBy(() -> engineChain(meter, 3).call(call(overloaded, request("main"), Duration.ofMinutes(1))))
                .isInstanceOf(RetryStage.GaveUp.class).hasMessageEndingWith("gave up after 3 attempts");

        // the same trace as one call retried in place: requested once, two retries, the final failure
        assertThat(log).containsExactly("trace:ModelRequested", "trace:ModelRetry", "trace:ModelRetry", "trace:ModelFailed");
        assertThat(events).filteredOn(TraceEvent.ModelRetry.class::isInstance).map(e -> ((TraceEvent.ModelRetry) e).attempt())
                .containsExactly(1, 2);
    }

    private static Model rateLimitedOnce(Duration retryAfter, int[] attempts) {
        return (request, context) -> {
            if (++attempts[0] == 1) {
                throw new ModelException(ModelException.Kind.RATE_LIMITED, 429, "rate_limit_error: slow down", true,
                        retryAfter, "req_1", null);
            }
            return answer(request);
        };
    }

    /** The chain of {@link #chain} without application stages, whose retry stage waits with {@code sleeper}. */
    private ModelChain sleepingChain(BudgetMeter meter, dev.rein.internal.concurrent.Sleeper sleeper) {
        return new ModelChain(List.of(new TracingStage(tracer, meter), new PricingStage(meter, "main", PRICES),
                new RetryStage(new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(1), 0), meter, tracer, sleeper),
                ModelChain.MODEL));
    }

    @Test
    void aRetryAfterOf30SecondsIsWaitedInFullThoughTheMaximumDelayIsShorter() throws Exception {
        int[] attempts = {0};
        List<Duration> slept = new ArrayList<>();
        BudgetMeter meter = meter(Duration.ofMinutes(5));

        ModelResponse response = sleepingChain(meter, slept::add)
                .call(call(rateLimitedOnce(Duration.ofSeconds(30), attempts), request("main"), Duration.ofMinutes(5)));

        assertThat(response.text()).isEqualTo("ok");
        assertThat(attempts[0]).isEqualTo(2);
        assertThat(slept).containsExactly(Duration.ofSeconds(30));
        assertThat(events).filteredOn(TraceEvent.ModelRetry.class::isInstance)
                .map(e -> ((TraceEvent.ModelRetry) e).delayMillis()).containsExactly(30_000L);
    }

    @Test
    void aRetryAfterLongerThanReinWaitsFailsAtOnceSayingSoWithTheProvidersError() {
        int[] attempts = {0};
        List<Duration> slept = new ArrayList<>();
        BudgetMeter meter = meter(Duration.ofMinutes(5));

        assertThatThrownBy(() -> sleepingChain(meter, slept::add)
                .call(call(rateLimitedOnce(Duration.ofSeconds(120), attempts), request("main"), Duration.ofMinutes(5))))
                .isInstanceOf(RetryStage.GaveUp.class)
                .hasMessage("rate_limit_error: slow down; not retried: the server asked to wait 120 s, more than Rein waits "
                        + "(60 s); try again later, or raise the account's rate limits");
        assertThat(attempts[0]).isEqualTo(1);
        assertThat(slept).isEmpty();
        assertThat(log).containsExactly("trace:ModelRequested", "trace:ModelFailed");
        assertThat(((TraceEvent.ModelFailed) events.get(1)).message()).as("the trace keeps the provider's own message")
                .isEqualTo("rate_limit_error: slow down");
    }

    /**
     * A hint over RetryPolicy.LONGEST_HINT is said to be longer than Rein waits also when the run has too little time left
     * for it, as docs/safety.md promises for tools and model calls alike: blaming the deadline suggested a longer run
     * timeout would get the call retried (it said "not retried because waiting would pass the run's deadline"). A hint
     * Rein would wait for, but the deadline leaves no room for, still blames the deadline.
     */
    @Test
    void aHintLongerThanReinWaitsSaysSoAlsoWhenItWouldPassTheRunsDeadline() {
        int[] attempts = {0};
        BudgetMeter meter = meter(Duration.ofSeconds(20));

        assertThatThrownBy(() -> sleepingChain(meter, d -> {})
                .call(call(rateLimitedOnce(Duration.ofSeconds(120), attempts), request("main"), Duration.ofSeconds(20))))
                .isInstanceOf(RetryStage.GaveUp.class)
                .hasMessageEndingWith("not retried: the server asked to wait 120 s, more than Rein waits (60 s); try again later, "
                        + "or raise the account's rate limits")
                .message().doesNotContain("deadline");
        assertThat(attempts[0]).isEqualTo(1);
        assertThatThrownBy(() -> sleepingChain(meter, d -> {})
                .call(call(rateLimitedOnce(Duration.ofSeconds(30), new int[] {0}), request("main"), Duration.ofSeconds(20))))
                .isInstanceOf(RetryStage.GaveUp.class).hasMessageEndingWith("not retried because waiting would pass the run's deadline");
    }

    /**
     * A call that used its last retry is said to have given up after its attempts, as a tool's is, also when the next
     * wait would pass the run's deadline: that wait would never be made, so blaming the deadline suggested a longer run
     * timeout would get the call retried (it said "not retried because waiting would pass the run's deadline").
     */
    @Test
    void aCallThatUsedItsRetriesGaveUpAfterItsAttemptsAlsoWhenTheNextWaitWouldPassTheDeadline() {
        int[] attempts = {0};
        Model limited = (request, context) -> {
            Duration hint = ++attempts[0] < 3 ? Duration.ofSeconds(1) : Duration.ofSeconds(50);
            throw new ModelException(ModelException.Kind.RATE_LIMITED, 429, "rate_limit_error: slow down", true, hint, "req_1", null);
        };
        BudgetMeter meter = meter(Duration.ofSeconds(20));

        assertThatThrownBy(() -> sleepingChain(meter, d -> {}).call(call(limited, request("main"), Duration.ofSeconds(20))))
                .isInstanceOf(RetryStage.GaveUp.class).hasMessage("rate_limit_error: slow down; gave up after 3 attempts");
        assertThat(attempts[0]).isEqualTo(3);
    }

    @Test
    void anEngineIsHandedAHintOf30SecondsInFullAndNoRetryForOneOf120() {
        BudgetMeter meter = meter(Duration.ofMinutes(5));
        assertThatThrownBy(() -> engineChain(meter, 1)
                .call(call(rateLimitedOnce(Duration.ofSeconds(30), new int[] {0}), request("main"), Duration.ofMinutes(5))))
                .isInstanceOfSatisfying(RetryStage.RetryLater.class, later -> assertThat(later.delay()).isEqualTo(Duration.ofSeconds(30)));
        assertThatThrownBy(() -> engineChain(meter, 1)
                .call(call(rateLimitedOnce(Duration.ofSeconds(120), new int[] {0}), request("main"), Duration.ofMinutes(5))))
                .isInstanceOf(RetryStage.GaveUp.class).hasMessageContaining("the server asked to wait 120 s, more than Rein waits (60 s)");
    }

    /**
     * A wait is checked against the run's deadline as it is made and reported: in whole milliseconds, a fraction rounded
     * up. The check used the unrounded delay, so a wait of 9.5 ms with 9.7 ms left was scheduled, though it is waited
     * (and handed to an engine such as Temporal) as 10 ms, past the deadline. A wait that fits once rounded is made,
     * as the same whole milliseconds the trace reports.
     */
    @Test
    void aWaitIsCheckedAgainstTheDeadlineInTheWholeMillisecondsItIsWaitedAndReported() throws Exception {
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        fixedNow = start;
        BudgetMeter meter = new BudgetMeter(Budget.builder().maxDuration(Duration.ofNanos(9_700_000)).build(), PRICES, "main",
                Clock.fixed(start, java.time.ZoneOffset.UTC), start);
        RetryPolicy policy = new RetryPolicy(2, Duration.ofNanos(9_500_000), Duration.ofSeconds(1), 0);
        Model overloaded = (request, context) -> {
            throw new ModelException(ModelException.Kind.OVERLOADED, 529, "overloaded");
        };
        ModelCall call = new ModelCall(overloaded, request("main"), "step", ModelCallContext.until(start.plusSeconds(60)));
        List<Duration> slept = new ArrayList<>();

        assertThatThrownBy(() -> only(new RetryStage(policy, meter, tracer, slept::add)).call(call))
                .isInstanceOf(RetryStage.GaveUp.class).hasMessageEndingWith("not retried because waiting would pass the run's deadline");
        assertThat(slept).isEmpty();
        assertThatThrownBy(() -> only(RetryStage.engineAttempt(policy, meter, tracer, 1)).call(call))
                .isInstanceOf(RetryStage.GaveUp.class).hasMessageEndingWith("not retried because waiting would pass the run's deadline");
        assertThat(slept).isEmpty();
        assertThat(events).isEmpty();

        BudgetMeter roomy = new BudgetMeter(Budget.builder().maxDuration(Duration.ofNanos(10_100_000)).build(), PRICES, "main",
                Clock.fixed(start, java.time.ZoneOffset.UTC), start);
        assertThatThrownBy(() -> only(new RetryStage(new RetryPolicy(1, Duration.ofNanos(9_500_000), Duration.ofSeconds(1), 0),
                roomy, tracer, slept::add)).call(call))
                .isInstanceOf(RetryStage.GaveUp.class).hasMessageEndingWith("gave up after 2 attempts");
        assertThat(slept).containsExactly(Duration.ofMillis(10));
        assertThatThrownBy(() -> only(RetryStage.engineAttempt(policy, roomy, tracer, 1)).call(call))
                .isInstanceOfSatisfying(RetryStage.RetryLater.class, later -> assertThat(later.delay()).isEqualTo(Duration.ofMillis(10)));
        assertThat(events).filteredOn(TraceEvent.ModelRetry.class::isInstance)
                .map(e -> ((TraceEvent.ModelRetry) e).delayMillis()).containsExactly(10L, 10L);
    }

    private static ModelChain only(RetryStage stage) {
        return new ModelChain(List.of(stage, ModelChain.MODEL));
    }

    @Test
    void aPolicyWithoutRetriesSaysItGaveUpAfterOneAttemptInSingular() {
        // said "gave up after 1 attempts"
        Model overloaded = (request, context) -> {
            throw new ModelException(ModelException.Kind.OVERLOADED, 529, "overloaded");
        };
        BudgetMeter meter = meter(Duration.ofMinutes(1));
        ModelChain noRetries = new ModelChain(List.of(new RetryStage(RetryPolicy.NONE, meter, tracer), ModelChain.MODEL));

        assertThatThrownBy(() -> noRetries.call(call(overloaded, request("main"), Duration.ofMinutes(1))))
                .isInstanceOf(RetryStage.GaveUp.class).hasMessage("overloaded; gave up after 1 attempt");
    }

    private static ModelCall call(Model model, ModelRequest request, Duration left) {
        return new ModelCall(model, request, "step", ModelCallContext.until(Instant.now().plus(left)));
    }

    private ModelInterceptor recording(String name) {
        return (call, chain) -> {
            log.add(name + ":before");
            ModelResponse response = chain.proceed(call);
            log.add(name + ":after");
            return response;
        };
    }

    @Test
    void stagesRunInTheDocumentedOrderAndRetriesHappenBelowTheApplication() throws Exception {
        int[] attempts = {0};
        Model flaky = (request, context) -> {
            log.add("model:" + ++attempts[0]);
            if (attempts[0] == 1) {
                throw new ModelException(ModelException.Kind.OVERLOADED, 529, "overloaded");
            }
            return answer(request);
        };
        BudgetMeter meter = meter(Duration.ofMinutes(1));
        chain(meter, List.of(recording("first"), recording("second"))).call(call(flaky, request("main"), Duration.ofMinutes(1)));

        assertThat(log).containsExactly("trace:ModelRequested", "first:before", "second:before", "model:1",
                "end of attempt", "trace:ModelRetry", "model:2", "end of attempt", "second:after", "first:after", "trace:ModelResponded");
        TraceEvent.ModelResponded responded = (TraceEvent.ModelResponded) events.get(events.size() - 1);
        assertThat(responded.costUsd()).as("priced below the application, traced above it").isEqualByComparingTo("1");
        assertThat(meter.costUsd()).isEqualByComparingTo("1");
    }

    @Test
    void aFallbackChosenByAnApplicationStageIsPricedAsItself() throws Exception {
        Model model = (request, context) -> answer(request);
        ModelInterceptor fallback = (call, chain) -> chain.proceed(call.withRequest(call.request().withModel("fallback")));
        BudgetMeter meter = meter(Duration.ofMinutes(1));
        chain(meter, List.of(fallback)).call(call(model, request("main"), Duration.ofMinutes(1)));
        assertThat(meter.costUsd()).isEqualByComparingTo("2");
    }

    @Test
    void theChainPolicesItsContract() {
        Model model = (request, context) -> answer(request);
        BudgetMeter meter = meter(Duration.ofMinutes(1));
        ModelInterceptor twice = new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                chain.proceed(call);
                return chain.proceed(call);
            }

            @Override
            public String toString() {
                return "twice";
            }
        };
        assertThatThrownBy(() -> chain(meter, List.of(twice)).call(call(model, request("main"), Duration.ofMinutes(1))))
                .isInstanceOf(ReinException.class).hasMessageContaining("twice").hasMessageContaining("more than once");

        ModelInterceptor rewrites = (call, chain) -> chain.proceed(call.withRequest(
                call.request().toBuilder().addMessage(Message.assistant(List.of(new TextBlock("injected")))).build()));
        assertThatThrownBy(() -> chain(meter, List.of(rewrites)).call(call(model, request("main"), Duration.ofMinutes(1))))
                .isInstanceOf(ReinException.class).hasMessageContaining("changed the conversation");

        ModelInterceptor nothing = (call, chain) -> null;
        assertThatThrownBy(() -> chain(meter, List.of(nothing)).call(call(model, request("main"), Duration.ofMinutes(1))))
                .isInstanceOf(ReinException.class).hasMessageContaining("returned null");

        ModelInterceptor passesNull = new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                return chain.proceed(null);
            }

            @Override
            public String toString() {
                return "passes-null";
            }
        };
        assertThatThrownBy(() -> chain(meter, List.of(passesNull)).call(call(model, request("main"), Duration.ofMinutes(1))))
                .isInstanceOf(ReinException.class).hasMessageContaining("passes-null").hasMessageContaining("proceeded with null");
    }

    @Test
    void aTokenCountIsTracedAndBoundedByTheDeadline() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        Model counting = new Model() {
            @Override
            public ModelResponse call(ModelRequest request, ModelCallContext context) {
                throw new AssertionError("not called");
            }

            @Override
            public long countTokens(ModelRequest request) throws InterruptedException {
                if (request.model().equals("slow")) {
                    never.await();
                }
                return 42;
            }
        };
        BudgetMeter roomy = meter(Duration.ofMinutes(1));
        assertThat(chain(roomy, List.of()).count(call(counting, request("main"), Duration.ofMinutes(1)))).isEqualTo(42);
        assertThat(events).singleElement().isInstanceOfSatisfying(TraceEvent.TokensCounted.class,
                e -> assertThat(e.inputTokens()).isEqualTo(42));

        BudgetMeter tight = meter(Duration.ofMillis(200));
        assertThatThrownBy(() -> chain(tight, List.of()).count(call(counting, request("slow"), Duration.ofMillis(200))))
                .isInstanceOf(ModelDeadlineException.class).hasMessageContaining("time limit");
    }

    /** A failed count was traced as -1 and nothing else: a trace reader could not tell why the count is missing. */
    @Test
    void aFailedTokenCountIsTracedWithWhyItFailed() {
        Model failing = new Model() {
            @Override
            public ModelResponse call(ModelRequest request, ModelCallContext context) {
                throw new AssertionError("not called");
            }

            @Override
            public long countTokens(ModelRequest request) throws ModelException {
                throw new ModelException(ModelException.Kind.SERVER_ERROR, 503, "count_tokens is overloaded");
            }
        };
        BudgetMeter roomy = meter(Duration.ofMinutes(1));
        assertThatThrownBy(() -> chain(roomy, List.of()).count(call(failing, request("main"), Duration.ofMinutes(1))))
                .isInstanceOf(ModelException.class);
        assertThat(events).singleElement().isInstanceOfSatisfying(TraceEvent.TokensCounted.class, e -> {
            assertThat(e.inputTokens()).isEqualTo(-1);
            assertThat(e.error()).isEqualTo("SERVER_ERROR (HTTP 503): count_tokens is overloaded");
        });
        assertThat(dev.rein.json.Json.write(events.get(0))).contains("\"error\":\"SERVER_ERROR (HTTP 503)");
    }
}
