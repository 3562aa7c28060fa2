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

    /** Records three refunds, allowed without approval, into a trace in {@code dir}; returns the trace. */
    private Path recordThreeRefunds(Path dir) {
        Path trace = dir.resolve("t.jsonl");
        ScriptedModel model = ScriptedModel.of(toolCalls(call("refund", "{\"order\":\"A-1\"}")),
                toolCalls(call("refund", "{\"order\":\"A-2\"}")), toolCalls(call("refund", "{\"order\":\"A-3\"}")), text("done"));
        RunResult recorded = Agent.builder().model(model).tools(refund(b -> b)).approvalPolicy(ApprovalPolicy.NEVER)
                .listener(JsonlTraceListener.to(trace)).build().run("refund three");
        assertThat(recorded.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(handlerRuns.get()).isEqualTo(3);
        return trace;
    }

    /** Replays {@code trace} on an agent with no model, only {@code tool}, under {@code policy}. */
    private static ReplayReport replayWith(Path trace, Tool tool, ApprovalPolicy policy) {
        return Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of()).tools(tool).approvalPolicy(policy).build());
    }

    /** Replays {@code replay} on an agent with no model and its recording's stand-in tools, under the default policy. */
    private static ReplayReport replayWithStandIns(Replay replay) {
        return replay.replay(Agent.builder().model(ScriptedModel.of()).tools(replay.recorded().standInTools()).build());
    }

    /** Records one refund held for approval (SIDE_EFFECTS) into a trace in {@code dir}; returns the trace. */
    private Path recordOnePausedRefund(Path dir) {
        Path trace = dir.resolve("t.jsonl");
        RunResult recorded = Agent.builder().model(ScriptedModel.of(toolCalls(call("refund", "{\"order\":\"A-1\"}"))))
                .tools(refund(b -> b)).approvalPolicy(ApprovalPolicy.SIDE_EFFECTS).listener(JsonlTraceListener.to(trace)).build()
                .run("refund one");
        assertThat(recorded.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        return trace;
    }

    /** Holds only the refund of order B. */
    private static final ApprovalPolicy ONLY_B = new ApprovalPolicy() {
        @Override
        public boolean requiresApproval(Tool tool, com.fasterxml.jackson.databind.JsonNode arguments, dev.rein.tool.Principal principal) {
            return arguments.path("order").asText().equals("B");
        }
    };

    /** A model that asks for refunds of A and B in one step, both named call_0 (a server that reuses ids). */
    private static ScriptedModel refundsAAndBSharingCall0() {
        return ScriptedModel.of(ScriptedModel.reply(dev.rein.model.StopReason.TOOL_USE, ScriptedModel.DEFAULT_USAGE,
                new dev.rein.model.ToolUseBlock("call_0", "refund", dev.rein.json.Json.parse("{\"order\":\"A\"}")),
                new dev.rein.model.ToolUseBlock("call_0", "refund", dev.rein.json.Json.parse("{\"order\":\"B\"}"))));
    }

    @Test
    void aTightenedApprovalPolicyPausesTheReplayWhereALiveRunWould(@TempDir Path dir) {
        Path trace = recordThreeRefunds(dir);

        ReplayReport report = replayWith(trace, refund(b -> b), ApprovalPolicy.SIDE_EFFECTS);

        assertThat(report.reproduced()).isFalse();
        assertThat(report.result().status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(report.firstDivergence()).hasValueSatisfying(d -> assertThat(d.description())
                .startsWith("step 2: the run now ends WAITING_APPROVAL").contains("before the recorded step call of step 2"));
        assertThat(handlerRuns.get()).as("no handler runs in a replay").isEqualTo(3);
    }

    @Test
    void aLoweredMaxCallsRefusesTheCallsOverItInTheReplay(@TempDir Path dir) {
        Path trace = recordThreeRefunds(dir);

        ReplayReport report = replayWith(trace, refund(b -> b.maxCalls(1)), ApprovalPolicy.NEVER);

        assertThat(report.reproduced()).isFalse();
        assertThat(report.firstDivergence()).hasValueSatisfying(d -> {
            assertThat(d.step()).isEqualTo(3);
            assertThat(d.description()).contains("refund");
        });
        assertThat(handlerRuns.get()).isEqualTo(3);
    }

    @Test
    void aRequiredScopeThePrincipalLacksRefusesTheCallsInTheReplay(@TempDir Path dir) {
        Path trace = recordThreeRefunds(dir);

        ReplayReport report = replayWith(trace, refund(b -> b.requiredScopes("refunds:write")), ApprovalPolicy.NEVER);

        assertThat(report.reproduced()).isFalse();
        assertThat(report.firstDivergence()).hasValueSatisfying(d -> assertThat(d.step()).isEqualTo(2));
        assertThat(handlerRuns.get()).isEqualTo(3);
    }

    @Test
    void unchangedChecksStillReproduceTheRun(@TempDir Path dir) {
        Path trace = recordThreeRefunds(dir);

        ReplayReport report = replayWith(trace, refund(b -> b.maxCalls(3)), ApprovalPolicy.NEVER);

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(handlerRuns.get()).isEqualTo(3);
    }

    @Test
    void standInsWaitForAPersonWhereTheRecordingDidWhateverThePolicy(@TempDir Path dir) {
        Path trace = recordThreeRefunds(dir);
        Replay replay = Replay.from(trace);

        // stand-ins are WRITE and the default policy (SIDE_EFFECTS) holds WRITE calls: the recording, not it, decides
        ReplayReport report = replayWithStandIns(replay);

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
    }

    @Test
    void standInsPauseWhereTheRecordingPaused(@TempDir Path dir) {
        Path trace = recordOnePausedRefund(dir);
        Replay replay = Replay.from(trace);

        ReplayReport report = replay.replay(Agent.builder().model(ScriptedModel.of()).tools(replay.recorded().standInTools())
                .approvalPolicy(ApprovalPolicy.NEVER).build());

        assertThat(report.result().status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(report.reproduced()).isTrue();
    }
    /** A READ tool the tests record beside refund. */
    private static Tool lookup() {
        return Tool.builder("lookup").description("Looks an order up.").risk(Risk.READ)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"order\":{\"type\":\"string\"}},\"required\":[\"order\"]}")
                .handler((args, ctx) -> "order " + args.get("order").asText()).build();
    }

    @Test
    void aStandInIsHeldOnlyAtTheRecordedStepAndCallIdWhenAServerReusesIds(@TempDir Path dir) {
        // a server that names every call call_0: lookup's call_0 at step 1 ran freely, refund's call_0 at step 2 was held
        Path trace = dir.resolve("t.jsonl");
        RunResult recorded = Agent.builder().model(ScriptedModel.of(
                        ScriptedModel.reply(dev.rein.model.StopReason.TOOL_USE, ScriptedModel.DEFAULT_USAGE,
                                new dev.rein.model.ToolUseBlock("call_0", "lookup", dev.rein.json.Json.parse("{\"order\":\"A-1\"}"))),
                        ScriptedModel.reply(dev.rein.model.StopReason.TOOL_USE, ScriptedModel.DEFAULT_USAGE,
                                new dev.rein.model.ToolUseBlock("call_0", "refund", dev.rein.json.Json.parse("{\"order\":\"A-1\"}")))))
                .tools(lookup(), refund(b -> b)).approvalPolicy(ApprovalPolicy.SIDE_EFFECTS).listener(JsonlTraceListener.to(trace))
                .build().run("refund A-1");
        assertThat(recorded.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        Replay replay = Replay.from(trace);

        ReplayReport report = replayWithStandIns(replay);

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.result().status()).isEqualTo(RunStatus.WAITING_APPROVAL);
    }

    @Test
    void theSameStandInCallTwiceIsHeldOnlyWhereTheRecordingHeldIt(@TempDir Path dir) {
        Path trace = dir.resolve("t.jsonl");
        AtomicInteger asked = new AtomicInteger();
        ApprovalPolicy firstOnly = new ApprovalPolicy() {
            @Override
            public boolean requiresApproval(Tool tool, com.fasterxml.jackson.databind.JsonNode arguments, dev.rein.tool.Principal principal) {
                return asked.getAndIncrement() == 0;
            }
        };
        Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("refund", "{\"order\":\"A-1\"}")),
                        toolCalls(call("refund", "{\"order\":\"A-1\"}")), text("ok")))
                .tools(refund(b -> b)).store(new dev.rein.state.InMemoryRunStore()).approvalPolicy(firstOnly)
                .listener(JsonlTraceListener.to(trace)).build();
        RunResult paused = agent.run("refund A-1 twice");
        agent.runs().approve(paused.runId(), agent.runs().pending(paused.runId()).get(0).actionHash(), "ann");
        assertThat(agent.resume(paused.runId()).status()).isEqualTo(RunStatus.SUCCEEDED);
        Replay replay = Replay.from(trace);

        ReplayReport report = replayWithStandIns(replay);

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.result().status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void ofTwoStandInCallsSharingAnIdOnlyTheHeldOneWaits(@TempDir Path dir) throws java.io.IOException {
        Path trace = dir.resolve("t.jsonl");
        Agent agent = Agent.builder().model(refundsAAndBSharingCall0()).tools(refund(b -> b)).approvalPolicy(ONLY_B)
                .listener(JsonlTraceListener.to(trace)).build();
        RunResult paused = agent.run("refund A and B");
        assertThat(agent.runs().pending(paused.runId())).extracting(dev.rein.approval.ApprovalRequest::callId).containsExactly("call_0#1");
        Replay replay = Replay.from(trace);
        Path replayed = dir.resolve("replay.jsonl");

        ReplayReport report = replay.replay(Agent.builder().model(ScriptedModel.of()).tools(replay.recorded().standInTools())
                .listener(JsonlTraceListener.to(replayed)).build());

        assertThat(report.result().status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(java.nio.file.Files.readAllLines(replayed)).filteredOn(l -> l.startsWith("{\"type\":\"approval_requested\""))
                .singleElement().asString().contains("\"call_id\":\"call_0#1\"");
        assertThat(report.reproduced()).isTrue();
    }
    /** Records refund(A-1), held by SIDE_EFFECTS and approved or rejected by a person, then resumed, into {@code trace}. */
    private void recordDecided(Path trace, boolean approve) {
        Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("refund", "{\"order\":\"A-1\"}")), text("ok")))
                .tools(refund(b -> b)).store(new dev.rein.state.InMemoryRunStore()).approvalPolicy(ApprovalPolicy.SIDE_EFFECTS)
                .listener(JsonlTraceListener.to(trace)).build();
        RunResult paused = agent.run("refund A-1");
        String hash = agent.runs().pending(paused.runId()).get(0).actionHash();
        if (approve) {
            agent.runs().approve(paused.runId(), hash, "ann");
        } else {
            agent.runs().reject(paused.runId(), hash, "no", "ann");
        }
        assertThat(agent.resume(paused.runId()).status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    /** Records three refunds of {@code tool}, whose checks refused the later ones, into {@code trace}. */
    private void recordThreeOf(Path trace, Tool tool) {
        Agent.builder().model(ScriptedModel.of(toolCalls(call("refund", "{\"order\":\"A-1\"}")),
                        toolCalls(call("refund", "{\"order\":\"A-2\"}")), toolCalls(call("refund", "{\"order\":\"A-3\"}")), text("done")))
                .tools(tool).approvalPolicy(ApprovalPolicy.NEVER).listener(JsonlTraceListener.to(trace)).build().run("refund three");
    }

    private static void assertRefusedAsLoosened(ReplayReport report, String errorClass) {
        assertThat(report.reproduced()).isFalse();
        assertThat(report.firstDivergence()).isPresent();
        assertThat(report.result().toString()).isNotNull();
        assertThat(report.firstDivergence().get().description()).contains("the recording refused this call (" + errorClass + ")");
    }

    @Test
    void aRecordedRejectionThatTodaysPolicyLetsThroughDiverges(@TempDir Path dir) {
        Path trace = dir.resolve("t.jsonl");
        recordDecided(trace, false);

        ReplayReport report = replayWith(trace, refund(b -> b), ApprovalPolicy.NEVER);

        assertRefusedAsLoosened(report, "REJECTED");
        assertThat(handlerRuns.get()).as("the rejected refund never ran").isZero();
    }

    @Test
    void aRecordedRejectionOrApprovalUnderTheSamePolicyReproduces(@TempDir Path dir) {
        Path rejected = dir.resolve("r.jsonl");
        recordDecided(rejected, false);
        Path approved = dir.resolve("a.jsonl");
        recordDecided(approved, true);

        for (Path trace : java.util.List.of(rejected, approved)) {
            ReplayReport report = replayWith(trace, refund(b -> b), ApprovalPolicy.SIDE_EFFECTS);
            assertThat(report.firstDivergence()).as(trace.toString()).isEmpty();
            assertThat(report.reproduced()).isTrue();
        }
    }

    @Test
    void aRecordedApprovalThatTodaysPolicyLetsThroughIsAnsweredFromTheRecording(@TempDir Path dir) {
        Path trace = dir.resolve("t.jsonl");
        recordDecided(trace, true);

        ReplayReport report = replayWith(trace, refund(b -> b), ApprovalPolicy.NEVER);

        // approved as it was: the call is answered from the recording (docs/replay.md)
        assertThat(report.reproduced()).isTrue();
        assertThat(handlerRuns.get()).as("only the recorded run ran the refund").isEqualTo(1);
    }

    @Test
    void aRecordedCallCapThatTodayIsGoneDiverges(@TempDir Path dir) {
        Path trace = dir.resolve("t.jsonl");
        recordThreeOf(trace, refund(b -> b.maxCalls(1)));

        ReplayReport report = replayWith(trace, refund(b -> b), ApprovalPolicy.NEVER);

        assertRefusedAsLoosened(report, "LIMIT_REACHED");
    }

    @Test
    void aRecordedScopeRefusalThatTodayIsGoneDiverges(@TempDir Path dir) {
        Path trace = dir.resolve("t.jsonl");
        recordThreeOf(trace, refund(b -> b.requiredScopes("refunds:write")));

        ReplayReport report = replayWith(trace, refund(b -> b), ApprovalPolicy.NEVER);

        assertRefusedAsLoosened(report, "PERMISSION_DENIED");
    }

    @Test
    void aRecordedPauseThatTodaysPolicyLetsThroughUneditedIsRefused(@TempDir Path dir) {
        Path trace = recordOnePausedRefund(dir);

        ReplayReport report = replayWith(trace, refund(b -> b), ApprovalPolicy.NEVER);

        assertThat(report.reproduced()).isFalse();
        assertThat(handlerRuns.get()).isZero();
    }

    @Test
    void aReplayPausedOnOtherCallsThanTheRecordingDiverges(@TempDir Path dir) {
        Path trace = dir.resolve("t.jsonl");
        Agent.builder().model(refundsAAndBSharingCall0()).tools(refund(b -> b)).approvalPolicy(ONLY_B)
                .listener(JsonlTraceListener.to(trace)).build().run("refund A and B");

        // today's policy holds both calls: the run ends WAITING_APPROVAL as recorded, but on another set of calls
        ReplayReport report = replayWith(trace, refund(b -> b), ApprovalPolicy.SIDE_EFFECTS);

        assertThat(report.result().status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(report.reproduced()).isFalse();
        assertThat(report.firstDivergence()).hasValueSatisfying(d -> assertThat(d.description()).contains("call_0, call_0#1")
                .contains("call_0#1"));
    }
}
