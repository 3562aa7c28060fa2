package dev.rein.internal.loop;

import dev.rein.model.ToolUseBlock;
import dev.rein.run.FinishReport;
import dev.rein.run.NextStep;
import dev.rein.run.Reason;
import dev.rein.run.RunStatus;
import java.util.List;
import java.util.Map;

/** The decisions around a tool step: which calls run, what a finish call means, what the results lead to. */
final class ActDecisions {
    private ActDecisions() {}

    /** A resumed run first answers the calls of its last response, if they have no results yet. */
    static Step.Decision started(Step.State state, Step.Event.Started event) {
        if (event.unanswered().isEmpty()) {
            return new Step.Decision(state, new NextStep.RunAgain("start"), List.of());
        }
        return new Step.Decision(state, new NextStep.RunAgain("resume"), List.of(new Step.Command.RunTools(event.unanswered())));
    }

    /** The run is saved before any tool runs; a lone finish call is the loop's own, all others go through the guards. */
    static Step.Decision proposed(Step.State state, Step.Event.ToolsProposed event) {
        List<ToolUseBlock> uses = event.uses();
        Step.Command act = uses.size() == 1 && state.rules().finishTool() && uses.get(0).name().equals(Step.FINISH)
                ? new Step.Command.CheckFinish(uses.get(0)) : new Step.Command.ExecuteTools(uses);
        return new Step.Decision(state, new NextStep.RunAgain("tool_use"), List.of(new Step.Command.Checkpoint(), act));
    }

    /**
     * The finish tool ends the run: failed and needs_user_input at once, completed after
     * verification. Invalid arguments are refused like any tool error (then counted, see {@link #finishRefused}).
     */
    static Step.Decision finishChecked(Step.State state, Step.Event.FinishChecked event) {
        if (!event.problems().isEmpty()) {
            return new Step.Decision(state, new NextStep.RunAgain("finish_refused"), List.of(new Step.Command.RefuseFinish(event.use(), event.problems())));
        }
        FinishReport report = event.report();
        List<Step.Command> note = List.of(new Step.Command.NoteHandoff(event.use().input()));
        NextStep next = switch (report.status()) {
            case "failed" -> new NextStep.Stop(RunStatus.FAILED, Reason.AGENT_FAILED, "the agent reported failure: "
                    + report.summary(), report.result(), report);
            case "needs_user_input" -> new NextStep.Handoff(report.summary(), report.result(), report);
            default -> new NextStep.Answer(report.result(), report, event.use().id());
        };
        return new Step.Decision(state, next, note);
    }

    /**
     * A finish call its own schema refuses is a final output that is not valid: counted with the other refusals
     * of an answer ({@code maxVerificationFailures}), so a model that repeats it does not run to the step limit.
     */
    static Step.Decision finishRefused(Step.State state, Step.Event.FinishRefused event) {
        int failures = state.verificationFailures() + 1;
        Step.State next = new Step.State(state.rules(), state.emptyAnswers(), failures);
        Step.Command intervene = new Step.Command.Intervene("invalid_output", event.refusal().content(),
                Map.of("problems", event.problems(), "refusals", failures));
        if (failures >= state.rules().maxVerificationFailures()) {
            return new Step.Decision(next, NextStep.Stop.failed(Reason.INVALID_OUTPUT, "the finish call's arguments were invalid "
                    + failures + " times: " + String.join("; ", event.problems()), null), List.of(intervene));
        }
        return new Step.Decision(next, new NextStep.RunAgain("finish_refused"),
                List.of(intervene, new Step.Command.Observe(List.of(event.refusal()))));
    }

    /** Every call has its answer: they are observed and saved; a stall ends the run after its notice is recorded. */
    static Step.Decision answered(Step.State state, Step.Event.ToolsAnswered event) {
        NextStep next = event.stalled() == null ? new NextStep.RunAgain("tool_results")
                : NextStep.Stop.failed(Reason.STALLED, event.stalled(), null);
        return new Step.Decision(state, next, List.of(new Step.Command.Observe(event.observation()), new Step.Command.Checkpoint()));
    }
}
