package dev.rein.internal.loop;

import dev.rein.run.NextStep;
import java.util.List;

/**
 * The decision before each model request: is the conversation over a client-side context
 * policy's trigger? Old tool results are cleared first; if the request is still over the
 * compaction trigger, the older history is compacted.
 */
final class ContextDecisions {
    private ContextDecisions() {}

    static Step.Decision measured(Step.State state, Step.Event.ContextMeasured event) {
        NextStep next = new NextStep.RunAgain("step");
        if (!event.cleared() && event.clearingTrigger() > 0 && event.tokens() > event.clearingTrigger()) {
            return new Step.Decision(state, next, List.of(new Step.Command.ClearToolResults()));
        }
        if (event.compactionTrigger() > 0 && event.tokens() > event.compactionTrigger()) {
            return new Step.Decision(state, next, List.of(new Step.Command.Compact(event.tokens())));
        }
        return new Step.Decision(state, next, List.of());
    }
}
