package dev.rein.otel;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.context.ContextPolicy;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Two claims of docs/observability.md no other test held: the run span joins the caller's trace, a truncation is an event on its call. */
class DocumentedSpanTreeTest {
    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    private static Agent.Builder agent(ScriptedModel model) {
        Tool big = Tool.builder("dump").description("Dumps.").risk(Risk.READ).inputSchema("{\"type\":\"object\"}")
                .handler((args, ctx) -> "x".repeat(50_000)).build();
        Tool receipt = Tool.builder("receipt").description("Makes a receipt.").risk(Risk.READ).inputSchema("{\"type\":\"object\"}")
                .handler((args, ctx) -> dev.rein.tool.ToolOutput.text("ok").withUserContent("r".repeat(50_000))).build();
        Tool refund = Tool.builder("refund").description("Refunds.").risk(Risk.WRITE).inputSchema("{\"type\":\"object\"}")
                .handler((args, ctx) -> "refunded").build();
        return ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("anthropic").build()
                .install(Agent.builder().model(model).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES).tools(big, refund, receipt));
    }

    @Test
    void runsStartedInsideARequestSpanAreItsChildren() throws Exception {
        Span request = OTEL.getOpenTelemetry().getTracer("app").spanBuilder("GET /orders").startSpan();
        Agent agent = agent(ScriptedModel.of(text("a"), text("b"), toolCalls(call("refund", "{}")), text("done"))).build();
        RunResult paused;
        try (Scope ignored = request.makeCurrent()) {
            agent.run("one");
            agent.start("two").await();
            paused = agent.run("three");
        }
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        agent.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "carol");
        try (Scope ignored = request.makeCurrent()) {
            agent.resume(paused.runId());
        }
        request.end();
        List<SpanData> runs = OTEL.getSpans().stream().filter(s -> s.getName().startsWith("invoke_agent")).toList();
        assertThat(runs).hasSize(4).allSatisfy(r -> assertThat(r.getParentSpanId()).as(r.getAttributes().toString())
                .isEqualTo(request.getSpanContext().getSpanId()));
    }

    @Test
    void aTruncatedResultIsAnEventOnItsToolSpan() {
        agent(ScriptedModel.of(toolCalls(call("dump", "{}")), text("done")))
                .contextPolicy(ContextPolicy.builder().toolOutputLimit(1000).build()).build().run("dump");
        SpanData tool = OTEL.getSpans().stream().filter(s -> s.getName().equals("execute_tool dump")).findFirst().orElseThrow();
        assertThat(tool.getEvents()).filteredOn(e -> e.getName().equals(ReinConventions.EVENT_OUTPUT_TRUNCATED)).singleElement()
                .satisfies(e -> {
                    assertThat(e.getAttributes().get(ReinConventions.TRUNCATED_TOTAL_CHARS)).isEqualTo(50_000L);
                    assertThat(e.getAttributes().get(ReinConventions.TRUNCATED_SHOWN_CHARS)).isLessThan(50_000L);
                });
    }

    @Test
    void aCutOfThePartForThePersonSaysWhichPartItIs() {
        agent(ScriptedModel.of(toolCalls(call("receipt", "{}"), call("dump", "{}")), text("done")))
                .contextPolicy(ContextPolicy.builder().toolOutputLimit(1000).build()).build().run("receipt");
        SpanData receipt = OTEL.getSpans().stream().filter(s -> s.getName().equals("execute_tool receipt")).findFirst().orElseThrow();
        assertThat(receipt.getEvents()).filteredOn(e -> e.getName().equals(ReinConventions.EVENT_OUTPUT_TRUNCATED)).singleElement()
                .satisfies(e -> assertThat(e.getAttributes().get(ReinConventions.TRUNCATED_PART)).isEqualTo("user_content"));
        SpanData dump = OTEL.getSpans().stream().filter(s -> s.getName().equals("execute_tool dump")).findFirst().orElseThrow();
        assertThat(dump.getEvents()).filteredOn(e -> e.getName().equals(ReinConventions.EVENT_OUTPUT_TRUNCATED)).singleElement()
                .satisfies(e -> assertThat(e.getAttributes().get(ReinConventions.TRUNCATED_PART)).isNull());
    }
}
