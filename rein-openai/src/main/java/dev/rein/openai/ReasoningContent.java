package dev.rein.openai;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.OpaqueBlock;
import java.util.List;

/**
 * Keeps the {@code reasoning_content} of a response, a field outside Chat Completions in which
 * DeepSeek's thinking mode (and servers that follow it) streams its reasoning: between two user
 * messages with a tool call between them, DeepSeek needs it back on every assistant message, and
 * refuses, with HTTP 400, a history without it ("Missing `reasoning_content` field in the
 * assistant message"); elsewhere it ignores it. It travels with the response as an {@link
 * OpaqueBlock} of type {@value #TYPE} and is echoed on its assistant message, to that server, or to a model
 * of the same family elsewhere ({@link Origin#family}), only: Groq and others refuse the field.
 */
final class ReasoningContent {
    static final String TYPE = "openai_reasoning_content";

    private ReasoningContent() {}

    /**
     * The block to keep with a response that reasoned in {@code text}, sent by the server at {@code origin}, marked with
     * the model family ({@link Origin#family}) of {@code family}, when it has one.
     */
    static OpaqueBlock keep(String text, String origin, String family) {
        ObjectNode json = Origin.mark(Json.object().put("type", TYPE).put("reasoning_content", text), origin);
        if (family != null) {
            json.put(Origin.FAMILY, family);
        }
        return new OpaqueBlock(TYPE, json);
    }

    /**
     * The kept reasoning of a message, or null; null too when another server than the one at {@code origin} sent it,
     * unless for a model of the same {@code family} ({@link Origin#family}; null: none).
     */
    static String of(List<ContentBlock> content, String origin, String family) {
        for (ContentBlock block : content) {
            if (block instanceof OpaqueBlock o && TYPE.equals(o.type()) && o.json().path("reasoning_content").isTextual()
                    && Origin.echoTo(o, origin, family)) {
                return o.json().path("reasoning_content").asText();
            }
        }
        return null;
    }
}
