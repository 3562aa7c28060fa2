package dev.rein.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * One content block of a scripted assistant message, as the Messages API returns it in
 * {@code "content"}.
 *
 * <p>Blocks are plain values: the server turns them into the wire JSON (or into the
 * {@code content_block_*} events of a stream) when it answers.
 */
public sealed interface FakeBlock {

    /**
     * A {@code "text"} block.
     *
     * @param text the text; never {@code null}, may be empty
     * @param citationsJson the block's {@code citations}, a JSON array (a web search answer's sources, each with the
     *     {@code encrypted_index} a client must pass back), or {@code null} for none; streamed as one
     *     {@code citations_delta} each, before the text
     */
    record Text(String text, String citationsJson) implements FakeBlock {
        /** Rejects {@code null} text (the API never sends a text block without text) and citations that are not an array. */
        public Text {
            Objects.requireNonNull(text, "text");
            if (citationsJson != null) {
                JsonNode parsed;
                try {
                    parsed = Json.MAPPER.readTree(citationsJson);
                } catch (JsonProcessingException e) {
                    throw new IllegalArgumentException("text citations are not valid JSON: " + citationsJson, e);
                }
                if (parsed == null || !parsed.isArray()) {
                    throw new IllegalArgumentException("text citations must be a JSON array of citation objects: " + citationsJson);
                }
            }
        }

        /** A text block without citations. */
        public Text(String text) {
            this(text, null);
        }
    }

    /**
     * A {@code "tool_use"} block.
     *
     * @param id the tool use id the client must answer with a {@code tool_result}, e.g. {@code "toolu_01"}
     * @param name the tool name
     * @param inputJson the tool input as a JSON object, e.g. {@code {"path":"a.txt"}}
     * @param callerJson who issued the call, the block's {@code caller}: {@code null} for the model
     *     itself ({@code {"type": "direct"}}), or the code execution tool that called it from code
     *     (programmatic tool calling), e.g. {@code {"type": "code_execution_20260120", "tool_id": "srvtoolu_01"}}
     */
    record ToolUse(String id, String name, String inputJson, String callerJson) implements FakeBlock {
        /** Validates eagerly so that a typo in a test fails where it is written, not on the wire. */
        public ToolUse {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(inputJson, "inputJson");
            JsonNode parsed;
            try {
                parsed = Json.MAPPER.readTree(inputJson);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("tool_use input is not valid JSON: " + inputJson, e);
            }
            if (parsed == null || !parsed.isObject()) {
                throw new IllegalArgumentException("tool_use input must be a JSON object: " + inputJson);
            }
            if (callerJson != null) {
                JsonNode caller;
                try {
                    caller = Json.MAPPER.readTree(callerJson);
                } catch (JsonProcessingException e) {
                    throw new IllegalArgumentException("tool_use caller is not valid JSON: " + callerJson, e);
                }
                if (caller == null || !caller.isObject() || !caller.path("type").isTextual()) {
                    throw new IllegalArgumentException("tool_use caller must be a JSON object with a \"type\", e.g."
                            + " {\"type\": \"code_execution_20260120\", \"tool_id\": \"srvtoolu_01\"}: " + callerJson);
                }
            }
        }

        /** A call the model made itself ({@code "caller": {"type": "direct"}}). */
        public ToolUse(String id, String name, String inputJson) {
            this(id, name, inputJson, null);
        }
    }

    /**
     * A {@code "thinking"} block (extended thinking).
     *
     * @param thinking the thinking text
     * @param signature the opaque signature the client must send back unchanged
     */
    record Thinking(String thinking, String signature) implements FakeBlock {
        /** Both values are required by the API, so neither may be {@code null}. */
        public Thinking {
            Objects.requireNonNull(thinking, "thinking");
            Objects.requireNonNull(signature, "signature");
        }
    }

    /**
     * A {@code "redacted_thinking"} block.
     *
     * @param data the encrypted payload the client must send back unchanged
     */
    record RedactedThinking(String data) implements FakeBlock {
        /** Rejects {@code null}: the client must be able to send the payload back. */
        public RedactedThinking {
            Objects.requireNonNull(data, "data");
        }
    }

    /**
     * A block the API's server side produces, sent exactly as given: a server tool call ({@code
     * server_tool_use}, {@code mcp_tool_use}), its result ({@code web_search_tool_result}, {@code
     * web_fetch_tool_result}, {@code code_execution_tool_result}, ...), a {@code compaction} or a
     * {@code container_upload}. Streamed whole in its {@code content_block_start}, without deltas, except a server
     * tool call's {@code input}: its start has an empty one, and the input follows as {@code input_json_delta}, as the
     * API streams it.
     *
     * @param json the block as a JSON object with one of those types
     */
    record ServerSide(String json) implements FakeBlock {
        /** Validates eagerly, as {@link ToolUse} does: a JSON object of a server-side block type. */
        public ServerSide {
            Objects.requireNonNull(json, "json");
            JsonNode parsed;
            try {
                parsed = Json.MAPPER.readTree(json);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("a server-side block is not valid JSON: " + json, e);
            }
            if (parsed == null || !parsed.isObject() || !isServerSideType(parsed.path("type").asText(""))) {
                throw new IllegalArgumentException("a server-side block must be a JSON object whose type ends in _tool_use"
                        + " or _tool_result, or is compaction or container_upload: " + json);
            }
        }

        /** Whether {@code type} names a block the API's server side produces. */
        static boolean isServerSideType(String type) {
            return type.endsWith("_tool_use") && !type.equals("tool_use") || type.endsWith("_tool_result")
                    || type.equals("compaction") || type.equals("container_upload");
        }
    }

    /**
     * A text block.
     *
     * @param text the text
     * @return the block
     */
    static FakeBlock text(String text) {
        return new Text(text);
    }

    /**
     * A tool use block.
     *
     * @param id the tool use id
     * @param name the tool name
     * @param inputJson the input, a JSON object
     * @return the block
     */
    static FakeBlock toolUse(String id, String name, String inputJson) {
        return new ToolUse(id, name, inputJson);
    }

    /**
     * A thinking block.
     *
     * @param thinking the thinking text
     * @param signature its signature
     * @return the block
     */
    static FakeBlock thinking(String thinking, String signature) {
        return new Thinking(thinking, signature);
    }

    /**
     * A redacted thinking block.
     *
     * @param data the opaque payload
     * @return the block
     */
    static FakeBlock redactedThinking(String data) {
        return new RedactedThinking(data);
    }

    /**
     * A block of the API's server side, sent as given.
     *
     * @param json the block, e.g. {@code {"type":"web_search_tool_result","tool_use_id":..,"content":[..]}}
     * @return the block
     */
    static FakeBlock serverSide(String json) {
        return new ServerSide(json);
    }
}
