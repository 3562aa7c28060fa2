package dev.rein.agent;

import dev.rein.internal.log.ListenerFailures;
import dev.rein.internal.trace.TraceNames;
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

    private final String runId;
    private final List<RunListener> listeners;
    private final TraceRedactor redactor;
    /** Where a listener's failure is reported: {@link #LOG}, or a test's. */
    private final Logger log;
    private final Supplier<Map<String, String>> secrets;
    /** Secrets can be split across stream fragments, so fragments are masked as one text per block. */
    private final DeltaMasker textMasker;
    private final DeltaMasker thinkingMasker;
    private final Map<String, DeltaMasker> inputMaskers = new HashMap<>();
    /**
     * Whether any listener takes streamed parts. The run's {@link StoreListener} ignores them, so with no other
     * listener (the default) each delta would be masked for nobody: it is dropped at once instead.
     */
    private final boolean streamed;

    Recorder(String runId, List<RunListener> listeners, TraceRedactor redactor, Supplier<Map<String, String>> secrets) {
        this(runId, listeners, redactor, secrets, LOG);
    }

    Recorder(String runId, List<RunListener> listeners, TraceRedactor redactor, Supplier<Map<String, String>> secrets,
             Logger log) {
        this.runId = runId;
        this.log = log;
        this.listeners = List.copyOf(listeners);
        this.streamed = this.listeners.stream().anyMatch(listener -> !(listener instanceof StoreListener));
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
                failed(listener, "the " + TraceNames.of(event) + " event", ListenerFailures.MISSED_EVENT, e);
            }
        }
    }

    @Override
    public synchronized void onTextDelta(String text) {
        if (!streamed) {
            return;
        }
        endOfThinking();
        deliverText(text.isEmpty() ? "" : textMasker.accept(text));
    }

    /** Thinking is masked as text is: the model may repeat a secret it read in a tool's output. */
    @Override
    public synchronized void onThinkingDelta(String thinking) {
        if (!streamed) {
            return;
        }
        endOfText();
        deliverThinking(thinking.isEmpty() ? "" : thinkingMasker.accept(thinking));
    }

    @Override
    public synchronized void onToolUseStart(String id, String name) {
        if (!streamed) {
            return;
        }
        endOfText();
        endOfThinking();
        listeners.forEach(l -> safely(l, "the start of a streamed tool call (onToolUseStart)", () -> l.onToolUseStart(id, name)));
    }

    @Override
    public synchronized void onToolInputDelta(String id, String partialJson) {
        if (!streamed) {
            return;
        }
        String masked = inputMaskers.computeIfAbsent(id, k -> new DeltaMasker(secrets)).accept(partialJson);
        if (!masked.isEmpty()) {
            listeners.forEach(l -> safely(l, "streamed tool input (onToolInputDelta)", () -> l.onToolInputDelta(id, masked)));
        }
    }

    /** The attempt's held-back text was released at its end (endOfStream), so a listener discards all of it. */
    @Override
    public synchronized void onRetry(int failedAttempt) {
        listeners.forEach(l -> safely(l, "a retry's restart of the stream (onRetry)", () -> l.onRetry(failedAttempt)));
    }

    /** The model call ended: what was held back (a possible start of a secret) is released, masked. */
    synchronized void endOfStream() {
        endOfText();
        endOfThinking();
        inputMaskers.forEach((id, masker) -> {
            String rest = masker.flush();
            if (!rest.isEmpty()) {
                listeners.forEach(l -> safely(l, "streamed tool input (onToolInputDelta)", () -> l.onToolInputDelta(id, rest)));
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
            listeners.forEach(l -> safely(l, "streamed thinking (onThinkingDelta)", () -> l.onThinkingDelta(masked)));
        }
    }

    private void deliverText(String masked) {
        if (!masked.isEmpty()) {
            listeners.forEach(l -> safely(l, "streamed text (onTextDelta)", () -> l.onTextDelta(masked)));
        }
    }

    void close() {
        listeners.forEach(l -> safely(l, null, l::close));
    }

    /** Runs one call of {@code listener}'s; {@code what} it is for the log (null: its close). */
    private void safely(RunListener listener, String what, Runnable action) {
        try {
            action.run();
        } catch (Exception | Error e) {
            failed(listener, what, what == null ? ListenerFailures.MISSED_CLOSE : ListenerFailures.MISSED_STREAM, e);
        }
    }

    /**
     * Logs {@code listener}'s failure on {@code what} (null: its close) as one line saying the run, what it lost and what
     * to check: it said the failure's toString() alone (over as many lines as its message had, for a streamed part
     * naming neither listener nor run); the stack trace goes to debug.
     */
    private void failed(RunListener listener, String what, String lost, Throwable e) {
        String run = "run " + dev.rein.internal.text.RunIds.shown(runId);
        log.warn(ListenerFailures.line(listener.getClass().getName(), what, run, "the run went on", lost, e));
        log.debug("the failure of run listener {} on run {}", listener.getClass().getName(), dev.rein.internal.text.RunIds.shown(runId), e);
    }
}
