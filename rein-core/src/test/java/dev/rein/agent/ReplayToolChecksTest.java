package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.approval.ApprovalPolicy;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replay applies Rein's own checks of a tool call (the approval policy, the tool's required scopes and call cap)
 * as a live run does, before the call is answered from the recording: tightening one shows where behaviour changes
 * (audit aud4 H1: every call was answered before those checks ran, so each replay below reported no divergence).
 */
class ReplayToolChecksTest {
    private final AtomicInteger handlerRuns = new AtomicInteger();

    private Tool refund(UnaryOperator<Tool.Builder> change) {
        return change.apply(Tool.builder("refund").description("Refunds an order.").risk(Risk.WRITE)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"order\":{\"type\":\"string\"}},\"required\":[\"order\"]}")
                .handler((args, ctx) -> "refunded " + args.get("order").asText() + " #" + handlerRuns.incrementAndGet())).build();
    }

    /** Records three refunds, allowed without approval, into {@code trace}. */
    private void recordThreeRefunds(Path trace) {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("refund", "{\"order\":\"A-1\"}")),
                toolCalls(call("refund", "{\"order\":\"A-2\"}")), toolCalls(call("refund", "{\"order\":\"A-3\"}")), text("done"));
        RunResult recorded = Agent.builder().model(model).tools(refund(b -> b)).approvalPolicy(ApprovalPolicy.NEVER)
                .listener(JsonlTraceListener.to(trace)).build().run("refund three");
        assertThat(recorded.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(handlerRuns.get()).isEqualTo(3);
    }

    @Test
    void aTightenedApprovalPolicyPausesTheReplayWhereALiveRunWould(@TempDir Path dir) {
        Path trace = dir.resolve("t.jsonl");
        recordThreeRefunds(trace);

        ReplayReport report = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of()).tools(refund(b -> b))
                .approvalPolicy(ApprovalPolicy.SIDE_EFFECTS).build());

        assertThat(report.reproduced()).isFalse();
        assertThat(report.result().status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(report.firstDivergence()).hasValueSatisfying(d -> assertThat(d.description())
                .startsWith("step 2: the run now ends WAITING_APPROVAL").contains("before the recorded step call of step 2"));
        assertThat(handlerRuns.get()).as("no handler runs in a replay").isEqualTo(3);
    }

    @Test
    void aLoweredMaxCallsRefusesTheCallsOverItInTheReplay(@TempDir Path dir) {
        Path trace = dir.resolve("t.jsonl");
        recordThreeRefunds(trace);

        ReplayReport report = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of())
                .tools(refund(b -> b.maxCalls(1))).approvalPolicy(ApprovalPolicy.NEVER).build());

        assertThat(report.reproduced()).isFalse();
        assertThat(report.firstDivergence()).hasValueSatisfying(d -> {
            assertThat(d.step()).isEqualTo(3);
            assertThat(d.description()).contains("refund");
        });
        assertThat(handlerRuns.get()).isEqualTo(3);
    }

    @Test
    void aRequiredScopeThePrincipalLacksRefusesTheCallsInTheReplay(@TempDir Path dir) {
        Path trace = dir.resolve("t.jsonl");
        recordThreeRefunds(trace);

        ReplayReport report = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of())
                .tools(refund(b -> b.requiredScopes("refunds:write"))).approvalPolicy(ApprovalPolicy.NEVER).build());

        assertThat(report.reproduced()).isFalse();
        assertThat(report.firstDivergence()).hasValueSatisfying(d -> assertThat(d.step()).isEqualTo(2));
        assertThat(handlerRuns.get()).isEqualTo(3);
    }

    @Test
    void unchangedChecksStillReproduceTheRun(@TempDir Path dir) {
        Path trace = dir.resolve("t.jsonl");
        recordThreeRefunds(trace);

        ReplayReport report = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of())
                .tools(refund(b -> b.maxCalls(3))).approvalPolicy(ApprovalPolicy.NEVER).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(handlerRuns.get()).isEqualTo(3);
    }

    @Test
    void standInsWaitForAPersonWhereTheRecordingDidWhateverThePolicy(@TempDir Path dir) {
        Path trace = dir.resolve("t.jsonl");
        recordThreeRefunds(trace);
        Replay replay = Replay.from(trace);

        // stand-ins are WRITE and the default policy (SIDE_EFFECTS) holds WRITE calls: the recording, not it, decides
        ReplayReport report = replay.replay(Agent.builder().model(ScriptedModel.of()).tools(replay.recorded().standInTools()).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
    }

    @Test
    void standInsPauseWhereTheRecordingPaused(@TempDir Path dir) {
        Path trace = dir.resolve("t.jsonl");
        RunResult recorded = Agent.builder().model(ScriptedModel.of(toolCalls(call("refund", "{\"order\":\"A-1\"}"))))
                .tools(refund(b -> b)).approvalPolicy(ApprovalPolicy.SIDE_EFFECTS).listener(JsonlTraceListener.to(trace)).build()
                .run("refund one");
        assertThat(recorded.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        Replay replay = Replay.from(trace);

        ReplayReport report = replay.replay(Agent.builder().model(ScriptedModel.of()).tools(replay.recorded().standInTools())
                .approvalPolicy(ApprovalPolicy.NEVER).build());

        assertThat(report.result().status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(report.reproduced()).isTrue();
    }
}
