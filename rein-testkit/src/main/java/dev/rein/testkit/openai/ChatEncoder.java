package dev.rein.testkit.openai;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/** Writes replies in the Chat Completions wire shapes: a completion, its chunks, an error body. */
final class ChatEncoder {
    static final ObjectMapper MAPPER = JsonMapper.builder().build();
    /** Fixed so recorded answers are reproducible. */
    static final long CREATED = 1_764_547_200L;
    private static final String FINGERPRINT = FakeChatCompletionsServer.SYSTEM_FINGERPRINT;

    private ChatEncoder() {}

    /** {@code {"object":"chat.completion", ...}}, the non-streaming answer. */
    static ObjectNode completion(ChatReply.Completion reply, String id, String model, ChatReply.Usage usage) {
        ObjectNode json = header(id, model, "chat.completion");
        ObjectNode choice = json.putArray("choices").addObject();
        choice.put("index", 0);
        ObjectNode message = choice.putObject("message");
        message.put("role", "assistant");
        message.put("content", reply.content());
        message.put("refusal", reply.refusal());
        if (!reply.toolCalls().isEmpty()) {
            ArrayNode calls = message.putArray("tool_calls");
            for (ChatReply.ToolCall call : reply.toolCalls()) {
                ObjectNode c = calls.addObject().put("id", call.id()).put("type", "function");
                c.putObject("function").put("name", call.name()).put("arguments", call.arguments());
            }
        }
        message.putArray("annotations");
        choice.putNull("logprobs");
        choice.put("finish_reason", reply.finishReason());
        json.set("usage", usage(usage));
        json.put("service_tier", "default");
        json.put("system_fingerprint", FINGERPRINT);
        return json;
    }

    /**
     * The chunks of a streamed answer, as the API sends them: the role (with {@code "content": ""} when text follows,
     * {@code null} otherwise), the text in pieces, the
     * refusal, each tool call (id and name first, then its arguments in fragments), the finish
     * reason, and with {@code includeUsage} a last chunk with no choices and the usage (the earlier
     * chunks then carry {@code "usage": null}).
     */
    static List<ObjectNode> chunks(ChatReply.Completion reply, String id, String model, ChatReply.Usage usage,
                                   boolean includeUsage) {
        List<ObjectNode> chunks = new ArrayList<>();
        ObjectNode first = delta(chunks, id, model, includeUsage);
        first.put("role", "assistant");
        if (reply.content() != null) {
            first.put("content", "");
        } else {
            first.putNull("content"); // as the real API opens an answer of only tool calls, whose content is null
        }
        first.putNull("refusal");
        if (reply.content() != null) {
            for (String piece : pieces(reply.content())) {
                delta(chunks, id, model, includeUsage).put("content", piece);
            }
        }
        if (reply.refusal() != null) {
            for (String piece : pieces(reply.refusal())) {
                delta(chunks, id, model, includeUsage).put("refusal", piece);
            }
        }
        for (int i = 0; i < reply.toolCalls().size(); i++) {
            ChatReply.ToolCall call = reply.toolCalls().get(i);
            ObjectNode start = delta(chunks, id, model, includeUsage).putArray("tool_calls").addObject();
            start.put("index", i).put("id", call.id()).put("type", "function");
            start.putObject("function").put("name", call.name()).put("arguments", "");
            for (String piece : pieces(call.arguments())) {
                ObjectNode fragment = delta(chunks, id, model, includeUsage).putArray("tool_calls").addObject();
                fragment.put("index", i).putObject("function").put("arguments", piece);
            }
        }
        ObjectNode last = chunk(id, model, includeUsage);
        ObjectNode choice = last.putArray("choices").addObject();
        choice.put("index", 0).putObject("delta");
        choice.putNull("logprobs");
        choice.put("finish_reason", reply.finishReason());
        chunks.add(last);
        if (includeUsage) {
            ObjectNode usageChunk = chunk(id, model, false);
            usageChunk.putArray("choices");
            usageChunk.set("usage", usage(usage));
            chunks.add(usageChunk);
        }
        return chunks;
    }

    /** {@code {"error":{"message","type","param","code"}}}. */
    static ObjectNode errorBody(String type, String code, String message, String param) {
        ObjectNode json = MAPPER.createObjectNode();
        ObjectNode error = json.putObject("error");
        error.put("message", message);
        error.put("type", type);
        error.put("param", param);
        error.put("code", code);
        return json;
    }

    static ObjectNode usage(ChatReply.Usage usage) {
        ObjectNode json = MAPPER.createObjectNode();
        json.put("prompt_tokens", usage.promptTokens());
        json.put("completion_tokens", usage.completionTokens());
        json.put("total_tokens", usage.promptTokens() + usage.completionTokens());
        json.putObject("prompt_tokens_details").put("cached_tokens", usage.cachedTokens()).put("audio_tokens", 0);
        json.putObject("completion_tokens_details").put("reasoning_tokens", usage.reasoningTokens()).put("audio_tokens", 0)
                .put("accepted_prediction_tokens", 0).put("rejected_prediction_tokens", 0);
        return json;
    }

    /** Characters / 4 of the visible output, at least 1. */
    static long estimateOutputTokens(ChatReply.Completion reply) {
        long chars = (reply.content() == null ? 0 : reply.content().length())
                + (reply.refusal() == null ? 0 : reply.refusal().length());
        for (ChatReply.ToolCall call : reply.toolCalls()) {
            chars += call.name().length() + call.arguments().length();
        }
        return Math.max(1, chars / 4);
    }

    private static ObjectNode header(String id, String model, String object) {
        ObjectNode json = MAPPER.createObjectNode();
        json.put("id", id);
        json.put("object", object);
        json.put("created", CREATED);
        json.put("model", model);
        return json;
    }

    private static ObjectNode chunk(String id, String model, boolean usageNull) {
        ObjectNode json = header(id, model, "chat.completion.chunk");
        json.put("service_tier", "default");
        json.put("system_fingerprint", FINGERPRINT);
        if (usageNull) {
            json.putNull("usage");
        }
        return json;
    }

    /** Adds a chunk with one choice and returns its delta. */
    private static ObjectNode delta(List<ObjectNode> chunks, String id, String model, boolean usageNull) {
        ObjectNode json = chunk(id, model, usageNull);
        ObjectNode choice = json.putArray("choices").addObject();
        choice.put("index", 0);
        ObjectNode delta = choice.putObject("delta");
        choice.putNull("logprobs");
        choice.putNull("finish_reason");
        chunks.add(json);
        return delta;
    }

    /** Splits text into pieces of up to 8 code points, as a tokenizer would split it roughly. */
    static List<String> pieces(String text) {
        List<String> pieces = new ArrayList<>();
        int start = 0;
        while (start < text.length()) {
            int end = start;
            for (int n = 0; n < 8 && end < text.length(); n++) {
                end = text.offsetByCodePoints(end, 1);
            }
            pieces.add(text.substring(start, end));
            start = end;
        }
        return pieces;
    }
}
