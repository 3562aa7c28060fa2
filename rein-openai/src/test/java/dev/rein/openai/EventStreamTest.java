package dev.rein.openai;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The server-sent event framing: data lines, multi-line data, comments, a last event cut off by the end of the body. */
class EventStreamTest {

    @Test
    void readsDataPayloadsAsTheWhatwgFramingDefinesThem() throws Exception {
        String body = ": keep-alive comment\n\n"
                + "data: {\"a\":1}\n\n"
                + "event: ignored\ndata:{\"b\":\"日本\"}\n\n"
                + "data: first\ndata: second\n\n"
                + "id: 7\nretry: 100\n\n"
                + "data: [DONE]\n\n";
        EventStream events = new EventStream(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
        List<String> data = new ArrayList<>();
        String next;
        while ((next = events.next()) != null) {
            data.add(next);
        }
        assertThat(data).containsExactly("{\"a\":1}", "{\"b\":\"日本\"}", "first\nsecond", "[DONE]");
    }

    @Test
    void crLfLineEndsAreFramingToo() throws Exception {
        EventStream events = new EventStream(new ByteArrayInputStream("data: x\r\n\r\ndata: y\r\n\r\n".getBytes(StandardCharsets.UTF_8)));
        assertThat(events.next()).isEqualTo("x");
        assertThat(events.next()).isEqualTo("y");
        assertThat(events.next()).isNull();
    }

    /**
     * Probe (held when written): WHATWG's framing takes a lone CR as a line end too, and a character's UTF-8 bytes that a
     * read ends in the middle of (a TCP segment, a chunk of the HTTP body) are joined with the rest before decoding.
     */
    @Test
    void loneCrLineEndsAndACharacterSplitBetweenReadsAreReadWhole() throws Exception {
        EventStream cr = new EventStream(new ByteArrayInputStream("data: x\r\rdata: y\r\r".getBytes(StandardCharsets.UTF_8)));
        assertThat(cr.next()).isEqualTo("x");
        assertThat(cr.next()).isEqualTo("y");

        byte[] body = "data: {\"content\":\"東京は晴れ\"}\n\ndata: [DONE]\n\n".getBytes(StandardCharsets.UTF_8);
        // one byte per read: every multi-byte character arrives in pieces
        java.io.InputStream trickle = new java.io.InputStream() {
            private int at;

            @Override
            public int read() {
                return at < body.length ? body[at++] & 0xFF : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (at >= body.length) {
                    return -1;
                }
                b[off] = body[at++];
                return 1;
            }
        };
        EventStream events = new EventStream(trickle);
        assertThat(events.next()).isEqualTo("{\"content\":\"東京は晴れ\"}");
        assertThat(events.next()).isEqualTo("[DONE]");
    }

    @Test
    void aLeadingByteOrderMarkIsIgnored() throws Exception {
        // WHATWG: "One leading U+FEFF BYTE ORDER MARK character must be ignored if any are present";
        // read as part of the field name, it made the first event's data line an unknown field.
        EventStream events = new EventStream(new ByteArrayInputStream(
                "\uFEFFdata: {\"content\":\"最初\"}\n\ndata: [DONE]\n\n".getBytes(StandardCharsets.UTF_8)));
        assertThat(events.next()).isEqualTo("{\"content\":\"最初\"}");
        assertThat(events.next()).isEqualTo("[DONE]");
    }

    @Test
    void anEventTheBodyEndsInBeforeItsBlankLineIsDiscarded() throws Exception {
        // WHATWG: "If the file ends in the middle of an event, before the final empty line, the
        // incomplete event is not dispatched."
        EventStream events = new EventStream(new ByteArrayInputStream(
                "data: {\"a\":1}\n\ndata: {\"b\":\"cu".getBytes(StandardCharsets.UTF_8)));
        assertThat(events.next()).isEqualTo("{\"a\":1}");
        assertThat(events.next()).isNull();
        EventStream cutDone = new EventStream(new ByteArrayInputStream("data: [DON".getBytes(StandardCharsets.UTF_8)));
        assertThat(cutDone.next()).isNull();
    }

    @Test
    void aDoneTheBodyEndsInBeforeItsBlankLineStillEndsTheStream() throws Exception {
        // The end marker arrived whole; nothing the blank line would have closed can be missing.
        EventStream events = new EventStream(new ByteArrayInputStream(
                "data: {\"a\":1}\n\ndata: [DONE]\n".getBytes(StandardCharsets.UTF_8)));
        assertThat(events.next()).isEqualTo("{\"a\":1}");
        assertThat(events.next()).isEqualTo("[DONE]");
        assertThat(events.next()).isNull();
    }

    @Test
    void anEventWithoutDataLeavesNoTypeToTheNextOne() throws Exception {
        // WHATWG: a blank line with an empty data buffer resets the event type too, so the chunk after
        // a bare "event: error" block is an ordinary chunk, not an error event.
        EventStream events = new EventStream(new ByteArrayInputStream(
                "event: error\n\ndata: {\"choices\":[]}\n\n".getBytes(StandardCharsets.UTF_8)));
        assertThat(events.next()).isEqualTo("{\"choices\":[]}");
        assertThat(events.next()).isNull();
    }
}
