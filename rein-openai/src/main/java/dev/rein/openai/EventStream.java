package dev.rein.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Reads the {@code data:} payloads of a server-sent event stream, one event at a time, following
 * the WHATWG framing (several {@code data:} lines join with a newline, a blank line ends an event,
 * lines starting with {@code :} are comments, an event the body ends in before its blank line is
 * discarded, a leading byte order mark is ignored), except a whole {@code data: [DONE]} the body
 * ends with, which still ends the stream. One field outside the standard is read too:
 * older llama.cpp servers send a failure as {@code error: {...}} rather than as data; such an
 * event reads as {@code {"error": {...}}}, the shape other servers put in a data line. So does the
 * data of an {@code event: error} that holds the error object without that wrapper.
 *
 * <p>Rein reads the stream itself rather than through the SDK's chunk iterator because that
 * iterator ends quietly when the body ends, with or without the closing {@code data: [DONE]}; a
 * stream cut short must be told apart from a complete one, since only the first is retried.
 */
final class EventStream {
    /** The payload that ends a Chat Completions stream. */
    static final String DONE = "[DONE]";

    /** How much of the lines that are no event field is kept, to show what a body that is no event stream said. */
    private static final int OTHER_LIMIT = 4096;

    private final BufferedReader reader;
    private final StringBuilder other = new StringBuilder();
    private boolean started;

    EventStream(InputStream body) {
        this.reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
    }

    /** The next event's data, or null at the end of the body. */
    String next() throws IOException {
        StringBuilder data = null;
        String error = null;
        String event = null;
        String line;
        while ((line = reader.readLine()) != null) {
            if (!started) {
                started = true;
                // The standard ignores one leading byte order mark; kept, it would hide the first field.
                line = line.startsWith("\uFEFF") ? line.substring(1) : line;
            }
            if (line.isEmpty()) {
                if (data != null) {
                    return "error".equals(event) ? errorEventData(data.toString()) : data.toString();
                }
                if (error != null) {
                    return errorData(error);
                }
                event = null; // the standard resets the type with the empty data: it was no event's
                continue;
            }
            if (line.startsWith(":")) {
                continue;
            }
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            if (field.equals("event")) {
                event = value;
            } else if (field.equals("data")) {
                data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
            } else if (field.equals("error")) {
                // llama.cpp's server_sent_event(sink, "error", ...), followed by data: [DONE]: ignored as
                // the standard says, the failure would read as an empty answer and its message be lost.
                error = value;
            } else if (!field.equals("id") && !field.equals("retry") && other.length() < OTHER_LIMIT) {
                other.append(line, 0, Math.min(line.length(), OTHER_LIMIT - other.length())).append('\n');
            }
        }
        // The standard discards an event the body ended in the middle of: the connection broke
        // inside it (a chunk cut short), so the stream reads as cut, which a retry may fix. A whole
        // [DONE] line is the exception: the end marker arrived, so nothing can be missing, and the
        // official SDKs end such a stream quietly (a server that closes right after it, without the
        // blank line); read as cut, the complete answer would be generated and billed again.
        return data != null && error == null && data.toString().strip().equals(DONE) ? DONE : null;
    }

    /**
     * The start of the lines read so far that are no field of an event stream (ignored, as the
     * standard says): what a body that is something else, a proxy's page, said.
     */
    String other() {
        return other.toString();
    }

    /**
     * The data of an {@code event: error}, which OpenAI-compatible servers send in two shapes: the
     * error object wrapped in {@code {"error": ...}}, as other error chunks are, or bare; read as a
     * chunk, the bare one had no choices and the failure passed as an empty answer.
     */
    private static String errorEventData(String data) {
        JsonNode node;
        try {
            node = Json.mapper().readTree(data);
        } catch (JsonProcessingException e) {
            node = null;
        }
        return node != null && node.isObject() && node.has("error") ? data : errorData(data);
    }

    /** An {@code error:} field's value as the data of an error chunk. */
    private static String errorData(String value) {
        JsonNode error;
        try {
            error = Json.mapper().readTree(value);
        } catch (JsonProcessingException e) {
            error = null;
        }
        return Json.object().set("error", error != null && error.isObject() ? error : Json.mapper().getNodeFactory().textNode(value))
                .toString();
    }
}
