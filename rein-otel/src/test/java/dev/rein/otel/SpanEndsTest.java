package dev.rein.otel;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.Budget;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every span Rein starts is ended, and ended once, on every way a run stops: a cancel during a model call
 * and during a tool call, the run's deadline during a tool call, a pause for approval and its resumption,
 * a model client that throws and a tool handler that throws an Error. Nothing is written to a span after
 * it ended (the SDK drops such writes, logging them at FINE: data silently lost). Probes.
 */
class SpanEndsTest {
    private static final String SCHEMA = """
            {"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}""";

    /** Spans started and not yet ended, by span id; and how often onEnd was called per span id. */
    private final Map<String, String> open = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> ends = new ConcurrentHashMap<>();
    /** What the SDK logged about calls on ended spans ("Calling end() on an ended Span.", a late setAttribute). */
    private final List<String> lateCalls = new CopyOnWriteArrayList<>();
    private final Logger sdkLogger = Logger.getLogger("io.opentelemetry.sdk.trace.SdkSpan");
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getMessage() != null && record.getMessage().contains("ended")) {
                lateCalls.add(record.getMessage());
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };
    private Level previousLevel;
    private OpenTelemetrySdk sdk;

    @BeforeEach
    void setUp() {
        previousLevel = sdkLogger.getLevel();
        sdkLogger.setLevel(Level.FINEST);
        sdkLogger.addHandler(handler);
        SpanProcessor counting = new SpanProcessor() {
            @Override
            public void onStart(Context parentContext, ReadWriteSpan span) {
                open.put(span.getSpanContext().getSpanId(), span.getName());
            }

            @Override
            public boolean isStartRequired() {
                return true;
            }

            @Override
            public void onEnd(ReadableSpan span) {
                open.remove(span.getSpanContext().getSpanId());
                ends.computeIfAbsent(span.getSpanContext().getSpanId(), id -> new AtomicInteger()).incrementAndGet();
            }

            @Override
            public boolean isEndRequired() {
                return true;
            }
        };
        sdk = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(counting).build()).build();
    }

    @AfterEach
    void tearDown() {
        sdkLogger.removeHandler(handler);
        sdkLogger.setLevel(previousLevel);
        sdk.close();
    }

    private Agent.Builder agent(Model model, Tool... tools) {
        return ReinTelemetry.create(sdk).install(Agent.builder().model(model).modelName(ScriptedModel.DEFAULT_NAME)
                .prices(ScriptedModel.PRICES).tools(tools));
    }

    private void assertEveryStartedSpanEndedOnce(int atLeast) {
        assertThat(open).as("spans started and never ended").isEmpty();
        assertThat(ends).as("spans ended").hasSizeGreaterThanOrEqualTo(atLeast);
        assertThat(ends.values()).as("each span ended once").allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
        assertThat(lateCalls).as("calls on a span after it ended").isEmpty();
    }

    private static Tool waiting(CountDownLatch entered) {
        return Tool.builder("status").description("Tells an order's status.").inputSchema(SCHEMA).risk(Risk.READ)
                .handler((args, ctx) -> {
                    entered.countDown();
                    new CountDownLatch(1).await(); // until the run's cancel or deadline interrupts it
                    return "never";
                }).build();
    }

    @Test
    void aCancelDuringAModelCallEndsEverySpan() throws Exception {
        ScriptedModel model = ScriptedModel.of(ScriptedModel.hang());
        var handle = agent(model).build().start("wait");
        while (model.requests().isEmpty()) {
            Thread.sleep(5);
        }
        handle.cancel();
        assertThat(handle.await().status()).isEqualTo(RunStatus.CANCELLED);
        assertEveryStartedSpanEndedOnce(2);
    }

    @Test
    void aCancelDuringAToolCallEndsEverySpan() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        ScriptedModel model = ScriptedModel.of(toolCalls(call("status", "{\"id\":\"A-1\"}")), text("never"));
        var handle = agent(model, waiting(entered)).build().start("where is A-1?");
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        handle.cancel();
        assertThat(handle.await().status()).isEqualTo(RunStatus.CANCELLED);
        assertEveryStartedSpanEndedOnce(3);
    }

    @Test
    void theDeadlineDuringAToolCallEndsEverySpan() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("status", "{\"id\":\"A-1\"}")), text("Stopped."), text("Stopped."));
        RunResult result = agent(model, waiting(new CountDownLatch(1)))
                .budget(Budget.builder().maxDuration(Duration.ofMillis(500)).build()).build().run("where is A-1?");
        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertEveryStartedSpanEndedOnce(3);
    }

    @Test
    void aPauseForApprovalAndItsResumptionEndEverySpan() {
        Tool refund = Tool.builder("refund").description("Refunds an order.").inputSchema(SCHEMA).risk(Risk.WRITE)
                .handler((args, ctx) -> "refunded").build();
        Agent agent = agent(ScriptedModel.of(toolCalls(call("refund", "{\"id\":\"A-1\"}")), text("Refunded.")), refund).build();
        RunResult paused = agent.run("refund A-1");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        assertEveryStartedSpanEndedOnce(3);
        agent.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "carol");
        assertThat(agent.resume(paused.runId()).status()).isEqualTo(RunStatus.SUCCEEDED);
        assertEveryStartedSpanEndedOnce(6);
    }

    @Test
    void aModelClientThatThrowsAndAHandlerThatThrowsAnErrorEndEverySpan() {
        Model throwing = new Model() {
            @Override
            public ModelResponse call(ModelRequest request, ModelCallContext context) {
                throw new IllegalStateException("the client broke");
            }
        };
        RunResult failed = agent(throwing).build().run("go");
        assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
        assertEveryStartedSpanEndedOnce(2);

        Tool erring = Tool.builder("status").description("Tells an order's status.").inputSchema(SCHEMA).risk(Risk.READ)
                .handler((args, ctx) -> {
                    throw new AssertionError("a bug in the handler");
                }).build();
        RunResult result = agent(ScriptedModel.of(toolCalls(call("status", "{\"id\":\"A-1\"}")), text("It broke.")), erring)
                .build().run("where is A-1?");
        assertThat(result.status()).isIn(RunStatus.SUCCEEDED, RunStatus.FAILED);
        assertEveryStartedSpanEndedOnce(5);
    }

    @Test
    void withOpenTelemetryOffNothingIsRecordedAndTheRunIsUnchanged() {
        RunResult result = ReinTelemetry.create(OpenTelemetry.noop()).install(Agent.builder()
                        .model(ScriptedModel.of(text("Hello."))).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES))
                .build().run("say hello");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(ends).isEmpty();
    }
}
