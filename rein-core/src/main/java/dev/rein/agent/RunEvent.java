package dev.rein.agent;

import dev.rein.trace.TraceEvent;
import java.util.Map;

/**
 * One event of a streamed run ({@link Agent#stream(String)}), in the order it happened. Every
 * trace event arrives as {@link Trace} (same names as the JSONL trace: {@code tool_call},
 * {@code tool_result}, {@code approval_requested}, {@code intervention}, ...); the model's text as
 * {@link TextDelta}; the run's result as {@link Finished}, always last.
 */
public sealed interface RunEvent {
    /** The stable name of the event: a trace event's type, or {@code text_delta}, {@code events_dropped}, {@code result}. */
    String type();

    /** A trace event, as the run recorded it (secrets masked). */
    record Trace(TraceEvent event) implements RunEvent {
        @Override
        public String type() {
            return dev.rein.internal.trace.TraceNames.of(event);
        }
    }

    /** A fragment of the model's text; fragments that waited in a full buffer are joined into one. */
    record TextDelta(String text) implements RunEvent {
        @Override
        public String type() {
            return "text_delta";
        }
    }

    /**
     * The consumer fell behind and the buffer was full, so {@code count} events were left out here
     * (by type name in {@code byType}). The run itself never waits for the consumer; the trace and
     * the result are complete.
     */
    record EventsDropped(long count, Map<String, Long> byType) implements RunEvent {
        public EventsDropped {
            byType = Map.copyOf(byType);
        }

        @Override
        public String type() {
            return "events_dropped";
        }
    }

    /** The run ended (or paused for approval): its result. Never dropped. */
    record Finished(RunResult result) implements RunEvent {
        @Override
        public String type() {
            return "result";
        }
    }
}
