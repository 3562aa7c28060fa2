package dev.rein.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.ReinException;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.OpaqueBlock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps the argument text of a tool call exactly as the model sent it. A call's arguments arrive
 * as a string of JSON; Rein hands tools the parsed value. When writing that value again would not
 * give back the same text (other spacing, key order or number format, or text that is not JSON at
 * all), the original text travels next to the call as an {@link OpaqueBlock} of type {@value
 * #TYPE}, so the call is echoed back unchanged; arguments that are not JSON go back as {@code {}}
 * ({@link #echo}).
 */
final class RawArguments {
    static final String TYPE = "openai_tool_call_arguments";

    private RawArguments() {}

    /**
     * The parsed arguments: the JSON value, an empty object for blank text, else the text itself.
     * Text after the value (two objects joined, a stray brace) makes it text that is not JSON:
     * reading only the first value would run the tool with part of what the model sent.
     */
    static JsonNode parse(String text) {
        if (text.isBlank()) {
            return Json.object();
        }
        try {
            return Json.parseWhole(text);
        } catch (ReinException e) {
            // The tool's input validation tells the model what was wrong, which it can fix.
            return Json.mapper().getNodeFactory().textNode(text);
        }
    }

    /** The text the value is written back as when no original text was kept. */
    static String text(JsonNode input) {
        if (input.isTextual()) {
            return input.asText();
        }
        try {
            return Json.mapper().writeValueAsString(input);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write tool arguments", e);
        }
    }

    /**
     * The argument text a call is echoed back with: the model's own ({@code kept}, else the parsed value written
     * again), unless it is not JSON (it reached the tool as text); then {@code {}}. Servers parse the arguments of the
     * calls a request replays (vLLM's json.loads refuses text that is not JSON with 400, "Unterminated string starting
     * at ..."), at every later step, since the history keeps the call; the tool's error result quotes what the model
     * sent. Blank text (a call without parameters, as some servers send it) goes back as it came.
     */
    static String echo(String kept, JsonNode input) {
        if (input.isTextual()) {
            return "{}";
        }
        return kept != null ? kept : text(input);
    }

    /** The block to keep with a call, or null when writing the parsed value gives the same text. */
    static OpaqueBlock keep(String id, String text, JsonNode parsed) {
        if (text.equals(text(parsed))) {
            return null;
        }
        ObjectNode json = Json.object().put("type", TYPE).put("tool_call_id", id).put("arguments", text);
        return new OpaqueBlock(TYPE, json);
    }

    /** The kept texts of a message's calls, by call id. */
    static Map<String, String> of(List<ContentBlock> content) {
        Map<String, String> kept = new HashMap<>();
        for (ContentBlock block : content) {
            if (block instanceof OpaqueBlock o && TYPE.equals(o.type())) {
                kept.put(o.json().path("tool_call_id").asText(), o.json().path("arguments").asText());
            }
        }
        return kept;
    }
}
