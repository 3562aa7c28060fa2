package dev.rein.agent;

import dev.rein.ReinException;
import dev.rein.approval.ApprovalState;
import dev.rein.internal.collect.GrowingList;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.Role;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.run.RunStatus;
import dev.rein.state.RunSnapshot;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolResult;
import dev.rein.trace.TraceEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

    /** Whether the run answered, asked the person for input or was cancelled, so it can take a reply ({@link RunStatus#takesReply}). */
    static boolean replyable(RunSnapshot snapshot) {
        return snapshot.status().takesReply(snapshot.reason());
    }

    /** Only a run that answered, asked the person for input or was cancelled takes a reply. */
    static void requireReplyable(RunSnapshot snapshot) {
        if (replyable(snapshot)) {
            return;
        }
        String what = snapshot.status().terminal() ? "ended " + snapshot.status() + " (" + snapshot.reason() + ")"
                : "has not ended (" + snapshot.status() + "); resume it instead";
        throw new ReinException("run " + snapshot.runId() + " " + what + "; only a run that answered (SUCCEEDED), asked for"
                + " input (needs_user_input) or was cancelled (CANCELLED) can be replied to");
    }

    /** What the person's reply made of the history: the history to continue, and the calls a cancel had cut off, now answered. */
    record Opened(GrowingList<Message> history, List<ToolUseBlock> cutByCancel) {}

    /** The result given a call that the run's cancel left without one: the call may have run in part, or not at all. */
    static final String CUT_BY_CANCEL = "[rein] The run was cancelled before this call finished (or before it started), so it"
            + " has no result. If it has effects, check whether they took place before calling it again.";

    /** The result given a call that waited for a person's decision when the run was cancelled. */
    static final String NEVER_RUN = "[rein] The run was cancelled while this call waited for a person's approval, so it was"
            + " never run.";

    /**
     * Adds the reply to the history. The last turn's calls without a result get one first, so the
     * history stays well formed for every provider: a finish call its turn ended in, and the calls a
     * cancel left unanswered (a call that ended before the cancel its own result, kept with the run's
     * approvals; one that still waited for a decision, that it never ran; any other, a decided one too, that the cancel cut it off).
     */
    static Opened opened(Run run, GrowingList<Message> history, String text) {
        Message last = history.get(history.size() - 1);
        List<ContentBlock> blocks = new ArrayList<>();
        List<ToolUseBlock> cut = new ArrayList<>();
        GrowingList<Message> before = history;
        if (last.role() == Role.ASSISTANT) {
            if (run.resumedFrom == RunStatus.CANCELLED) {
                answerCancelled(run, last.toolUses(), blocks, cut);
            } else {
                for (ToolUseBlock use : last.toolUses()) {
                    blocks.add(new ToolResultBlock(use.id(), "[rein] The turn ended here; the person's reply follows.", false));
                }
            }
        } else {
            blocks.addAll(last.content());
            before = history.withoutLast();
        }
        blocks.add(new TextBlock(text));
        return new Opened(before.with(Message.user(blocks)), List.copyOf(cut));
    }

    private static void answerCancelled(Run run, List<ToolUseBlock> uses, List<ContentBlock> blocks, List<ToolUseBlock> cut) {
        ApprovalState approvals = run.approvals.snapshot();
        // only a call still waiting for a decision surely never ran: one a person decided may have run (it was
        // approved and the cancel came while it ran), so it is said cut off, whose effects are to be checked
        Set<String> waited = new HashSet<>();
        approvals.undecided().forEach(r -> waited.add(r.callId()));
        ToolStage results = new ToolStage(run);
        // the ids Rein knew the calls by (a repeated id made distinct), each answered under the model's own id
        List<ToolCall> calls = AgentLoop.calls(uses);
        for (int i = 0; i < uses.size(); i++) {
            ToolUseBlock use = uses.get(i);
            ToolResult ended = approvals.completed().get(calls.get(i).id());
            if (ended != null) {
                ToolResultBlock block = results.keptBlock(ended); // with a person's edit noted, as the step would have
                blocks.add(new ToolResultBlock(use.id(), block.content(), block.isError()));
            } else {
                blocks.add(new ToolResultBlock(use.id(), waited.contains(calls.get(i).id()) ? NEVER_RUN : CUT_BY_CANCEL, true));
                cut.add(use);
            }
        }
    }

    /** The kind of the intervention that says which calls of a cancelled run were answered before its reply. */
    static final String CANCELLED_CALLS = "cancelled_calls";

    /** Traces the new turn: the reply, the run running again, and the calls a cancel had cut off, answered. */
    static void announce(Run run) {
        // the replying agent's limits, which the turn runs under, so that a replay applies them in the turn too
        run.emit(new TraceEvent.TurnStarted(run.runId, run.step(), run.now(), run.conversation.turn(), run.reply,
                run.config.modelName(), AgentLoop.limits(run)));
        run.emit(new TraceEvent.StateChanged(run.runId, run.step(), run.now(), run.resumedFrom, RunStatus.RUNNING, "reply"));
        if (!run.cutByCancel.isEmpty()) {
            List<String> ids = run.cutByCancel.stream().map(ToolUseBlock::id).toList();
            List<String> tools = run.cutByCancel.stream().map(ToolUseBlock::name).toList();
            run.emit(new TraceEvent.Intervention(run.runId, run.step(), run.now(), CANCELLED_CALLS, "the run was cancelled"
                    + " before " + (ids.size() == 1 ? "a call" : ids.size() + " calls") + " of its last response had a result ("
                    + String.join(", ", tools) + "); each was answered as not run or cut off, before the reply",
                    Map.of("call_ids", ids, "tools", tools)));
        }
    }
}
