package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.trace.TraceEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bounded queue between a run and a slow stream consumer: text is never left out, and never reordered. */
class StreamBufferTest {
    private static RunEvent call(String id) {
        return new RunEvent.Trace(new TraceEvent.ToolCalled("run-1", 1, Instant.EPOCH, id, "lookup", Json.parse("{}")));
    }

    private static List<RunEvent> drain(StreamBuffer buffer) throws InterruptedException {
        buffer.offer(new RunEvent.Finished(null));
        List<RunEvent> events = new ArrayList<>();
        for (RunEvent e = buffer.take(); e != null; e = buffer.take()) {
            events.add(e);
        }
        return events;
    }

    private static String describe(List<RunEvent> events) {
        List<String> parts = new ArrayList<>();
        for (RunEvent e : events) {
            parts.add(switch (e) {
                case RunEvent.TextDelta t -> "text:" + t.text();
                case RunEvent.EventsDropped d -> "dropped:" + d.count();
                case RunEvent.Trace t -> t.event() instanceof TraceEvent.ToolCalled c ? "call:" + c.callId() : t.type();
                case RunEvent.Finished f -> "result";
            });
        }
        return String.join(" ", parts);
    }

    /**
     * Text that arrives after events were left out is never joined in front of the gap's marker (it was: the
     * consumer read 前後 and then the gap); the waiting text it joins moves behind the marker with it.
     */
    @Test
    void textAfterAGapFollowsItsMarker() throws InterruptedException {
        StreamBuffer buffer = new StreamBuffer(2);
        buffer.offer(call("a"));
        buffer.offer(new RunEvent.TextDelta("前"));
        buffer.offer(call("b")); // full: left out
        buffer.offer(new RunEvent.TextDelta("後"));

        assertThat(describe(drain(buffer))).isEqualTo("call:a dropped:1 text:前後 result");
    }

    /** A text delta that finds the buffer full behind another kind of event is queued, not left out. */
    @Test
    void textIsNeverLeftOutWhenTheBufferIsFull() throws InterruptedException {
        StreamBuffer buffer = new StreamBuffer(2);
        buffer.offer(call("a"));
        buffer.offer(call("b"));
        buffer.offer(new RunEvent.TextDelta("こん"));
        buffer.offer(new RunEvent.TextDelta("にちは"));

        assertThat(describe(drain(buffer))).isEqualTo("call:a call:b text:こんにちは result");
    }

    /** Text and left-out events alternating on a full buffer grow it by a marker and a delta at most. */
    @Test
    void alternatingTextAndLeftOutEventsStayBounded() throws InterruptedException {
        StreamBuffer buffer = new StreamBuffer(2);
        buffer.offer(call("a"));
        buffer.offer(call("b"));
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            buffer.offer(new RunEvent.TextDelta(Integer.toString(i % 10)));
            text.append(i % 10);
            buffer.offer(call("x" + i));
        }
        List<RunEvent> events = drain(buffer);

        // the capacity, a marker and a delta, then the gap before the result and the result
        assertThat(events.size()).isLessThanOrEqualTo(2 + 2 + 2);
        StringBuilder received = new StringBuilder();
        long dropped = 0;
        for (RunEvent e : events) {
            if (e instanceof RunEvent.TextDelta t) {
                received.append(t.text());
            } else if (e instanceof RunEvent.EventsDropped d) {
                dropped += d.count();
            }
        }
        assertThat(received.toString()).isEqualTo(text.toString());
        assertThat(dropped).isEqualTo(100);
    }

    /**
     * A model_retry tells a consumer to drop the failed attempt's text; a full buffer left it out like any event, and
     * the consumer showed the failed attempt's text and the retry's as one answer. It is never left out now.
     */
    @Test
    void aModelRetryIsNeverLeftOutOfAFullBuffer() throws InterruptedException {
        StreamBuffer buffer = new StreamBuffer(2);
        buffer.offer(call("a"));
        buffer.offer(new RunEvent.TextDelta("途中"));
        buffer.offer(call("b")); // full: left out
        buffer.offer(new RunEvent.Trace(new TraceEvent.ModelRetry("run-1", 1, Instant.EPOCH, 1, "CONNECTION", 0, "reset", 1)));
        buffer.offer(new RunEvent.TextDelta("完全"));

        assertThat(describe(drain(buffer))).isEqualTo("call:a text:途中 dropped:1 model_retry text:完全 result");
    }

    /** Nor is a model_fallback, which says the same of an attempt a fallback stage moved on from. */
    @Test
    void aModelFallbackIsNeverLeftOutOfAFullBuffer() throws InterruptedException {
        StreamBuffer buffer = new StreamBuffer(2);
        buffer.offer(call("a"));
        buffer.offer(new RunEvent.TextDelta("途中"));
        buffer.offer(call("b")); // full: left out
        buffer.offer(new RunEvent.Trace(new TraceEvent.ModelFallback("run-1", 1, Instant.EPOCH, "primary", "backup",
                "CONNECTION", 0, "reset", null, null)));
        buffer.offer(new RunEvent.TextDelta("完全"));

        assertThat(describe(drain(buffer))).isEqualTo("call:a text:途中 dropped:1 model_fallback text:完全 result");
    }
}
