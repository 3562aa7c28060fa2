package dev.rein.temporal.internal;

import dev.rein.temporal.internal.Payloads.CallDone;
import dev.rein.temporal.internal.Payloads.Planned;
import dev.rein.temporal.internal.Payloads.Turn;
import dev.rein.tool.ToolCall;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The planned calls of one response, each as its own activity, with the local executor's order:
 * the reads start together and are awaited together; the side-effecting calls (WRITE,
 * IRREVERSIBLE) follow after every read has ended, one at a time in call order. Outcomes come
 * back in call order. Workflow code: deterministic (Temporal's {@code Async}/{@code Promise}, no threads).
 */
final class ToolSteps {
    private ToolSteps() {}

    static List<CallDone> run(AgentActivities activities, Turn turn, Planned plan, Map<String, Integer> callCounts) {
        List<ToolCall> calls = plan.calls();
        CallDone[] done = new CallDone[calls.size()];
        // calls admitted before this one count against the tool's limit, as the local executor admits them in call order
        Map<String, Integer> counts = new HashMap<>(callCounts);
        List<Promise<CallDone>> reads = new ArrayList<>();
        List<Integer> readIndex = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            if (!plan.sideEffecting().get(i)) {
                ToolCall call = calls.get(i);
                reads.add(Async.function(activities::callTool, turn, call, Map.copyOf(counts)));
                readIndex.add(i);
                counts.merge(call.name(), 1, Integer::sum);
            }
        }
        awaitAll(reads);
        counts = new HashMap<>(callCounts);
        for (int r = 0; r < reads.size(); r++) {
            done[readIndex.get(r)] = reads.get(r).get();
            count(counts, done[readIndex.get(r)]);
        }
        for (int i = 0; i < calls.size(); i++) {
            if (done[i] == null) {
                done[i] = activities.callTool(turn, calls.get(i), Map.copyOf(counts));
                count(counts, done[i]);
            }
        }
        return List.of(done);
    }

    /**
     * Waits until every read has ended, then throws the first failure, if any. Promise.allOf fails as soon as one read
     * fails, and the run went on to its end while the other reads still ran: their results and trace events came after
     * the run's end. Locally the executor stops the other calls and waits for them before the run ends.
     */
    private static void awaitAll(List<Promise<CallDone>> reads) {
        // histories recorded before it went on at the first failure
        if (reads.size() < 2 || Workflow.getVersion("reads-all-ended", Workflow.DEFAULT_VERSION, 1) < 1) {
            Promise.allOf(reads).get();
            return;
        }
        RuntimeException first = null;
        for (Promise<CallDone> read : reads) {
            try {
                read.get();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private static void count(Map<String, Integer> counts, CallDone done) {
        if (done.counted()) {
            counts.merge(done.toolName(), 1, Integer::sum);
        }
    }
}
