package dev.rein.agent;

import dev.rein.internal.text.Counts;
import dev.rein.state.RunStore;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
import java.time.Duration;
import java.util.ArrayDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a run's trace in its store (for {@code rein show}), without the full model requests: they
 * are the history again and would make the store grow with the square of the run's length.
 *
 * <p>An event the store fails to append (a lock another process held past the store's wait, a
 * broken connection the store opens again on its next call) is held and tried again, in its place,
 * when the run ends and, while the run goes on, at the first event once {@link #RETRY_INTERVAL} has
 * passed since the store last failed, so a store that fails for a while loses nothing. Events in
 * between are held without asking the store: a locked SQLite file makes each attempt wait for the
 * lock (10 s), and trying at every event would stall the run for that long per event.
 * What it still cannot take when the run ends is logged as lost, with the count and the store's reason.
 */
final class StoreListener implements RunListener {
    private static final Logger LOG = LoggerFactory.getLogger(StoreListener.class);
    /** The most events held for a store that keeps failing; older ones are dropped (and counted) beyond it. */
    static final int MAX_HELD = 10_000;
    /** How long after a failed append the store is asked again while the run goes on (it always is at the end). */
    static final Duration RETRY_INTERVAL = Duration.ofSeconds(30);

    private final RunStore store;
    private final String runId;
    /** Events not yet appended, oldest first; only touched under this listener's lock. */
    private final ArrayDeque<TraceEvent> held = new ArrayDeque<>();
    /** Whether any event is held: read without the lock so the usual path (nothing held) takes none. */
    private volatile boolean holding;
    private int dropped;
    private RuntimeException lastFailure;
    private final long retryNanos;
    /** When the held events may be tried again (System.nanoTime); only touched under this listener's lock. */
    private long nextTry;

    StoreListener(RunStore store, String runId) {
        this(store, runId, RETRY_INTERVAL);
    }

    StoreListener(RunStore store, String runId, Duration retryInterval) {
        this.store = store;
        this.runId = runId;
        this.retryNanos = retryInterval.toNanos();
    }

    @Override
    public void onEvent(TraceEvent event) {
        if (event instanceof TraceEvent.ModelRequested) {
            return;
        }
        if (!holding) {
            try {
                store.appendEvent(runId, event);
                return;
            } catch (RuntimeException e) {
                synchronized (this) {
                    failed(e);
                    hold(event);
                }
                return;
            }
        }
        synchronized (this) {
            hold(event);
            if (System.nanoTime() - nextTry >= 0) {
                deliverHeld();
            }
        }
    }

    @Override
    public synchronized void close() {
        if (holding) {
            deliverHeld();
        }
        String loss = lossReport();
        if (loss != null) {
            LOG.warn(loss);
            LOG.debug("the store's last failure to keep an event of run {}", runId, lastFailure);
        }
    }

    /** What the store lost of the run's trace, for the log; null when it lost nothing. */
    synchronized String lossReport() {
        int lost = held.size() + dropped;
        if (lost == 0) {
            return null;
        }
        String them = lost == 1 ? "it" : "them";
        return Counts.of(lost, "trace event") + " of run " + runId + " could not be stored in " + store + ": "
                + (lastFailure == null ? "the store failed" : dev.rein.internal.log.StoreFailures.why(lastFailure))
                + "; the run was not held up for " + them + ", but its trace in the store (rein show, Runs.show) lacks " + them
                + " (a trace another listener wrote, JsonlTraceListener or rein run --trace, has " + them + "); "
                + dev.rein.internal.log.StoreFailures.WHAT_TO_DO;
    }

    private void failed(RuntimeException e) {
        lastFailure = e;
        nextTry = System.nanoTime() + retryNanos;
    }

    private void hold(TraceEvent event) {
        if (held.size() >= MAX_HELD) {
            held.removeFirst();
            dropped++;
        }
        held.addLast(event);
        holding = true;
    }

    /** Appends the held events in order, until the store fails again (the rest wait for the next try). */
    private void deliverHeld() {
        while (!held.isEmpty()) {
            try {
                store.appendEvent(runId, held.peekFirst());
            } catch (RuntimeException e) {
                failed(e);
                return;
            }
            held.removeFirst();
        }
        holding = false;
    }
}
