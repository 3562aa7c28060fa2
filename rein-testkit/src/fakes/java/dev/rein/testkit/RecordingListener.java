package dev.rein.testkit;

import dev.rein.trace.RunListener;
import dev.rein.trace.RunListenerFactory;
import dev.rein.trace.TraceEvent;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records every trace event of the runs it is attached to, for assertions. */
public final class RecordingListener implements RunListener, RunListenerFactory {
    private final List<TraceEvent> events = new CopyOnWriteArrayList<>();
    private final StringBuffer streamedText = new StringBuffer();

    @Override
    public RunListener create(String runId) {
        return this;
    }

    @Override
    public void onEvent(TraceEvent event) {
        events.add(event);
    }

    @Override
    public void onTextDelta(String text) {
        streamedText.append(text);
    }

    public List<TraceEvent> events() {
        return List.copyOf(events);
    }

    /** The events of one type, in order. */
    public <T extends TraceEvent> List<T> events(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    public String streamedText() {
        return streamedText.toString();
    }
}
