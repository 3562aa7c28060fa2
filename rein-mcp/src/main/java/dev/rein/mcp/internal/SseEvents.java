package dev.rein.mcp.internal;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Reads a server-sent event stream as the HTML standard's event stream interpretation does, for
 * what resuming a stream needs: the data of each event, the last event id and the reconnection
 * time the server asked for ({@code retry}). Bytes may arrive in any chunks. One UTF-8 byte order
 * mark at the start of the stream is stripped, as the standard says.
 */
final class SseEvents {
    private final Consumer<String> onData;
    /** The most bytes of one event's data held; past it the event is dropped (see {@link #tooLarge}). */
    private final long maxEventBytes;
    /** Bytes of data lines the event being read holds. */
    private long held;
    /** True while the event being read is over the limit: its lines are dropped until it ends. */
    private boolean skipping;
    /** True while the line being skipped has any byte (a blank one ends the event). */
    private boolean skippedLineHasBytes;
    private volatile boolean tooLarge;
    /** Strips a byte order mark the stream starts with, which would otherwise be read as part of the first field's name. */
    private final LeadingBom bom = new LeadingBom();
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private final StringBuilder data = new StringBuilder();
    private boolean dataSeen;
    private boolean afterCarriageReturn;
    private String idBuffer;
    /** The type the event being read set with {@code event}; empty for the default, {@code message}. */
    private String eventType = "";
    private volatile String lastEventId;
    private volatile Long retryMillis;
    private volatile int messages;

    /**
     * @param onData        gets the data of each dispatched event that has any
     * @param maxEventBytes the most bytes of one event's data kept: a longer event is dropped and
     *                      noted ({@link #tooLarge}), so a stream without end takes no more memory
     */
    SseEvents(Consumer<String> onData, long maxEventBytes) {
        this.onData = onData;
        this.maxEventBytes = maxEventBytes;
    }

    /** Starts from the id and reconnection time an earlier connection of the same stream left. */
    SseEvents(Consumer<String> onData, long maxEventBytes, String lastEventId, Long retryMillis) {
        this(onData, maxEventBytes);
        this.idBuffer = lastEventId;
        this.lastEventId = lastEventId;
        this.retryMillis = retryMillis;
    }

    /** The id of the last event dispatched (kept until the server sets another); null when none had one. */
    String lastEventId() {
        return lastEventId;
    }

    /** The reconnection time the server set with {@code retry}, in milliseconds; null when it set none. */
    Long retryMillis() {
        return retryMillis;
    }

    /** Whether an event longer than the limit came (and was dropped). */
    boolean tooLarge() {
        return tooLarge;
    }

    /** How many events with data were dispatched. */
    int messages() {
        return messages;
    }

    /** Reads {@code bytes} (from its position to its limit, which it does not move). */
    void feed(ByteBuffer bytes) {
        for (ByteBuffer part : bom.strip(bytes)) {
            read(part);
        }
    }

    private void read(ByteBuffer bytes) {
        ByteBuffer view = bytes.duplicate();
        while (view.hasRemaining()) {
            byte b = view.get();
            if (b == '\n' && afterCarriageReturn) {
                afterCarriageReturn = false; // the second half of CRLF
                continue;
            }
            afterCarriageReturn = b == '\r';
            boolean end = b == '\r' || b == '\n';
            if (skipping) {
                if (end && !skippedLineHasBytes) {
                    skipping = false; // the blank line that ends the event dropped
                }
                skippedLineHasBytes = !end;
            } else if (end) {
                line(line.toString(StandardCharsets.UTF_8));
                line.reset();
            } else if (held + line.size() >= maxEventBytes) {
                // Over the limit: what the event held is let go, and the rest of it is dropped unread.
                tooLarge = true;
                skipping = true;
                skippedLineHasBytes = true;
                line.reset();
                data.setLength(0);
                dataSeen = false;
                held = 0;
                eventType = ""; // the dropped event's type, which no dispatch clears, must not reach the next event
            } else {
                line.write(b);
            }
        }
    }

    private void line(String text) {
        if (text.isEmpty()) {
            dispatch();
            return;
        }
        if (text.startsWith(":")) {
            return; // a comment
        }
        int colon = text.indexOf(':');
        String field = colon < 0 ? text : text.substring(0, colon);
        String value = colon < 0 ? "" : text.substring(colon + 1);
        if (value.startsWith(" ")) {
            value = value.substring(1);
        }
        switch (field) {
            case "data" -> {
                if (dataSeen) {
                    data.append('\n');
                }
                data.append(value);
                dataSeen = true;
                held += text.length(); // chars of the line, near enough its bytes for a limit in megabytes
            }
            case "id" -> {
                if (value.indexOf('\0') < 0) {
                    idBuffer = value;
                }
            }
            case "retry" -> {
                if (!value.isEmpty() && value.chars().allMatch(c -> c >= '0' && c <= '9') && value.length() < 10) {
                    retryMillis = Long.parseLong(value);
                }
            }
            case "event" -> eventType = value;
            default -> { } // unknown fields are ignored
        }
    }

    /**
     * A blank line ends an event: its id counts even when it has no data (a stream's priming event),
     * and its data is a message only in an event of type {@code message} (the default).
     */
    private void dispatch() {
        lastEventId = idBuffer;
        String event = data.toString();
        data.setLength(0);
        boolean any = dataSeen;
        dataSeen = false;
        held = 0;
        // JSON-RPC messages come in events of the default type; the SDKs read no other (as the TypeScript SDK's client),
        // so an event of another type is no message here either: a request's stream it ends is unanswered.
        boolean message = eventType.isEmpty() || eventType.equals("message");
        eventType = "";
        if (any && !event.isEmpty() && message) {
            messages++;
            onData.accept(event);
        }
    }
}
