package dev.rein.agent;

import dev.rein.model.StreamObserver;
import dev.rein.security.TraceRedactor;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fans events out to a run's listeners, after masking secret values in them; a failing listener is
 * logged and never breaks the run.
 */
final class Recorder implements StreamObserver {
    private static final Logger LOG = LoggerFactory.getLogger(Recorder.class);

    private final List<RunListener> listeners;
    private final TraceRedactor redactor;

    Recorder(List<RunListener> listeners, TraceRedactor redactor) {
        this.listeners = List.copyOf(listeners);
        this.redactor = redactor;
    }

    void emit(TraceEvent raw) {
        TraceEvent event = redactor.redact(raw);
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
        String masked = redactor.redact(text);
        listeners.forEach(l -> safely(() -> l.onTextDelta(masked)));
    }

    @Override
    public void onToolUseStart(String id, String name) {
        listeners.forEach(l -> safely(() -> l.onToolUseStart(id, name)));
    }

    @Override
    public void onToolInputDelta(String id, String partialJson) {
        String masked = redactor.redact(partialJson);
        listeners.forEach(l -> safely(() -> l.onToolInputDelta(id, masked)));
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
