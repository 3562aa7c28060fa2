package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.model.Model;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.Usage;
import dev.rein.run.RunStatus;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A {@link Model} written by a third party, as a lambda, with no provider module and no
 * {@link dev.rein.provider.ModelDefaults}: streaming reaches listeners and the run's event stream,
 * typed output works, a cancel ends a run whose model ignores interrupts, and a model that throws
 * or answers null ends the run with a reason instead of an escaped exception.
 */
class ThirdPartyModelTest {
    public record Verdict(String decision, int score) {}

    private static ModelResponse answer(String text) {
        return new ModelResponse(null, "my-model", List.of(new TextBlock(text)), StopReason.END_TURN, null, null);
    }

    private static Agent.Builder agent(Model model) {
        return Agent.builder().model(model).modelName("my-model").budget(Budget.builder().maxCostUsd((java.math.BigDecimal) null).build());
    }

    @Test
    void streamedFragmentsReachTheListenersAndTheAnswerIsTheResponse() {
        List<String> seen = new CopyOnWriteArrayList<>();
        Model model = (request, context) -> {
            context.stream().onTextDelta("東京は");
            context.stream().onTextDelta("晴れ");
            return answer("東京は晴れ");
        };
        RunListener listener = new RunListener() {
            @Override
            public void onEvent(TraceEvent event) {}

            @Override
            public void onTextDelta(String text) {
                seen.add(text);
            }
        };
        RunResult result = agent(model).listener(id -> listener).build().run("天気は?");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("東京は晴れ");
        assertThat(String.join("", seen)).isEqualTo("東京は晴れ");
    }

    @Test
    void streamedFragmentsAreTextDeltaEventsOfTheRunStream() {
        Model model = (request, context) -> {
            context.stream().onTextDelta("こんにちは");
            return answer("こんにちは");
        };
        try (RunStream stream = agent(model).build().stream("greet")) {
            List<RunEvent> events = stream.stream().toList();
            assertThat(events).filteredOn(e -> e instanceof RunEvent.TextDelta).extracting(e -> ((RunEvent.TextDelta) e).text())
                    .containsExactly("こんにちは");
            assertThat(((RunEvent.Finished) events.get(events.size() - 1)).result().answer()).isEqualTo("こんにちは");
        }
    }

    @Test
    void typedOutputWorks() {
        Model model = (request, context) -> answer("{\"decision\":\"承認\",\"score\":3}");
        RunResult result = agent(model).build().run("judge", Verdict.class);
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.output(Verdict.class)).isEqualTo(new Verdict("承認", 3));
    }

    @Test
    void cancelEndsARunWhoseModelIgnoresInterrupts() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        Model model = (request, context) -> {
            entered.countDown();
            while (true) {
                try {
                    never.await();
                    return answer("late");
                } catch (InterruptedException ignored) {
                    // a client that ignores interrupts
                }
            }
        };
        try {
            RunHandle handle = agent(model).build().start("go");
            assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
            long start = System.nanoTime();
            handle.cancel();
            RunResult result = handle.await(Duration.ofSeconds(10));
            assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
        } finally {
            never.countDown();
        }
    }

    @Test
    void aModelThatThrowsAnUncheckedExceptionEndsTheRunWithAReason() {
        Model model = (request, context) -> {
            throw new IllegalStateException("socket pool exhausted");
        };
        RunResult result = agent(model).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.message()).contains("socket pool exhausted");
    }

    @Test
    void aModelThatReturnsNullEndsTheRunWithAReason() {
        Model model = (request, context) -> null;
        RunResult result = agent(model).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.message()).contains("the model returned no response");
    }

    @Test
    void usageAndIdMayBeLeftOut() {
        Model model = (request, context) -> new ModelResponse(null, "my-model", List.of(new TextBlock("ok")), StopReason.END_TURN,
                null, (Usage) null);
        RunResult result = agent(model).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    /**
     * A response built with a field missing (no content list, a null block, no stop reason) is a
     * provider failure naming the model and the field, traced as model_failed, not a bare
     * NullPointerException naming neither.
     */
    @Test
    void aResponseWithAMissingFieldIsAProviderFailureNamingTheModelAndTheField() {
        record Case(String field, Model model) {}
        List<Case> cases = List.of(
                new Case("content", (request, context) -> new ModelResponse(null, "my-model", null, StopReason.END_TURN, null, null)),
                new Case("content block 2", (request, context) -> new ModelResponse(null, "my-model",
                        java.util.Arrays.asList(new TextBlock("a"), null), StopReason.END_TURN, null, null)),
                new Case("stopReason", (request, context) -> new ModelResponse(null, "my-model",
                        List.of(new TextBlock("a")), null, null, null)),
                new Case("model", (request, context) -> new ModelResponse(null, null,
                        List.of(new TextBlock("a")), StopReason.END_TURN, null, null)));
        for (Case c : cases) {
            List<TraceEvent> events = new CopyOnWriteArrayList<>();
            RunResult result = agent(c.model()).listener(id -> (RunListener) new RunListener() { @Override public void onEvent(TraceEvent e) { events.add(e); } }).build().run("go");
            assertThat(result.status()).as(c.field()).isEqualTo(RunStatus.FAILED);
            assertThat(result.reason()).as(c.field()).isEqualTo("provider_error");
            assertThat(result.message()).as(c.field()).contains("'my-model'").contains("a ModelResponse").contains(c.field());
            assertThat(events).as(c.field()).anySatisfy(e -> {
                assertThat(e).isInstanceOf(TraceEvent.ModelFailed.class);
                assertThat(((TraceEvent.ModelFailed) e).message()).contains(c.field());
            });
        }
    }

    /**
     * A client's own bug that is not a RuntimeException (an AssertionError or StackOverflowError, a
     * checked exception thrown past the signature, as Kotlin or a sneaky throw does) is reported as
     * an unchecked one is: a provider failure naming the model and the client, traced as
     * model_failed, where an Error ended the run internal_error naming neither.
     */
    @Test
    void aModelThatThrowsAnErrorOrACheckedExceptionIsAFailureNamingTheModel() {
        record Case(String thrown, Model model) {}
        List<Case> cases = List.of(
                new Case("StackOverflowError: deep", (request, context) -> {
                    throw new StackOverflowError("deep");
                }),
                new Case("AssertionError: mock not set up", (request, context) -> {
                    throw new AssertionError("mock not set up");
                }),
                new Case("IOException: disk gone", (request, context) -> ThirdPartyModelTest.<RuntimeException>sneaky(
                        new java.io.IOException("disk gone"))));
        for (Case c : cases) {
            List<TraceEvent> events = new CopyOnWriteArrayList<>();
            RunResult result = agent(c.model()).listener(id -> (RunListener) new RunListener() { @Override public void onEvent(TraceEvent e) { events.add(e); } }).build().run("go");
            assertThat(result.status()).as(c.thrown()).isEqualTo(RunStatus.FAILED);
            assertThat(result.reason()).as(c.thrown()).isEqualTo("provider_error");
            assertThat(result.message()).as(c.thrown()).contains("the model client for model 'my-model'").contains(c.thrown());
            assertThat(events).as(c.thrown()).anySatisfy(e -> assertThat(e).isInstanceOfSatisfying(TraceEvent.ModelFailed.class,
                    f -> assertThat(f.message()).contains(c.thrown())));
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> ModelResponse sneaky(Throwable t) throws T {
        throw (T) t;
    }

    /**
     * A ModelException made without a message (a client that passes null, or a blank text) still
     * says what failed: the model, the client, the kind and the HTTP status, where the run's message
     * read 'the model provider failed: null'.
     */
    @Test
    void aModelExceptionWithoutAMessageSaysWhichModelFailedAndHow() {
        for (String message : java.util.Arrays.asList(null, "", "  ")) {
            List<TraceEvent> events = new CopyOnWriteArrayList<>();
            Model model = (request, context) -> {
                throw new dev.rein.model.ModelException(dev.rein.model.ModelException.Kind.SERVER_ERROR, 503, message, false,
                        null, null, null);
            };
            RunResult result = agent(model).listener(id -> (RunListener) new RunListener() { @Override public void onEvent(TraceEvent e) { events.add(e); } }).build().run("go");
            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.reason()).isEqualTo("provider_error");
            assertThat(result.message()).doesNotContain("null").doesNotEndWith(": ").doesNotEndWith(":   ")
                    .contains("'my-model'").contains("SERVER_ERROR").contains("no message");
            assertThat(events).anySatisfy(e -> assertThat(e).isInstanceOfSatisfying(TraceEvent.ModelFailed.class,
                    f -> assertThat(f.message()).isNotBlank().contains("no message")));
        }
    }

    /**
     * A client that reports absurd token counts (a counter read as Long.MAX_VALUE) over two calls:
     * the run's sums stop at Long.MAX_VALUE instead of overflowing into negative counts, so the run
     * ends on its token limit with the summary, where it ended internal_error 'token counts cannot
     * be negative', naming no model and no limit.
     */
    @Test
    void absurdTokenCountsDoNotOverflowTheRunsSums() {
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        Model model = (request, context) -> new ModelResponse(null, "my-model", List.of(new TextBlock(
                calls.incrementAndGet() == 1 ? "partial" : "summary")), calls.get() == 1 ? StopReason.PAUSE_TURN : StopReason.END_TURN,
                null, Usage.of(Long.MAX_VALUE - 1, Long.MAX_VALUE - 1, 0, 0));
        RunResult result = agent(model).budget(Budget.builder().maxCostUsd((java.math.BigDecimal) null).maxInputTokens(1_000L).build())
                .build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("max_input_tokens");
        assertThat(result.answer()).isEqualTo("summary");
        assertThat(result.usage().inputTokens()).isEqualTo(Long.MAX_VALUE);
        assertThat(Usage.of(Long.MAX_VALUE, 0, Long.MAX_VALUE, 5).totalInputTokens()).isEqualTo(Long.MAX_VALUE);
    }
}
