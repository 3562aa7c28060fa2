package dev.rein.safety;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.json.Json;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.StreamObserver;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.SnapshotCodec;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Secrets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A registered secret is masked in everything Rein stores or hands out, not only in the trace. */
class SecretsAtRestTest {
    private static final String KEY = "sk-live-7Qx9Zt2";
    private static final String MASK = "[REDACTED:api_key]";

    private final InMemoryRunStore store = new InMemoryRunStore();
    private final RecordingListener trace = new RecordingListener();
    private final FakeOutbox outbox = new FakeOutbox();

    private Agent agent(Model model) {
        return Agent.builder().model(model).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES).tools(outbox.sendTool()).store(store).listener(trace)
                .secrets(Secrets.of(Map.of("api_key", KEY))).build();
    }

    private String stored(RunResult result) {
        return SnapshotCodec.write(store.load(result.runId()).orElseThrow());
    }

    private static String everything(RunResult result) {
        return result.answer() + result.message() + Json.write(result.history()) + Json.write(result.pendingApprovals())
                + Json.write(result.state());
    }

    @Test
    void aSecretInTheGoalOrTheModelsTextIsNeitherStoredNorReturned() {
        ScriptedModel model = ScriptedModel.of(text("Your key " + KEY + " is valid."));
        RunResult result = agent(model).run("Check whether the key " + KEY + " works");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("Your key " + MASK + " is valid.");
        assertThat(everything(result)).doesNotContain(KEY).contains(MASK);
        assertThat(stored(result)).doesNotContain(KEY).contains(MASK);
        assertThat(Json.write(model.lastRequest().messages())).as("the model never sees it either").doesNotContain(KEY);
    }

    @Test
    void aSecretInAPendingApprovalsArgumentsIsMaskedAndTheRunStillResumes() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message", "{\"to\":\"ops\",\"body\":\"key=" + KEY + "\"}")), text("sent"));
        Agent agent = agent(model);
        RunResult paused = agent.run("send the key to ops");

        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(everything(paused)).doesNotContain(KEY);
        assertThat(paused.pendingApprovals().get(0).arguments().get("body").asText()).isEqualTo("key=" + MASK);
        assertThat(stored(paused)).doesNotContain(KEY);

        agent.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "ops lead");
        RunResult done = agent.resume(paused.runId());
        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(outbox.applied.values()).containsExactly("ops: key=" + MASK);
        assertThat(stored(done)).doesNotContain(KEY);
    }

    @Test
    void aSecretInAPersonsRejectionReasonOrEditedArgumentsIsNotStoredInClear() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message", "{\"to\":\"ops\",\"body\":\"hi\"}")), text("not sent"));
        Agent agent = agent(model);
        RunResult paused = agent.run("send it");
        agent.runs().reject(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "never send " + KEY, "ops lead");
        assertThat(SnapshotCodec.write(store.load(paused.runId()).orElseThrow())).doesNotContain(KEY).contains("never send " + MASK);
        RunResult rejected = agent.resume(paused.runId());
        assertThat(rejected.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(Json.write(model.lastRequest().messages())).doesNotContain(KEY).contains("never send " + MASK);

        ScriptedModel model2 = ScriptedModel.of(toolCalls(call("send_message", "{\"to\":\"ops\",\"body\":\"hi\"}")), text("sent"));
        Agent agent2 = agent(model2);
        RunResult paused2 = agent2.run("send it");
        agent2.runs().edit(paused2.runId(), paused2.pendingApprovals().get(0).actionHash(),
                Json.parse("{\"to\":\"ops\",\"body\":\"key=" + KEY + "\"}"), "ops lead");
        assertThat(SnapshotCodec.write(store.load(paused2.runId()).orElseThrow())).doesNotContain(KEY);
        // The edit is kept and run as a model's arguments are: masked, and still the action the person approved.
        RunResult done = agent2.resume(paused2.runId());
        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(outbox.applied.values()).containsExactly("ops: key=" + MASK);
        assertThat(stored(done)).doesNotContain(KEY);
    }

    @Test
    void aSecretStreamedAcrossSeveralDeltasReachesNoListener() {
        ScriptedModel inner = ScriptedModel.of(text("The key is " + KEY + ", keep it safe."));
        Model streaming = (request, context) -> {
            var response = inner.call(request, new ModelCallContext(context.deadline(), StreamObserver.NONE));
            String full = response.text();
            for (int i = 0; i < full.length(); i += 3) {
                context.stream().onTextDelta(full.substring(i, Math.min(full.length(), i + 3)));
            }
            return response;
        };
        RunResult result = agent(streaming).run("go");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(trace.streamedText()).isEqualTo("The key is " + MASK + ", keep it safe.");
    }

    @Test
    void aSecretWithCharactersJsonEscapesIsMaskedInStreamedToolInput() {
        // Tool input streams as raw JSON text, where '"', '\\' and control characters appear escaped
        // (and a model may write any character as a \\u escape); the masking must still find the value.
        String secret = "pa\"ss\\wörd東京\t9";
        StringBuilder deltas = new StringBuilder();
        dev.rein.trace.RunListener listener = new dev.rein.trace.RunListener() {
            @Override
            public void onToolInputDelta(String id, String partialJson) {
                deltas.append(partialJson);
            }
        };
        dev.rein.model.ToolUseBlock use = new dev.rein.model.ToolUseBlock("toolu_1", "send_message",
                Json.parse("{\"to\":\"ops\",\"body\":" + Json.write(com.fasterxml.jackson.databind.node.TextNode.valueOf(secret)) + "}"));
        String escaped = Json.write(use.input());
        String asciiEscaped = escaped.replace("ö", "\\u00f6").replace("東", "\\u6771").replace("京", "\\u4eac");
        ScriptedModel inner = ScriptedModel.of(toolCalls(call("send_message", escaped)));
        Model streaming = (request, context) -> {
            var response = inner.call(request, new ModelCallContext(context.deadline(), StreamObserver.NONE));
            context.stream().onToolUseStart(use.id(), use.name());
            for (String text : new String[] {escaped, asciiEscaped}) {
                for (int i = 0; i < text.length(); i += 2) {
                    context.stream().onToolInputDelta(use.id(), text.substring(i, Math.min(text.length(), i + 2)));
                }
            }
            return response;
        };
        RunResult result = Agent.builder().model(streaming).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)
                .tools(outbox.sendTool()).store(store).listener(runId -> listener)
                .secrets(Secrets.of(Map.of("api_key", secret))).build().run("send it");

        assertThat(result.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(deltas.toString()).contains("[REDACTED:api_key]")
                .doesNotContain("pa\\\"ss").doesNotContain("w\\u00f6rd").doesNotContain("\\u6771\\u4eac");
    }
}
