package dev.rein.cli;

import dev.rein.internal.text.Counts;
import dev.rein.agent.RunResult;
import dev.rein.run.Reasons;
import dev.rein.state.IdempotencyRecord;
import dev.rein.state.RunSnapshot;
import dev.rein.state.RunStore;
import dev.rein.state.RunSummary;
import dev.rein.state.StoredEvent;
import dev.rein.trace.TraceEvent;
import java.nio.file.Path;
import dev.rein.trace.RunListener;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The run store of a command that runs an agent ({@code rein run}, {@code resume}, {@code reply}),
 * noting what it failed to keep: the store can fail after the command's start check passed (another
 * process locks it, the disk fills up), and the run then still ends with its answer, so the command
 * must say what the store lacks and not exit 0 (docs/cli.md, exit codes).
 */
final class WatchedStore implements RunStore {
    private final RunStore store;
    private final Path file;
    /** Why the latest save of a run failed, by run id; removed by a later save that succeeds. */
    private final Map<String, String> unsaved = new ConcurrentHashMap<>();
    /** Trace events the store is to keep (all but the model requests), and those it appended, by run id. */
    private final Map<String, AtomicInteger> emitted = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> appended = new ConcurrentHashMap<>();
    /** Why the latest append of a run's event failed, by run id. */
    private final Map<String, String> eventFailure = new ConcurrentHashMap<>();

    WatchedStore(RunStore store, Path file) {
        this.store = store;
        this.file = file;
    }

    @Override
    public void save(RunSnapshot snapshot) {
        try {
            store.save(snapshot);
            unsaved.remove(snapshot.runId());
        } catch (RuntimeException e) {
            unsaved.put(snapshot.runId(), String.valueOf(e.getMessage()));
            throw e;
        }
    }

    @Override
    public void appendEvent(String runId, TraceEvent event) {
        try {
            store.appendEvent(runId, event);
            if (counted(event)) {
                appended.computeIfAbsent(runId, k -> new AtomicInteger()).incrementAndGet();
            }
        } catch (RuntimeException e) {
            eventFailure.put(runId, String.valueOf(e.getMessage()));
            throw e;
        }
    }

    /**
     * A listener to give the agent, counting the trace events the store is to keep: the agent holds an
     * event it failed to append and tries it again later, so what was lost is only known by the count.
     */
    RunListener counter() {
        return new RunListener() {
            @Override
            public void onEvent(TraceEvent event) {
                if (counted(event)) {
                    emitted.computeIfAbsent(event.runId(), k -> new AtomicInteger()).incrementAndGet();
                }
            }
        };
    }

    /**
     * Whether an event is counted on both sides: the agent does not store model requests (they repeat
     * the history), and a person's decision is stored when it is made ({@code rein approve}), so a
     * resumed run tells its listeners of it without storing it again.
     */
    private static boolean counted(TraceEvent event) {
        return !(event instanceof TraceEvent.ModelRequested) && !(event instanceof TraceEvent.ApprovalDecided);
    }

    @Override
    public Optional<RunSnapshot> load(String runId) {
        return store.load(runId);
    }

    @Override
    public List<RunSummary> list() {
        return store.list();
    }

    @Override
    public Optional<IdempotencyRecord> idempotency(String key) {
        return store.idempotency(key);
    }

    @Override
    public void putIdempotency(IdempotencyRecord record) {
        store.putIdempotency(record);
    }

    @Override
    public List<StoredEvent> events(String runId) {
        return store.events(runId);
    }

    /**
     * Says on stderr what the store did not keep of {@code result}'s run, and returns the exit code:
     * {@code code}, or {@link ExitCodes#FAILED} instead of {@link ExitCodes#SUCCEEDED} when something was
     * not kept (as for standard output that could not be written: the command's work is incomplete).
     * A run that stopped because it could not be saved says so in its own message already.
     */
    int report(RunResult result, int code, String command, CliEnvironment env, boolean traced) {
        if (Reasons.STORE_ERROR.equals(result.reason()) || Reasons.STORE_CONFLICT.equals(result.reason())) {
            return code;
        }
        String id = result.runId();
        boolean incomplete = false;
        String finalState = unsaved.get(id);
        if (finalState != null) {
            env.err().println(command + ": run " + id + " ended " + result.status() + ", but the run store " + file.toAbsolutePath()
                    + " could not store its final state (" + Text.visible(Errors.oneLine(finalState)) + "); " + SuggestedCommand.forRun("rein show", id)
                    + " shows the run as it was stored before, not as it ended, and 'rein reply' or 'rein resume' would continue"
                    + " from there");
            incomplete = true;
        }
        int lost = count(emitted, id) - count(appended, id);
        if (lost > 0) {
            env.err().println(command + ": " + Counts.of(lost, "trace event") + " of run " + id
                    + " could not be stored in the run store " + file.toAbsolutePath() + " ("
                    + Text.visible(Errors.oneLine(eventFailure.getOrDefault(id, ""))) + "), so " + SuggestedCommand.forRun("rein show", id) + " lacks "
                    + (lost == 1 ? "it" : "them") + (traced ? "; the --trace file has the whole trace" : "; --trace FILE keeps a"
                    + " run's whole trace in a file of its own"));
            incomplete = true;
        }
        return incomplete && code == ExitCodes.SUCCEEDED ? ExitCodes.FAILED : code;
    }

    private static int count(Map<String, AtomicInteger> counts, String runId) {
        AtomicInteger n = counts.get(runId);
        return n == null ? 0 : n.get();
    }
}
