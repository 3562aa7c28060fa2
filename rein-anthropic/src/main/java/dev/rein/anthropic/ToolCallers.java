package dev.rein.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.OpaqueBlock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code caller} of a tool call that code in the code execution tool made (programmatic tool
 * calling: {@code {"type": "code_execution_20260120", "tool_id": "srvtoolu_..."}}), kept with the
 * call and sent back on it, as the official SDK's {@code ToolUseBlock.toParam()} sends it: the call
 * belongs to the code that is waiting for its result, not to the model.
 *
 * <p>Rein's {@code ToolUseBlock} is provider-neutral, so the caller travels next to it in the
 * history as an {@link OpaqueBlock} of type {@value #TYPE} ({@code {"type", "tool_use_id",
 * "caller"}}), never sent as a block. A call the model made itself ({@code {"type": "direct"}}, the
 * API's default) keeps nothing and goes back without a caller, as before.
 */
final class ToolCallers {
    /** The type of the block that carries a call's caller; no Messages API block type. */
    static final String TYPE = "anthropic_tool_caller";

    private ToolCallers() {}

    /** The block carrying {@code toolUse}'s caller, or null when the model made the call itself. */
    static OpaqueBlock of(JsonNode toolUse) {
        JsonNode caller = toolUse.get("caller");
        if (!(caller instanceof ObjectNode) || !caller.path("type").isTextual() || "direct".equals(caller.get("type").asText())) {
            return null;
        }
        ObjectNode json = Json.object().put("type", TYPE).put("tool_use_id", toolUse.path("id").asText());
        json.set("caller", caller.deepCopy());
        return new OpaqueBlock(TYPE, json);
    }

    /** Whether {@code block} carries a caller (and so is not sent as a block). */
    static boolean carries(OpaqueBlock block) {
        return TYPE.equals(block.type());
    }

    /** The callers a message's blocks carry, by call id; empty (and no map made) for nearly every message. */
    static Map<String, JsonNode> of(List<ContentBlock> content) {
        Map<String, JsonNode> callers = Map.of();
        for (ContentBlock block : content) {
            if (block instanceof OpaqueBlock o && carries(o) && o.json().path("caller").isObject()) {
                if (callers.isEmpty()) {
                    callers = new HashMap<>();
                }
                callers.put(o.json().path("tool_use_id").asText(), o.json().get("caller"));
            }
        }
        return callers;
    }
}
