package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.TraceEvent;
import io.temporal.api.history.v1.HistoryEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The calls of one response as activities of their own, in the local executor's order, read from the workflow history. */
class TemporalToolActivitiesTest {
    @Test
    void fourCallsOfOneResponseAreFourActivitiesTheReadsTogetherThenTheWritesInCallOrder() {
        Orders.Ledger ledger = new Orders.Ledger();
        RecordingListener trace = new RecordingListener();
        ScriptedModel model = ScriptedModel.of(
                ScriptedModel.toolCalls(ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}"),
                        ScriptedModel.call("refund", "{\"id\":\"A-2\"}"),
                        ScriptedModel.call("lookup_order", "{\"id\":\"A-3\"}"),
                        ScriptedModel.call("refund", "{\"id\":\"A-4\"}")),
                ScriptedModel.text("A-2 and A-4 refunded; A-1 and A-3 delivered."));
        Agent agent = Orders.agent(model, trace, Orders.lookup(), Orders.refund(ledger, key -> {}))
                .approvalPolicy(ApprovalPolicy.NEVER).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("A-1..A-4", "run-four").result();

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            List<String> order = toolActivities(server.client().fetchHistory("run-four").getEvents());
            // both reads are scheduled before any call completes; each write is scheduled after everything before it completed
            assertThat(order).containsExactly(
                    "scheduled lookup_order A-1", "scheduled lookup_order A-3",
                    order.get(2), order.get(3), // the two reads complete, in either order
                    "scheduled refund A-2", "completed refund A-2",
                    "scheduled refund A-4", "completed refund A-4");
            assertThat(order.subList(2, 4)).containsExactlyInAnyOrder("completed lookup_order A-1", "completed lookup_order A-3");
            // the idempotency key is run id + step + call index; the writes applied in call order
            assertThat(ledger.keysSeen).containsExactly("run-four:1:1", "run-four:1:3");
            // every call passed the executor's gate (the validation stage traces it) and has one result, in call order
            assertThat(trace.events(TraceEvent.ToolCalled.class)).hasSize(4);
            assertThat(trace.events(TraceEvent.ToolCompleted.class)).hasSize(4);
            Message calls = result.history().get(1);
            Message results = result.history().get(2);
            assertThat(results.content()).map(b -> ((ToolResultBlock) b).toolUseId())
                    .containsExactlyElementsOf(calls.toolUses().stream().map(ToolUseBlock::id).toList());
            assertThat(((ToolResultBlock) results.content().get(1)).content()).contains("refunded: re_1 for A-2");
            assertThat(((ToolResultBlock) results.content().get(3)).content()).contains("refunded: re_2 for A-4");
        }
    }

    /** The ReinCallTool activities in history order, as "scheduled TOOL ID" and "completed TOOL ID". */
    static List<String> toolActivities(List<HistoryEvent> events) {
        Map<Long, String> scheduled = new HashMap<>();
        List<String> order = new ArrayList<>();
        for (HistoryEvent event : events) {
            if (event.hasActivityTaskScheduledEventAttributes()) {
                var attributes = event.getActivityTaskScheduledEventAttributes();
                if (attributes.getActivityType().getName().equals("ReinCallTool")) {
                    JsonNode call = Json.parse(attributes.getInput().getPayloads(1).getData().toStringUtf8());
                    String label = call.get("name").asText() + " " + call.get("arguments").get("id").asText();
                    scheduled.put(event.getEventId(), label);
                    order.add("scheduled " + label);
                }
            } else if (event.hasActivityTaskCompletedEventAttributes()) {
                String label = scheduled.get(event.getActivityTaskCompletedEventAttributes().getScheduledEventId());
                if (label != null) {
                    order.add("completed " + label);
                }
            }
        }
        return order;
    }
}
