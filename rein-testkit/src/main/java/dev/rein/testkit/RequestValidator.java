package dev.rein.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The checks of the real API that are cheap to repeat and catch real client bugs: required headers
 * and fields, at most four {@code cache_control} breakpoints, and the pairing of {@code tool_use} and
 * {@code tool_result} blocks. Messages follow
 * the real API's wording so that error handling tested here sees the same text.
 */
final class RequestValidator {

    /** A rejected request: the error to answer with. */
    record Violation(ApiErrorType type, String message) {}

    private RequestValidator() {}

    /**
     * Checks a request to {@code /v1/messages} or, with {@code countTokens}, to {@code
     * /v1/messages/count_tokens} (which takes no {@code max_tokens}).
     */
    static Optional<Violation> validate(RecordedRequest request, boolean countTokens) {
        if (request.header("x-api-key") == null && request.header("authorization") == null) {
            return invalid(ApiErrorType.AUTHENTICATION, "x-api-key header is required");
        }
        if (request.header("anthropic-version") == null) {
            return invalid(ApiErrorType.INVALID_REQUEST, "anthropic-version: header is required");
        }
        JsonNode body = request.body();
        if (!body.isObject()) {
            return invalid(ApiErrorType.INVALID_REQUEST, "The request body is not valid JSON.");
        }
        if (!body.path("model").isTextual()) {
            return invalid(ApiErrorType.INVALID_REQUEST, "model: Field required");
        }
        if (!countTokens) {
            JsonNode maxTokens = body.path("max_tokens");
            if (maxTokens.isMissingNode() || maxTokens.isNull()) {
                return invalid(ApiErrorType.INVALID_REQUEST, "max_tokens: Field required");
            }
            if (!maxTokens.canConvertToInt() || !maxTokens.isIntegralNumber() || maxTokens.asInt() < 1) {
                return invalid(ApiErrorType.INVALID_REQUEST, "max_tokens: Input should be greater than or equal to 1");
            }
        }
        JsonNode messages = body.path("messages");
        if (messages.isMissingNode() || messages.isNull()) {
            return invalid(ApiErrorType.INVALID_REQUEST, "messages: Field required");
        }
        if (!messages.isArray()) {
            return invalid(ApiErrorType.INVALID_REQUEST, "messages: Input should be a valid list");
        }
        if (messages.isEmpty()) {
            return invalid(ApiErrorType.INVALID_REQUEST, "messages: at least one message is required");
        }
        for (int i = 0; i < messages.size(); i++) {
            String role = messages.get(i).path("role").asText("");
            if (!role.equals("user") && !role.equals("assistant")) {
                return invalid(
                        ApiErrorType.INVALID_REQUEST, "messages." + i + ".role: Input should be 'user' or 'assistant'");
            }
        }
        int breakpoints = breakpoints(body.path("tools")) + breakpoints(body.path("system")) + breakpoints(messages);
        if (breakpoints > MAX_BREAKPOINTS) {
            return invalid(ApiErrorType.INVALID_REQUEST, "A maximum of " + MAX_BREAKPOINTS
                    + " blocks with cache_control may be provided. Found " + breakpoints + ".");
        }
        return toolPairing(messages);
    }

    /** The prompt caching limit: cache_control breakpoints per request, over tools, system and messages. */
    static final int MAX_BREAKPOINTS = 4;

    /**
     * The blocks with a {@code cache_control} object in {@code node}: a tool, a system or message block,
     * a message's content, or the content blocks of a tool result, walked down through arrays, messages'
     * {@code content} and tool results' {@code content}.
     */
    private static int breakpoints(JsonNode node) {
        if (node.isArray()) {
            int count = 0;
            for (JsonNode element : node) {
                count += breakpoints(element);
            }
            return count;
        }
        if (!node.isObject()) {
            return 0;
        }
        return (node.path("cache_control").isObject() ? 1 : 0) + breakpoints(node.path("content"));
    }

    /**
     * Each {@code tool_result} of a user message must answer a {@code tool_use} of the assistant
     * message right before it, and each {@code tool_use} of an assistant message that is followed
     * by another message must be answered there. A trailing assistant message is left alone: it may
     * be a prefill the client continues.
     */
    private static Optional<Violation> toolPairing(JsonNode messages) {
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            String role = message.path("role").asText();
            if (role.equals("user")) {
                Set<String> asked = i > 0 && isAssistant(messages.get(i - 1))
                        ? ids(messages.get(i - 1), "tool_use", "id")
                        : Set.of();
                JsonNode content = message.path("content");
                for (int j = 0; j < content.size() && content.isArray(); j++) {
                    JsonNode block = content.get(j);
                    if (block.path("type").asText().equals("tool_result")) {
                        String id = block.path("tool_use_id").asText();
                        if (!asked.contains(id)) {
                            return invalid(
                                    ApiErrorType.INVALID_REQUEST,
                                    "messages." + i + ".content." + j
                                            + ": unexpected `tool_use_id` found in `tool_result` blocks: " + id
                                            + ". Each `tool_result` block must have a corresponding `tool_use`"
                                            + " block in the previous message.");
                        }
                    }
                }
            } else if (i + 1 < messages.size()) {
                Set<String> asked = ids(message, "tool_use", "id");
                JsonNode next = messages.get(i + 1);
                Set<String> answered =
                        next.path("role").asText().equals("user") ? ids(next, "tool_result", "tool_use_id") : Set.of();
                List<String> unanswered = new ArrayList<>(asked);
                unanswered.removeAll(answered);
                if (!unanswered.isEmpty()) {
                    return invalid(
                            ApiErrorType.INVALID_REQUEST,
                            "messages." + i + ": `tool_use` ids were found without `tool_result` blocks"
                                    + " immediately after: " + String.join(", ", unanswered)
                                    + ". Each `tool_use` block must have a corresponding `tool_result` block"
                                    + " in the next message.");
                }
            }
        }
        return Optional.empty();
    }

    private static boolean isAssistant(JsonNode message) {
        return message.path("role").asText().equals("assistant");
    }

    /** The values of {@code field} in the blocks of {@code type}; string content has no blocks. */
    private static Set<String> ids(JsonNode message, String type, String field) {
        Set<String> ids = new LinkedHashSet<>();
        for (JsonNode block : message.path("content")) {
            if (block.path("type").asText().equals(type)) {
                ids.add(block.path(field).asText());
            }
        }
        return ids;
    }

    private static Optional<Violation> invalid(ApiErrorType type, String message) {
        return Optional.of(new Violation(type, message));
    }
}
