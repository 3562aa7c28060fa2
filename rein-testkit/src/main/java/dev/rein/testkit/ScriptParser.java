package dev.rein.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the JSON script format documented on {@link FakeMessagesServer}. Errors name the JSON
 * path of the offending entry, e.g. {@code messages[2].content[0]}, because scripts are written by
 * hand.
 */
final class ScriptParser {

    private ScriptParser() {}

    static FakeScript parse(String json) {
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("script is not valid JSON: " + e.getOriginalMessage(), e);
        }
        if (root != null && root.isArray()) {
            return new FakeScript(replies(root, "messages"), List.of());
        }
        if (root != null && root.isObject()) {
            for (var names = root.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!name.equals("messages") && !name.equals("count_tokens")) {
                    throw new IllegalArgumentException("script: unknown field '" + name + "'");
                }
            }
            return new FakeScript(
                    replies(root.path("messages"), "messages"), replies(root.path("count_tokens"), "count_tokens"));
        }
        throw new IllegalArgumentException("script must be a JSON array of replies or an object"
                + " {\"messages\": [...], \"count_tokens\": [...]}");
    }

    private static List<FakeReply> replies(JsonNode array, String path) {
        if (array.isMissingNode()) {
            return List.of();
        }
        if (!array.isArray()) {
            throw new IllegalArgumentException(path + ": must be an array");
        }
        List<FakeReply> replies = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            replies.add(reply(array.get(i), path + "[" + i + "]"));
        }
        return replies;
    }

    private static FakeReply reply(JsonNode json, String path) {
        String type = text(json, "type", path);
        try {
            return switch (type) {
                case "message" -> message(json, path);
                case "error" -> error(json, path);
                case "stream_error" -> streamError(json, path);
                case "disconnect" -> json.has("partial")
                        ? new FakeReply.Disconnect(message(json.get("partial"), path + ".partial"),
                                json.path("after_events").asInt(4))
                        : FakeReply.disconnect();
                case "malformed" -> json.has("body")
                        ? FakeReply.malformed(text(json, "body", path))
                        : FakeReply.malformed();
                case "delayed" -> FakeReply.delayed(
                        Duration.ofMillis(number(json, "delay_ms", path)), reply(json.path("reply"), path + ".reply"));
                case "hang" -> FakeReply.hang();
                case "token_count" -> FakeReply.tokenCount(number(json, "input_tokens", path));
                default -> throw new IllegalArgumentException(path + ": unknown reply type '" + type + "'");
            };
        } catch (IllegalArgumentException | NullPointerException e) {
            if (e.getMessage() != null && e.getMessage().startsWith(path)) {
                throw e;
            }
            throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
        }
    }

    /** The same shape as a real Messages API response, so a captured response can be pasted in. */
    private static FakeReply.Message message(JsonNode json, String path) {
        if (!json.isObject()) {
            throw new IllegalArgumentException(path + ": must be a message object");
        }
        FakeReply.MessageBuilder builder = FakeReply.message();
        JsonNode content = json.path("content");
        if (!content.isArray()) {
            throw new IllegalArgumentException(path + ".content: must be an array of blocks");
        }
        for (int i = 0; i < content.size(); i++) {
            builder.block(block(content.get(i), path + ".content[" + i + "]"));
        }
        JsonNode stopSequence = json.path("stop_sequence");
        if (stopSequence.isTextual()) {
            builder.stopSequence(stopSequence.asText());
        }
        JsonNode stopReason = json.path("stop_reason");
        if (stopReason.isTextual()) {
            builder.stopReason(stopReason.asText());
        }
        JsonNode stopDetails = json.path("stop_details");
        if (stopDetails.isObject()) {
            builder.stopDetails(stopDetails.toString());
        } else if (!stopDetails.isMissingNode() && !stopDetails.isNull()) {
            throw new IllegalArgumentException(path + ".stop_details: must be an object or null");
        }
        JsonNode container = json.path("container");
        if (container.isObject()) {
            if (!container.path("id").isTextual()) {
                throw new IllegalArgumentException(path + ".container.id: a string is required");
            }
            builder.container(container.toString());
        } else if (!container.isMissingNode() && !container.isNull()) {
            throw new IllegalArgumentException(path + ".container: must be an object {\"id\": ..., \"expires_at\": ...} or null");
        }
        if (json.path("usage").isObject()) {
            builder.usage(usage(json.get("usage"), path + ".usage"));
        }
        return builder.build();
    }

    private static FakeBlock block(JsonNode json, String path) {
        String type = text(json, "type", path);
        return switch (type) {
            case "text" -> {
                // A pasted web search answer keeps its citations (the client must pass them back).
                JsonNode citations = json.path("citations");
                if (!citations.isMissingNode() && !citations.isNull() && !citations.isArray()) {
                    throw new IllegalArgumentException(path + ".citations: must be an array of citations or null");
                }
                yield new FakeBlock.Text(text(json, "text", path), citations.isArray() ? citations.toString() : null);
            }
            case "tool_use" -> {
                JsonNode input = json.path("input");
                if (!input.isObject()) {
                    throw new IllegalArgumentException(path + ".input: must be a JSON object");
                }
                // A pasted programmatic call keeps its caller (the code execution tool that made it).
                JsonNode caller = json.path("caller");
                if (!caller.isMissingNode() && !caller.isNull() && !(caller.isObject() && caller.path("type").isTextual())) {
                    throw new IllegalArgumentException(path + ".caller: must be an object with a \"type\", e.g. {\"type\": \"direct\"}");
                }
                boolean direct = !caller.isObject() || "direct".equals(caller.path("type").asText());
                yield new FakeBlock.ToolUse(text(json, "id", path), text(json, "name", path), input.toString(),
                        direct ? null : caller.toString());
            }
            case "thinking" -> FakeBlock.thinking(text(json, "thinking", path), text(json, "signature", path));
            case "redacted_thinking" -> FakeBlock.redactedThinking(text(json, "data", path));
            default -> {
                // A block of the API's server side (a pasted web search, code execution, compaction) goes as given.
                if (FakeBlock.ServerSide.isServerSideType(type) && json.isObject()) {
                    yield FakeBlock.serverSide(json.toString());
                }
                throw new IllegalArgumentException(path + ": unknown block type '" + type + "' (known: text, tool_use,"
                        + " thinking, redacted_thinking, and server-side blocks: *_tool_use, *_tool_result, compaction,"
                        + " container_upload)");
            }
        };
    }

    private static FakeUsage usage(JsonNode json, String path) {
        int cacheCreation = json.path("cache_creation_input_tokens").asInt(0);
        JsonNode buckets = json.path("cache_creation");
        Map<String, Integer> serverToolUse = new LinkedHashMap<>();
        JsonNode counters = json.path("server_tool_use");
        if (counters.isObject()) {
            for (var counter : counters.properties()) {
                if (!counter.getValue().isNull()) {
                    serverToolUse.put(counter.getKey(), number(counters, counter.getKey(), path + ".server_tool_use"));
                }
            }
        } else if (!counters.isMissingNode() && !counters.isNull()) {
            throw new IllegalArgumentException(path + ".server_tool_use: must be an object of counts, e.g. {\"web_search_requests\": 1}");
        }
        JsonNode details = json.path("output_tokens_details");
        if (!details.isMissingNode() && !details.isNull() && !details.isObject()) {
            throw new IllegalArgumentException(path + ".output_tokens_details: must be an object, e.g. {\"thinking_tokens\": 30}");
        }
        Integer thinkingTokens = details.path("thinking_tokens").isMissingNode() || details.path("thinking_tokens").isNull()
                ? null : number(details, "thinking_tokens", path + ".output_tokens_details");
        return new FakeUsage(
                number(json, "input_tokens", path),
                number(json, "output_tokens", path),
                cacheCreation,
                json.path("cache_read_input_tokens").asInt(0),
                buckets.isObject() ? buckets.path("ephemeral_5m_input_tokens").asInt(0) : cacheCreation,
                buckets.isObject() ? buckets.path("ephemeral_1h_input_tokens").asInt(0) : 0,
                serverToolUse,
                thinkingTokens);
    }

    /** {@code {"type":"error","status":429,"error":{"type":..,"message":..},"headers":{..}}}: the wire body plus status and headers. */
    private static FakeReply.HttpError error(JsonNode json, String path) {
        JsonNode error = json.path("error");
        String errorType = text(error, "type", path + ".error");
        ApiErrorType known = ApiErrorType.fromWireName(errorType).orElse(null);
        int status;
        if (json.has("status")) {
            status = number(json, "status", path);
        } else if (known != null) {
            status = known.status();
        } else {
            throw new IllegalArgumentException(path + ": status is required for error type '" + errorType + "'");
        }
        String message = error.has("message")
                ? text(error, "message", path + ".error")
                : known != null ? known.defaultMessage() : errorType;
        Map<String, String> headers = new LinkedHashMap<>();
        json.path("headers").properties().forEach(e -> headers.put(e.getKey(), e.getValue().asText()));
        JsonNode code = error.path("details").path("error_code");
        return new FakeReply.HttpError(status, errorType, message, headers, code.isTextual() ? code.asText() : null);
    }

    private static FakeReply.StreamError streamError(JsonNode json, String path) {
        FakeReply.Message partial = json.has("partial")
                ? message(json.get("partial"), path + ".partial")
                : FakeReply.text("Partial answer");
        JsonNode error = json.path("error");
        String errorType = error.has("type") ? text(error, "type", path + ".error") : "overloaded_error";
        String message = error.has("message")
                ? text(error, "message", path + ".error")
                : ApiErrorType.fromWireName(errorType).map(ApiErrorType::defaultMessage).orElse(errorType);
        return new FakeReply.StreamError(partial, json.path("after_events").asInt(4), errorType, message);
    }

    private static String text(JsonNode json, String field, String path) {
        JsonNode value = json.path(field);
        if (!value.isTextual()) {
            throw new IllegalArgumentException(path + "." + field + ": a string is required");
        }
        return value.asText();
    }

    private static int number(JsonNode json, String field, String path) {
        JsonNode value = json.path(field);
        if (!value.canConvertToInt() || !value.isIntegralNumber()) {
            throw new IllegalArgumentException(path + "." + field + ": an integer is required");
        }
        return value.asInt();
    }
}
