package dev.rein.agent;

import dev.rein.state.RunStore;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;

/**
 * Keeps a run's trace in its store (for {@code rein show}), without the full model requests: they
 * are the history again and would make the store grow with the square of the run's length.
 */
final class StoreListener implements RunListener {
    private final RunStore store;
    private final String runId;

    StoreListener(RunStore store, String runId) {
        this.store = store;
        this.runId = runId;
    }

    @Override
    public void onEvent(TraceEvent event) {
        if (!(event instanceof TraceEvent.ModelRequested)) {
            store.appendEvent(runId, event);
        }
    }
}
