package dev.rein.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The {@code partial_success} of an OTLP/HTTP export answer (OTLP specification, "Partial Success"): a
 * collector that took only part of an export answers 200 with how many items it rejected and why. The
 * client must not retry it; 0 rejected with a message is a warning; an empty one is full success.
 *
 * <p>The three Export*ServiceResponse messages have the same shape: field 1 {@code partial_success},
 * in it field 1 the rejected count (int64: rejected_spans, rejected_data_points, rejected_log_records)
 * and field 2 {@code error_message}. Two fields do not need protobuf-java: this reads them and skips
 * the rest, and an answer it cannot read (truncated, garbled, an HTML page) is taken as the success its
 * status says, as the exporter takes it.
 *
 * @param rejected how many items the collector rejected, 0 for a warning
 * @param message  the collector's message, "" when it gave none
 */
record PartialSuccess(long rejected, String message) {
    /** How much of a collector's message the line shows: it is one line on stderr, not the collector's log. */
    private static final int MESSAGE_SHOWN = 1000;

    /**
     * The partial success in an export answer's body, protobuf or (for a body that starts with {@code {})
     * OTLP/JSON; empty for full success (no body, no partial_success, an empty one) or a body not read.
     */
    static Optional<PartialSuccess> decode(byte[] body) {
        if (body == null || body.length == 0) {
            return Optional.empty();
        }
        try {
            PartialSuccess read = startsLikeJson(body) ? json(body) : protobuf(body);
            return read == null || read.rejected < 0 || (read.rejected == 0 && read.message.isEmpty())
                    ? Optional.empty() : Optional.of(read);
        } catch (RuntimeException e) {
            return Optional.empty(); // not an answer this can read: the status said success
        }
    }

    /**
     * Whether the body starts (after white space) with {: in protobuf that byte is field 15 opening a
     * group, which no export answer has, so it is the JSON encoding.
     */
    private static boolean startsLikeJson(byte[] body) {
        for (byte b : body) {
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return b == '{';
            }
        }
        return false;
    }

    /** Thrown where the protobuf is not well formed. */
    private static final class Malformed extends RuntimeException {
        Malformed() {
            super(null, null, false, false);
        }
    }

    /** The partial_success of a protobuf answer; null when it has none. */
    private static PartialSuccess protobuf(byte[] body) {
        Reader response = new Reader(body, 0, body.length);
        PartialSuccess found = null;
        while (response.more()) {
            long tag = response.varint();
            if (tag == ((1 << 3) | 2)) { // field 1, length-delimited: partial_success (repeated, it merges)
                int length = response.length();
                found = partialSuccess(new Reader(body, response.position, response.position + length), found);
                response.position += length;
            } else {
                response.skip(tag);
            }
        }
        return found;
    }

    private static PartialSuccess partialSuccess(Reader in, PartialSuccess before) {
        long rejected = before == null ? 0 : before.rejected;
        String message = before == null ? "" : before.message;
        while (in.more()) {
            long tag = in.varint();
            if (tag == ((1 << 3) | 0)) { // the rejected count, int64
                rejected = in.varint();
            } else if (tag == ((2 << 3) | 2)) { // error_message
                int length = in.length();
                message = utf8(in.bytes, in.position, length);
                in.position += length;
            } else {
                in.skip(tag);
            }
        }
        return new PartialSuccess(rejected, message);
    }

    private static String utf8(byte[] bytes, int offset, int length) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes, offset, length)).toString();
        } catch (CharacterCodingException e) {
            throw new Malformed(); // a proto3 string is UTF-8
        }
    }

    /** Protobuf's wire format over {@code bytes[position, end)}, every read checked against the end. */
    private static final class Reader {
        private final byte[] bytes;
        private final int end;
        private int position;

        Reader(byte[] bytes, int position, int end) {
            this.bytes = bytes;
            this.position = position;
            this.end = end;
        }

        boolean more() {
            return position < end;
        }

        long varint() {
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (position >= end) {
                    throw new Malformed();
                }
                byte b = bytes[position++];
                value |= (long) (b & 0x7f) << shift;
                if (b >= 0) {
                    return value;
                }
            }
            throw new Malformed(); // more than 10 bytes
        }

        /** A length-delimited field's length, which must fit in what is left. */
        int length() {
            long length = varint();
            if (length < 0 || length > end - position) {
                throw new Malformed();
            }
            return (int) length;
        }

        /** Skips the value of a field of another number. */
        void skip(long tag) {
            if (tag >>> 3 == 0) {
                throw new Malformed(); // field number 0 does not exist
            }
            switch ((int) (tag & 7)) {
                case 0 -> varint();
                case 1 -> advance(8);
                case 2 -> advance(length());
                case 5 -> advance(4);
                default -> throw new Malformed(); // groups (3, 4) are in no OTLP message; 6 and 7 are no wire type
            }
        }

        private void advance(int count) {
            if (count > end - position) {
                throw new Malformed();
            }
            position += count;
        }
    }

    /**
     * The partialSuccess of an OTLP/JSON answer: lowerCamelCase names (or the proto's own, which the
     * proto3 JSON mapping also accepts), the int64 count as a decimal string or a number.
     */
    private static PartialSuccess json(byte[] body) {
        JsonNode response;
        try {
            response = Json.mapper().readTree(body);
        } catch (java.io.IOException e) {
            return null;
        }
        JsonNode partial = field(response, "partialSuccess", "partial_success");
        if (partial == null || !partial.isObject()) {
            return null;
        }
        long rejected = 0;
        for (String name : new String[] {"rejectedSpans", "rejected_spans", "rejectedDataPoints", "rejected_data_points",
                "rejectedLogRecords", "rejected_log_records"}) {
            JsonNode count = partial.get(name);
            if (count != null && !count.isNull()) {
                if (count.isIntegralNumber() && count.canConvertToLong()) {
                    rejected = count.longValue();
                } else if (count.isTextual() && count.textValue().matches("-?[0-9]{1,19}")) {
                    rejected = Long.parseLong(count.textValue());
                } else {
                    return null;
                }
            }
        }
        JsonNode message = field(partial, "errorMessage", "error_message");
        return new PartialSuccess(rejected, message != null && message.isTextual() ? message.textValue() : "");
    }

    private static JsonNode field(JsonNode node, String name, String protoName) {
        if (node == null || !node.isObject()) {
            return null;
        }
        JsonNode value = node.get(name);
        return value != null && !value.isNull() ? value : node.get(protoName);
    }

    /**
     * The line that says it, for {@code signal} ("spans", "metrics"): what the collector rejected and
     * its message, bounded and shown with its control characters escaped (it comes from the network).
     */
    String line(String signal) {
        String shown = Text.shorten(message, MESSAGE_SHOWN);
        if (rejected == 0) {
            return "rein: OpenTelemetry: the collector accepted the " + signal + " with a warning: " + shown;
        }
        return "rein: OpenTelemetry: the collector accepted the " + signal + " only in part: it rejected " + rejected + " "
                + items(signal, rejected) + (shown.isEmpty() ? " and gave no reason" : " (its message: " + shown + ")")
                + "; they are not sent again";
    }

    private static String items(String signal, long count) {
        String one = switch (signal) {
            case "spans" -> "span";
            case "metrics" -> "metric data point";
            case "logs" -> "log record";
            default -> "item";
        };
        return count == 1 ? one : one + "s";
    }
}
