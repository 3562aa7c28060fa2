package dev.rein.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.OpaqueBlock;
import dev.rein.model.Role;
import java.util.List;

/**
 * The code execution tool's container, carried from a response to the next request.
 *
 * <p>A response names the container its code ran in ({@code "container": {"id", "expires_at"}});
 * the code execution docs say to reuse it by sending its id as the next request's {@code container},
 * so files written and state kept carry over, and with programmatic tool calls pending the API
 * refuses a request without it. The model keeps no state between calls, so the container travels in
 * the history: the response gets an {@link OpaqueBlock} of type {@value #TYPE} holding the object as
 * received, which is never sent as a block (no Messages API block has that type); each request
 * with server tools ({@link AnthropicServerTools}, where code execution is declared) sends the id of
 * the newest one. It survives a pause and a resume with the rest of the history. The
 * {@code expires_at} is not used to leave an id out: the docs call it a shorter rolling value, and a
 * checkpointed container is restored by a request that names it.
 */
final class Containers {
    /** The type of the block that carries a response's container; no Messages API block type. */
    static final String TYPE = "anthropic_container";

    private Containers() {}

    /** The block carrying {@code message}'s container, or null when it names none. */
    static OpaqueBlock of(JsonNode message) {
        JsonNode container = message.get("container");
        if (container == null || !container.path("id").isTextual() || container.path("id").textValue().isBlank()) {
            return null;
        }
        ObjectNode json = Json.object();
        json.put("type", TYPE);
        json.setAll((ObjectNode) container.deepCopy());
        json.put("type", TYPE);
        return new OpaqueBlock(TYPE, json);
    }

    /** Whether {@code block} carries a container (and so is not sent as a block). */
    static boolean carries(OpaqueBlock block) {
        return TYPE.equals(block.type());
    }

    /**
     * The id of the newest container {@code message} names, or null: an assistant turn's (the request writer asks
     * once per message and remembers the answer, so each request does not read the whole history again).
     */
    static String in(Message message) {
        if (message.role() != Role.ASSISTANT) {
            return null;
        }
        List<ContentBlock> content = message.content();
        for (int b = content.size() - 1; b >= 0; b--) {
            if (content.get(b) instanceof OpaqueBlock o && carries(o)) {
                return o.json().path("id").asText();
            }
        }
        return null;
    }
}
