package dev.rein.agent;

import dev.rein.state.RunStore;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
import java.util.ArrayDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a run's trace in its store (for {@code rein show}), without the full model requests: they
 * are the history again and would make the store grow with the square of the run's length.
 *
 * <p>An event the store fails to append (a lock another process held past the store's wait, a
 * broken connection the store opens again on its next call) is held and tried again, in its place,
 * before each later event and when the run ends, so a store that fails for a while loses nothing.
 * What it still cannot take when the run ends is logged as lost, with the count and the store's reason.
 */
final class StoreListener implements RunListener {
    private static final Logger LOG = LoggerFactory.getLogger(StoreListener.class);
    /** The most events held for a store that keeps failing; older ones are dropped (and counted) beyond it. */
    static final int MAX_HELD = 10_000;

    private final RunStore store;
    private final String runId;
    /** Events not yet appended, oldest first; only touched under this listener's lock. */
    private final ArrayDeque<TraceEvent> held = new ArrayDeque<>();
    /** Whether any event is held: read without the lock so the usual path (nothing held) takes none. */
    private volatile boolean holding;
    private int dropped;
    private RuntimeException lastFailure;

    StoreListener(RunStore store, String runId) {
        this.store = store;
        this.runId = runId;
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
                    lastFailure = e;
                    hold(event);
                }
                return;
            }
        }
        synchronized (this) {
            hold(event);
            deliverHeld();
        }
    }

    @Override
    public synchronized void close() {
        if (holding) {
            deliverHeld();
        }
        int lost = held.size() + dropped;
        if (lost > 0) {
            LOG.warn("{} trace event{} of run {} could not be stored in {} ({}); the run's trace in the store lacks {}", lost,
                    lost == 1 ? "" : "s", runId, store, lastFailure == null ? "" : lastFailure.getMessage(), lost == 1 ? "it" : "them");
        }
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
                lastFailure = e;
                return;
            }
            held.removeFirst();
        }
        holding = false;
    }
}
