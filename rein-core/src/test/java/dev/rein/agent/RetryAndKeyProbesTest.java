package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.approval.ApprovalPolicy;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.StoredEvent;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.RetryableToolException;
import dev.rein.tool.Risk;
import dev.rein.tool.Secrets;
import dev.rein.tool.Tool;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * docs/safety.md's retry and idempotency promises in a whole run: "Each retry is a tool_retry trace event", retried "with
 * the same idempotency key", the failure's text masked like any tool output; and a key derived from the call's position in
 * the run, so the same side effect asked for again in a reply turn is a new action that runs again.
 */
class RetryAndKeyProbesTest {
    private static final String SECRET = "sk-live-ABCDEF123456";

    @Test
    void retriesInARunAreTracedAndKeepTheKey() {
        AtomicInteger calls = new AtomicInteger();
        List<String> keys = new CopyOnWriteArrayList<>();
        Tool send = Tool.builder("send").description("sends").risk(Risk.WRITE)
                .handler((args, ctx) -> {
                    keys.add(ctx.idempotencyKey());
                    if (calls.incrementAndGet() < 3) {
                        throw new RetryableToolException("busy " + ctx.secrets().get("key").orElseThrow());
                    }
                    return "sent";
                }).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send", "{}")), text("ok"));
        InMemoryRunStore store = new InMemoryRunStore();
        RunResult done = Agent.builder().model(model).tools(send).store(store).approvalPolicy(ApprovalPolicy.NEVER)
                .secrets(Secrets.of(Map.of("key", SECRET))).build().run("go");
        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        List<StoredEvent> events = store.events(done.runId());
        assertThat(events.stream().filter(e -> e.type().equals("tool_retry")).count()).isEqualTo(2);
        assertThat(events.toString()).doesNotContain(SECRET);
        assertThat(keys).hasSize(3).containsOnly(keys.get(0));
    }

    @Test
    void aSideEffectAskedForAgainInAReplyTurnRunsAgain() {
        AtomicInteger sent = new AtomicInteger();
        List<String> keys = new CopyOnWriteArrayList<>();
        Tool send = Tool.builder("send").description("sends").risk(Risk.WRITE)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"to\":{\"type\":\"string\"}}}")
                .handler((args, ctx) -> { keys.add(ctx.idempotencyKey()); return "sent #" + sent.incrementAndGet(); }).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send", "{\"to\":\"bob\"}")), text("sent"),
                toolCalls(call("send", "{\"to\":\"bob\"}")), text("sent again"));
        Agent agent = Agent.builder().model(model).tools(send).approvalPolicy(ApprovalPolicy.NEVER).build();
        RunResult first = agent.run("send bob a note");
        RunResult second = agent.reply(first.runId(), "send it once more");
        assertThat(second.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(sent.get()).isEqualTo(2);
        assertThat(keys).hasSize(2).doesNotHaveDuplicates();
    }
}
