package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.approval.ApprovalPolicy;
import dev.rein.budget.Budget;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run whose process stopped while it was RUNNING and that an agent with other limits resumed ran on under those
 * limits (its run_resumed records them). Nothing pauses a replay there, so it cannot take them up: the replay says so
 * where it diverges, rather than leaving a divergence the limits explain unexplained.
 */
class ReplayInterruptedRunTest {
    private static Tool charge() {
        return Tool.builder("charge").description("Charges the card.").risk(Risk.WRITE)
                .handler((a, c) -> "charged").build();
    }

    /**
     * The trace of a run allowed 10 steps whose process stopped while RUNNING, resumed by an agent allowing one step,
     * which answers the charge from its record and stops for its budget.
     */
    private static Path crashedThenResumedWithOneStep(Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        ReplayedCallCapTest.CrashingStore store = new ReplayedCallCapTest.CrashingStore();
        RunResult crashed = Agent.builder().model(ScriptedModel.of(toolCalls(call("charge", "{\"amount\":5}")), text("unused")))
                .tools(charge()).approvalPolicy(ApprovalPolicy.NEVER).store(store).budget(Budget.builder().maxSteps(10).build())
                .listener(JsonlTraceListener.to(trace)).build().run("charge the customer");
        assertThat(store.delegate().load(crashed.runId()).orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        // resumed by an agent allowing one step: it answers the charge from its record and stops for its budget
        RunResult done = Agent.builder().model(ScriptedModel.of(text("Charged; nothing is left.")))
                .tools(charge()).approvalPolicy(ApprovalPolicy.NEVER).store(store.delegate())
                .budget(Budget.builder().maxSteps(1).build()).listener(JsonlTraceListener.to(trace)).build().resume(crashed.runId());
        assertThat(done.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(Files.readString(trace)).contains("\"from\":\"RUNNING\"");
        return trace;
    }

    private static ReplayReport replay(Path trace) {
        return Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of()).tools(charge())
                .approvalPolicy(ApprovalPolicy.NEVER).build());
    }

    @Test
    void aRunResumedAfterItsProcessStoppedUnderOtherLimitsIsNamedWhereTheReplayDiverges(@TempDir Path dir) throws Exception {
        ReplayReport report = replay(crashedThenResumedWithOneStep(dir));

        assertThat(report.reproduced()).isFalse();
        assertThat(report.firstDivergence()).isPresent();
        assertThat(report.firstDivergence().get().description())
                .contains("the recorded run was resumed at step 1 after its process stopped (run_resumed from RUNNING) under"
                        + " other limits than the replay had there: max_steps 1 (was 10); a replay cannot take them up there");
    }

    /** Resumed twice after its process stopped: the divergence names each resumption, not only the first. */
    @Test
    void everyResumptionAfterAStoppedProcessIsNamedNotOnlyTheFirst(@TempDir Path dir) throws Exception {
        Path trace = crashedThenResumedWithOneStep(dir);
        // a second resumption after a stopped process, under yet other limits, as another process would have traced it
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(trace));
        int resumed = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("\"run_resumed\"") && lines.get(i).contains("\"from\":\"RUNNING\"")) {
                resumed = i;
            }
        }
        assertThat(resumed).isNotNegative();
        lines.add(resumed + 1, lines.get(resumed).replace("\"max_steps\":1", "\"max_steps\":2"));
        Files.write(trace, lines);

        ReplayReport report = replay(trace);

        assertThat(report.firstDivergence()).isPresent();
        assertThat(report.firstDivergence().get().description())
                .contains("max_steps 1 (was 10)", "max_steps 2 (was 10)");
    }
}
