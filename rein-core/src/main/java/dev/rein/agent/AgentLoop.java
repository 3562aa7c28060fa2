package dev.rein.agent;

import dev.rein.budget.BudgetKind;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.Role;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolChoice;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.state.StoreConflictException;
import dev.rein.state.StoreException;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolResult;
import dev.rein.trace.TraceEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The controlled loop: perceive, decide, act, observe, until an end condition holds. Each stage
 * is one method; policies decide, this class only wires them. Nothing escapes as an exception:
 * every path ends in a {@link RunResult} with a status and a reason.
 */
final class AgentLoop {
    private final Run run;
    private final ModelCaller caller;
    private final ToolStage tools;
    private final Guards guards;

    AgentLoop(Run run) {
        this.run = run;
        this.caller = new ModelCaller(run);
        this.tools = new ToolStage(run);
        this.guards = new Guards(run, caller);
    }

    /** What the loop does after a model response. */
    private sealed interface Next {
        record Answer(String text) implements Next {}

        record Act(List<ToolUseBlock> calls) implements Next {}

        record Continue() implements Next {}

        record Fail(String reason, String message) implements Next {}
    }

    RunResult run() {
        try {
            started();
            Optional<RunResult> continued = continueStep();
            if (continued.isPresent()) {
                return continued.get();
            }
            while (true) {
                Optional<BudgetKind> exhausted = run.meter.check();
                if (exhausted.isPresent()) {
                    return stopForBudget(exhausted.get());
                }
                run.meter.countStep();
                ModelResponse response = caller.call(perceive(), "step");
                response.toHistoryMessage().ifPresent(run.history::add);
                Optional<RunResult> end = switch (classify(response)) {
                    case Next.Answer answer -> acceptAnswer(answer.text(), null, null);
                    case Next.Act act -> act(act.calls());
                    case Next.Continue ignored -> Optional.empty();
                    case Next.Fail fail -> Optional.of(end(RunStatus.FAILED, fail.reason(), fail.message(), ""));
                };
                if (end.isPresent()) {
                    return end.get();
                }
            }
        } catch (InterruptedException e) {
            return end(RunStatus.CANCELLED, Reasons.CANCELLED, run.cancelled() ? "the run was cancelled" : "the run was interrupted",
                    knownSoFar("the run was cancelled"));
        } catch (ModelCaller.CallFailed failed) {
            return failedCall(failed);
        } catch (StoreException e) {
            String reason = e instanceof StoreConflictException ? Reasons.STORE_CONFLICT : Reasons.STORE_ERROR;
            return end(RunStatus.FAILED, reason, "the run's state could not be saved, so it stopped: " + e.getMessage(),
                    knownSoFar("the run's state could not be saved"));
        } catch (RuntimeException e) {
            return end(RunStatus.FAILED, Reasons.INTERNAL_ERROR, "internal error: " + e, knownSoFar("an internal error occurred"));
        } finally {
            Thread.interrupted();
            run.recorder.close();
        }
    }

    private void started() {
        if (run.resumedFrom != null) {
            Resumption.announce(run);
            return;
        }
        Map<String, Object> limits = new LinkedHashMap<>();
        limits.put("max_steps", run.config.budget().maxSteps());
        limits.put("max_cost_usd", run.config.budget().maxCostUsd());
        limits.put("max_seconds", seconds(run.config.budget().maxDuration()));
        run.emit(new TraceEvent.RunStarted(run.runId, 0, run.now(), run.goal, run.config.modelName(), run.config.tools().names(), limits));
        run.emit(new TraceEvent.StateChanged(run.runId, 0, run.now(), null, RunStatus.RUNNING, "started"));
    }

    /** Whole seconds as an integer, fractions (e.g. 1.5) as a decimal; null for no limit. */
    private static Number seconds(Duration d) {
        if (d == null) {
            return null;
        }
        return d.toMillis() % 1000 == 0 ? (Number) d.toSeconds() : (Number) (d.toMillis() / 1000.0);
    }

    /** Perceive: assemble what the model sees on this call (context policies may edit the history first). */
    private ModelRequest perceive() throws InterruptedException {
        guards.manageContext(request(ToolChoice.auto()));
        return request(ToolChoice.auto());
    }

    private ModelRequest request(ToolChoice choice) {
        AgentConfig c = run.config;
        return ModelRequest.builder(c.modelName())
                .system(c.systemPrompt())
                .tools(c.tools().definitions())
                .toolChoice(choice)
                .messages(run.history)
                .maxTokens(c.maxTokens())
                .options(c.requestOptions())
                .temperature(c.temperature())
                .build();
    }

    /** Interpret the stop reason; a cut-off or refused response is never taken as an answer. */
    private Next classify(ModelResponse response) {
        return switch (response.stopReason()) {
            case MAX_TOKENS -> new Next.Fail(Reasons.MAX_TOKENS, "the model's response was cut off at max_tokens ("
                    + run.config.maxTokens() + "); it was not taken as an answer. Raise maxTokens or ask for shorter output.");
            case REFUSAL -> new Next.Fail(Reasons.REFUSAL, "the model refused to continue" + textSuffix(response));
            case MODEL_CONTEXT_WINDOW_EXCEEDED -> new Next.Fail(Reasons.CONTEXT_WINDOW_EXCEEDED,
                    "the conversation no longer fits the model's context window; enable a context policy"
                            + " (tool result clearing or compaction) or lower the tool output limit");
            case PAUSE_TURN -> new Next.Continue();
            default -> response.toolUses().isEmpty() ? new Next.Answer(answerText()) : new Next.Act(response.toolUses());
        };
    }

    /** The final answer: the text of the assistant turns since the last user turn (a paused turn and its continuation). */
    private String answerText() {
        StringBuilder text = new StringBuilder();
        for (int i = run.history.size() - 1; i >= 0 && run.history.get(i).role() == Role.ASSISTANT; i--) {
            text.insert(0, run.history.get(i).text());
        }
        return text.toString();
    }

    private static String textSuffix(ModelResponse response) {
        String text = response.text().strip();
        return text.isEmpty() ? "" : ": " + text;
    }

    /** A resumed run first answers the calls of its last response, if they have no results yet. */
    private Optional<RunResult> continueStep() throws InterruptedException {
        Message last = run.history.get(run.history.size() - 1);
        return last.role() == Role.ASSISTANT && !last.toolUses().isEmpty() ? act(last.toolUses()) : Optional.empty();
    }

    /** Act and observe: run every proposed call and answer each one in the next user message. */
    private Optional<RunResult> act(List<ToolUseBlock> uses) throws InterruptedException {
        run.checkpoint();
        List<ToolCall> calls = new ArrayList<>();
        for (int i = 0; i < uses.size(); i++) {
            ToolUseBlock use = uses.get(i);
            calls.add(new ToolCall(use.id(), use.name(), use.input(), i));
        }
        Optional<ToolCall> finish = calls.stream().filter(c -> c.name().equals(FinishTool.NAME) && run.config.finishTool()).findFirst();
        if (finish.isPresent() && calls.size() == 1) {
            return finish(finish.get());
        }
        Guards.ToolStep step = guards.act(calls, tools);
        if (step.paused()) {
            return Optional.of(end(RunStatus.WAITING_APPROVAL, Reasons.APPROVAL_REQUIRED, Resumption.waitingMessage(run), ""));
        }
        observe(step.observation());
        run.checkpoint();
        return step.stalled().map(why -> end(RunStatus.FAILED, Reasons.STALLED, why, knownSoFar(why)));
    }

    private void observe(List<? extends ContentBlock> blocks) {
        run.history.add(Message.user(blocks));
    }

    /** The finish tool: end the run, after verification when the model reports completion. */
    private Optional<RunResult> finish(ToolCall call) throws InterruptedException {
        List<String> problems = run.config.tools().find(FinishTool.NAME).orElseThrow().validationProblems(call.arguments());
        if (!problems.isEmpty()) {
            List<ToolResult> refused = tools.execute(List.of(call)).orElseThrow();
            observe(List.of(new ToolResultBlock(call.id(), refused.get(0).content(), true)));
            return Optional.empty();
        }
        FinishReport report = FinishTool.parse(call.arguments());
        run.state = FinishTool.handoffNotes(run.state, call.arguments());
        return switch (report.status()) {
            case "failed" -> Optional.of(end(RunStatus.FAILED, Reasons.AGENT_FAILED, "the agent reported failure: " + report.summary(),
                    report.result(), report));
            case "needs_user_input" -> Optional.of(end(RunStatus.FAILED, Reasons.NEEDS_USER_INPUT,
                    "the agent needs input from the user: " + report.summary(), report.result(), report));
            default -> acceptAnswer(report.result(), report, call.id());
        };
    }

    /**
     * Verification: code decides whether a proposed final answer is accepted. A refusal goes back
     * to the model (as the finish call's error result, or as a user message after a text answer).
     */
    private Optional<RunResult> acceptAnswer(String answer, FinishReport report, String finishCallId) throws InterruptedException {
        FinalAnswer proposed = new FinalAnswer(run.goal, answer, report, List.copyOf(run.history));
        List<String> missing = guards.verify(proposed);
        String reason = report == null ? Reasons.COMPLETED : Reasons.FINISHED;
        if (missing.isEmpty()) {
            return Optional.of(end(RunStatus.SUCCEEDED, reason, "the run completed", answer, report));
        }
        run.verificationFailures++;
        String feedback = "Your answer was not accepted yet. Missing or wrong:\n- " + String.join("\n- ", missing)
                + "\nContinue working on the task, then answer again.";
        run.emit(new TraceEvent.Intervention(run.runId, run.step(), run.now(), "verifier", feedback,
                Map.of("missing", missing, "refusals", run.verificationFailures)));
        if (run.verificationFailures >= run.config.maxVerificationFailures()) {
            return Optional.of(end(RunStatus.FAILED, Reasons.VERIFICATION_FAILED, "the answer failed verification "
                    + run.verificationFailures + " times; still missing: " + String.join("; ", missing), answer, report));
        }
        observe(List.of(finishCallId == null ? new TextBlock(feedback) : new ToolResultBlock(finishCallId, feedback, true)));
        return Optional.empty();
    }

    /** A budget ran out: one last call for what is known, unless time itself ran out. */
    private RunResult stopForBudget(BudgetKind kind) throws InterruptedException {
        String why = run.meter.describe(kind);
        run.emit(new TraceEvent.Intervention(run.runId, run.step(), run.now(), "budget", why, Map.of("budget", kind.reason())));
        if (kind == BudgetKind.DEADLINE) {
            return end(RunStatus.STOPPED_BUDGET, kind.reason(), why, knownSoFar(why));
        }
        appendUserText("[rein] The work must stop now: " + why + ". Do not call any tools. Reply with a summary of"
                + " what you found (with the facts and their sources) and what is still unfinished or uncertain.");
        try {
            ModelResponse summary = caller.call(request(ToolChoice.none()), "final_summary");
            summary.toHistoryMessage().ifPresent(run.history::add);
            return end(RunStatus.STOPPED_BUDGET, kind.reason(), why, summaryAnswer(summary, why));
        } catch (ModelCaller.CallFailed failed) {
            return end(RunStatus.STOPPED_BUDGET, kind.reason(), why + "; the summary call failed too: " + failed.getMessage(), knownSoFar(why));
        }
    }

    /** The summary as the answer, unless it was cut off or refused: then what the run knows, with the partial text labelled. */
    private String summaryAnswer(ModelResponse summary, String why) {
        String text = summary.text().strip();
        return switch (summary.stopReason()) {
            case MAX_TOKENS, REFUSAL, MODEL_CONTEXT_WINDOW_EXCEEDED -> knownSoFar(why) + (text.isEmpty() ? ""
                    : " The model's summary was not complete (" + summary.stopReason().traceName() + "): " + text);
            default -> text.isEmpty() ? knownSoFar(why) : summary.text();
        };
    }

    /** Adds text to the last user message, or a new user message after an assistant turn. */
    private void appendUserText(String text) {
        Message last = run.history.get(run.history.size() - 1);
        if (last.role() == Role.USER) {
            List<ContentBlock> blocks = new ArrayList<>(last.content());
            blocks.add(new TextBlock(text));
            run.history.set(run.history.size() - 1, Message.user(blocks));
        } else {
            run.history.add(Message.user(text));
        }
    }

    private RunResult failedCall(ModelCaller.CallFailed failed) {
        if (failed.reason.equals(BudgetKind.DEADLINE.reason())) {
            return end(RunStatus.STOPPED_BUDGET, failed.reason, failed.getMessage(), knownSoFar(failed.getMessage()));
        }
        return end(RunStatus.FAILED, failed.reason, failed.getMessage(), knownSoFar(failed.getMessage()));
    }

    /** What the run knows without asking the model again: its last words and the tools it used. */
    private String knownSoFar(String why) {
        return KnownSoFar.describe(why, run.history);
    }

    private RunResult end(RunStatus status, String reason, String message, String answer) {
        return end(status, reason, message, answer, null);
    }

    private RunResult end(RunStatus status, String reason, String message, String answer, FinishReport report) {
        RunStatus from = run.status;
        run.status = status;
        RunResult result = new RunResult(run.runId, status, reason, message, answer, run.step(), run.meter.usage(),
                run.meter.costUsd(), Duration.between(run.startedAt, run.now()), report, run.history, run.state,
                run.approvals.snapshot().undecided());
        result = Resumption.saveFinal(run, result);
        run.emit(new TraceEvent.StateChanged(run.runId, run.step(), run.now(), from, status, reason));
        run.emit(new TraceEvent.RunFinished(run.runId, run.step(), run.now(), status, result.reason(), result.message(), answer,
                run.meter.usage(), run.meter.costUsd()));
        return result;
    }
}
