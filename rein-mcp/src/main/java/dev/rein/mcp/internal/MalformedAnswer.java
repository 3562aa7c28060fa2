package dev.rein.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;

/**
 * A server's answer to a request that carries the request's id but is no JSON-RPC response: an
 * {@code "error"} that is not an object with an integer {@code "code"} and a string
 * {@code "message"} (a broken server's {@code {"id": 3, "error": "boom"}}). The SDK cannot
 * read it, and a line or event that is no JSON-RPC message at all ({@code {}}) is passed over,
 * so its request waited for its timeout. It is handed on instead as a well-formed error with the
 * request's id, {@link #standIn}, so the request ends at once saying what the server sent.
 * Something without a usable id ({@code {}}, a log line) is not an answer and stays passed over.
 */
final class MalformedAnswer {
    /**
     * The key in the stand-in error's {@code data} holding a key to the server's message as it came, which Rein holds
     * ({@link #HELD}): the SDK's HTTP transport reads the stand-in from text and logs that text whole (DEBUG
     * {@code Received JSON message: {}}), so the text carries none of the server's words.
     */
    static final String KEY = "dev.rein/malformed-answer-key";
    /** The key in the stand-in error's {@code data} holding what JSON-RPC requires that the message lacks. */
    static final String WHY = "dev.rein/malformed-why";

    /** How many stand-ins' words are held at most until {@link #hidden} takes them, the oldest given up first. */
    static final int HELD_AT_MOST = 256;

    /**
     * The words of stand-ins handed to the SDK as text and not yet taken back ({@link #hidden}), by key. Each is taken as the
     * stand-in passes {@link CancellingTransport}, right after the SDK reads it; one the SDK drops (no session to take it)
     * stays until {@link #HELD_AT_MOST} newer ones push it out.
     */
    private static final Map<String, String> HELD = new java.util.LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > HELD_AT_MOST;
        }
    };
    private static final java.util.concurrent.atomic.AtomicLong KEYS = new java.util.concurrent.atomic.AtomicLong();

    private MalformedAnswer() {}

    private static String hold(String text) {
        String key = "m-" + KEYS.incrementAndGet();
        synchronized (HELD) {
            HELD.put(key, text);
        }
        return key;
    }

    private static String taken(String key, boolean remove) {
        synchronized (HELD) {
            String text = remove ? HELD.remove(key) : HELD.get(key);
            return text != null ? text : "(Rein no longer holds this message: more than " + HELD_AT_MOST
                    + " malformed answers came before it was read)";
        }
    }

    /** What is wrong with {@code node} as an answer, when it is a malformed answer carrying an id; else null. */
    static String why(JsonNode node) {
        if (node == null || !node.isObject() || node.has("method")) {
            return null;
        }
        JsonNode id = node.path("id");
        if (!id.isTextual() && !id.isIntegralNumber()) {
            return null;
        }
        if (!node.has("error")) {
            return null; // with "jsonrpc" but no "result" either, it ends the connection as no message (StdioTransport)
        }
        JsonNode error = node.get("error");
        return why(error.isObject(), error.path("code").isIntegralNumber(), error.path("message").isTextual());
    }

    /**
     * What is wrong with an answer's {@code "error"}, given whether it is an object, whether its code
     * is an integer and whether its message is a string; null when nothing is.
     */
    static String why(boolean object, boolean codeInteger, boolean messageString) {
        return !object ? "\"error\" must be an object with an integer \"code\" and a string \"message\""
                : !codeInteger ? "an error's \"code\" must be an integer"
                : !messageString ? "an error's \"message\" must be a string" : null;
    }

    /** Whether {@code node} is a malformed answer carrying an id ({@link #why} not null). */
    static boolean is(JsonNode node) {
        return why(node) != null;
    }

    /**
     * The well-formed error standing for {@code node} with its id, carrying a key ({@link #KEY}) to the message as it came
     * ({@code text}, which Rein holds) and what is wrong with it; null when {@code node} is no malformed answer.
     */
    static ObjectNode standIn(JsonNode node, String text) {
        String why = why(node);
        // Its lone surrogates as their JSON escapes: read as JSON (and written again, a message of a batch), the text holds
        // one where the server wrote the escape, which a quote of a line would show as a byte that was no UTF-8.
        return why == null ? null : standIn(node.get("id"), why, Quoted.jsonEscapes(text));
    }

    /**
     * The well-formed error with {@code id} standing for a malformed answer ({@code text}, as it came or as read) and
     * {@code why}. {@code text} is quoted as a line ({@link StdioTransport#abbreviateLine}): a lone surrogate in it stands
     * for a byte that was no UTF-8 ({@link StdioTransport#decode}); one read from JSON must be its escape
     * ({@link Quoted#jsonEscapes}).
     */
    static ObjectNode standIn(JsonNode id, String why, String text) {
        ObjectNode error = Json.object().put("jsonrpc", "2.0").set("id", id);
        error.putObject("error").put("code", -32603).put("message", "a message that is not valid JSON-RPC")
                .putObject("data").put(KEY, hold(text)).put(WHY, why);
        return error;
    }

    /**
     * The stand-in for {@code node} ({@link #standIn(JsonNode, String)}) built as the SDK's record, its data a {@link Said}:
     * handed over as text, the SDK would log that text whole (DEBUG {@code Received JSON message: {}}) as it reads it;
     * null when {@code node} is no malformed answer.
     */
    static McpSchema.JSONRPCResponse response(JsonNode node, String text) {
        String why = why(node);
        return why == null ? null : response(node.get("id"), why, Quoted.jsonEscapes(text));
    }

    /** The stand-in with {@code id} for a malformed answer ({@code text}) and {@code why} ({@link #standIn(JsonNode, String, String)}) as the SDK's record. */
    static McpSchema.JSONRPCResponse response(JsonNode id, String why, String text) {
        // The id as the SDK reads one (a string, or an Integer, Long or BigInteger), so its request is found by it.
        Object sdkId = Json.mapper().convertValue(id, Object.class);
        return new McpSchema.JSONRPCResponse("2.0", sdkId, null, new McpSchema.JSONRPCResponse.JSONRPCError(-32603,
                "a message that is not valid JSON-RPC", new Said(text, why)));
    }

    /**
     * A stand-in's data as it reaches the SDK ({@link #hidden}): the malformed answer as it came ({@code text}) and what is
     * wrong with it ({@code why}, Rein's words). Its {@code toString} shows none of the server's words: the SDK logs each
     * answer it reads (DEBUG {@code Received response: {}}) and each error answering a request (INFO {@code Server returned
     * a JSON-RPC error when calling method {}: {}}) as the records' {@code toString}, where the line would be unmasked,
     * uncut and its control characters raw; Rein quotes it only masked, cut and escaped ({@link #described}).
     */
    record Said(String text, String why) {
        /** Its length counted in characters (code points), as Rein's other quotes count. */
        @Override
        public String toString() {
            return "{a message that is not valid JSON-RPC, which Rein quotes in its own error (" + text.codePointCount(0, text.length())
                    + " characters): "
                    + why + "}";
        }
    }

    /**
     * {@code message} with the data of a stand-in for a malformed answer (a map, as JSON gives it) as a {@link Said}, so the
     * server's words in it do not reach the SDK's log; any other message as it is.
     */
    static McpSchema.JSONRPCMessage hidden(McpSchema.JSONRPCMessage message) {
        if (!(message instanceof McpSchema.JSONRPCResponse response) || response.error() == null
                || !(response.error().data() instanceof Map<?, ?> data) || !(data.get(KEY) instanceof String key)
                || !(data.get(WHY) instanceof String why)) {
            return message;
        }
        McpSchema.JSONRPCResponse.JSONRPCError error = response.error();
        return new McpSchema.JSONRPCResponse(response.jsonrpc(), response.id(), null,
                new McpSchema.JSONRPCResponse.JSONRPCError(error.code(), error.message(), new Said(taken(key, true), why)));
    }

    /** "'TEXT' (WHY)" when {@code e} is the stand-in for a malformed answer, the text masked by {@code mask}; else null. */
    static String described(Throwable e, java.util.function.UnaryOperator<String> mask) {
        McpError error = McpError.findRootCause(e) instanceof McpError found ? found : null;
        Object data = error == null || error.getJsonRpcError() == null ? null : error.getJsonRpcError().data();
        Said said = data instanceof Said held ? held
                : data instanceof Map<?, ?> map && map.get(KEY) instanceof String key
                        ? new Said(taken(key, false), String.valueOf(map.get(WHY)))
                : null;
        // Masked before it is cut short, so no part of a secret is left.
        return said == null ? null : "'" + StdioTransport.abbreviateLine(mask.apply(said.text())) + "' (" + said.why() + ")";
    }
}
