package dev.rein.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Rewrites an SSE stream so that an event whose data is a JSON-RPC batch (an array of messages)
 * becomes one event per message. Protocol revision 2025-03-26, which a server may still negotiate,
 * says implementations must accept batches; the SDK's transport reads each event as one message
 * and fails on an array. Only a line starting {@code data:[} or {@code data: [} is held until it
 * ends; every other byte passes on at once and unchanged. A batch spread over several data lines
 * of one event is passed on as it came.
 *
 * <p>Made with messages to leave out, it also holds a line starting {@code data:{} or
 * {@code data: {} and drops it, with its line break, when its message is one of them (and such
 * messages from a batch), so the event reaches the SDK without data, which it skips. A held line
 * longer than Rein reads of one message is passed on as it came, not held further.
 */
final class BatchSplitter {
    private static final byte[] PLAIN = "data:[".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SPACED = "data: [".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PLAIN_OBJECT = "data:{".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SPACED_OBJECT = "data: {".getBytes(StandardCharsets.US_ASCII);

    /** The messages left out; null when none are. */
    private final java.util.function.Predicate<JsonNode> dropped;

    /** The start of the current line while it may still be a batch's data line. */
    private final ByteArrayOutputStream head = new ByteArrayOutputStream();
    /** True while the current line starts as a batch's data line and is held. */
    private boolean holding;
    /** True while the current line is passed on as it comes. */
    private boolean passing;
    /** True after a line ending in CR was dropped: a LF right after it is the rest of its line break. */
    private boolean droppedCr;

    /** Splits batches and leaves nothing out. */
    BatchSplitter() {
        this(null);
    }

    /** Splits batches and leaves out the messages {@code dropped} accepts (null: none). */
    BatchSplitter(java.util.function.Predicate<JsonNode> dropped) {
        this.dropped = dropped;
    }

    /** The bytes to pass on for {@code chunk} (possibly none, while a line is held). */
    List<ByteBuffer> split(List<ByteBuffer> chunk) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuffer buffer : chunk) {
            ByteBuffer view = buffer.duplicate();
            while (view.hasRemaining()) {
                byte b = view.get();
                boolean end = b == '\n' || b == '\r';
                if (droppedCr) {
                    droppedCr = false;
                    if (b == '\n') {
                        continue;
                    }
                }
                if (passing) {
                    out.write(b);
                    passing = !end;
                    continue;
                }
                if (end) {
                    byte[] line = holding ? rewritten(head.toByteArray()) : head.toByteArray();
                    if (line != null) {
                        out.writeBytes(line);
                        out.write(b);
                    } else {
                        droppedCr = b == '\r';
                    }
                    head.reset();
                    holding = false;
                    continue;
                }
                head.write(b);
                if (holding && head.size() > ResumingHttpClient.MAX_MESSAGE_BYTES) {
                    // Longer than Rein reads of one message: passed on as it came, for the SDK to refuse as too large,
                    // not held without bound.
                    out.writeBytes(head.toByteArray());
                    head.reset();
                    holding = false;
                    passing = true;
                    continue;
                }
                if (!holding) {
                    byte[] start = head.toByteArray();
                    if (Arrays.equals(start, PLAIN) || Arrays.equals(start, SPACED)
                            || dropped != null && (Arrays.equals(start, PLAIN_OBJECT) || Arrays.equals(start, SPACED_OBJECT))) {
                        holding = true;
                    } else if (!startsWith(PLAIN, start) && !startsWith(SPACED, start)
                            && (dropped == null || !startsWith(PLAIN_OBJECT, start) && !startsWith(SPACED_OBJECT, start))) {
                        out.writeBytes(start);
                        head.reset();
                        passing = true;
                    }
                }
            }
        }
        return out.size() == 0 ? List.of() : List.of(ByteBuffer.wrap(out.toByteArray()));
    }

    /** True when {@code prefix} begins {@code whole}. */
    private static boolean startsWith(byte[] whole, byte[] prefix) {
        if (prefix.length > whole.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (whole[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * A batch's data line as one event per message kept (the last left for the line's own end); null
     * for a line whose every message is left out; any other line as it came.
     */
    private byte[] rewritten(byte[] line) {
        String text = new String(line, StandardCharsets.UTF_8);
        String data = text.substring(text.indexOf(':') + 1);
        List<JsonNode> messages = messages(data);
        if (messages == null) {
            JsonNode message = dropped == null ? null : object(data);
            return message != null && dropped.test(message) ? null : line;
        }
        List<String> events = new ArrayList<>();
        messages.stream().filter(message -> dropped == null || !dropped.test(message))
                .forEach(message -> events.add("data: " + Json.write(message)));
        return events.isEmpty() ? null : String.join("\n\n", events).getBytes(StandardCharsets.UTF_8);
    }

    /** {@code data} read as JSON; null when it is not JSON. */
    private static JsonNode object(String data) {
        try {
            return Json.mapper().readTree(data);
        } catch (IOException e) {
            return null;
        }
    }

    /** The messages of {@code data} when it is a non-empty JSON array of objects; else null. */
    static List<JsonNode> messages(String data) {
        try {
            JsonNode node = Json.mapper().readTree(data);
            if (node == null || !node.isArray() || node.isEmpty()) {
                return null;
            }
            List<JsonNode> messages = new ArrayList<>();
            for (JsonNode element : node) {
                if (!element.isObject()) {
                    return null;
                }
                messages.add(element);
            }
            return messages;
        } catch (IOException e) {
            return null;
        }
    }
}
