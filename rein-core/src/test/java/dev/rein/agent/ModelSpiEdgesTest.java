package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.context.Compaction;
import dev.rein.context.ContextPolicy;
import dev.rein.context.TokenCounting;
import dev.rein.model.Model;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ThinkingBlock;
import dev.rein.model.Usage;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.trace.TraceEvent;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A third-party Model and ModelInterceptor that return odd but legal things, as the SPI's Javadoc allows. */
class ModelSpiEdgesTest {
    private static final String LONG_A = "{\"q\":\"" + "a".repeat(600) + "\"}";
    private static final String LONG_B = "{\"q\":\"" + "b".repeat(600) + "\"}";

    private static Tool search() {
        return Tool.builder("search").description("Searches.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}")
                .handler((args, ctx) -> "result for " + args.get("q").asText())
                .build();
    }

    @Test
    void aTokenCountThatFailsWithAnUncheckedExceptionIsUnknownAndTheRunGoesOnWithItsEstimate() {
        ScriptedModel scripted = ScriptedModel.of(toolCalls(call("search", LONG_A)), toolCalls(call("search", LONG_B)), text("done"));
        Model model = new Model() {
            @Override
            public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
                return scripted.call(request, context);
            }

            @Override
            public long countTokens(ModelRequest request) {
                throw new UnsupportedOperationException("this server has no token counting endpoint");
            }
        };
        RecordingListener listener = new RecordingListener();
        RunResult result = Agent.builder().model(model).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)
                .tools(search()).listener(listener)
                .contextPolicy(ContextPolicy.builder().compaction(Compaction.client(1_000).keepingLast(2))
                        .tokenCounting(TokenCounting.PROVIDER).build())
                .build().run("調べて");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("done");
        assertThat(listener.events(TraceEvent.TokensCounted.class)).isNotEmpty()
                .allSatisfy(e -> assertThat(e.inputTokens()).as("traced as unknown").isEqualTo(-1));
    }

    @Test
    void aFallbackModelWithoutAPriceUnderAMoneyBudgetIsRefusedBeforeItIsCalledNotCountedAsFree() {
        List<String> called = new java.util.concurrent.CopyOnWriteArrayList<>();
        Model model = (request, context) -> {
            called.add(request.model());
            return new ModelResponse("r", request.model(), List.of(new TextBlock("from " + request.model())), StopReason.END_TURN,
                    null, Usage.of(1_000_000, 0, 0, 0));
        };
        ModelInterceptor fallback = new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                return chain.proceed(call.withRequest(call.request().withModel("backup")));
            }

            @Override
            public String toString() {
                return "fallback";
            }
        };
        RunResult result = Agent.builder().model(model).modelName("main")
                .prices(PriceTable.empty().with("main", ModelPrice.of("1", "0", "0")))
                .budget(Budget.builder().maxCostUsd("0.50").build())
                .modelInterceptor(fallback).build().run("go");

        assertThat(result.status()).as("a run is never priced as free").isEqualTo(RunStatus.FAILED);
        assertThat(result.message()).contains("no price is known for model 'backup'").contains("USD 0.50").contains("price(\"backup\"");
        assertThat(called).as("the unpriced model was not called").isEmpty();
        // a setup mistake of the application, said as one: not as an exception inside Rein
        assertThat(result.reason()).isEqualTo("configuration_error");
        assertThat(result.message()).startsWith("no price is known for model 'backup', which a model-call stage chose")
                .contains("a money limit needs the price of every model called").doesNotContain("internal error", "Exception");
    }

    @Test
    void aTurnOfOnlyThinkingIsNudgedOnceAndItsThinkingIsSentBackUnchanged() {
        ThinkingBlock thought = new ThinkingBlock("考え中…", "sig_1");
        ScriptedModel model = ScriptedModel.of(ScriptedModel.reply(StopReason.END_TURN, null, thought), text("答え"));
        RunResult result = Agent.builder().model(model).build().run("質問");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("答え");
        assertThat(model.requests().get(1).messages()).anySatisfy(m -> assertThat(m.content()).containsExactly(thought));
    }

    @Test
    void eachNeutralStopReasonWithTextEndsAsDocumented() {
        for (StopReason reason : List.of(StopReason.END_TURN, StopReason.STOP_SEQUENCE, StopReason.UNKNOWN)) {
            RunResult result = Agent.builder().model(ScriptedModel.of(ScriptedModel.reply(reason, null, new TextBlock("答え"))))
                    .build().run("質問");
            assertThat(result.status()).as(reason + ": " + result.message()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.answer()).isEqualTo("答え");
        }
        RunResult paused = Agent.builder().model(ScriptedModel.of(ScriptedModel.reply(StopReason.PAUSE_TURN, null,
                new TextBlock("前半")), text("後半"))).build().run("質問");
        assertThat(paused.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(paused.answer()).isEqualTo("前半後半");
        for (StopReason reason : List.of(StopReason.MAX_TOKENS, StopReason.REFUSAL, StopReason.MODEL_CONTEXT_WINDOW_EXCEEDED)) {
            RunResult result = Agent.builder().model(ScriptedModel.of(ScriptedModel.reply(reason, null, new TextBlock("途中"))))
                    .build().run("質問");
            assertThat(result.status()).as(reason.traceName()).isEqualTo(RunStatus.FAILED);
            assertThat(result.answer()).as(reason + " is never the answer").isNotEqualTo("途中");
        }
    }

    @Test
    void anInterceptorThatThrowsAnUncheckedExceptionEndsTheRunNamingTheStage() {
        ModelInterceptor cache = new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) {
                throw new IllegalStateException("キャッシュが落ちています");
            }

            @Override
            public String toString() {
                return "response-cache";
            }
        };
        RunResult result = Agent.builder().model(ScriptedModel.of(text("答え"))).modelInterceptor(cache).build().run("質問");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo("internal_error");
        assertThat(result.message()).contains("model-call stage response-cache threw")
                .contains("IllegalStateException: キャッシュが落ちています");
    }

    /**
     * A stage that throws on the second call (after one answered call) leaves a model_failed for the
     * call it broke, as docs/architecture.md promises one model_response or model_failed per logical
     * call, and the run still replays to the same ending: the failed call is not a recorded model call.
     */
    @Test
    void anInterceptorThatThrowsLeavesAModelFailedEventAndTheRunReplaysToTheSameEnding(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        AtomicInteger calls = new AtomicInteger();
        ModelInterceptor cache = new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                if (calls.incrementAndGet() == 2) {
                    throw new IllegalStateException("キャッシュが落ちています");
                }
                return chain.proceed(call);
            }

            @Override
            public String toString() {
                return "response-cache";
            }
        };
        Tool echo = Tool.builder("echo").description("Echoes.").handler((args, ctx) -> "エコー").build();
        RecordingListener listener = new RecordingListener();
        java.nio.file.Path trace = dir.resolve("run.jsonl");
        RunResult result = Agent.builder().model(ScriptedModel.of(toolCalls(call("echo", "{}")), text("答え")))
                .tools(echo).modelInterceptor(cache).listener(listener)
                .listener(dev.rein.trace.JsonlTraceListener.to(trace)).build().run("質問");

        assertThat(result.reason()).isEqualTo("internal_error");
        List<TraceEvent> events = listener.events();
        assertThat(events.stream().filter(e -> e instanceof TraceEvent.ModelRequested)).hasSize(2);
        assertThat(events.stream().filter(e -> e instanceof TraceEvent.ModelResponded)).hasSize(1);
        assertThat(events).filteredOn(e -> e instanceof TraceEvent.ModelFailed).singleElement().satisfies(e -> {
            TraceEvent.ModelFailed failed = (TraceEvent.ModelFailed) e;
            assertThat(failed.step()).isEqualTo(2);
            assertThat(failed.message()).contains("model-call stage response-cache threw").contains("キャッシュが落ちています");
        });

        calls.set(0);
        dev.rein.replay.ReplayReport report = dev.rein.replay.Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of())
                .tools(echo).modelInterceptor(cache).build());
        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.result().reason()).isEqualTo("internal_error");
        assertThat(report.reproduced()).isTrue();
    }

    /**
     * An application's stage that reports a failed call with a ModelException without a message (a
     * circuit breaker's 'open' state made with null) says which stage and what kind, in the run's
     * message and its model_failed event, where the message read 'the model provider failed: null'.
     */
    @Test
    void aStageFailureWithoutAMessageNamesTheStageAndTheKind() {
        ModelInterceptor breaker = new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException {
                throw new ModelException(ModelException.Kind.OVERLOADED, 0, null, false, null, null, null);
            }

            @Override
            public String toString() {
                return "circuit-breaker";
            }
        };
        RecordingListener trace = new RecordingListener();
        RunResult result = Agent.builder().model(ScriptedModel.of(text("never"))).modelInterceptor(breaker).listener(trace)
                .build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo("provider_error");
        assertThat(result.message()).doesNotContain("null").contains("circuit-breaker").contains("OVERLOADED")
                .contains("no message");
        assertThat(trace.events(TraceEvent.ModelFailed.class)).singleElement()
                .satisfies(f -> assertThat(f.message()).contains("circuit-breaker").contains("no message"));
    }
}
