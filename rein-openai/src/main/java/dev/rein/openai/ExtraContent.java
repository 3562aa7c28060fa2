package dev.rein.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.OpaqueBlock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps a tool call's {@code extra_content}, a field outside Chat Completions that a server puts
 * on the calls it sends and wants back with them: Gemini 3 on Google's OpenAI-compatible endpoint
 * signs its function calls there ({@code {"google": {"thought_signature": ...}}}) and refuses, with
 * HTTP 400, a history that echoes a call without its signature. It travels next to the call as an
 * {@link OpaqueBlock} of type {@value #TYPE} and is echoed exactly as received, to that server only
 * ({@link Origin}).
 */
final class ExtraContent {
    static final String TYPE = "openai_tool_call_extra_content";

    private ExtraContent() {}

    /** The block to keep with call {@code id}, sent by the server at {@code origin}. */
    static OpaqueBlock keep(String id, JsonNode extraContent, String origin) {
        ObjectNode json = Json.object().put("type", TYPE).put("tool_call_id", id);
        json.set("extra_content", extraContent.deepCopy());
        return new OpaqueBlock(TYPE, Origin.mark(json, origin));
    }

    /** The kept {@code extra_content} of a message's calls, by call id, of those the server at {@code origin} sent. */
    static Map<String, JsonNode> of(List<ContentBlock> content, String origin) {
        Map<String, JsonNode> kept = new HashMap<>();
        for (ContentBlock block : content) {
            if (block instanceof OpaqueBlock o && TYPE.equals(o.type()) && o.json().path("extra_content").isObject()
                    && Origin.echoTo(o, origin)) {
                kept.put(o.json().path("tool_call_id").asText(), o.json().get("extra_content"));
            }
        }
        return kept;
    }
}
