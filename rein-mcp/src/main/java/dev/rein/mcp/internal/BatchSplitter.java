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
 */
final class BatchSplitter {
    private static final byte[] PLAIN = "data:[".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SPACED = "data: [".getBytes(StandardCharsets.US_ASCII);

    /** The start of the current line while it may still be a batch's data line. */
    private final ByteArrayOutputStream head = new ByteArrayOutputStream();
    /** True while the current line starts as a batch's data line and is held. */
    private boolean holding;
    /** True while the current line is passed on as it comes. */
    private boolean passing;

    /** The bytes to pass on for {@code chunk} (possibly none, while a line is held). */
    List<ByteBuffer> split(List<ByteBuffer> chunk) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuffer buffer : chunk) {
            ByteBuffer view = buffer.duplicate();
            while (view.hasRemaining()) {
                byte b = view.get();
                boolean end = b == '\n' || b == '\r';
                if (passing) {
                    out.write(b);
                    passing = !end;
                    continue;
                }
                if (end) {
                    out.writeBytes(holding ? rewritten(head.toByteArray()) : head.toByteArray());
                    out.write(b);
                    head.reset();
                    holding = false;
                    continue;
                }
                head.write(b);
                if (!holding) {
                    byte[] start = head.toByteArray();
                    if (Arrays.equals(start, PLAIN) || Arrays.equals(start, SPACED)) {
                        holding = true;
                    } else if (!startsWith(PLAIN, start) && !startsWith(SPACED, start)) {
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

    /** A batch's data line as one event per message (the last left for the line's own end); any other line as it came. */
    private static byte[] rewritten(byte[] line) {
        String text = new String(line, StandardCharsets.UTF_8);
        String data = text.substring(text.indexOf(':') + 1);
        List<JsonNode> messages = messages(data);
        if (messages == null) {
            return line;
        }
        List<String> events = new ArrayList<>();
        messages.forEach(message -> events.add("data: " + Json.write(message)));
        return String.join("\n\n", events).getBytes(StandardCharsets.UTF_8);
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
