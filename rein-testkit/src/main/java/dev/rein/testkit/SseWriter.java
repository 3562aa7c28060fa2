package dev.rein.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes server-sent events in the framing the Messages API uses: {@code event: NAME}, one
 * {@code data: JSON} line, a blank line.
 */
final class SseWriter {

    /** One event: its name and its JSON data, whose {@code type} repeats the name on the real API. */
    record Event(String name, ObjectNode data) {}

    private final OutputStream out;

    SseWriter(OutputStream out) {
        this.out = out;
    }

    /**
     * Writes one event and flushes it, so that a client sees each event as it is sent and a drop
     * after it really happens mid-stream rather than before anything reached the socket.
     */
    void write(Event event) throws IOException {
        writeRaw(event.name(), toJson(event.data()));
    }

    /** Writes an event whose data is given verbatim, e.g. deliberately broken JSON. */
    void writeRaw(String name, String data) throws IOException {
        // Jackson never emits a raw newline (it escapes them inside strings), so one data line suffices.
        String frame = "event: " + name + "\ndata: " + data + "\n\n";
        out.write(frame.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static String toJson(ObjectNode data) {
        try {
            return Json.MAPPER.writeValueAsString(data);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize an event", e);
        }
    }
}
