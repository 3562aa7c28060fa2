package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.approval.ApprovalException;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import org.junit.jupiter.api.Test;

/** A decision for a run stored RUNNING, left so by a process that died, says how such a run goes on. */
class RunningRunDecisionTest {

    @Test
    void aDecisionForARunLeftRunningByADeadProcessSaysToResumeIt() {
        Tool charge = Tool.builder("charge").description("Charges the card.").risk(Risk.WRITE).handler((a, c) -> "charged").build();
        ReplayedCallCapTest.CrashingStore store = new ReplayedCallCapTest.CrashingStore();
        String runId = Agent.builder().model(ScriptedModel.of(toolCalls(call("charge", "{\"amount\":5}")), text("unused")))
                .tools(charge).approvalPolicy(ApprovalPolicy.NEVER).store(store).build().run("charge").runId();
        assertThat(store.delegate().load(runId).orElseThrow().status()).isEqualTo(RunStatus.RUNNING);

        Agent agent = Agent.builder().model(ScriptedModel.of(text("done"))).tools(charge).approvalPolicy(ApprovalPolicy.NEVER)
                .store(store.delegate()).build();
        // before: only "run R is RUNNING, not waiting for approval", naming no way on for a run whose process died
        assertThatThrownBy(() -> agent.runs().approve(runId, "0".repeat(64), "alice")).isInstanceOf(ApprovalException.class)
                .hasMessage("run " + runId + " is RUNNING, not waiting for approval; if the process that ran it has stopped"
                        + " (it crashed or was killed), continue it with agent.resume(\"" + runId + "\")");
        assertThat(agent.resume(runId).status()).isEqualTo(RunStatus.SUCCEEDED);
    }
}
