package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.context.OutputStore;
import dev.rein.model.ModelException;
import dev.rein.retry.RetryPolicy;
import dev.rein.run.RunStatus;
import dev.rein.run.Verifier;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.TraceEvent;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptorBase;
import io.temporal.common.interceptors.WorkerInterceptorBase;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.WorkerFactoryOptions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class TemporalRunTest {
    @Test
    void aToolStepRunSucceedsWithTheLocalAnswerAndTraceEvents() {
        RecordingListener local = new RecordingListener();
        RunResult expected = Orders.agent(Orders.lookupThenAnswer(), local, Orders.lookup()).build().run("A-1 と A-2 の状況は?");

        RecordingListener remote = new RecordingListener();
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), remote, Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("A-1 と A-2 の状況は?", "run-equivalence").result();

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.answer()).isEqualTo(expected.answer()).isEqualTo("注文 A-1 と A-2 は配達済みです。");
            assertThat(result.runId()).isEqualTo("run-equivalence");
            assertThat(result.steps()).isEqualTo(expected.steps());
            assertThat(result.costUsd()).isEqualByComparingTo(expected.costUsd());
            // The reads of a step run as activities of their own, concurrently (possibly on different workers), so
            // unlike locally they are not admitted in call order, and results are reported as they end: the tool
            // events of a step are compared as calls then results, each in any order.
            assertThat(stepwise(types(remote.events()))).isEqualTo(stepwise(types(local.events())));
            assertThat(remote.events(TraceEvent.ToolCalled.class)).extracting(TraceEvent.ToolCalled::callId)
                    .containsExactlyInAnyOrderElementsOf(local.events(TraceEvent.ToolCalled.class).stream()
                            .map(TraceEvent.ToolCalled::callId).toList());
            assertThat(remote.events(TraceEvent.ToolCompleted.class)).extracting(TraceEvent.ToolCompleted::content)
                    .containsExactlyInAnyOrderElementsOf(local.events(TraceEvent.ToolCompleted.class).stream()
                            .map(TraceEvent.ToolCompleted::content).toList());
        }
    }

    @Test
    void aTimeoutTooLongToCountWaitsForTheResultAndNoTimeoutIsSaidPlainly() throws Exception {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 と A-2 の状況は?", "run-forever");

            assertThat(run.result(java.time.temporal.ChronoUnit.FOREVER.getDuration()).status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(run.result(java.time.Duration.ofDays(365 * 200)).status()).isEqualTo(RunStatus.SUCCEEDED);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> run.result(null)).isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("result(timeout) was given no timeout").hasMessageContaining("result()");
        }
    }

    @Test
    void aNonRetryableModelErrorEndsTheRunFailedWithItsReasonAndIsNotRetried() {
        ScriptedModel model = ScriptedModel.of(ScriptedModel.fail(new ModelException(ModelException.Kind.PERMISSION, 403,
                "this key may not use the model")), ScriptedModel.text("never reached"));
        Agent agent = Orders.agent(model, new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("goal", "run-permission").result();

            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.reason()).isEqualTo("provider_error");
            assertThat(result.message()).contains("HTTP 403").contains("this key may not use the model");
            assertThat(model.remaining()).isEqualTo(1);
        }
    }

    @Test
    void aTransientModelErrorIsRetriedByTemporalWithTheLocalTrace() {
        RecordingListener local = new RecordingListener();
        RunResult expected = Orders.agent(rateLimitedOnce(), local, Orders.lookup()).retryPolicy(QUICK_RETRIES).build()
                .run("A-1?");

        RecordingListener remote = new RecordingListener();
        ScriptedModel model = rateLimitedOnce();
        Agent agent = Orders.agent(model, remote, Orders.lookup()).retryPolicy(QUICK_RETRIES).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("A-1?", "run-transient").result();

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED).isEqualTo(expected.status());
            assertThat(result.answer()).isEqualTo(expected.answer()).isEqualTo("A-1 は配達済みです。");
            assertThat(model.remaining()).isZero();
            // one logical call: requested once, the retry traced, no failure for an attempt that was retried
            assertThat(types(remote.events())).isEqualTo(types(local.events())).contains("ModelRetry").doesNotContain("ModelFailed");
            assertThat(remote.events(TraceEvent.ModelRetry.class)).singleElement().satisfies(r -> {
                assertThat(r.attempt()).isEqualTo(1);
                assertThat(r.httpStatus()).isEqualTo(429);
            });
        }
    }

    @Test
    void aModelErrorStillTransientAfterTheAgentsRetriesEndsTheRunFailedAsLocally() {
        ModelException overloaded = new ModelException(ModelException.Kind.OVERLOADED, 529, "overloaded");
        RecordingListener local = new RecordingListener();
        RunResult expected = Orders.agent(failingThrice(overloaded), local, Orders.lookup()).retryPolicy(QUICK_RETRIES).build()
                .run("A-1?");

        RecordingListener remote = new RecordingListener();
        ScriptedModel model = failingThrice(overloaded);
        Agent agent = Orders.agent(model, remote, Orders.lookup()).retryPolicy(QUICK_RETRIES).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("A-1?", "run-exhausted").result();

            assertThat(result.status()).isEqualTo(RunStatus.FAILED).isEqualTo(expected.status());
            assertThat(result.reason()).isEqualTo(expected.reason()).isEqualTo("provider_error");
            assertThat(result.message()).isEqualTo(expected.message()).endsWith("gave up after 3 attempts");
            assertThat(result.steps()).as("the failed call's step counted, as locally").isEqualTo(expected.steps()).isEqualTo(1);
            assertThat(model.remaining()).as("maxRetries 2: three attempts, the fourth turn never asked").isEqualTo(1);
            assertThat(types(remote.events())).isEqualTo(types(local.events()));
            assertThat(remote.events(TraceEvent.ModelRetry.class)).extracting(TraceEvent.ModelRetry::attempt).containsExactly(1, 2);
        }
    }

    @Test
    void aRateLimitAskingForLongerThanReinWaitsEndsTheRunFailedAtOnceAsLocally() {
        ModelException longWait = new ModelException(ModelException.Kind.RATE_LIMITED, 429, "slow down", true,
                Duration.ofSeconds(120), "req_1", null);
        RunResult expected = Orders.agent(failingThrice(longWait), new RecordingListener(), Orders.lookup()).retryPolicy(QUICK_RETRIES)
                .build().run("A-1?");

        ScriptedModel model = failingThrice(longWait);
        Agent agent = Orders.agent(model, new RecordingListener(), Orders.lookup()).retryPolicy(QUICK_RETRIES).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("A-1?", "run-long-wait").result();

            assertThat(result.status()).isEqualTo(RunStatus.FAILED).isEqualTo(expected.status());
            assertThat(result.reason()).isEqualTo(expected.reason()).isEqualTo("provider_error");
            assertThat(result.message()).isEqualTo(expected.message())
                    .contains("not retried: the server asked to wait 120 s, more than Rein waits (60 s)");
            assertThat(model.remaining()).as("one attempt only").isEqualTo(3);
        }
    }

    /**
     * A retry delay under a millisecond, or between two, reaches Temporal rounded up to whole milliseconds: the Java
     * SDK sends durations in whole milliseconds (ProtobufTimeUtils.toProtoDuration), so 0.4 ms went as 0, and an
     * initial interval of 0 is one Temporal replaces with its default of 1 s (a retry of a lost worker's call waited
     * 2,500 times the policy's delay), while the failure's own delay said "retry at once". The initial interval is read
     * from the run's history, the failure's delay where the worker throws it (the test server records no last failure).
     */
    @Test
    void aRetryDelayUnderAMillisecondReachesTemporalRoundedUpNotToZero() {
        RetryPolicy fractional = new RetryPolicy(2, Duration.ofNanos(400_000), Duration.ofNanos(2_300_000), 0);
        Agent agent = Orders.agent(rateLimitedOnce(), new RecordingListener(), Orders.lookup()).retryPolicy(fractional).build();
        List<Duration> failureDelays = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
                .setWorkflowClientOptions(TemporalAgents.clientOptions().build())
                .setWorkerFactoryOptions(WorkerFactoryOptions.newBuilder()
                        .setWorkerInterceptors(failureDelays(failureDelays)).build()).build())) {
            TemporalAgents.worker(env.newWorker(TemporalTestServer.QUEUE), agent);
            env.start();
            RunResult result = TemporalAgents.client(env.getWorkflowClient(), TemporalTestServer.QUEUE, agent)
                    .start("A-1?", "run-fractional-delay").result();
            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);

            io.temporal.api.common.v1.RetryPolicy scheduled = env.getWorkflowClient().fetchHistory("run-fractional-delay")
                    .getEvents().stream()
                    .filter(io.temporal.api.history.v1.HistoryEvent::hasActivityTaskScheduledEventAttributes)
                    .map(io.temporal.api.history.v1.HistoryEvent::getActivityTaskScheduledEventAttributes)
                    .filter(a -> a.getActivityType().getName().equals("ReinCallModel"))
                    .findFirst().orElseThrow().getRetryPolicy();
            assertThat(com.google.protobuf.util.Durations.toNanos(scheduled.getInitialInterval()))
                    .as("the initial interval: 0.4 ms up to 1 ms").isEqualTo(1_000_000L);
            assertThat(failureDelays).as("the rate-limited attempt's delay: 0.4 ms up to 1 ms").containsExactly(Duration.ofMillis(1));
        }
    }

    /**
     * docs/temporal.md: any retry policy a local run takes runs on Temporal, with delays over 365 days counted as 365
     * days. A provider's retryable failure under a policy whose delay is past 10,000 years (and a budget without a time
     * limit, so no deadline refuses the wait) gave that delay to the failure as it was, which Temporal cannot send (a
     * protobuf Duration holds at most 10,000 years). The time the test server skips is not the test's.
     */
    @Test
    void aRetryDelayPastWhatTemporalCanSetIsWaitedAs365Days() throws TimeoutException {
        RetryPolicy endless = new RetryPolicy(2, Duration.ofSeconds(Long.MAX_VALUE), Duration.ofSeconds(Long.MAX_VALUE), 0);
        Agent agent = Orders.agent(rateLimitedOnce(), new RecordingListener(), Orders.lookup()).retryPolicy(endless)
                .budget(dev.rein.budget.Budget.builder().maxDuration(null).build()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("A-1?", "run-endless-delay").result(Duration.ofSeconds(60));

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.answer()).isEqualTo("A-1 は配達済みです。");
        }
    }

    /**
     * Retries whose delays together pass 365 days, in a run without a time limit: the model call's activity had a
     * schedule-to-close timeout of 365 days and 10 s, so Temporal stopped retrying after the first delay and the run ended
     * FAILED with the provider's 429, where a local run with the same policy waits and succeeds. The test server skips
     * the days.
     */
    @Test
    void retriesWhoseDelaysTogetherPass365DaysAreAllWaitedInARunWithoutATimeLimit() throws TimeoutException {
        for (RetryPolicy policy : List.of(new RetryPolicy(2, Duration.ofDays(200), Duration.ofDays(200), 0),
                new RetryPolicy(2, Duration.ofSeconds(Long.MAX_VALUE), Duration.ofSeconds(Long.MAX_VALUE), 0))) {
            dev.rein.budget.Budget unlimited = dev.rein.budget.Budget.builder().maxDuration(null).build();
            Agent agent = Orders.agent(rateLimitedTwice(), new RecordingListener(), Orders.lookup()).retryPolicy(policy)
                    .budget(unlimited).build();
            try (TemporalTestServer server = new TemporalTestServer()) {
                RunResult result = server.start(agent).start("A-1?", "run-long-delays").result(Duration.ofSeconds(60));

                assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.SUCCEEDED);
                assertThat(result.answer()).isEqualTo("A-1 は配達済みです。");
            }
        }
    }

    /**
     * Retries whose delays together pass 365 days, in a run whose time limit is further off than that: the model call's
     * activity had a schedule-to-close timeout of 365 days and 10 s (a deadline past 365 days counted as 365), so Temporal
     * stopped retrying after the first delay and the run ended FAILED with the provider's 429 long before its deadline,
     * where a local run waits and succeeds. The test server skips the days.
     */
    @Test
    void retriesWhoseDelaysTogetherPass365DaysAreAllWaitedInARunWhoseTimeLimitIsLonger() throws TimeoutException {
        dev.rein.budget.Budget long1000Days = dev.rein.budget.Budget.builder().maxDuration(Duration.ofDays(1000)).build();
        Agent agent = Orders.agent(rateLimitedTwice(), new RecordingListener(), Orders.lookup())
                .retryPolicy(new RetryPolicy(2, Duration.ofDays(200), Duration.ofDays(200), 0)).budget(long1000Days).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("A-1?", "run-long-deadline-delays").result(Duration.ofSeconds(60));

            assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.answer()).isEqualTo("A-1 は配達済みです。");
        }
    }

    @Test
    void aRetryWhoseDelayPassesALongTimeLimitCountedFromTheCallsFirstAttemptIsNotWaited() throws TimeoutException {
        // 400 days: the first 429 at day 0 may wait 300 days; the second, at day 300, may not (the deadline is 100 days
        // off), as a local run ends. Each attempt used to count the deadline from its own start, and waited it
        dev.rein.budget.Budget long400Days = dev.rein.budget.Budget.builder().maxDuration(Duration.ofDays(400)).build();
        Agent agent = Orders.agent(rateLimitedTwice(), new RecordingListener(), Orders.lookup())
                .retryPolicy(new RetryPolicy(2, Duration.ofDays(300), Duration.ofDays(300), 0)).budget(long400Days).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("A-1?", "run-long-deadline-delay-past-it").result(Duration.ofSeconds(60));

            assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.FAILED);
            assertThat(result.reason()).isEqualTo("provider_error");
            assertThat(result.message()).contains("slow down");
        }
    }

    /**
     * A retry attempt counts the run's deadline from when the call was first scheduled, as a local run counts it from
     * the call's start: with a deadline of 1 hour and delays of 40 minutes, the second 429 (at 40 minutes) is not
     * retried, and the run ends FAILED with the message and trace of a local run whose deadline passed during its
     * retries (here 3 s and 2 s, which a local run waits). Each attempt counted the deadline from its own start, so the
     * second saw the whole hour left, traced a model_retry and waited, and the third attempt answered past the
     * deadline. The test server skips the minutes.
     */
    @Test
    void aRetryWhoseDelayWouldPassTheDeadlineCountedFromTheCallsFirstAttemptEndsTheRunAsLocally() throws TimeoutException {
        SameAsLocal.Ran local = SameAsLocal.local(trace -> Orders.agent(rateLimitedTwice(), trace, Orders.lookup())
                .retryPolicy(new RetryPolicy(2, Duration.ofSeconds(2), Duration.ofSeconds(2), 0))
                .budget(dev.rein.budget.Budget.builder().maxDuration(Duration.ofSeconds(3)).build()).build(), "A-1?");
        RecordingListener trace = new RecordingListener();
        Agent agent = Orders.agent(rateLimitedTwice(), trace, Orders.lookup())
                .retryPolicy(new RetryPolicy(2, Duration.ofMinutes(40), Duration.ofMinutes(40), 0))
                .budget(dev.rein.budget.Budget.builder().maxDuration(Duration.ofHours(1)).build()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("A-1?", "run-retry-past-deadline").result(Duration.ofSeconds(60));
            SameAsLocal.Ran remote = new SameAsLocal.Ran(result, trace);

            SameAsLocal.assertSameAsLocal(remote, local, SameAsLocal.Also.MESSAGE, SameAsLocal.Also.TRACE_EVENTS);
            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.message()).contains("slow down").endsWith("not retried because waiting would pass the run's deadline");
            assertThat(trace.events(TraceEvent.ModelRetry.class)).extracting(TraceEvent.ModelRetry::attempt).containsExactly(1);
        }
    }

    private static ScriptedModel rateLimitedTwice() {
        ModelException slowDown = new ModelException(ModelException.Kind.RATE_LIMITED, 429, "slow down");
        return ScriptedModel.of(ScriptedModel.fail(slowDown), ScriptedModel.fail(slowDown), ScriptedModel.text("A-1 は配達済みです。"));
    }

    /** Workers whose activities note the retry delay of each failure they end with. */
    private static WorkerInterceptorBase failureDelays(List<Duration> delays) {
        return new WorkerInterceptorBase() {
            @Override
            public ActivityInboundCallsInterceptor interceptActivity(ActivityInboundCallsInterceptor next) {
                return new ActivityInboundCallsInterceptorBase(next) {
                    @Override
                    public ActivityOutput execute(ActivityInput input) {
                        try {
                            return super.execute(input);
                        } catch (ApplicationFailure failure) {
                            if (failure.getNextRetryDelay() != null) {
                                delays.add(failure.getNextRetryDelay());
                            }
                            throw failure;
                        }
                    }
                };
            }
        };
    }

    private static final RetryPolicy QUICK_RETRIES = new RetryPolicy(2, Duration.ofMillis(10), Duration.ofMillis(100), 0);

    private static ScriptedModel rateLimitedOnce() {
        return ScriptedModel.of(ScriptedModel.fail(new ModelException(ModelException.Kind.RATE_LIMITED, 429, "slow down")),
                ScriptedModel.text("A-1 は配達済みです。"));
    }

    private static ScriptedModel failingThrice(ModelException error) {
        return ScriptedModel.of(ScriptedModel.fail(error), ScriptedModel.fail(error), ScriptedModel.fail(error),
                ScriptedModel.text("never asked"));
    }

    /** A bug in the application's code (here a verifier that throws) ends the run as the local driver ends it: a result. */
    @Test
    void aVerifierThatThrowsEndsTheRunFailedWithInternalErrorAsTheLocalDriverDoes() {
        Verifier broken = answer -> {
            throw new IllegalStateException("検証が壊れた");
        };
        RunResult expected = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).verifier(broken)
                .build().run("A-1?");

        RecordingListener remote = new RecordingListener();
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), remote, Orders.lookup()).verifier(broken).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1?", "run-broken-verifier");
            RunResult result = run.result();

            assertThat(result.status()).isEqualTo(RunStatus.FAILED).isEqualTo(expected.status());
            assertThat(result.reason()).isEqualTo(expected.reason()).isEqualTo("internal_error");
            assertThat(result.message()).isEqualTo(expected.message()).contains("検証が壊れた");
            // what the run knew says an internal error occurred, as locally, not the exception's text
            assertThat(result.answer()).isEqualTo(expected.answer()).contains("an internal error occurred")
                    .doesNotContain("検証が壊れた");
            assertThat(result.steps()).isEqualTo(expected.steps());
            assertThat(run.status()).isEqualTo(RunStatus.FAILED);
            assertThat(remote.events(TraceEvent.RunFinished.class)).singleElement()
                    .satisfies(f -> assertThat(f.reason()).isEqualTo("internal_error"));
        }
    }

    /**
     * An Error from the application's code (an assert in a verifier) ends the run FAILED with internal_error at once, as
     * the local driver ends it (it catches Errors too): the activity is not retried as Temporal retries an Error that
     * escapes an activity, the verifier run once (probe).
     */
    @Test
    void anErrorFromAVerifierEndsTheRunFailedWithInternalErrorWithoutRetriesAsLocally() throws TimeoutException {
        java.util.concurrent.atomic.AtomicInteger checks = new java.util.concurrent.atomic.AtomicInteger();
        Verifier broken = answer -> {
            checks.incrementAndGet();
            throw new AssertionError("検証の前提が崩れた");
        };
        RunResult expected = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).verifier(broken)
                .build().run("A-1?");
        checks.set(0);

        RecordingListener remote = new RecordingListener();
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), remote, Orders.lookup()).verifier(broken).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1?", "run-verifier-error");
            RunResult result = TemporalTestServer.resultPolled(run, Duration.ofSeconds(30));

            assertThat(checks).hasValue(1);
            assertThat(result.status()).isEqualTo(RunStatus.FAILED).isEqualTo(expected.status());
            assertThat(result.reason()).isEqualTo(expected.reason()).isEqualTo("internal_error");
            assertThat(result.message()).isEqualTo(expected.message()).contains("検証の前提が崩れた");
            assertThat(remote.events(TraceEvent.RunFinished.class)).singleElement()
                    .satisfies(f -> assertThat(f.reason()).isEqualTo("internal_error"));
        }
    }

    /**
     * An Error from the model (a provider's missing class, say) ends the run after that one call, FAILED with the local
     * run's reason and message, not retried (probe).
     */
    @Test
    void anErrorFromTheModelEndsTheRunAfterThatOneCallAsLocally() throws TimeoutException {
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        dev.rein.model.Model broken = (request, context) -> {
            calls.incrementAndGet();
            throw new NoClassDefFoundError("com/example/MissingCodec");
        };
        RunResult expected = Agent.builder().model(broken).modelName("m").tools(Orders.lookup()).budget(dev.rein.budget.Budget.builder().maxSteps(8).maxCostUsd((java.math.BigDecimal) null).maxDuration(Duration.ofMinutes(10)).build()).build().run("A-1?");
        assertThat(calls).hasValue(1);
        calls.set(0);

        Agent agent = Agent.builder().model(broken).modelName("m").tools(Orders.lookup()).budget(dev.rein.budget.Budget.builder().maxSteps(8).maxCostUsd((java.math.BigDecimal) null).maxDuration(Duration.ofMinutes(10)).build()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1?", "run-model-error");
            RunResult result = TemporalTestServer.resultPolled(run, Duration.ofSeconds(30));

            assertThat(calls).hasValue(1);
            assertThat(result.status()).isEqualTo(RunStatus.FAILED).isEqualTo(expected.status());
            assertThat(result.reason()).isEqualTo(expected.reason());
            assertThat(result.message()).isEqualTo(expected.message()).contains("MissingCodec");
        }
    }

    /**
     * A worker whose run store does not keep what it was given (not the store the other workers
     * share) cannot even trace the run's end: the run still ends FAILED with the reason and what to do.
     */
    @Test
    void aRunStoreThatLosesItsEntriesEndsTheRunFailedSayingTheStoreMustBeShared() throws TimeoutException {
        OutputStore forgetful = new OutputStore() {
            @Override
            public String put(String content) {
                return OutputStore.inMemory().put(content);
            }

            @Override
            public Optional<String> get(String sha256) {
                return Optional.empty();
            }

            @Override
            public String location(String sha256) {
                return "nowhere:" + sha256;
            }
        };
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgents.worker(server.env.newWorker(TemporalTestServer.QUEUE), agent, forgetful);
            server.env.start();
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent, forgetful)
                    .start("A-1?", "run-forgetful-store");
            RunResult result = run.result(Duration.ofSeconds(60));

            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.reason()).isEqualTo("store_error");
            assertThat(result.message()).contains("is not in this worker's run store").contains("share one store");
            assertThat(result.runId()).isEqualTo("run-forgetful-store");
            assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        }
    }

    @Test
    void aSpentStepBudgetStopsTheRunInTheWorkflowAsTheLocalDriverDoes() {
        RecordingListener local = new RecordingListener();
        RunResult expected = Orders.agent(loopingModel(), local, Orders.lookup()).budget(oneStep()).build().run("A-1?");

        RecordingListener remote = new RecordingListener();
        Agent agent = Orders.agent(loopingModel(), remote, Orders.lookup()).budget(oneStep()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("A-1?", "run-budget").result();

            assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET).isEqualTo(expected.status());
            assertThat(result.reason()).isEqualTo(expected.reason()).isEqualTo("max_steps");
            assertThat(result.answer()).isEqualTo(expected.answer()).isEqualTo("summary: A-1 is delivered");
            assertThat(types(remote.events())).isEqualTo(types(local.events()));
        }
    }

    private static dev.rein.budget.Budget oneStep() {
        return dev.rein.budget.Budget.builder().maxSteps(1).maxDuration(java.time.Duration.ofMinutes(10)).build();
    }

    private static ScriptedModel loopingModel() {
        return ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}")),
                ScriptedModel.text("summary: A-1 is delivered"));
    }

    private static List<String> types(List<TraceEvent> events) {
        return events.stream().map(e -> e.getClass().getSimpleName()).toList();
    }

    /** Each contiguous block of tool calls and results as its calls, then its results. */
    private static List<String> stepwise(List<String> types) {
        List<String> out = new java.util.ArrayList<>();
        List<String> results = new java.util.ArrayList<>();
        for (String type : types) {
            switch (type) {
                case "ToolCalled" -> out.add(type);
                case "ToolCompleted" -> results.add(type);
                default -> {
                    out.addAll(results);
                    results.clear();
                    out.add(type);
                }
            }
        }
        out.addAll(results);
        return out;
    }
}
