package dev.rein.state;

import dev.rein.approval.ApprovalRequest;
import dev.rein.approval.ApprovalState;
import dev.rein.internal.collect.GrowingList;
import dev.rein.model.Message;
import dev.rein.model.Usage;
import dev.rein.run.FinishReport;
import dev.rein.run.RunStatus;
import dev.rein.tool.Principal;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything needed to continue a run in another process: saved after every step. Tool
 * implementations, the model and the listeners are not part of it; the resuming agent supplies
 * them.
 *
 * @param format       the snapshot format version ({@link #FORMAT})
 * @param version      increases with every save; a store refuses a save whose predecessor is not
 *                     the stored version, so two processes cannot both continue one run
 * @param activeMillis running time used so far (waiting for approval does not count)
 * @param history      the conversation; when it ends with an assistant turn whose tool calls
 *                     have no results yet, those calls are the step in progress
 * @param approvals    the paused step's requests, decisions and finished results
 * @param conversation the run's current turn and what the earlier turns used (see {@code Agent.reply})
 * @param state        what the run knows; its goal and budget used are always this snapshot's
 *                     {@code goal}, {@code steps}, {@code usage}, {@code costUsd} and {@code activeMillis}
 * @param secretsHandedOut the names (never the values) of the secrets a lookup handed out during the
 *                     run, asked for again when it resumes, so their values are still masked there
 * @param criticRounds the critic's reviews in the run's current turn so far, so that a resumed run's
 *                     critic reviews at most its {@code maxRounds} answers in the turn, not that many more
 * @param outputSchema the schema the run's final answer must validate against (a typed run:
 *                     {@code agent.run(goal, Type.class)}, or an agent's {@code outputSchema}), or null for an
 *                     untyped run or one saved by a Rein that did not keep it. Kept as its name and JSON, as
 *                     stored (compiled only when the run continues): a resumed or replied-to run checks its
 *                     answers against it as the first run did (the Java type it was generated from is not
 *                     stored; read the answer as a type with {@code RunResult.output(Class)})
 */
public record RunSnapshot(int format, String runId, long version, String goal, String model, RunStatus status,
                          String reason, String message, String answer, Instant createdAt, Instant updatedAt,
                          long activeMillis, Principal principal, List<Message> history, int steps, Usage usage,
                          BigDecimal costUsd, int verificationFailures, Map<String, Integer> toolCallCounts,
                          AgentState state, ApprovalState approvals, FinishReport finish,
                          Conversation conversation, List<String> secretsHandedOut, int criticRounds,
                          StoredOutputSchema outputSchema) {
    /**
     * The current snapshot format. 2: the stored form holds the goal and the budget used once (see
     * {@link SnapshotCodec}); format 1 snapshots are still read.
     */
    public static final int FORMAT = 2;

    public RunSnapshot {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(status, "status");
        history = GrowingList.of(history); // the run's history as it is, not a copy per checkpoint
        toolCallCounts = toolCallCounts == null ? Map.of() : Map.copyOf(toolCallCounts);
        approvals = approvals == null ? ApprovalState.NONE : approvals;
        usage = usage == null ? Usage.ZERO : usage;
        costUsd = costUsd == null ? BigDecimal.ZERO : costUsd;
        reason = reason == null ? "" : reason;
        message = message == null ? "" : message;
        answer = answer == null ? "" : answer;
        conversation = conversation == null ? Conversation.FIRST : conversation;
        secretsHandedOut = secretsHandedOut == null ? List.of() : List.copyOf(secretsHandedOut);
        // The goal and the budget used are the snapshot's own; the state carries the same values, never others.
        if (state != null) {
            state = new AgentState(goal == null ? state.goal() : goal, state.facts(), state.hypotheses(), state.openQuestions(),
                    state.attemptedActions(), new BudgetUsage(steps, usage, costUsd, activeMillis));
        }
    }

    /** A snapshot of an untyped run (the form before the output schema was kept). */
    public RunSnapshot(int format, String runId, long version, String goal, String model, RunStatus status,
                       String reason, String message, String answer, Instant createdAt, Instant updatedAt,
                       long activeMillis, Principal principal, List<Message> history, int steps, Usage usage,
                       BigDecimal costUsd, int verificationFailures, Map<String, Integer> toolCallCounts,
                       AgentState state, ApprovalState approvals, FinishReport finish, Conversation conversation,
                       List<String> secretsHandedOut, int criticRounds) {
        this(format, runId, version, goal, model, status, reason, message, answer, createdAt, updatedAt, activeMillis,
                principal, history, steps, usage, costUsd, verificationFailures, toolCallCounts, state, approvals, finish,
                conversation, secretsHandedOut, criticRounds, null);
    }

    /** A snapshot of a run whose critic has reviewed no answer in its turn (the form before the reviews were kept). */
    public RunSnapshot(int format, String runId, long version, String goal, String model, RunStatus status,
                       String reason, String message, String answer, Instant createdAt, Instant updatedAt,
                       long activeMillis, Principal principal, List<Message> history, int steps, Usage usage,
                       BigDecimal costUsd, int verificationFailures, Map<String, Integer> toolCallCounts,
                       AgentState state, ApprovalState approvals, FinishReport finish, Conversation conversation,
                       List<String> secretsHandedOut) {
        this(format, runId, version, goal, model, status, reason, message, answer, createdAt, updatedAt, activeMillis,
                principal, history, steps, usage, costUsd, verificationFailures, toolCallCounts, state, approvals, finish,
                conversation, secretsHandedOut, 0);
    }

    /** A snapshot of a run that knows of no secret handed out by a lookup (the form before they were kept). */
    public RunSnapshot(int format, String runId, long version, String goal, String model, RunStatus status,
                       String reason, String message, String answer, Instant createdAt, Instant updatedAt,
                       long activeMillis, Principal principal, List<Message> history, int steps, Usage usage,
                       BigDecimal costUsd, int verificationFailures, Map<String, Integer> toolCallCounts,
                       AgentState state, ApprovalState approvals, FinishReport finish, Conversation conversation) {
        this(format, runId, version, goal, model, status, reason, message, answer, createdAt, updatedAt, activeMillis,
                principal, history, steps, usage, costUsd, verificationFailures, toolCallCounts, state, approvals, finish,
                conversation, List.of());
    }

    /** A snapshot of a run in its first turn (the form before conversations existed). */
    public RunSnapshot(int format, String runId, long version, String goal, String model, RunStatus status,
                       String reason, String message, String answer, Instant createdAt, Instant updatedAt,
                       long activeMillis, Principal principal, List<Message> history, int steps, Usage usage,
                       BigDecimal costUsd, int verificationFailures, Map<String, Integer> toolCallCounts,
                       AgentState state, ApprovalState approvals, FinishReport finish) {
        this(format, runId, version, goal, model, status, reason, message, answer, createdAt, updatedAt, activeMillis,
                principal, history, steps, usage, costUsd, verificationFailures, toolCallCounts, state, approvals, finish,
                Conversation.FIRST);
    }

    /**
     * The actions waiting for a decision; none once the run has ended (a run cancelled while it
     * waited keeps its undecided requests in {@link #approvals()} for the record, but they never run).
     */
    public List<ApprovalRequest> pendingApprovals() {
        return status.terminal() ? List.of() : approvals.undecided();
    }

    /** The next version of this snapshot with other approvals (a decision was recorded). */
    public RunSnapshot withApprovals(ApprovalState newApprovals, Instant now) {
        return new RunSnapshot(format, runId, version + 1, goal, model, status, reason, message, answer, createdAt, now,
                activeMillis, principal, history, steps, usage, costUsd, verificationFailures, toolCallCounts, state,
                newApprovals, finish, conversation, secretsHandedOut, criticRounds, outputSchema);
    }

    /** The next version of this snapshot with another status (a paused run was cancelled). */
    public RunSnapshot withStatus(RunStatus newStatus, String newReason, String newMessage, Instant now) {
        return new RunSnapshot(format, runId, version + 1, goal, model, newStatus, newReason, newMessage, answer, createdAt,
                now, activeMillis, principal, history, steps, usage, costUsd, verificationFailures, toolCallCounts, state,
                approvals, finish, conversation, secretsHandedOut, criticRounds, outputSchema);
    }

    /**
     * This snapshot with {@code newOutputSchema} in place of its stored output schema, the same version: another
     * instance of the same stored form (one whose compiled schema is kept), not a change to the run.
     */
    public RunSnapshot withOutputSchema(StoredOutputSchema newOutputSchema) {
        return new RunSnapshot(format, runId, version, goal, model, status, reason, message, answer, createdAt, updatedAt,
                activeMillis, principal, history, steps, usage, costUsd, verificationFailures, toolCallCounts, state,
                approvals, finish, conversation, secretsHandedOut, criticRounds, newOutputSchema);
    }

    /** The summary row for listings. */
    public RunSummary summary() {
        return new RunSummary(runId, status, reason, goal, model, steps, costUsd, pendingApprovals().size(), createdAt, updatedAt);
    }
}
