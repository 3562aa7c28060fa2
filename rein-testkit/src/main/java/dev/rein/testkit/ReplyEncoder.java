package dev.rein.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns scripted replies into the Messages API's wire JSON: the message object, the event
 * sequence of a stream, error bodies. Pure functions; the server decides what to send when.
 */
final class ReplyEncoder {

    /** Text and thinking are streamed in pieces of this many code points, as a model emits tokens. */
    static final int TEXT_CHUNK = 16;

    /**
     * Tool input JSON is streamed in small pieces so that a client which parses each piece on its
     * own, instead of joining them first, fails in tests.
     */
    static final int JSON_CHUNK = 8;

    private ReplyEncoder() {}

    /**
     * The complete message object of a non-streaming answer.
     *
     * @param usage the usage to report, already resolved from the script or the estimate
     */
    static ObjectNode message(FakeReply.Message reply, String id, String model, FakeUsage usage) {
        ObjectNode message = messageShell(id, model);
        ArrayNode content = message.putArray("content");
        for (FakeBlock block : reply.content()) {
            content.add(block(block));
        }
        message.set("container", container(reply));
        message.put("stop_reason", reply.stopReason());
        putNullable(message, "stop_sequence", reply.stopSequence());
        message.set("stop_details", stopDetails(reply));
        message.set("usage", usage(usage, usage.outputTokens(), true));
        return message;
    }

    /**
     * The full event sequence of a streamed answer, in the order the real API sends it: {@code
     * message_start}; for each block {@code content_block_start}, its deltas, {@code
     * content_block_stop}; a {@code ping} right after the first block starts (or after {@code
     * message_start} if there is no block); {@code message_delta}; {@code message_stop}.
     */
    static List<SseWriter.Event> streamEvents(FakeReply.Message reply, String id, String model, FakeUsage usage) {
        List<SseWriter.Event> events = new ArrayList<>();

        ObjectNode start = messageShell(id, model);
        start.putArray("content");
        start.putNull("container");
        start.putNull("stop_reason");
        start.putNull("stop_sequence");
        start.putNull("stop_details");
        // The API reports the input usage up front and only a token or so of output so far.
        start.set("usage", usage(usage, Math.min(1, usage.outputTokens()), false));
        ObjectNode messageStart = event("message_start");
        messageStart.set("message", start);
        events.add(new SseWriter.Event("message_start", messageStart));

        List<FakeBlock> content = reply.content();
        if (content.isEmpty()) {
            events.add(new SseWriter.Event("ping", event("ping")));
        }
        for (int index = 0; index < content.size(); index++) {
            FakeBlock block = content.get(index);
            ObjectNode blockStart = event("content_block_start");
            blockStart.put("index", index);
            blockStart.set("content_block", blockStart(block));
            events.add(new SseWriter.Event("content_block_start", blockStart));
            if (index == 0) {
                events.add(new SseWriter.Event("ping", event("ping")));
            }
            for (ObjectNode delta : deltas(block)) {
                ObjectNode deltaEvent = event("content_block_delta");
                deltaEvent.put("index", index);
                deltaEvent.set("delta", delta);
                events.add(new SseWriter.Event("content_block_delta", deltaEvent));
            }
            ObjectNode blockStop = event("content_block_stop");
            blockStop.put("index", index);
            events.add(new SseWriter.Event("content_block_stop", blockStop));
        }

        ObjectNode messageDelta = event("message_delta");
        ObjectNode delta = messageDelta.putObject("delta");
        delta.put("stop_reason", reply.stopReason());
        putNullable(delta, "stop_sequence", reply.stopSequence());
        // As the stop reason, the details come with message_delta (null in message_start).
        delta.set("stop_details", stopDetails(reply));
        // So does the code execution tool's container, which the SDKs' accumulators take from here.
        if (reply.containerJson() != null) {
            delta.set("container", container(reply));
        }
        // message_delta carries the final, cumulative counts; the SDKs overwrite the start's with them.
        ObjectNode deltaUsage = messageDelta.putObject("usage");
        deltaUsage.put("input_tokens", usage.inputTokens());
        deltaUsage.put("cache_creation_input_tokens", usage.cacheCreationInputTokens());
        deltaUsage.put("cache_read_input_tokens", usage.cacheReadInputTokens());
        deltaUsage.put("output_tokens", usage.outputTokens());
        thinkingTokens(deltaUsage, usage);
        serverToolUse(deltaUsage, usage);
        events.add(new SseWriter.Event("message_delta", messageDelta));

        events.add(new SseWriter.Event("message_stop", event("message_stop")));
        return events;
    }

    /** The body of an HTTP error: {@code {"type":"error","error":{"type","message"},"request_id"}}. */
    static ObjectNode errorBody(String errorType, String message, String requestId) {
        return errorBody(errorType, message, null, requestId);
    }

    /** The same, with {@code error.details.error_code} when {@code errorCode} is not null. */
    static ObjectNode errorBody(String errorType, String message, String errorCode, String requestId) {
        ObjectNode body = errorEvent(errorType, message);
        if (errorCode != null) {
            ((ObjectNode) body.get("error")).putObject("details").put("error_code", errorCode);
        }
        body.put("request_id", requestId);
        return body;
    }

    /** The data of an {@code event: error} in a stream, which has no {@code request_id} of its own. */
    static ObjectNode errorEvent(String errorType, String message) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("type", "error");
        ObjectNode error = body.putObject("error");
        error.put("type", errorType);
        error.put("message", message);
        return body;
    }

    /** The answer of {@code count_tokens}. */
    static ObjectNode tokenCount(int inputTokens) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("input_tokens", inputTokens);
        return body;
    }

    /** A rough output-token estimate (characters / 4, at least 1) for replies scripted without usage. */
    static int estimateOutputTokens(FakeReply.Message reply) {
        int chars = 0;
        for (FakeBlock block : reply.content()) {
            chars += switch (block) {
                case FakeBlock.Text text -> text.text().length();
                case FakeBlock.ToolUse toolUse -> toolUse.name().length() + toolUse.inputJson().length();
                case FakeBlock.Thinking thinking -> thinking.thinking().length();
                case FakeBlock.RedactedThinking redacted -> redacted.data().length() / 4;
                case FakeBlock.ServerSide server -> server.json().length() / 4;
            };
        }
        return Math.max(1, chars / 4);
    }

    // ---- pieces ----------------------------------------------------------------------------

    private static ObjectNode messageShell(String id, String model) {
        ObjectNode message = Json.MAPPER.createObjectNode();
        message.put("id", id);
        message.put("type", "message");
        message.put("role", "assistant");
        message.put("model", model);
        return message;
    }

    private static ObjectNode event(String type) {
        ObjectNode event = Json.MAPPER.createObjectNode();
        event.put("type", type);
        return event;
    }

    /** @param whole whether this is a whole message's usage, not message_start's (which has no server tool uses yet) */
    private static ObjectNode usage(FakeUsage usage, int outputTokens, boolean whole) {
        ObjectNode json = Json.MAPPER.createObjectNode();
        json.put("input_tokens", usage.inputTokens());
        json.put("cache_creation_input_tokens", usage.cacheCreationInputTokens());
        json.put("cache_read_input_tokens", usage.cacheReadInputTokens());
        ObjectNode cacheCreation = json.putObject("cache_creation");
        cacheCreation.put("ephemeral_5m_input_tokens", usage.ephemeral5mInputTokens());
        cacheCreation.put("ephemeral_1h_input_tokens", usage.ephemeral1hInputTokens());
        json.put("output_tokens", outputTokens);
        // As message_delta's cumulative counts: message_start has none yet, since no tool has run and nothing was thought.
        if (whole) {
            thinkingTokens(json, usage);
            serverToolUse(json, usage);
        }
        json.put("service_tier", "standard");
        return json;
    }

    /** {@code output_tokens_details} with the scripted thinking tokens, when there are any. */
    private static void thinkingTokens(ObjectNode usageJson, FakeUsage usage) {
        if (usage.thinkingTokens() != null) {
            usageJson.putObject("output_tokens_details").put("thinking_tokens", usage.thinkingTokens());
        }
    }

    /**
     * {@code server_tool_use} with the scripted counters, when there are any; the API always sends its
     * two counters (the SDKs require both), so one not scripted is 0.
     */
    private static void serverToolUse(ObjectNode usageJson, FakeUsage usage) {
        if (!usage.serverToolUse().isEmpty()) {
            ObjectNode counters = usageJson.putObject("server_tool_use");
            counters.put("web_search_requests", 0);
            counters.put("web_fetch_requests", 0);
            usage.serverToolUse().forEach(counters::put);
        }
    }

    /** A block as it appears in a complete message. */
    private static ObjectNode block(FakeBlock block) {
        ObjectNode json = Json.MAPPER.createObjectNode();
        switch (block) {
            case FakeBlock.Text text -> {
                json.put("type", "text");
                json.put("text", text.text());
                if (text.citationsJson() != null) {
                    json.set("citations", parse(text.citationsJson()));
                }
            }
            case FakeBlock.ToolUse toolUse -> {
                toolUseHeader(json, toolUse);
                json.set("input", parse(toolUse.inputJson()));
                caller(json, toolUse);
            }
            case FakeBlock.Thinking thinking -> {
                json.put("type", "thinking");
                json.put("thinking", thinking.thinking());
                json.put("signature", thinking.signature());
            }
            case FakeBlock.RedactedThinking redacted -> {
                json.put("type", "redacted_thinking");
                json.put("data", redacted.data());
            }
            case FakeBlock.ServerSide server -> {
                return (ObjectNode) parse(server.json());
            }
        }
        return json;
    }

    /** A block as {@code content_block_start} announces it: empty, filled in by the deltas. */
    private static ObjectNode blockStart(FakeBlock block) {
        ObjectNode json = Json.MAPPER.createObjectNode();
        switch (block) {
            case FakeBlock.Text text -> {
                json.put("type", "text");
                json.put("text", "");
            }
            case FakeBlock.ToolUse toolUse -> {
                toolUseHeader(json, toolUse);
                json.putObject("input");
                caller(json, toolUse);
            }
            case FakeBlock.Thinking thinking -> {
                json.put("type", "thinking");
                json.put("thinking", "");
                json.put("signature", "");
            }
            // Redacted thinking has nothing to stream: the API sends it whole in the start event.
            case FakeBlock.RedactedThinking redacted -> {
                return block(redacted);
            }
            // Sent whole too (a client keeps the start's fields when no delta follows), except a server tool call's
            // input, which follows as input_json_delta, as the web search docs stream it.
            case FakeBlock.ServerSide server -> {
                ObjectNode whole = block(server);
                if (streamsInput(whole)) {
                    whole.putObject("input");
                }
                return whole;
            }
        }
        return json;
    }

    private static List<ObjectNode> deltas(FakeBlock block) {
        List<ObjectNode> deltas = new ArrayList<>();
        switch (block) {
            case FakeBlock.Text text -> {
                // Each citation comes as a delta of its own, which the SDKs' accumulators append to the block's list.
                if (text.citationsJson() != null) {
                    for (JsonNode citation : parse(text.citationsJson())) {
                        ObjectNode delta = Json.MAPPER.createObjectNode();
                        delta.put("type", "citations_delta");
                        delta.set("citation", citation);
                        deltas.add(delta);
                    }
                }
                for (String piece : chunks(text.text(), TEXT_CHUNK)) {
                    deltas.add(delta("text_delta", "text", piece));
                }
            }
            case FakeBlock.ToolUse toolUse -> {
                // The API opens tool input with an empty fragment; clients must cope with it.
                deltas.add(delta("input_json_delta", "partial_json", ""));
                String compact = compact(toolUse.inputJson());
                for (String piece : chunks(compact, JSON_CHUNK)) {
                    deltas.add(delta("input_json_delta", "partial_json", piece));
                }
            }
            case FakeBlock.Thinking thinking -> {
                for (String piece : chunks(thinking.thinking(), TEXT_CHUNK)) {
                    deltas.add(delta("thinking_delta", "thinking", piece));
                }
                // The signature comes whole, in one delta just before the block stops.
                deltas.add(delta("signature_delta", "signature", thinking.signature()));
            }
            case FakeBlock.RedactedThinking redacted -> {
                // no deltas
            }
            case FakeBlock.ServerSide server -> {
                JsonNode whole = parse(server.json());
                if (streamsInput(whole)) {
                    for (String piece : chunks(whole.get("input").toString(), JSON_CHUNK)) {
                        deltas.add(delta("input_json_delta", "partial_json", piece));
                    }
                }
            }
        }
        return deltas;
    }

    /**
     * Whether a server-side block is a server tool call ({@code server_tool_use}, {@code mcp_tool_use}) with an input:
     * the API streams its input as a tool_use's, from an empty object in the start event; results come whole.
     */
    private static boolean streamsInput(JsonNode block) {
        return block.path("type").asText().endsWith("_tool_use") && block.path("input").isObject();
    }

    private static ObjectNode delta(String type, String field, String value) {
        ObjectNode delta = Json.MAPPER.createObjectNode();
        delta.put("type", type);
        delta.put(field, value);
        return delta;
    }

    /**
     * Current API versions say who issued a call: "direct" for an ordinary call of the model's, or the
     * code execution tool whose code made it (programmatic tool calling), also in content_block_start.
     */
    private static void caller(ObjectNode json, FakeBlock.ToolUse toolUse) {
        if (toolUse.callerJson() == null) {
            json.putObject("caller").put("type", "direct");
        } else {
            json.set("caller", parse(toolUse.callerJson()));
        }
    }

    private static void toolUseHeader(ObjectNode json, FakeBlock.ToolUse toolUse) {
        json.put("type", "tool_use");
        json.put("id", toolUse.id());
        json.put("name", toolUse.name());
    }

    /** Splits by code points so that no chunk ends in half a surrogate pair. */
    static List<String> chunks(String text, int size) {
        List<String> chunks = new ArrayList<>();
        int start = 0;
        while (start < text.length()) {
            int codePoints = text.codePointCount(start, text.length());
            int end = text.offsetByCodePoints(start, Math.min(size, codePoints));
            chunks.add(text.substring(start, end));
            start = end;
        }
        return chunks;
    }

    private static JsonNode parse(String json) {
        try {
            return Json.MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            // FakeBlock.ToolUse validated the JSON when it was created.
            throw new IllegalStateException(e);
        }
    }

    private static String compact(String json) {
        try {
            return Json.MAPPER.writeValueAsString(parse(json));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The reply's {@code stop_details} object, or JSON null. */
    private static JsonNode stopDetails(FakeReply.Message reply) {
        return reply.stopDetailsJson() == null ? Json.MAPPER.nullNode() : parse(reply.stopDetailsJson());
    }

    /** The reply's {@code container} object, or JSON null. */
    private static JsonNode container(FakeReply.Message reply) {
        return reply.containerJson() == null ? Json.MAPPER.nullNode() : parse(reply.containerJson());
    }

    private static void putNullable(ObjectNode json, String field, String value) {
        if (value == null) {
            json.putNull(field);
        } else {
            json.put(field, value);
        }
    }
}
