package dev.rein.testkit.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A loaded JSON script for a {@link FakeChatCompletionsServer}: its replies, in order. The format
 * is documented on the server; errors name the JSON path of the offending entry, e.g. {@code
 * [2].tool_calls[0]}, because scripts are written by hand.
 *
 * @param replies the replies
 */
public record ChatScript(List<ChatReply> replies) {
    /** Copies the list. */
    public ChatScript {
        replies = List.copyOf(replies);
    }

    /**
     * Reads a script file.
     *
     * @param file the file
     * @return the script
     * @throws IllegalArgumentException if the script is not valid
     * @throws UncheckedIOException if the file cannot be read
     */
    public static ChatScript load(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the script " + file, e);
        }
    }

    /**
     * Parses a script.
     *
     * @param json a JSON array of replies
     * @return the script
     * @throws IllegalArgumentException if the script is not valid
     */
    public static ChatScript parse(String json) {
        JsonNode root;
        try {
            root = ChatEncoder.MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("script is not valid JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isArray()) {
            throw new IllegalArgumentException("script must be a JSON array of replies");
        }
        List<ChatReply> replies = new ArrayList<>();
        for (int i = 0; i < root.size(); i++) {
            replies.add(reply(root.get(i), "[" + i + "]"));
        }
        return new ChatScript(replies);
    }

    private static ChatReply reply(JsonNode json, String path) {
        if (!json.isObject()) {
            throw new IllegalArgumentException(path + ": must be an object");
        }
        try {
            return replyOfType(json, path);
        } catch (IllegalArgumentException e) {
            // A reply's own check (a negative count, a status that is no error) names no entry: name it here.
            if (e.getMessage() != null && e.getMessage().startsWith(path)) {
                throw e;
            }
            throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
        }
    }

    private static ChatReply replyOfType(JsonNode json, String path) {
        String type = json.path("type").asText("");
        return switch (type) {
            case "completion" -> completion(json, path);
            case "no_done" -> new ChatReply.NoDone(completion(json.path("completion"), path + ".completion"));
            case "error" -> error(json, path);
            case "stream_error" -> new ChatReply.StreamError(partial(json, path), json.path("after_chunks").asInt(2),
                    json.path("error").path("type").asText("server_error"),
                    json.path("error").path("message").asText("The server had an error while processing your request."));
            case "disconnect" -> new ChatReply.Disconnect(json.has("partial") ? partial(json, path) : null,
                    json.path("after_chunks").asInt(0));
            case "malformed" -> new ChatReply.Malformed(json.path("body").isTextual() ? json.path("body").asText() : null);
            case "delayed" -> new ChatReply.Delayed(Duration.ofMillis(json.path("delay_ms").asLong(0)),
                    reply(required(json, "reply", path), path + ".reply"));
            case "hang" -> new ChatReply.Hang();
            default -> throw new IllegalArgumentException(path + ": unknown reply type '" + type + "' (expected completion,"
                    + " no_done, error, stream_error, disconnect, malformed, delayed or hang)");
        };
    }

    private static ChatReply.Completion partial(JsonNode json, String path) {
        return json.has("partial") ? completion(json.get("partial"), path + ".partial") : ChatReply.text("Partial answer");
    }

    private static ChatReply.Completion completion(JsonNode json, String path) {
        if (!json.isObject()) {
            throw new IllegalArgumentException(path + ": must be an object");
        }
        List<ChatReply.ToolCall> calls = new ArrayList<>();
        JsonNode list = json.path("tool_calls");
        if (!list.isMissingNode() && !list.isNull() && !list.isArray()) {
            throw new IllegalArgumentException(path + ".tool_calls: must be an array of tool calls");
        }
        for (int i = 0; i < list.size(); i++) {
            calls.add(call(list.get(i), path + ".tool_calls[" + i + "]"));
        }
        String finish = json.path("finish_reason").isTextual() ? json.path("finish_reason").asText()
                : calls.isEmpty() ? ChatReply.STOP : ChatReply.TOOL_CALLS;
        try {
            return new ChatReply.Completion(text(json, "content"), text(json, "refusal"), calls, finish, usage(json.get("usage")));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
        }
    }

    /** A call as {@code {"id","name","arguments"}} or in the API's own shape with a {@code function} object. */
    private static ChatReply.ToolCall call(JsonNode json, String path) {
        JsonNode function = json.has("function") ? json.get("function") : json;
        String id = json.path("id").asText(null);
        String name = function.path("name").asText(null);
        if (id == null || name == null) {
            throw new IllegalArgumentException(path + ": a tool call needs an id and a name");
        }
        JsonNode arguments = function.path("arguments");
        String text = arguments.isTextual() ? arguments.asText() : arguments.isMissingNode() ? "{}" : arguments.toString();
        return new ChatReply.ToolCall(id, name, text);
    }

    private static ChatReply.Usage usage(JsonNode json) {
        if (json == null || json.isNull()) {
            return null;
        }
        long cached = json.has("cached_tokens") ? json.path("cached_tokens").asLong()
                : json.path("prompt_tokens_details").path("cached_tokens").asLong(0);
        long reasoning = json.has("reasoning_tokens") ? json.path("reasoning_tokens").asLong()
                : json.path("completion_tokens_details").path("reasoning_tokens").asLong(0);
        return new ChatReply.Usage(json.path("prompt_tokens").asLong(0), json.path("completion_tokens").asLong(0), cached,
                reasoning);
    }

    private static ChatReply.HttpError error(JsonNode json, String path) {
        JsonNode error = json.path("error");
        int status = json.path("status").asInt(500);
        Map<String, String> headers = new LinkedHashMap<>();
        json.path("headers").properties().forEach(e -> headers.put(e.getKey(), e.getValue().asText()));
        try {
            return new ChatReply.HttpError(status, error.path("type").asText(status >= 500 ? "server_error" : "invalid_request_error"),
                    text(error, "code"), error.path("message").asText("HTTP " + status), headers, text(json, "body"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
        }
    }

    private static String text(JsonNode json, String field) {
        JsonNode value = json.get(field);
        return value != null && value.isTextual() ? value.asText() : null;
    }

    private static JsonNode required(JsonNode json, String field, String path) {
        JsonNode value = json.get(field);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException(path + ": missing '" + field + "'");
        }
        return value;
    }
}
