package dev.rein.anthropic;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.rein.json.Json;
import dev.rein.model.ModelException;
import java.io.IOException;
import java.util.Arrays;

/**
 * Reads a {@code text/event-stream} body and parses each event's data straight into a JSON tree,
 * once (no typed model in between). A leading byte order mark is dropped; lines end with LF, CR LF
 * or CR; {@code data:} lines of one event are joined with LF; comments and fields other than
 * {@code event} and {@code data} are ignored, as the SSE format says. An {@code error} event
 * becomes the failure it reports. An event named with a type Rein does not read ({@code ping},
 * types added later, a gateway's own markers) is skipped, as the official SDKs skip it: its data
 * need not be JSON. The message is whole at {@code message_stop}, where the streaming docs end the event flow: no event
 * after it is read (a second message, a delta, an {@code error}, a marker that is not JSON, named or not), and a read
 * that fails after it ends the stream, as does a body left open {@link #SETTLE} after it. (The official SDK's
 * accumulator refuses an event after it, and its stream throws an {@code error} wherever it comes; Rein keeps the whole
 * message instead, since failing it would have a retry pay for the answer again.)
 * A {@code data: [DONE]} (the OpenAI-style end marker a proxy may send in its place) counts as
 * {@code message_stop}.
 */
final class SseReader implements AutoCloseable {
    /** Receives the events of one stream. */
    interface Events {
        void accept(JsonNode event) throws ModelException;
    }

    private static final ObjectReader TREE = Json.mapper().reader();
    private static final byte[] DATA = "data".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] EVENT = "event".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] ERROR = "error".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    /** The UTF-8 byte order mark. */
    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    /** The event names whose data makes up the message; an event without a name is read by its data's type. */
    private static final byte[][] READ = java.util.stream.Stream.of("message_start", "message_delta", "message_stop",
                    "content_block_start", "content_block_delta", "content_block_stop")
            .map(name -> name.getBytes(java.nio.charset.StandardCharsets.US_ASCII)).toArray(byte[][]::new);

    /** How long the body may stay open after message_stop before it is ended (the message is whole). */
    static final java.time.Duration SETTLE = java.time.Duration.ofSeconds(1);

    private final Exchange exchange;
    private final ErrorMapper errors;
    private final WireBuffer readBuffer = WireBuffer.take(8192);
    private final WireBuffer dataBuffer = WireBuffer.take(4096);
    private final WireBuffer lineBuffer = WireBuffer.take(1024);
    private final byte[] buffer = readBuffer.bytes();
    private int start;
    private int end;
    private boolean lastWasCr;
    private byte[] data = dataBuffer.bytes();
    private int dataLength;
    private boolean hasData;
    private boolean errorEvent;
    /** Whether the current event is named with a type Rein does not read, so data that is not JSON is skipped. */
    private boolean skippedEvent;
    /**
     * Whether message_stop has come: the message is whole, so what a server adds after it that is not
     * JSON (an OpenAI-style {@code data: [DONE]} without an event name) is skipped, not the answer failed.
     */
    private boolean messageStopped;

    SseReader(Exchange exchange, ErrorMapper errors) {
        this.exchange = exchange;
        this.errors = errors;
    }

    /** Reads the whole stream, handing every event to {@code events}. */
    void readAll(Events events) throws IOException, ModelException {
        byte[] line = lineBuffer.bytes();
        int lineLength = 0;
        int bom = 0; // bytes of a leading byte order mark seen so far (the SSE standard drops one); -1 once past it
        while (true) {
            if (start == end && !fill()) {
                // An event the stream ended in the middle of (no blank line after it) is not
                // dispatched, as the SSE standard says: a cut stream then fails as one, retryably,
                // instead of as a half-parsed event.
                return;
            }
            byte b = buffer[start++];
            if (bom >= 0) {
                if (b == BOM[bom]) {
                    bom = bom + 1 == BOM.length ? -1 : bom + 1;
                    continue;
                }
                bom = -1;
            }
            if (b == '\n' && lastWasCr) {
                lastWasCr = false;
                continue;
            }
            lastWasCr = b == '\r';
            if (b == '\n' || b == '\r') {
                line(line, lineLength, events);
                lineLength = 0;
            } else {
                if (lineLength == line.length) {
                    lineBuffer.length(lineLength);
                    lineBuffer.ensure(line.length * 2);
                    line = lineBuffer.bytes();
                }
                line[lineLength++] = b;
            }
        }
    }

    private boolean fill() throws IOException {
        int n;
        try {
            n = exchange.read(buffer, 0, buffer.length);
        } catch (IOException e) {
            if (messageStopped) {
                // The message is whole: a connection that broke after message_stop (a proxy that closes
                // without the body's last chunk) costs nothing, where a retry would pay for the answer again.
                return false;
            }
            throw e;
        }
        start = 0;
        end = Math.max(n, 0);
        return n > 0;
    }

    private void line(byte[] line, int length, Events events) throws ModelException {
        if (length == 0) {
            dispatch(events);
            return;
        }
        if (line[0] == ':') {
            return;
        }
        int colon = indexOf(line, length, (byte) ':');
        int nameEnd = colon < 0 ? length : colon;
        int valueStart = colon < 0 ? length : colon + 1;
        if (valueStart < length && line[valueStart] == ' ') {
            valueStart++;
        }
        if (is(line, nameEnd, DATA)) {
            if (hasData) {
                appendData(new byte[] {'\n'}, 0, 1);
            }
            appendData(line, valueStart, length - valueStart);
            hasData = true;
        } else if (is(line, nameEnd, EVENT)) {
            errorEvent = Arrays.equals(line, valueStart, length, ERROR, 0, ERROR.length);
            skippedEvent = !errorEvent && valueStart < length && !named(line, valueStart, length, READ);
        }
    }

    private void dispatch(Events events) throws ModelException {
        boolean error = errorEvent;
        boolean skipped = skippedEvent;
        errorEvent = false;
        skippedEvent = false;
        if (!hasData) {
            return;
        }
        hasData = false;
        if (messageStopped) {
            // The message is whole at message_stop (the streaming docs' event flow ends there): a second
            // message, a delta or an error a proxy adds after it must not change or fail the answer.
            dataLength = 0;
            return;
        }
        if (!error && isDone()) {
            dataLength = 0;
            // The OpenAI-style end marker some proxies send in place of message_stop (GitHub Copilot's
            // Anthropic-compatible one): an explicit end of the message, not a cut connection.
            stopped(events, MESSAGE_STOP);
            return;
        }
        JsonNode event;
        try {
            event = TREE.readTree(data, 0, dataLength);
        } catch (JsonProcessingException e) {
            if (error) {
                // Still the failure it reports, of no known type: retried like any server error.
                throw errors.streamError(new String(data, 0, dataLength, java.nio.charset.StandardCharsets.UTF_8),
                        exchange.headers(), exchange.requestId());
            }
            if (skipped) {
                return; // an event of a type Rein does not read need not carry JSON
            }
            throw ErrorMapper.malformed(errors.server() + " sent an event Rein could not read: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw ErrorMapper.malformed(errors.server() + " sent an event Rein could not read: " + e.getMessage(), e);
        } finally {
            dataLength = 0;
        }
        if (error || "error".equals(event.path("type").textValue())) {
            throw errors.streamError(event, exchange.headers(), exchange.requestId());
        }
        if ("message_stop".equals(event.path("type").textValue())) {
            stopped(events, event);
            return;
        }
        events.accept(event);
    }

    /** message_stop: the message is whole. */
    private void stopped(Events events, JsonNode event) throws ModelException {
        messageStopped = true;
        // The body ends right after message_stop; a server holding it open must not hold the call.
        exchange.settle(SETTLE);
        events.accept(event);
    }

    private static final byte[] DONE = "[DONE]".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final JsonNode MESSAGE_STOP = Json.mapper().createObjectNode().put("type", "message_stop");

    /** Whether the event's data is the OpenAI-style end marker {@code [DONE]}. */
    private boolean isDone() {
        return Arrays.equals(data, 0, dataLength, DONE, 0, DONE.length);
    }

    private void appendData(byte[] from, int offset, int length) {
        if (dataLength + length > data.length) {
            dataBuffer.length(dataLength);
            dataBuffer.ensure(dataLength + length);
            data = dataBuffer.bytes();
        }
        System.arraycopy(from, offset, data, dataLength, length);
        dataLength += length;
    }

    @Override
    public void close() {
        readBuffer.release();
        dataBuffer.release();
        lineBuffer.release();
    }

    private static boolean is(byte[] line, int nameEnd, byte[] name) {
        return Arrays.equals(line, 0, nameEnd, name, 0, name.length);
    }

    private static boolean named(byte[] line, int from, int to, byte[][] names) {
        for (byte[] name : names) {
            if (Arrays.equals(line, from, to, name, 0, name.length)) {
                return true;
            }
        }
        return false;
    }

    private static int indexOf(byte[] line, int length, byte b) {
        for (int i = 0; i < length; i++) {
            if (line[i] == b) {
                return i;
            }
        }
        return -1;
    }
}
