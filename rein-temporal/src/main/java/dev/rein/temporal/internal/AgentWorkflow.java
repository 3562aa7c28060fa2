package dev.rein.temporal.internal;

import dev.rein.agent.RunResult;
import dev.rein.approval.ApprovalRequest;
import dev.rein.run.RunStatus;
import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.util.List;

/**
 * One agent run as a Temporal workflow: the step function decides in workflow code, model and
 * tool calls are activities, a person's decisions arrive as signals. The workflow id is the run id.
 */
@WorkflowInterface
public interface AgentWorkflow {
    /** Runs the agent to its end; the result is the run's {@link RunResult}. */
    @WorkflowMethod(name = "ReinAgentRun")
    RunResult run(RunInput input);

    /** A person's decision on a pending action, bound to its action hash. */
    @SignalMethod(name = "decide")
    void decide(ApprovalSignal decision);

    /** The run's status as the workflow sees it now. */
    @QueryMethod(name = "status")
    RunStatus status();

    /** The actions waiting for a decision (empty unless the status is WAITING_APPROVAL). */
    @QueryMethod(name = "pendingApprovals")
    List<ApprovalRequest> pendingApprovals();

    /**
     * The run's result once it ended, else null. A cancelled workflow closes as cancelled (Temporal
     * does not let it return a value), so its CANCELLED result is read here.
     */
    @QueryMethod(name = "result")
    RunResult result();

    /** The hashes of the actions of the current pause that a person has already decided (empty when not paused). */
    @QueryMethod(name = "decidedActions")
    List<String> decidedActions();

    /** Decisions the workflow refused (no pending action had their hash), with why. */
    @QueryMethod(name = "refusedDecisions")
    List<String> refusedDecisions();
}
