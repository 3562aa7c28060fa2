package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.json.Json;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.testkit.FakeReply;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import org.junit.jupiter.api.Test;

/**
 * Thinking blocks must go back to the API exactly as received, with the tool results of their
 * turn. A turn that paused for an approval is kept in the stored snapshot (JSON) and sent again
 * after the resume: thinking with its signature, redacted thinking and Japanese text unchanged.
 */
class ThinkingAcrossApprovalTest extends FakeApi {

    private static Tool reship() {
        return Tool.builder("reship_order").description("Ships an order again.").risk(Risk.WRITE)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .handler((args, ctx) -> "再発送しました: " + args.get("id").asText())
                .build();
    }

    @Test
    void thinkingOfAPausedTurnIsSentBackUnchangedAfterTheResume() {
        String signature = "EqQBCgIYAhIMk+/7sig==";
        server.enqueue(
                FakeReply.message().thinking("A-104 を再発送すべきか考える", signature).redactedThinking("RED/acted+==")
                        .text("再発送します。").toolUse("toolu_1", "reship_order", "{\"id\":\"A-104\"}").build(),
                FakeReply.text("A-104 を再発送しました。"));
        InMemoryRunStore store = new InMemoryRunStore();
        Agent agent = Agent.builder().model(model).tools(reship()).store(store).build();

        RunResult paused = agent.run("A-104 を再発送して");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        agent.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "山田");
        RunResult done = Agent.builder().model(model).tools(reship()).store(store).build().resume(paused.runId());

        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(done.answer()).isEqualTo("A-104 を再発送しました。");
        JsonNode turn = server.requests().get(1).body().at("/messages/1/content");
        assertThat(turn.get(0)).isEqualTo(Json.parse(
                "{\"type\":\"thinking\",\"thinking\":\"A-104 を再発送すべきか考える\",\"signature\":\"" + signature + "\"}"));
        assertThat(turn.get(1)).isEqualTo(Json.parse("{\"type\":\"redacted_thinking\",\"data\":\"RED/acted+==\"}"));
        assertThat(turn.get(2).path("text").asText()).isEqualTo("再発送します。");
        assertThat(turn.get(3).path("id").asText()).isEqualTo("toolu_1");
        JsonNode result = server.requests().get(1).body().at("/messages/2/content/0");
        assertThat(result.path("tool_use_id").asText()).isEqualTo("toolu_1");
        assertThat(result.path("content").asText()).contains("再発送しました: A-104");
    }
}
