package dev.rein.safety;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.json.Json;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.SnapshotCodec;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Secrets;
import dev.rein.tool.Tool;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * docs/safety.md: a secret from a lookup function becomes known the moment it is handed out and is
 * masked from then on, also after the run paused and another agent (another process) resumed it.
 */
class HandedOutSecretResumeTest {
    private static final String SECRET = "pw-データベース-7788";
    private static final Secrets LOOKUP = name -> name.equals("db") ? Optional.of(SECRET) : Optional.empty();

    private final InMemoryRunStore store = new InMemoryRunStore();
    private final Tool connect = Tool.builder("connect").description("Connects.").handler((a, c) -> {
        c.secrets().get("db");
        return "connected";
    }).build();
    private final Tool send = Tool.builder("send").description("Sends.").risk(Risk.WRITE)
            .handler((a, c) -> "sent; the configuration was postgres://app:" + SECRET + "@db").build();

    private Agent agent(ScriptedModel model) {
        return Agent.builder().model(model).tools(connect, send).store(store).secrets(LOOKUP).build();
    }

    @Test
    void aSecretHandedOutBeforeThePauseIsStillMaskedWhenAnotherAgentResumes() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("connect", "{}"), call("send", "{}")), text("done"));
        RunResult paused = agent(model).run("go");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        String stored = SnapshotCodec.write(store.load(paused.runId()).orElseThrow());
        assertThat(stored).as("the name is kept, never the value").contains("\"secrets_handed_out\":[\"db\"]").doesNotContain(SECRET);
        agent(model).runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "carol");

        RunResult done = agent(model).resume(paused.runId());

        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        // before: the resumed run knew nothing handed out, so the write's output reached the model and the store in clear
        assertThat(model.lastRequest().toString()).contains("postgres://app:[REDACTED:db]@db").doesNotContain(SECRET);
        assertThat(Json.write(store.load(paused.runId()).orElseThrow())).doesNotContain(SECRET);
        assertThat(Json.write(done)).doesNotContain(SECRET);
    }
}
