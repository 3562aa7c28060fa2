package dev.rein.temporal.internal;

import dev.rein.temporal.internal.Payloads.CallDone;
import dev.rein.temporal.internal.Payloads.Planned;
import dev.rein.temporal.internal.Payloads.Turn;
import dev.rein.tool.ToolCall;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
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
        Promise.allOf(reads).get();
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

    private static void count(Map<String, Integer> counts, CallDone done) {
        if (done.counted()) {
            counts.merge(done.toolName(), 1, Integer::sum);
        }
    }
}
