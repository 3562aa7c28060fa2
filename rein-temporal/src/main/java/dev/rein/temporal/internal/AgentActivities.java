package dev.rein.temporal.internal;

import dev.rein.agent.DrivenRun;
import dev.rein.agent.RunResult;
import dev.rein.run.FinishReport;
import dev.rein.run.NextStep;
import dev.rein.run.RunStatus;
import dev.rein.state.RunSnapshot;
import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;
import java.util.List;
import java.util.Map;

/** The run's effects as activities: each runs on a worker with the agent's chains and listeners. */
@ActivityInterface(namePrefix = "Rein")
public interface AgentActivities {
    RunSnapshot begin(String runId, String goal);

    /** A model step; a failure is an ApplicationFailure whose type is the run's reason. */
    @ActivityMethod(name = "ReinCallModel")
    DrivenRun.ModelStep callModel(RunSnapshot snapshot);

    /** The tool calls of one response, with their guards and stages (several run in parallel, results in call order). */
    @ActivityMethod(name = "ReinAct")
    DrivenRun.Outcome act(RunSnapshot snapshot, ToolUses uses);

    DrivenRun.Checked verify(RunSnapshot snapshot, NextStep.Answer answer);

    DrivenRun.Outcome stopForBudget(RunSnapshot snapshot, String budgetReason);

    void intervene(RunSnapshot snapshot, String kind, String message, Map<String, Object> details);

    RunSnapshot paused(RunSnapshot snapshot);

    RunSnapshot resumed(RunSnapshot snapshot);

    RunResult end(RunSnapshot snapshot, RunStatus status, String reason, String message, String answer, FinishReport report);
}
