package dev.rein.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;

/**
 * A server's answer to a request that carries the request's id but is no JSON-RPC response: an
 * {@code "error"} that is not an object with an integer {@code "code"} and a string
 * {@code "message"} (a broken server's {@code {"id": 3, "error": "boom"}}). The SDK cannot
 * read it, and a line or event that is no JSON-RPC message at all ({@code {}}) is passed over,
 * so its request waited for its timeout. It is handed on instead as a well-formed error with the
 * request's id, {@link #response}, so the request ends at once saying what the server sent.
 * Something without a usable id ({@code {}}, a log line) is not an answer and stays passed over.
 */
final class MalformedAnswer {
    private MalformedAnswer() {}

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
     * The well-formed error standing for {@code node} with its id, built as the SDK's record, its data a {@link Said} holding
     * the message as it came ({@code text}) and what is wrong with it; null when {@code node} is no malformed answer. Every
     * transport hands it on so, never as text: the SDK logs a text it reads whole (McpSchema, DEBUG {@code Received JSON
     * message: {}}).
     */
    static McpSchema.JSONRPCResponse response(JsonNode node, String text) {
        String why = why(node);
        return why == null ? null : response(node.get("id"), why, Quoted.jsonEscapes(text));
    }

    /**
     * The stand-in with {@code id} for a malformed answer ({@code text}, as it came or as read) and {@code why}. {@code text}
     * is quoted as a line ({@link StdioTransport#abbreviateLine}): a lone surrogate in it stands for a byte that was no UTF-8
     * ({@link StdioTransport#decode}); one read from JSON must be its escape ({@link Quoted#jsonEscapes}).
     */
    static McpSchema.JSONRPCResponse response(JsonNode id, String why, String text) {
        // The id as the SDK reads one (a string, or an Integer, Long or BigInteger), so its request is found by it.
        Object sdkId = Json.mapper().convertValue(id, Object.class);
        return new McpSchema.JSONRPCResponse("2.0", sdkId, null, new McpSchema.JSONRPCResponse.JSONRPCError(-32603,
                "a message that is not valid JSON-RPC", new Said(text, why)));
    }

    /**
     * A stand-in's data ({@link #response}): the malformed answer as it came ({@code text}) and what is
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

    /** "'TEXT' (WHY)" when {@code e} is the stand-in for a malformed answer, the text masked by {@code mask}; else null. */
    static String described(Throwable e, java.util.function.UnaryOperator<String> mask) {
        McpError error = McpError.findRootCause(e) instanceof McpError found ? found : null;
        Object data = error == null || error.getJsonRpcError() == null ? null : error.getJsonRpcError().data();
        // Only Rein's own stand-in carries a Said: a server's data, whatever it holds, is no quote of another's words.
        Said said = data instanceof Said held ? held : null;
        // Masked before it is cut short, so no part of a secret is left.
        return said == null ? null : "'" + StdioTransport.abbreviateLine(mask.apply(said.text())) + "' (" + said.why() + ")";
    }
}
