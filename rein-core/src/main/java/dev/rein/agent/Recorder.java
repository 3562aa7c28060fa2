package dev.rein.agent;

import dev.rein.model.StreamObserver;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Fans events out to a run's listeners; a failing listener is logged and never breaks the run. */
final class Recorder implements StreamObserver {
    private static final Logger LOG = LoggerFactory.getLogger(Recorder.class);

    private final List<RunListener> listeners;

    Recorder(List<RunListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    void emit(TraceEvent event) {
        for (RunListener listener : listeners) {
            try {
                listener.onEvent(event);
            } catch (RuntimeException e) {
                LOG.warn("run listener {} failed on {}: {}", listener.getClass().getName(), event.getClass().getSimpleName(), e.toString());
            }
        }
    }

    @Override
    public void onTextDelta(String text) {
        listeners.forEach(l -> safely(() -> l.onTextDelta(text)));
    }

    @Override
    public void onToolUseStart(String id, String name) {
        listeners.forEach(l -> safely(() -> l.onToolUseStart(id, name)));
    }

    @Override
    public void onToolInputDelta(String id, String partialJson) {
        listeners.forEach(l -> safely(() -> l.onToolInputDelta(id, partialJson)));
    }

    void close() {
        listeners.forEach(l -> safely(l::close));
    }

    private static void safely(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            LOG.warn("run listener failed: {}", e.toString());
        }
    }
}
