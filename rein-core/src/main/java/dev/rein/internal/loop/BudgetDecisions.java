package dev.rein.internal.loop;

import dev.rein.budget.BudgetKind;
import dev.rein.internal.text.Visible;
import dev.rein.model.ModelResponse;
import dev.rein.run.NextStep;
import dev.rein.run.Reason;
import dev.rein.run.RunStatus;
import java.util.List;
import java.util.Map;

/** The decisions before each model step: go on, or stop because a budget ran out (with a last summary call). */
final class BudgetDecisions {
    private BudgetDecisions() {}

    static final String SUMMARY_PROMPT = "[rein] The work must stop now: %s. Do not call any tools. Reply with a summary of"
            + " what you found (with the facts and their sources) and what is still unfinished or uncertain.";

    /** Within budget the model is called; out of time the run stops at once; otherwise one last call asks for a summary. */
    static Step.Decision observed(Step.State state, Step.Event.BudgetObserved event) {
        BudgetKind kind = event.exhausted();
        if (kind == null) {
            return new Step.Decision(state, new NextStep.RunAgain("step"), List.of(new Step.Command.CallModel()));
        }
        String why = event.why();
        Step.Command intervene = new Step.Command.Intervene("budget", why, Map.of("budget", kind.reason()));
        if (kind == BudgetKind.DEADLINE) {
            return new Step.Decision(state, new NextStep.Stop(RunStatus.STOPPED_BUDGET, Reason.of(kind.reason()), why, null, null),
                    List.of(intervene));
        }
        return new Step.Decision(state, new NextStep.Stop(RunStatus.STOPPED_BUDGET, Reason.of(kind.reason()), why, null, null),
                List.of(intervene, new Step.Command.AppendUserText(SUMMARY_PROMPT.formatted(why)), new Step.Command.Summarize(kind, why)));
    }

    /**
     * The summary is the answer, unless it was cut off, refused or paused by the server (a server tool still at
     * work: the summary call is not continued): then what the run knows, with the partial text labelled.
     */
    static Step.Decision summarized(Step.State state, Step.Event.Summarized event) {
        Reason reason = Reason.of(event.kind().reason());
        String why = event.why();
        ModelResponse summary = event.summary();
        if (summary == null && event.failure() == null) { // no call was made, and why says why
            return new Step.Decision(state, new NextStep.Stop(RunStatus.STOPPED_BUDGET, reason, why, event.knownSoFar(), null),
                    List.of());
        }
        if (summary == null) {
            return new Step.Decision(state, new NextStep.Stop(RunStatus.STOPPED_BUDGET, reason, why + "; the summary call failed too: "
                    + event.failure(), event.knownSoFar(), null), List.of());
        }
        String text = summary.text().strip();
        // a summary of only spaces and invisible characters (U+00A0, U+200B) is no summary, as it is no answer
        boolean shown = Visible.any(text);
        String answer = switch (summary.stopReason()) {
            case MAX_TOKENS, REFUSAL, MODEL_CONTEXT_WINDOW_EXCEEDED, PAUSE_TURN -> event.knownSoFar() + (!shown ? ""
                    : " The model's summary was not complete (" + summary.stopReason().traceName() + "): " + text);
            default -> !shown ? event.knownSoFar() : summary.text();
        };
        return new Step.Decision(state, new NextStep.Stop(RunStatus.STOPPED_BUDGET, reason, why, answer, null), List.of());
    }
}
