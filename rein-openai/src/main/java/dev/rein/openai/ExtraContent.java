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

    /**
     * The {@code extra_content} Google documents for a function call Gemini did not sign (history from another model or
     * provider): {@code "skip_thought_signature_validator"} skips Gemini 3's check, on the Gemini API (ai.google.dev) and
     * on Vertex AI alike (the other value the Gemini API takes, {@code context_engineering_is_the_way_to_go}, Vertex
     * refuses).
     */
    static final String SKIP_SIGNATURE = "skip_thought_signature_validator";

    /** {@code {"google":{"thought_signature":"skip_thought_signature_validator"}}}, a fresh copy. */
    static ObjectNode skipSignature() {
        ObjectNode json = Json.object();
        json.putObject("google").put("thought_signature", SKIP_SIGNATURE);
        return json;
    }

    /**
     * Whether requests for {@code model} to the server at {@code origin} go to a Gemini model of version 3 or later on
     * Google's own OpenAI-compatible endpoints (the Gemini API's generativelanguage.googleapis.com, Vertex AI's
     * *aiplatform.googleapis.com): those refuse, with HTTP 400 "Function call is missing a thought_signature", a history
     * whose call of the current turn comes without a signature, and a signature goes back only to the host that made it
     * ({@link Origin}), so a call no Google host here signed (another provider's, a resumed run's, the other Google
     * endpoint's) gets {@link #skipSignature}. Gemini 2.5 and earlier do not check; other servers and models get nothing.
     */
    static boolean skipsSignatureCheck(String origin, String model) {
        String host = origin == null ? null : java.net.URI.create(origin).getHost();
        if (host == null || model == null) {
            return false;
        }
        host = host.toLowerCase(java.util.Locale.ROOT);
        if (!host.equals("generativelanguage.googleapis.com") && !host.endsWith("aiplatform.googleapis.com")) {
            return false;
        }
        java.util.regex.Matcher version = GEMINI.matcher(model.substring(model.lastIndexOf('/') + 1).toLowerCase(java.util.Locale.ROOT));
        return version.matches() && Integer.parseInt(version.group(1)) >= 3;
    }

    private static final java.util.regex.Pattern GEMINI = java.util.regex.Pattern.compile("gemini-(\\d+)(?:[.-].*)?");

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
