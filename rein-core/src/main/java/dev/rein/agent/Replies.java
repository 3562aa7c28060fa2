package dev.rein.agent;

import dev.rein.ReinException;
import dev.rein.internal.collect.GrowingList;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.Role;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.state.RunSnapshot;
import dev.rein.trace.TraceEvent;
import java.util.ArrayList;
import java.util.List;

/** Continuing an ended run with a person's reply: which runs may continue, and how the new turn opens. */
final class Replies {
    private Replies() {}

    /**
     * Loads an ended run and opens its next turn with {@code text}; the first save claims it, so a
     * second reply to the same ended turn from another process fails with a store conflict.
     */
    static Run claim(AgentConfig config, String runId, String text) {
        Resumption.requireRunId(runId, "reply");
        if (text == null || !dev.rein.internal.text.Visible.any(text)) { // invisible characters only show nothing
            throw new ReinException("the reply is empty: say what the person answers or asks next");
        }
        RunSnapshot snapshot = config.safety().store().load(runId).orElseThrow(() -> new ReinException(
                dev.rein.internal.text.MissingRun.message(
                        config.safety().store() instanceof dev.rein.state.InMemoryRunStore, runId, "this agent's store", "agent.runs().list()")));
        requireReplyable(snapshot);
        Run run = Run.reply(snapshot, config, text);
        run.checkpoint();
        return run;
    }

    /** Whether the run answered (SUCCEEDED) or asked the person for input (needs_user_input), so it can take a reply. */
    static boolean replyable(RunSnapshot snapshot) {
        boolean answered = snapshot.status() == RunStatus.SUCCEEDED;
        boolean asked = snapshot.status() == RunStatus.FAILED && Reasons.NEEDS_USER_INPUT.equals(snapshot.reason());
        return answered || asked;
    }

    /** Only a run that answered, or that asked the person for input, waits for a reply. */
    static void requireReplyable(RunSnapshot snapshot) {
        if (replyable(snapshot)) {
            return;
        }
        String what = snapshot.status().terminal() ? "ended " + snapshot.status() + " (" + snapshot.reason() + ")"
                : "has not ended (" + snapshot.status() + "); resume it instead";
        throw new ReinException("run " + snapshot.runId() + " " + what + "; only a run that answered (SUCCEEDED) or"
                + " asked for input (needs_user_input) can be replied to");
    }

    /**
     * Adds the reply to the history. A turn that ended in the finish tool left that call without a
     * result; it gets one first, so the history stays well formed for every provider.
     */
    static GrowingList<Message> opened(GrowingList<Message> history, String text) {
        Message last = history.get(history.size() - 1);
        List<ContentBlock> blocks = new ArrayList<>();
        GrowingList<Message> before = history;
        if (last.role() == Role.ASSISTANT) {
            for (ToolUseBlock use : last.toolUses()) {
                blocks.add(new ToolResultBlock(use.id(), "[rein] The turn ended here; the person's reply follows.", false));
            }
        } else {
            blocks.addAll(last.content());
            before = history.withoutLast();
        }
        blocks.add(new TextBlock(text));
        return before.with(Message.user(blocks));
    }

    /** Traces the new turn: the reply, and the run running again. */
    static void announce(Run run) {
        run.emit(new TraceEvent.TurnStarted(run.runId, run.step(), run.now(), run.conversation.turn(), run.reply));
        run.emit(new TraceEvent.StateChanged(run.runId, run.step(), run.now(), run.resumedFrom, RunStatus.RUNNING, "reply"));
    }
}
