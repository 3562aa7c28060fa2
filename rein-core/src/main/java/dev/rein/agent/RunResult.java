package dev.rein.agent;

import dev.rein.approval.ApprovalRequest;
import dev.rein.internal.collect.GrowingList;
import dev.rein.model.Message;
import dev.rein.model.Usage;
import dev.rein.run.FinishReport;
import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.state.AgentState;
import dev.rein.state.Handoff;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * How a run ended or paused: status, machine-readable reason, human message, the answer (for
 * STOPPED_BUDGET, the summary of what is known), counters and the full history.
 *
 * @param answer           the final answer as the model wrote it (as the history and the trace keep it); with an
 *                         output schema it may be one fenced code block around the JSON, which
 *                         {@link #output(Class)} and {@link dev.rein.model.OutputSchema#answerText} read inside
 * @param usage            the tokens of every model call of the run; {@link Usage#estimated()} when
 *                         the provider reported none for some call and Rein's estimate was counted
 * @param costUsd          the run's cost, priced from {@code usage} (so estimated when it is)
 * @param finish           the model's finish report, when it called {@code finish}; else null
 * @param state            what the run knows apart from the history (facts, open questions, attempts)
 * @param pendingApprovals for WAITING_APPROVAL, the actions waiting for a decision; else empty
 */
public record RunResult(String runId, RunStatus status, String reason, String message, String answer, int steps,
                        Usage usage, BigDecimal costUsd, Duration duration, FinishReport finish, List<Message> history,
                        AgentState state, List<ApprovalRequest> pendingApprovals) {
    public RunResult {
        history = GrowingList.of(history);
        pendingApprovals = pendingApprovals == null ? List.of() : List.copyOf(pendingApprovals);
    }

    /** {@link #reason()} as the closed type. */
    public dev.rein.run.Reason reasonCode() {
        return dev.rein.run.Reason.of(reason);
    }

    /** The same result ending otherwise (e.g. when its final save failed); pending approvals only while waiting. */
    RunResult endedAs(RunStatus newStatus, String newReason, String newMessage) {
        return new RunResult(runId, newStatus, newReason, newMessage, answer, steps, usage, costUsd, duration, finish, history,
                state, newStatus == RunStatus.WAITING_APPROVAL ? pendingApprovals : List.of());
    }

    /** An internal error's result built from nothing of the run but its id, when nothing more of it can be read. */
    static RunResult internalError(String runId, String message) {
        return new RunResult(runId, RunStatus.FAILED, Reasons.INTERNAL_ERROR, message, "", 0, Usage.ZERO, BigDecimal.ZERO,
                Duration.ZERO, null, List.of());
    }

    /** A result without agent state or pending approvals. */
    public RunResult(String runId, RunStatus status, String reason, String message, String answer, int steps, Usage usage,
                     BigDecimal costUsd, Duration duration, FinishReport finish, List<Message> history) {
        this(runId, status, reason, message, answer, steps, usage, costUsd, duration, finish, history, null, List.of());
    }

    public boolean succeeded() {
        return status == RunStatus.SUCCEEDED;
    }

    /** True when the run paused for a person's decision; see {@link #pendingApprovals()}. */
    public boolean waitingForApproval() {
        return status == RunStatus.WAITING_APPROVAL;
    }

    /**
     * For a run that needs a person (the model asked for user input, or the run failed, stopped on
     * a budget or was cancelled): the facts, open questions and attempted actions to take over with.
     */
    public Optional<Handoff> handoff() {
        if (state == null || status == RunStatus.SUCCEEDED || status == RunStatus.RUNNING || status == RunStatus.WAITING_APPROVAL) {
            return Optional.empty();
        }
        String question = Reasons.NEEDS_USER_INPUT.equals(reason) ? answer : "";
        String summary = finish != null ? finish.summary() : message;
        return Optional.of(Handoff.of(reason, question, summary, state));
    }

    /**
     * The final answer as a {@code type}: for a run with an output schema, the validated JSON read
     * under the names the schema generated from {@code type} requires (see {@link
     * dev.rein.model.OutputSchema#readAnswer}); an answer in a fenced code block is read inside the
     * fence. {@code output(JsonNode.class)} gives the JSON value of a run whose schema has no Java type.
     *
     * @throws dev.rein.ReinException when the run did not succeed or its answer is not a {@code type}
     */
    public <T> T output(Class<T> type) {
        return read(() -> dev.rein.model.OutputSchema.readAnswer(answer, type));
    }

    /**
     * The final answer as a generic type, as {@link #output(Class)} reads a class: {@code
     * result.output(new TypeRef<List<Verdict>>() {})} gives Verdict records where {@code output(List.class)} gives maps.
     * An answer read as a type that holds records must validate against the schema generated from the type (see {@link
     * dev.rein.model.OutputSchema#readAnswer(String, java.lang.reflect.Type)}).
     *
     * @throws dev.rein.ReinException when the run did not succeed or its answer is not a {@code type}
     */
    @SuppressWarnings("unchecked") // Jackson read the answer as the type the TypeRef holds, which is T
    public <T> T output(dev.rein.model.TypeRef<T> type) {
        if (type == null) {
            throw new dev.rein.ReinException("RunResult.output was given no TypeRef (null): give the type to read the answer"
                    + " into, e.g. new TypeRef<List<Verdict>>() {}");
        }
        return (T) output(type.type());
    }

    /**
     * The final answer as {@code type}, a class or a generic type (a {@link java.lang.reflect.ParameterizedType} such as
     * the one given to {@link dev.rein.model.OutputSchema#of(String, java.lang.reflect.Type)}); {@link
     * #output(dev.rein.model.TypeRef)} gives it typed.
     *
     * @throws dev.rein.ReinException when the run did not succeed or its answer is not a {@code type}
     */
    public Object output(java.lang.reflect.Type type) {
        return read(() -> dev.rein.model.OutputSchema.readAnswer(answer, type));
    }

    /** The answer as {@code reading} reads it, for a run that succeeded; an error names the run. */
    private <T> T read(java.util.function.Supplier<T> reading) {
        if (status != RunStatus.SUCCEEDED) {
            throw new dev.rein.ReinException("run " + runId + " has no output: it ended " + status + "/" + reason + " (" + message + ")");
        }
        try {
            return reading.get();
        } catch (dev.rein.ReinException e) {
            throw new dev.rein.ReinException(e.getMessage().replaceFirst("^the answer", "the answer of run " + runId), e);
        }
    }
}
