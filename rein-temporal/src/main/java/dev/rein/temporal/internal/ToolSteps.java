package dev.rein.temporal.internal;

import dev.rein.temporal.internal.Payloads.CallDone;
import dev.rein.temporal.internal.Payloads.Planned;
import dev.rein.temporal.internal.Payloads.Turn;
import dev.rein.tool.ToolCall;
import io.temporal.activity.ActivityCancellationType;
import io.temporal.workflow.Async;
import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The planned calls of one response, each as its own activity, with the local executor's order:
 * the reads start together and are awaited together; the side-effecting calls (WRITE,
 * IRREVERSIBLE) follow after every read has ended, one at a time in call order; a read that fails for good
 * cancels the others (locally the executor interrupts them). Outcomes come
 * back in call order. Workflow code: deterministic (Temporal's {@code Async}/{@code Promise}, no threads).
 */
final class ToolSteps {
    private ToolSteps() {}

    static List<CallDone> run(Function<ActivityCancellationType, AgentActivities> activities, Turn turn, Planned plan,
                              Map<String, Integer> callCounts) {
        List<ToolCall> calls = plan.calls();
        CallDone[] done = new CallDone[calls.size()];
        long readCount = plan.sideEffecting().stream().filter(sideEffecting -> !sideEffecting).count();
        // histories recorded before it let the other reads run on after a read failed (and a cancel of the run did not
        // wait for them): their activities were requested with Temporal's default cancellation
        boolean cancellable = readCount >= 2
                && Workflow.getVersion("reads-cancelled", Workflow.DEFAULT_VERSION, 1) >= 1;
        AgentActivities readActivities = activities.apply(cancellable
                ? ActivityCancellationType.WAIT_CANCELLATION_COMPLETED : ActivityCancellationType.TRY_CANCEL);
        // calls admitted before this one count against the tool's limit, as the local executor admits them in call order
        Map<String, Integer> admitted = new HashMap<>(callCounts);
        List<Promise<CallDone>> reads = new ArrayList<>();
        List<Integer> readIndex = new ArrayList<>();
        CancellationScope readScope = Workflow.newCancellationScope(() -> {
            for (int i = 0; i < calls.size(); i++) {
                if (!plan.sideEffecting().get(i)) {
                    ToolCall call = calls.get(i);
                    reads.add(Async.function(readActivities::callTool, turn, call, Map.copyOf(admitted)));
                    readIndex.add(i);
                    admitted.merge(call.name(), 1, Integer::sum);
                }
            }
        });
        readScope.run();
        if (cancellable) {
            awaitAllCancellingOnFailure(reads, readScope);
        } else {
            awaitAll(reads);
        }
        Map<String, Integer> counts = new HashMap<>(callCounts);
        for (int r = 0; r < reads.size(); r++) {
            done[readIndex.get(r)] = reads.get(r).get();
            count(counts, done[readIndex.get(r)]);
        }
        for (int i = 0; i < calls.size(); i++) {
            if (done[i] == null) {
                // its own stub, made as it is scheduled: a stub's options count the wait for a worker from when they
                // are made (see AgentWorkflowImpl.effects), and one made before the reads counted their time twice
                done[i] = activities.apply(ActivityCancellationType.TRY_CANCEL).callTool(turn, calls.get(i),
                        Map.copyOf(counts));
                count(counts, done[i]);
            }
        }
        return List.of(done);
    }

    /**
     * Waits until every read has ended or one has failed; at a failure the other reads are cancelled (their workers
     * interrupt the calls at the next heartbeat, as a local run interrupts them) and waited for, so that none of their
     * results or trace events comes after the run's end; then the failure is thrown (the first in call order, when more
     * failed at once). A cancel of the run reaches the reads through the scope too, and is waited for the same way.
     */
    private static void awaitAllCancellingOnFailure(List<Promise<CallDone>> reads, CancellationScope readScope) {
        // Promise.get, not Workflow.await: a cancel of the run would end Workflow.await at once, before the reads stopped
        List<Promise<CallDone>> running = new ArrayList<>(reads);
        RuntimeException failure = firstFailure(reads);
        while (failure == null) {
            running.removeIf(Promise::isCompleted);
            if (running.isEmpty()) {
                return;
            }
            try {
                Promise.anyOf(running).get();
            } catch (RuntimeException e) {
                // a read failed: found in call order below
            }
            failure = firstFailure(reads);
        }
        readScope.cancel("a read of the same step failed for good: " + failure.getMessage());
        for (Promise<CallDone> read : reads) {
            try {
                read.get();
            } catch (RuntimeException e) {
                // cancelled as asked, or failed on its own: the first failure is the one the run ends with
            }
        }
        throw failure;
    }

    private static RuntimeException firstFailure(List<Promise<CallDone>> reads) {
        for (Promise<CallDone> read : reads) {
            if (read.isCompleted() && read.getFailure() != null) {
                return read.getFailure();
            }
        }
        return null;
    }

    /**
     * Waits until every read has ended, then throws the first failure, if any (histories recorded before the reads
     * were cancelled). Promise.allOf fails as soon as one read fails, and the run went on to its end while the other
     * reads still ran: their results and trace events came after the run's end.
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
