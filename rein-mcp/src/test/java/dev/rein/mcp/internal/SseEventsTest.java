package dev.rein.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The event stream interpretation of the HTML standard, as far as resuming an MCP stream needs it. */
class SseEventsTest {
    private final List<String> data = new ArrayList<>();
    private final SseEvents events = new SseEvents(data::add, Long.MAX_VALUE);

    private void feed(String... chunks) {
        for (String chunk : chunks) {
            events.feed(ByteBuffer.wrap(chunk.getBytes(StandardCharsets.UTF_8)));
        }
    }

    @Test
    void aPrimingEventSetsTheLastEventIdAndRetryTimeWithoutData() {
        feed("id: p1\nretry: 250\ndata: \n\n");
        assertThat(data).isEmpty();
        assertThat(events.lastEventId()).isEqualTo("p1");
        assertThat(events.retryMillis()).isEqualTo(250);
    }

    @Test
    void eventsSplitAcrossChunksAndLineEndingsAreReadWhole() {
        feed(": a comment\r\nevent: message\r\nid: 7\r\nda", "ta: {\"a\":\r\ndata: 1}\r\n\r", "\ndata: x\rid: 8\r\r");
        assertThat(data).containsExactly("{\"a\":\n1}", "x");
        assertThat(events.lastEventId()).isEqualTo("8");
    }

    @Test
    void oneByteOrderMarkAtTheStartOfTheStreamIsStrippedEvenSplitAcrossChunks() {
        // As the HTML standard's event stream interpretation does. Before, the first field was '\uFEFFdata', an unknown
        // field, and the event's data was lost.
        byte[] bom = "\uFEFF".getBytes(StandardCharsets.UTF_8);
        events.feed(ByteBuffer.wrap(bom, 0, 1));
        events.feed(ByteBuffer.wrap(bom, 1, 2));
        feed("id: 1\ndata: 東京\n\n", "\uFEFFdata: kept\n\n");
        assertThat(data).as("only the first, at the start, is stripped").containsExactly("東京");
        assertThat(events.lastEventId()).isEqualTo("1");

        List<String> second = new ArrayList<>();
        SseEvents twice = new SseEvents(second::add, Long.MAX_VALUE);
        twice.feed(ByteBuffer.wrap("\uFEFF\uFEFFdata: x\n\ndata: y\n\n".getBytes(StandardCharsets.UTF_8)));
        assertThat(second).as("a second one is part of the field's name").containsExactly("y");

        List<String> partial = new ArrayList<>();
        SseEvents notABom = new SseEvents(partial::add, Long.MAX_VALUE);
        notABom.feed(ByteBuffer.wrap(new byte[] {(byte) 0xEF, (byte) 0xBB}));
        notABom.feed(ByteBuffer.wrap("\ndata: z\n\n".getBytes(StandardCharsets.UTF_8)));
        assertThat(partial).as("the start of a BOM only is a line of its own").containsExactly("z");
    }

    @Test
    void anEventWithoutAnIdKeepsTheLastOneAndABadRetryIsIgnored() {
        feed("id: 3\ndata: a\n\n", "retry: soon\ndata: b\n\n");
        assertThat(events.lastEventId()).isEqualTo("3");
        assertThat(events.retryMillis()).isNull();
        assertThat(data).containsExactly("a", "b");
    }

    @Test
    void anUnfinishedEventAtTheEndIsNotDispatched() {
        feed("id: 4\ndata: half");
        assertThat(data).isEmpty();
        assertThat(events.lastEventId()).isNull();
    }

    @Test
    void anEventLongerThanTheLimitIsDroppedWithoutBeingHeldAndTheNextOneIsRead() {
        List<String> kept = new ArrayList<>();
        SseEvents limited = new SseEvents(kept::add, 16);
        for (String chunk : new String[] {"data: short\n\n", "data: 0123456789\ndata: 0123456789\n", "data: more\r\n\r\n",
                "id: 9\ndata: 東京\n\n"}) {
            limited.feed(ByteBuffer.wrap(chunk.getBytes(StandardCharsets.UTF_8)));
        }
        assertThat(limited.tooLarge()).isTrue();
        assertThat(kept).containsExactly("short", "東京");
        assertThat(limited.lastEventId()).isEqualTo("9");
    }

    @Test
    void theTypeOfAnEventDroppedForItsLengthDoesNotCarryOverToTheNextEvent() {
        List<String> kept = new ArrayList<>();
        SseEvents limited = new SseEvents(kept::add, 16);
        for (String chunk : new String[] {"event: progress\ndata: 0123456789\ndata: 0123456789\n\n", "data: 東京\n\n"}) {
            limited.feed(ByteBuffer.wrap(chunk.getBytes(StandardCharsets.UTF_8)));
        }
        assertThat(limited.tooLarge()).isTrue();
        assertThat(kept).containsExactly("東京");
    }

    @Test
    void onlyEventsOfTheMessageTypeCarryMessagesAndTheIdOfAnyEventCounts() {
        feed("event: message\ndata: a\n\n", "event: response\nid: 5\ndata: b\n\n", "data: c\n\n");
        assertThat(data).containsExactly("a", "c");
        assertThat(events.messages()).isEqualTo(2);
        assertThat(events.lastEventId()).isEqualTo("5");
    }
}
