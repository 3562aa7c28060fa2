package dev.rein.agent;

import dev.rein.model.StreamObserver;
import dev.rein.security.TraceRedactor;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fans events out to a run's listeners, after masking secret values in them (in streamed text
 * across fragment boundaries too); a failing listener is logged and never breaks the run.
 */
final class Recorder implements StreamObserver {
    private static final Logger LOG = LoggerFactory.getLogger(Recorder.class);

    private final List<RunListener> listeners;
    private final TraceRedactor redactor;
    private final Supplier<Map<String, String>> secrets;
    /** Secrets can be split across stream fragments, so fragments are masked as one text per block. */
    private final DeltaMasker textMasker;
    private final DeltaMasker thinkingMasker;
    private final Map<String, DeltaMasker> inputMaskers = new HashMap<>();

    Recorder(List<RunListener> listeners, TraceRedactor redactor, Supplier<Map<String, String>> secrets) {
        this.listeners = List.copyOf(listeners);
        this.redactor = redactor;
        this.secrets = secrets;
        this.textMasker = new DeltaMasker(secrets);
        this.thinkingMasker = new DeltaMasker(secrets);
    }

    void emit(TraceEvent raw) {
        emit(raw, listener -> true);
    }

    /** Fans {@code raw} out to the listeners {@code to} accepts. */
    void emit(TraceEvent raw, java.util.function.Predicate<RunListener> to) {
        TraceEvent event = redactor.redact(raw);
        for (RunListener listener : listeners) {
            if (!to.test(listener)) {
                continue;
            }
            try {
                listener.onEvent(event);
            } catch (Exception | Error e) { // any Error too (a test's AssertionError, a StackOverflowError): it must not end or cancel the run
                LOG.warn("run listener {} failed on {}: {}", listener.getClass().getName(), event.getClass().getSimpleName(), e.toString());
            }
        }
    }

    @Override
    public synchronized void onTextDelta(String text) {
        endOfThinking();
        deliverText(text.isEmpty() ? "" : textMasker.accept(text));
    }

    /** Thinking is masked as text is: the model may repeat a secret it read in a tool's output. */
    @Override
    public synchronized void onThinkingDelta(String thinking) {
        endOfText();
        deliverThinking(thinking.isEmpty() ? "" : thinkingMasker.accept(thinking));
    }

    @Override
    public synchronized void onToolUseStart(String id, String name) {
        endOfText();
        endOfThinking();
        listeners.forEach(l -> safely(() -> l.onToolUseStart(id, name)));
    }

    @Override
    public synchronized void onToolInputDelta(String id, String partialJson) {
        String masked = inputMaskers.computeIfAbsent(id, k -> new DeltaMasker(secrets)).accept(partialJson);
        if (!masked.isEmpty()) {
            listeners.forEach(l -> safely(() -> l.onToolInputDelta(id, masked)));
        }
    }

    /** The attempt's held-back text was released at its end (endOfStream), so a listener discards all of it. */
    @Override
    public synchronized void onRetry(int failedAttempt) {
        listeners.forEach(l -> safely(() -> l.onRetry(failedAttempt)));
    }

    /** The model call ended: what was held back (a possible start of a secret) is released, masked. */
    synchronized void endOfStream() {
        endOfText();
        endOfThinking();
        inputMaskers.forEach((id, masker) -> {
            String rest = masker.flush();
            if (!rest.isEmpty()) {
                listeners.forEach(l -> safely(() -> l.onToolInputDelta(id, rest)));
            }
        });
        inputMaskers.clear();
    }

    private void endOfText() {
        deliverText(textMasker.flush());
    }

    private void endOfThinking() {
        deliverThinking(thinkingMasker.flush());
    }

    private void deliverThinking(String masked) {
        if (!masked.isEmpty()) {
            listeners.forEach(l -> safely(() -> l.onThinkingDelta(masked)));
        }
    }

    private void deliverText(String masked) {
        if (!masked.isEmpty()) {
            listeners.forEach(l -> safely(() -> l.onTextDelta(masked)));
        }
    }

    void close() {
        listeners.forEach(l -> safely(l::close));
    }

    private static void safely(Runnable action) {
        try {
            action.run();
        } catch (Exception | Error e) {
            LOG.warn("run listener failed: {}", e.toString());
        }
    }
}
