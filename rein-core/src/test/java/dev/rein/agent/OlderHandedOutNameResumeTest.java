package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.model.Message;
import dev.rein.model.ToolResultBlock;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunSnapshot;
import dev.rein.state.SnapshotCodec;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Secrets;
import dev.rein.tool.Tool;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * docs/safety.md: a run stored by an older Rein, whose lookup handed out a name this Rein refuses to hand out
 * ({@code api]key}), is resumed with that value still masked (reviewer rev136's probe). Before, the resumed run asked
 * again through the name check, which threw; the catch left the value unknown, and the model, the trace and the store
 * got it in clear. A marker that could break is better than the value in clear.
 */
class OlderHandedOutNameResumeTest {
    private static final String VALUE = "long-enough-value-XYZ";

    @Test
    void aNameAnOlderReinHandedOutIsStillMaskedOnResumeAlthoughItWouldNowBeRefused() {
        Secrets lookup = name -> Optional.of(VALUE);
        Tool fetch = Tool.builder("fetch").description("fetches")
                .handler((args, ctx) -> {
                    ctx.secrets().get("apikey").orElseThrow();
                    return "fetched";
                }).build();
        // after the resume, an upstream echoes the key in its answer (the handler got it before the pause, a cached client)
        Tool send = Tool.builder("send").description("sends").risk(Risk.WRITE)
                .handler((args, ctx) -> "upstream said: bad key " + VALUE).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("fetch", "{}")), toolCalls(call("send", "{}")), text("ok"));
        InMemoryRunStore store = new InMemoryRunStore();
        RecordingListener trace = new RecordingListener();
        Agent agent = Agent.builder().model(model).tools(fetch, send).secrets(lookup).store(store).listener(trace).build();
        RunResult paused = agent.run("go");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        RunSnapshot s = store.load(paused.runId()).orElseThrow();
        // as an older Rein stored it: its lookup had handed out "api]key", a name this Rein no longer hands out
        store.save(new RunSnapshot(s.format(), s.runId(), s.version() + 1, s.goal(), s.model(), s.status(), s.reason(),
                s.message(), s.answer(), s.createdAt(), s.updatedAt(), s.activeMillis(), s.principal(), s.history(), s.steps(),
                s.usage(), s.costUsd(), s.verificationFailures(), s.toolCallCounts(), s.state(), s.approvals(), s.finish(),
                s.conversation(), List.of("api]key"), s.criticRounds(), s.outputSchema()));
        agent.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "alice");

        RunResult done = agent.resume(paused.runId());

        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        List<Message> messages = model.lastRequest().messages();
        String last = ((ToolResultBlock) messages.get(messages.size() - 1).content().get(0)).content();
        assertThat(last).contains("upstream said: bad key [REDACTED:api]key]").doesNotContain(VALUE);
        assertThat(trace.events().toString()).doesNotContain(VALUE);
        RunSnapshot stored = store.load(paused.runId()).orElseThrow();
        assertThat(SnapshotCodec.write(stored)).doesNotContain(VALUE);
        assertThat(stored.secretsHandedOut()).as("kept, so a second resume masks it too").contains("api]key");
    }
}
