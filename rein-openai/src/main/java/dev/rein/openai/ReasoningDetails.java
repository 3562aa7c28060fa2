package dev.rein.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.OpaqueBlock;
import java.util.List;

/**
 * Joins and keeps OpenRouter's reasoning of a response: {@code reasoning_details} (a list of blocks, {@code
 * reasoning.text} with a signature, {@code reasoning.summary}, {@code reasoning.encrypted}). The plain {@code
 * reasoning} text beside it is not kept: the details carry it, and Groq, which sends {@code reasoning} too,
 * refuses it on an assistant message ("property 'reasoning' is unsupported"). OpenRouter wants the details back on the assistant message while tool calls go on
 * (its reasoning-tokens guide, "preserving reasoning blocks"); Gemini 3 behind it refuses the next request
 * without its encrypted block, and Claude's thinking is checked against its signature. Streamed, one block
 * comes in fragments of the same {@code index} and type: their {@code text}, {@code summary} and {@code data}
 * are joined, and any other field (a signature in the last fragment) is taken from the latest that has it; text
 * fragments without an index are joined in order ({@link #sameBlock}).
 * It travels with the response as an {@link OpaqueBlock} of type {@value #TYPE}, and goes back to that server only
 * ({@link Origin}).
 */
final class ReasoningDetails {
    static final String TYPE = "openai_reasoning_details";
    private static final String TEXT = "reasoning.text";

    private final ArrayNode details = Json.mapper().createArrayNode();

    /** Adds a delta's (or a whole message's) {@code reasoning_details}. */
    void accept(JsonNode delta) {
        JsonNode incoming = delta.get("reasoning_details");
        if (incoming == null || !incoming.isArray()) {
            return;
        }
        boolean first = true;
        for (JsonNode fragment : incoming) {
            if (!(fragment instanceof ObjectNode object)) {
                continue;
            }
            ObjectNode same = sameBlock(object, first);
            first = false;
            if (same == null) {
                details.add(object.deepCopy());
                continue;
            }
            for (var field : object.properties()) {
                String name = field.getKey();
                JsonNode value = field.getValue();
                if ((name.equals("text") || name.equals("summary") || name.equals("data")) && value.isTextual()) {
                    same.put(name, same.path(name).asText("") + value.asText());
                } else if (!value.isNull()) {
                    same.set(name, value.deepCopy());
                }
            }
        }
    }

    /**
     * The readable reasoning of a delta's (or a whole message's) {@code reasoning_details}: the {@code text} of its {@code
     * reasoning.text} fragments and the {@code summary} of its {@code reasoning.summary} ones, in order; an encrypted
     * block has none. Empty when there is none.
     */
    static String readable(JsonNode delta) {
        StringBuilder text = new StringBuilder();
        for (JsonNode fragment : delta.path("reasoning_details")) {
            String type = fragment.path("type").asText("");
            JsonNode part = type.equals(TEXT) ? fragment.get("text")
                    : type.equals("reasoning.summary") ? fragment.get("summary") : null;
            if (part != null && part.isTextual()) {
                text.append(part.asText());
            }
        }
        return text.toString();
    }

    /**
     * The block a fragment continues: the one with its index and type. OpenRouter documents {@code index} as optional
     * and the sequence as "built by concatenating all chunks in order"; the first fragment of a delta without one
     * continues the block the delta before ended with when both are {@code reasoning.text} without an index (as
     * OpenRouter's AI SDK provider joins them), unless that block is signed already (a signature closes it) or the two
     * name different ids. The entries of one list are separate blocks (a whole message's list is never joined), and an
     * encrypted block or a summary without an index is taken as whole: two in a row are two blocks (Anthropic's
     * redacted thinking, OpenAI's summary parts).
     *
     * @param first whether the fragment comes first in its delta's list
     */
    private ObjectNode sameBlock(ObjectNode fragment, boolean first) {
        if (!fragment.path("index").isIntegralNumber()) {
            if (!first || details.isEmpty() || !(details.get(details.size() - 1) instanceof ObjectNode last)) {
                return null;
            }
            boolean text = TEXT.equals(fragment.path("type").asText()) && TEXT.equals(last.path("type").asText());
            boolean signed = last.path("signature").isTextual() && !last.path("signature").asText().isEmpty();
            boolean otherId = fragment.path("id").isTextual() && last.path("id").isTextual()
                    && !fragment.path("id").asText().equals(last.path("id").asText());
            return text && !last.has("index") && !signed && !otherId ? last : null;
        }
        for (JsonNode block : details) {
            if (block.path("index").equals(fragment.path("index")) && block.path("type").equals(fragment.path("type"))) {
                return (ObjectNode) block;
            }
        }
        return null;
    }

    /** Whether no reasoning details came so far. */
    boolean isEmpty() {
        return details.isEmpty();
    }

    /** The text of the {@code reasoning.text} blocks joined: the reasoning itself, without summaries or encrypted data. */
    String text() {
        StringBuilder text = new StringBuilder();
        for (JsonNode block : details) {
            if (TEXT.equals(block.path("type").asText()) && block.path("text").isTextual()) {
                text.append(block.path("text").asText());
            }
        }
        return text.toString();
    }

    /** The block to keep with the response, sent by the server at {@code origin}; null when it brought no reasoning. */
    OpaqueBlock keep(String origin) {
        if (details.isEmpty()) {
            return null;
        }
        ObjectNode json = Json.object().put("type", TYPE);
        json.set("reasoning_details", details.deepCopy());
        return new OpaqueBlock(TYPE, Origin.mark(json, origin));
    }

    /**
     * Puts the kept {@code reasoning_details} of a message on its wire form, as OpenRouter's example echoes them,
     * when the server at {@code origin} sent them.
     */
    static void echo(List<ContentBlock> content, ObjectNode message, String origin) {
        for (ContentBlock block : content) {
            if (block instanceof OpaqueBlock o && TYPE.equals(o.type()) && o.json().path("reasoning_details").isArray()
                    && Origin.echoTo(o, origin)) {
                message.set("reasoning_details", o.json().get("reasoning_details").deepCopy());
                return;
            }
        }
    }
}
