package dev.rein.openai;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.OpaqueBlock;
import java.util.List;

/**
 * Keeps the {@code reasoning_content} of a response that calls tools, a field outside Chat
 * Completions in which DeepSeek's thinking mode (and servers that follow it) streams its
 * reasoning: DeepSeek needs it back on that assistant message while the tool calls of the turn go
 * on, and refuses, with HTTP 400, a history without it ("Missing `reasoning_content` field in the
 * assistant message"). It travels with the calls as an {@link OpaqueBlock} of type {@value #TYPE}.
 * The reasoning of a response without tool calls is not kept: no server needs it back.
 */
final class ReasoningContent {
    static final String TYPE = "openai_reasoning_content";

    private ReasoningContent() {}

    /** The block to keep with the calls of a response that reasoned in {@code text}. */
    static OpaqueBlock keep(String text) {
        ObjectNode json = Json.object().put("type", TYPE).put("reasoning_content", text);
        return new OpaqueBlock(TYPE, json);
    }

    /** The kept reasoning of a message, or null. */
    static String of(List<ContentBlock> content) {
        for (ContentBlock block : content) {
            if (block instanceof OpaqueBlock o && TYPE.equals(o.type()) && o.json().path("reasoning_content").isTextual()) {
                return o.json().path("reasoning_content").asText();
            }
        }
        return null;
    }
}
