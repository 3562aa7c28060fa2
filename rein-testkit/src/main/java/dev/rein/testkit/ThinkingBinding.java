package dev.rein.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The prefix check of Anthropic's preserved thinking ("Prefix checks on thinking blocks"): on the models that
 * bind their thinking, a {@code thinking} or {@code redacted_thinking} block sent back is valid only while its
 * prefix (the top-level {@code system} and {@code tools}, and the messages before the block) is what was sent
 * when the block was made. Otherwise the request is refused with a 400, the default for accounts created from
 * 31 August 2026 on, which this server plays; or, with {@code thinking.block_binding.prefix_mismatch_behavior:
 * "drop_block"} and the beta {@value #BETA}, the invalid blocks are dropped and the request succeeds.
 *
 * <p>Only blocks this server made are checked (it knows their prefix): a history written by hand is left alone.
 * {@code cache_control} markers are not part of the prefix (they move from request to request by design).
 */
final class ThinkingBinding {
    /** The beta of the {@code block_binding} controls. */
    static final String BETA = "thinking-binding-controls-2026-08-01";

    /** The models with preserved thinking, as the docs' "supported models" list them. */
    static final Set<String> MODELS = Set.of("claude-fable-5-2", "claude-mythos-5-2", "claude-fable-5-1", "claude-mythos-5-1",
            "claude-opus-5-5", "claude-sonnet-5-5", "claude-haiku-5-5");

    /** The prefix each block this server made was made after, by its signature (or redacted data). */
    private final Map<String, JsonNode> prefixes = new ConcurrentHashMap<>();

    /** Remembers the prefix of the thinking blocks of {@code reply}, the answer to {@code request}. */
    void made(RecordedRequest request, FakeReply reply) {
        FakeReply.Message message = switch (reply) {
            case FakeReply.Message m -> m;
            case FakeReply.Delayed d when d.reply() instanceof FakeReply.Message m -> m;
            default -> null;
        };
        JsonNode body = request.body();
        if (message == null || !MODELS.contains(body.path("model").asText()) || !body.path("messages").isArray()) {
            return;
        }
        JsonNode prefix = prefix(body, body.path("messages").size());
        for (FakeBlock block : message.content()) {
            String key = switch (block) {
                case FakeBlock.Thinking t -> t.signature();
                case FakeBlock.RedactedThinking r -> r.data();
                default -> null;
            };
            if (key != null && !key.isEmpty()) {
                prefixes.put(key, prefix);
            }
        }
    }

    /** The refusal of a request that sends back a block of this server's whose prefix changed, unless it asks to drop it. */
    Optional<RequestValidator.Violation> check(RecordedRequest request) {
        JsonNode body = request.body();
        JsonNode messages = body.path("messages");
        if (prefixes.isEmpty() || !MODELS.contains(body.path("model").asText()) || !messages.isArray()) {
            return Optional.empty();
        }
        for (int i = 0; i < messages.size(); i++) {
            JsonNode content = messages.get(i).path("content");
            for (int j = 0; j < content.size() && content.isArray(); j++) {
                JsonNode block = content.get(j);
                String type = block.path("type").asText();
                String key = type.equals("thinking") ? block.path("signature").asText()
                        : type.equals("redacted_thinking") ? block.path("data").asText() : null;
                JsonNode made = key == null ? null : prefixes.get(key);
                if (made != null && !made.equals(prefix(body, i))) {
                    if (drops(request)) {
                        return Optional.empty();
                    }
                    return Optional.of(new RequestValidator.Violation(ApiErrorType.INVALID_REQUEST, "messages." + i + ".content." + j
                            + ": Invalid `signature` in `" + type + "` block. The block is bound to a different conversation."
                            + " Remove the block, or set `thinking.block_binding.prefix_mismatch_behavior` to \"drop_block\"."));
                }
            }
        }
        return Optional.empty();
    }

    /** Whether the request asks for invalid blocks to be dropped, with the beta that defines the setting. */
    private static boolean drops(RecordedRequest request) {
        String betas = request.header("anthropic-beta");
        return "drop_block".equals(request.body().path("thinking").path("block_binding").path("prefix_mismatch_behavior").asText())
                && betas != null && Set.of(betas.replace(" ", "").split(",")).contains(BETA);
    }

    /** {@code system}, {@code tools} and the first {@code count} messages, without {@code cache_control}. */
    private static JsonNode prefix(JsonNode body, int count) {
        ObjectNode prefix = Json.MAPPER.createObjectNode();
        prefix.set("system", body.path("system").deepCopy());
        prefix.set("tools", body.path("tools").deepCopy());
        ArrayNode messages = prefix.putArray("messages");
        for (int i = 0; i < count; i++) {
            messages.add(body.path("messages").get(i).deepCopy());
        }
        return withoutCacheControl(prefix);
    }

    private static JsonNode withoutCacheControl(JsonNode node) {
        if (node instanceof ObjectNode object) {
            object.remove("cache_control");
            object.forEach(ThinkingBinding::withoutCacheControl);
        } else if (node instanceof ArrayNode array) {
            array.forEach(ThinkingBinding::withoutCacheControl);
        }
        return node;
    }
}
