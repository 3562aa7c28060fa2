package dev.rein.temporal.internal;

import dev.rein.agent.DrivenRun;
import dev.rein.approval.ApprovalDecision;
import dev.rein.approval.ApprovalRequest;
import dev.rein.approval.ApprovalState;
import dev.rein.model.ContentBlock;
import dev.rein.model.ModelResponse;
import dev.rein.model.Usage;
import dev.rein.tool.ToolCall;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * What travels between the workflow and its activities. The run's snapshot (the conversation,
 * the agent state, the stashed results of a paused step) stays out of band in the run store,
 * addressed by its SHA-256; a payload carries that reference and the few fields the workflow
 * decides with, so its size does not grow with the conversation or with tool output.
 *
 * <p>The maps here ({@code Map.copyOf}) iterate in an order that differs between JVMs, so the bytes recorded for the
 * same payload may too. That is safe for replay because the workflow only looks them up by key, and Temporal
 * replays an activity's recorded result and does not compare the input it scheduled. Workflow code that iterated
 * one would decide differently after a worker restart: sort it first.
 */
public final class Payloads {
    private Payloads() {}

    /**
     * The run as an activity gets it: the stored snapshot, and what the workflow knows newer than
     * it (active time, verification refusals, a person's decisions, text the step function added, the
     * critic's reviews so far).
     */
    public record Turn(String snapshot, long activeMillis, int verificationFailures, List<ApprovalRequest> requests,
                       Map<String, ApprovalDecision> decisions, List<Edit> edits, int criticRounds) {
        public Turn {
            requests = List.copyOf(requests);
            decisions = Map.copyOf(decisions);
            edits = List.copyOf(edits);
        }
    }

    /** A change the step function made to the conversation: text added to the last user turn, or a user turn of blocks. */
    public record Edit(String appendText, List<ContentBlock> observe) {
        static Edit text(String text) {
            return new Edit(text, null);
        }

        static Edit blocks(List<ContentBlock> blocks) {
            return new Edit(null, List.copyOf(blocks));
        }
    }

    /**
     * The run after an activity: its stored snapshot by hash, and what the workflow decides with
     * (the budget's counters, the approval requests and decisions of a paused step, call counts, and the refused answers
     * counted so far: ReinPlanTools counts a finish call its schema refuses; 0 in a payload written before it).
     */
    public record RunRef(String snapshot, int steps, Usage usage, BigDecimal costUsd, List<ApprovalRequest> requests,
                         Map<String, ApprovalDecision> decisions, Map<String, Integer> toolCallCounts,
                         int verificationFailures) {
        public RunRef {
            requests = List.copyOf(requests);
            decisions = Map.copyOf(decisions);
            toolCallCounts = Map.copyOf(toolCallCounts);
        }

        RunRef withDecisions(Map<String, ApprovalDecision> next) {
            return new RunRef(snapshot, steps, usage, costUsd, requests, next, toolCallCounts, verificationFailures);
        }

        ApprovalState approvals() {
            return new ApprovalState(requests, decisions, Map.of());
        }
    }

    /**
     * A model step: the run after it, the response (bounded by the agent's max tokens), the answer text, and
     * whether the response was cut off at what an output token limit left (false in a payload written before it).
     */
    public record ModelStep(RunRef run, ModelResponse response, String answerText, boolean outputLimitCut) {}

    /** An effect after which the driver's next step is known. */
    public record Acted(RunRef run, DrivenRun.Next next) {}

    /** The calls of one response as planned (see {@link DrivenRun.ToolPlan}); {@code next} set when no call runs. */
    public record Planned(RunRef run, DrivenRun.Next next, List<ToolCall> calls, List<Boolean> sideEffecting) {}

    /**
     * One call's outcome: its result stored by hash ({@code result}, null when deferred), or the
     * approval request it raised; {@code counted} when it counted against the tool's limit.
     */
    public record CallDone(String callId, String toolName, String result, ApprovalRequest request, boolean counted) {}

    /**
     * A proposed answer checked (see {@link DrivenRun.Checked}); {@code outOfTime} is the deadline's message when a
     * verifier gave no verdict before it (null in histories recorded before it was added, which then go on as then);
     * {@code criticRounds} the critic's reviews in the run so far, this check's included.
     */
    public record Checked(RunRef run, List<String> missing, List<String> invalidOutput, String outOfTime, int criticRounds) {}

    /**
     * What a run carries into its next workflow execution when it continues as new (its history grew long): the run as
     * the last activity left it, the step function's edits and state not yet applied, its clocks and the critic's
     * reviews, the decisions it refused, and when it continued within a pause, the paused step's calls ({@code paused},
     * null between steps and in a payload written before it). Null in a run's first execution.
     */
    public record Carried(RunRef run, List<Edit> edits, dev.rein.internal.loop.Step.State decisions, long startedMillis,
                          long waitedMillis, int criticRounds, List<String> refused, ToolUses paused) {
        public Carried {
            edits = List.copyOf(edits);
            refused = List.copyOf(refused);
        }
    }
}
