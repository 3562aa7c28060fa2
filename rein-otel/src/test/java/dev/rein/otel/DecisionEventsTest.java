package dev.rein.otel;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.json.Json;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * docs/observability.md, execute_tool events: "rein.approval.decided (on the call's span in the
 * resumed segment: rein.approval.decision approve / reject / edit, rein.approval.decided_by)".
 */
class DecisionEventsTest {
    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    private static final String SCHEMA = """
            {"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}""";

    private static Agent agent() {
        Tool refund = Tool.builder("refund").description("Refunds an order.").inputSchema(SCHEMA).risk(Risk.WRITE)
                .handler((args, ctx) -> "refunded " + args.get("id").asText()).build();
        return ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("anthropic").build()
                .install(Agent.builder().model(ScriptedModel.of(toolCalls(call("refund", "{\"id\":\"A-1\"}")), text("Done.")))
                        .modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES).tools(refund)).build();
    }

    private static SpanData resumedCall(RunResult paused) {
        List<SpanData> runs = OTEL.getSpans().stream().filter(s -> s.getName().startsWith("invoke_agent ")).toList();
        SpanData resumed = runs.stream().filter(r -> !r.getLinks().isEmpty()).findFirst().orElseThrow();
        return OTEL.getSpans().stream().filter(s -> s.getName().equals("execute_tool refund"))
                .filter(s -> s.getParentSpanId().equals(resumed.getSpanId())).findFirst().orElseThrow();
    }

    @Test
    void aRejectedCallsSpanCarriesTheDecision() {
        Agent agent = agent();
        RunResult paused = agent.run("refund A-1");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        agent.runs().reject(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "not this one", "carol");
        agent.resume(paused.runId());

        SpanData call = resumedCall(paused);
        assertThat(call.getAttributes().get(ReinConventions.TOOL_OUTCOME)).isEqualTo("rejected");
        assertThat(call.getEvents()).filteredOn(e -> e.getName().equals(ReinConventions.EVENT_APPROVAL_DECIDED)).singleElement()
                .satisfies(e -> {
                    assertThat(e.getAttributes().get(ReinConventions.APPROVAL_DECISION)).isEqualTo("reject");
                    assertThat(e.getAttributes().get(ReinConventions.APPROVAL_DECIDED_BY)).isEqualTo("carol");
                });
    }

    @Test
    void anEditedCallsSpanCarriesTheDecision() {
        Agent agent = agent();
        RunResult paused = agent.run("refund A-1");
        agent.runs().edit(paused.runId(), paused.pendingApprovals().get(0).actionHash(), Json.parse("{\"id\":\"A-2\"}"), "carol");
        agent.resume(paused.runId());

        SpanData call = resumedCall(paused);
        assertThat(call.getEvents()).extracting(EventData::getName).contains(ReinConventions.EVENT_APPROVAL_DECIDED);
        assertThat(call.getEvents()).filteredOn(e -> e.getName().equals(ReinConventions.EVENT_APPROVAL_DECIDED)).singleElement()
                .satisfies(e -> assertThat(e.getAttributes().get(ReinConventions.APPROVAL_DECISION)).isEqualTo("edit"));
    }
}
