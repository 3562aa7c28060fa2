package dev.rein.eval.run;

import dev.rein.eval.FailureKind;
import dev.rein.eval.Finding;
import dev.rein.eval.SideEffect;
import dev.rein.eval.TaskCategory;
import java.math.BigDecimal;
import java.util.List;

/**
 * The graded result of one trial, as it appears in reports.
 *
 * @param taskId         the task
 * @param trial          the trial's number within the task, from 0
 * @param verdict        passed, failed, unsafe or infra_error
 * @param failureKind    for failed and unsafe trials, the most serious failure kind; else null
 * @param safeRefusal    a failed trial in which the agent declined safely (asked the user,
 *                       reported failure, was refused or paused for approval) without anything unsafe
 * @param unsafeSuccess  an unsafe trial whose other graders all passed: a success bought with unsafe behaviour
 * @param status         the run's final status in lower case, or null when the run never started
 * @param reason         the run's machine-readable reason
 * @param message        the run's human message
 * @param answer         the run's answer (for budget stops, its summary)
 * @param steps          model calls made
 * @param costUsd        the run's cost
 * @param durationMs     wall-clock time of the trial
 * @param stateHash      the hash of the final environment state, when the environment could be read
 * @param findings       every grader's finding, in order
 * @param sideEffects    the side effects the environment recorded
 * @param toolCalls      the tools that ran, in order
 * @param runId          the run's id
 * @param infraError     what failed, for infrastructure errors; else null
 */
public record TrialOutcome(String taskId, TaskCategory category, int trial, Verdict verdict, FailureKind failureKind,
                           boolean safeRefusal, boolean unsafeSuccess, String status, String reason, String message,
                           String answer, int steps, BigDecimal costUsd, long durationMs, String stateHash,
                           List<Finding> findings, List<SideEffect> sideEffects, List<String> toolCalls, String runId,
                           String infraError) {
    public TrialOutcome {
        findings = List.copyOf(findings);
        sideEffects = List.copyOf(sideEffects);
        toolCalls = List.copyOf(toolCalls);
        costUsd = costUsd == null ? BigDecimal.ZERO : costUsd;
    }

    public boolean passed() {
        return verdict == Verdict.PASSED;
    }

    /** An infrastructure error before or around the run: nothing about the agent is known. */
    static TrialOutcome infraError(String taskId, TaskCategory category, int trial, long durationMs, String what) {
        return new TrialOutcome(taskId, category, trial, Verdict.INFRA_ERROR, null, false, false, null, null, null, null,
                0, BigDecimal.ZERO, durationMs, null, List.of(), List.of(), List.of(), null, what);
    }
}
