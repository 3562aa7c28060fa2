package dev.rein.mcp.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.rein.json.Json;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Reads the top-level {@code id} of a JSON answer as its bytes pass, holding none of them: a
 * request's JSON answer may be megabytes, and its id may come after its result. Whether the
 * message is an answer (a {@code "result"} or {@code "error"} and no {@code "method"}) is noted
 * too. Anything that is not one JSON object leaves {@link #answerId} null.
 */
final class AnswerScan {
    private final JsonParser parser;
    private int depth;
    private boolean idNext;
    private boolean answer;
    private boolean method;
    private boolean broken;
    private JsonNode id;

    AnswerScan() {
        JsonParser created;
        try {
            created = Json.mapper().getFactory().createNonBlockingByteArrayParser();
        } catch (IOException e) {
            created = null;
        }
        this.parser = created;
        this.broken = created == null;
    }

    /** Reads {@code bytes} (left unchanged). */
    void feed(ByteBuffer bytes) {
        if (broken || !bytes.hasRemaining()) {
            return;
        }
        byte[] copy = new byte[bytes.remaining()];
        bytes.duplicate().get(copy);
        try {
            ((ByteArrayFeeder) parser.getNonBlockingInputFeeder()).feedInput(copy, 0, copy.length);
            for (JsonToken token; (token = parser.nextToken()) != null && token != JsonToken.NOT_AVAILABLE; ) {
                token(token);
            }
        } catch (IOException | RuntimeException e) {
            broken = true; // not JSON: the SDK says so
        }
    }

    private void token(JsonToken token) throws IOException {
        if (depth == 0 && token != JsonToken.START_OBJECT) {
            broken = true; // a batch or a scalar: not one answer
            return;
        }
        if (token == JsonToken.FIELD_NAME && depth == 1) {
            String name = parser.currentName();
            idNext = "id".equals(name);
            answer |= "result".equals(name) || "error".equals(name);
            method |= "method".equals(name);
            return;
        }
        if (idNext && depth == 1 && token.isScalarValue()) {
            id = token == JsonToken.VALUE_STRING ? TextNode.valueOf(parser.getText())
                    : token.isNumeric() ? Json.mapper().readTree(parser.getText()) : null;
        }
        idNext = false;
        if (token.isStructStart()) {
            depth++;
        } else if (token.isStructEnd()) {
            depth--;
        }
    }

    /** The id of the answer read, once it was all read; null when it is no answer, or its id is no string or number. */
    JsonNode answerId() {
        return broken || depth != 0 || !answer || method ? null : id;
    }
}
