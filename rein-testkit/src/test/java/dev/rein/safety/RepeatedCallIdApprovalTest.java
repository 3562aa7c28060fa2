package dev.rein.safety;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.json.Json;
import dev.rein.model.StopReason;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.testkit.ScriptedModel;
import org.junit.jupiter.api.Test;

/** A response whose calls share one id (some compatible servers repeat ids) paused for approval. */
class RepeatedCallIdApprovalTest {
    private final FakeOutbox outbox = new FakeOutbox();
    private final InMemoryRunStore store = new InMemoryRunStore();

    private Agent agent(ScriptedModel model) {
        return Agent.builder().model(model).tools(outbox.sendTool(), FakeOutbox.lookup("A-104: delayed at the depot"))
                .store(store).build();
    }

    @Test
    void aReadAndAWriteWithOneIdEachGetTheirOwnResultAfterTheApproval() {
        ScriptedModel model = ScriptedModel.of(ScriptedModel.reply(StopReason.TOOL_USE, Usage.ZERO,
                new ToolUseBlock("call_0", "lookup_order", Json.parse("{\"id\":\"A-104\"}")),
                new ToolUseBlock("call_0", "send_message", Json.parse("{\"to\":\"alice\",\"body\":\"late\"}"))), text("done"));
        Agent agent = agent(model);
        RunResult paused = agent.run("go");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        agent.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "carol");
        RunResult done = agent.resume(paused.runId());
        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(outbox.deliveries).as("the approved send ran").hasSize(1);
        var blocks = model.lastRequest().messages().get(2).content();
        assertThat(((ToolResultBlock) blocks.get(0)).content()).contains("delayed at the depot");
        assertThat(((ToolResultBlock) blocks.get(1)).content()).contains("sent to alice");
        assertThat(blocks).as("each result under the id the model gave").extracting(b -> ((ToolResultBlock) b).toolUseId())
                .containsExactly("call_0", "call_0");
    }

    @Test
    void twoWritesWithOneIdAreEachShownDecidedAndRun() {
        ScriptedModel model = ScriptedModel.of(ScriptedModel.reply(StopReason.TOOL_USE, Usage.ZERO,
                new ToolUseBlock("call_0", "send_message", Json.parse("{\"to\":\"alice\",\"body\":\"one\"}")),
                new ToolUseBlock("call_0", "send_message", Json.parse("{\"to\":\"bob\",\"body\":\"two\"}"))), text("done"));
        Agent agent = agent(model);
        RunResult paused = agent.run("go");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(paused.pendingApprovals()).as("both actions shown").hasSize(2);
        for (var r : paused.pendingApprovals()) {
            agent.runs().approve(paused.runId(), r.actionHash(), "carol");
        }
        RunResult done = agent.resume(paused.runId());
        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(paused.pendingApprovals()).extracting(r -> r.callId()).containsExactly("call_0", "call_0#1");
        assertThat(outbox.applied).containsOnlyKeys(paused.runId() + ":1:0", paused.runId() + ":1:1");
        assertThat(outbox.applied.values()).containsExactlyInAnyOrder("alice: one", "bob: two");
        var blocks = model.lastRequest().messages().get(2).content();
        assertThat(blocks).extracting(b -> ((ToolResultBlock) b).toolUseId()).containsExactly("call_0", "call_0");
        assertThat(blocks).extracting(b -> ((ToolResultBlock) b).content())
                .satisfiesExactly(c -> assertThat(c).contains("sent to alice"), c -> assertThat(c).contains("sent to bob"));
    }
}
