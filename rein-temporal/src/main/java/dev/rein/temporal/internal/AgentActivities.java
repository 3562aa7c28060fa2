package dev.rein.temporal.internal;

import dev.rein.agent.RunResult;
import dev.rein.run.FinishReport;
import dev.rein.run.NextStep;
import dev.rein.run.RunStatus;
import dev.rein.temporal.internal.Payloads.Acted;
import dev.rein.temporal.internal.Payloads.CallDone;
import dev.rein.temporal.internal.Payloads.Checked;
import dev.rein.temporal.internal.Payloads.ModelStep;
import dev.rein.temporal.internal.Payloads.Planned;
import dev.rein.temporal.internal.Payloads.RunRef;
import dev.rein.temporal.internal.Payloads.Turn;
import dev.rein.tool.ToolCall;
import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;
import java.util.List;
import java.util.Map;

/**
 * The run's effects as activities: each runs on a worker with the agent's chains and listeners.
 * The run's snapshot travels by reference ({@link Turn}, {@link RunRef}); see {@link Payloads}.
 */
@ActivityInterface(namePrefix = "Rein")
public interface AgentActivities {
    RunRef begin(String runId, String goal);

    /** A model step; a failure is an ApplicationFailure whose type is the run's reason. */
    @ActivityMethod(name = "ReinCallModel")
    ModelStep callModel(Turn turn);

    /** The stall guard's plan for the calls of one response (or the step's answer when no call runs). */
    @ActivityMethod(name = "ReinPlanTools")
    Planned planTools(Turn turn, ToolUses uses);

    /** One call through the executor's whole gate; {@code callCounts} count the earlier calls of the response. */
    @ActivityMethod(name = "ReinCallTool")
    CallDone callTool(Turn turn, ToolCall call, Map<String, Integer> callCounts);

    /** The step answered from its calls' outcomes (in the plan's order), or the pause for approvals. */
    @ActivityMethod(name = "ReinCompleteTools")
    Acted completeTools(Turn turn, ToolUses uses, List<CallDone> outcomes);

    Checked verify(Turn turn, NextStep.Answer answer);

    Acted stopForBudget(Turn turn, String budgetReason);

    void intervene(Turn turn, String kind, String message, Map<String, Object> details);

    RunRef paused(Turn turn);

    RunRef resumed(Turn turn);

    RunResult end(Turn turn, RunStatus status, String reason, String message, String answer, FinishReport report);
}
