package dev.rein.mcp.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.rein.json.Json;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the top-level {@code id} of a JSON answer as its bytes pass, holding none of them: a
 * request's JSON answer may be megabytes, and its id may come after its result. Whether the
 * message is an answer (a {@code "result"} or {@code "error"} and no {@code "method"}) is noted
 * too, and so are the {@code code} and {@code message} of its {@code "error"}, which an HTTP error
 * status may carry after kilobytes of {@code data} (a stack trace), and whether that error is one
 * JSON-RPC allows ({@link #malformedWhy}). Anything that is not one JSON object leaves
 * {@link #answerId}, {@link #error} and {@link #malformedWhy} null.
 */
final class AnswerScan {
    private final JsonParser parser;
    private int depth;
    private boolean idNext;
    private boolean answer;
    private boolean method;
    private boolean broken;
    private JsonNode id;
    /** Whether a top-level "id" other than null came (an object or a boolean too, which {@link #id} does not hold). */
    private boolean idGiven;
    /** Whether the object being read is the top-level "error"; then which of its fields comes next. */
    private boolean inError;
    private String errorField;
    private String errorCode;
    private String errorMessage;
    /** The top-level "error" when it is no object (a scalar as JSON, an array as "[…]"); null when it is one, or none came. */
    private String errorOther;
    private boolean errorObject;
    /** The error object's "code" and "message" when they are scalars, as they came; null when missing. */
    private JsonNode codeValue;
    private JsonNode messageValue;
    private boolean codeInteger;
    /** Whether the error object has fields besides its code and message (its data), which {@link #malformedQuote} leaves out. */
    private boolean errorMore;

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
        if (inError && depth == 2 && token == JsonToken.FIELD_NAME) {
            errorField = parser.currentName();
            errorMore |= !"code".equals(errorField) && !"message".equals(errorField);
            return;
        }
        if (inError && depth == 2 && token.isScalarValue()) {
            if ("code".equals(errorField)) {
                errorCode = parser.getText();
                codeValue = scalar(token);
                codeInteger = token == JsonToken.VALUE_NUMBER_INT;
            } else if ("message".equals(errorField)) {
                messageValue = scalar(token);
                errorMessage = token == JsonToken.VALUE_STRING ? parser.getText() : null;
            }
        }
        if (depth == 1 && token == JsonToken.START_OBJECT) {
            inError = "error".equals(parser.currentName());
            errorObject |= inError;
        }
        if (depth == 1 && !idNext && "error".equals(parser.currentName()) && token != JsonToken.START_OBJECT) {
            errorOther = token == JsonToken.START_ARRAY ? "[…]" : Json.write(scalar(token));
        }
        if (idNext && depth == 1) {
            idGiven |= token != JsonToken.VALUE_NULL;
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
            inError &= depth >= 2;
        }
    }

    private JsonNode scalar(JsonToken token) throws IOException {
        return switch (token) {
            case VALUE_STRING -> TextNode.valueOf(parser.getText());
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> Json.mapper().readTree(parser.getText());
            case VALUE_TRUE, VALUE_FALSE -> com.fasterxml.jackson.databind.node.BooleanNode.valueOf(token == JsonToken.VALUE_TRUE);
            default -> com.fasterxml.jackson.databind.node.NullNode.getInstance();
        };
    }

    /**
     * What is wrong with the answer read, once it was all read, when it carries an id (a string or an
     * integer) and an {@code "error"} JSON-RPC does not allow (as {@link MalformedAnswer#why}); else null.
     */
    String malformedWhy() {
        if (broken || depth != 0 || method || id == null || !(id.isTextual() || id.isIntegralNumber())
                || errorOther == null && !errorObject) {
            return null;
        }
        return errorOther != null ? MalformedAnswer.why(false, false, false)
                : MalformedAnswer.why(true, codeInteger, errorMessage != null);
    }

    /**
     * The malformed answer read ({@link #malformedWhy}) as its id and error: an error object's code
     * and message as they came, "…" for the rest (its data may be megabytes, and is not held).
     */
    String malformedQuote() {
        String error = errorOther;
        if (error == null) {
            List<String> fields = new ArrayList<>();
            if (codeValue != null) {
                fields.add("\"code\":" + Json.write(codeValue));
            }
            if (messageValue != null) {
                fields.add("\"message\":" + Json.write(messageValue));
            }
            if (errorMore) {
                fields.add("…");
            }
            error = "{" + String.join(",", fields) + "}";
        }
        return "{\"id\":" + Json.write(id) + ",\"error\":" + error + "}";
    }

    /** The id of the answer read, as it came (a string or a number); null when none did. */
    JsonNode id() {
        return id;
    }

    /**
     * The top-level {@code "error"} read, once it was all read, as "JSON-RPC error CODE: MESSAGE"
     * ({@code ?} for a code that is missing); null when the body is not one JSON object or its error
     * has no string message.
     */
    String error() {
        return broken || depth != 0 || errorMessage == null ? null
                : "JSON-RPC error " + (errorCode == null ? "?" : errorCode) + ": " + errorMessage;
    }

    /**
     * {@link #error}, when the answer read carries no id ({@code null} or none): JSON-RPC's answer to a
     * request the server could not read; else null.
     */
    String idlessError() {
        return idGiven || method ? null : error();
    }

    /** The id of the answer read, once it was all read; null when it is no answer, or its id is no string or number. */
    JsonNode answerId() {
        return broken || depth != 0 || !answer || method ? null : id;
    }
}
