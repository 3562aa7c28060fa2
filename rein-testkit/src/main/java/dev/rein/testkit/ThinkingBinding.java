package dev.rein.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Hashing;
import dev.rein.model.ModelIds;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * <p>On every model, a {@code thinking} block this server made that comes back with another text is refused
 * ("Invalid `signature` in `thinking` block"): the extended thinking docs ask for the complete unmodified block, and
 * its signature verifies it.
 *
 * <p>Only blocks this server made are checked (it knows their prefix): a history written by hand is left alone.
 * {@code cache_control} markers are not part of the prefix (they move from request to request by design). A block
 * is also bound to the thinking blocks made before it in its own response: one of them left out or moved is refused
 * too ("a thinking block between others was omitted or moved"). On the other models, a block this server made that
 * comes back after other thinking blocks than it was made after (one left out before it, or the blocks moved) is
 * refused as an altered one is: the extended thinking docs forbid rearranging the sequence.
 */
final class ThinkingBinding {
    /** The beta of the {@code block_binding} controls. */
    static final String BETA = "thinking-binding-controls-2026-08-01";

    /** The models with preserved thinking, as the docs' "supported models" list them (also with a date suffix). */
    static final Set<String> MODELS = Set.of("claude-fable-5-2", "claude-mythos-5-2", "claude-fable-5-1", "claude-mythos-5-1",
            "claude-opus-5-5", "claude-sonnet-5-5", "claude-haiku-5-5");

    /**
     * What each block this server made is bound to, by its signature (or redacted data): the digest of its prefix, and
     * the thinking blocks before it in its own turn.
     */
    private final Map<String, Binding> bindings = new ConcurrentHashMap<>();

    /**
     * @param prefix the SHA-256 of the block's prefix ({@link Prefixes})
     * @param before the keys of the thinking blocks made before it in the same response, in order
     */
    private record Binding(byte[] prefix, List<String> before) {}

    /**
     * The texts of the thinking blocks this server made, by signature, on every model: a block sent back with one of
     * these signatures and another text was altered. A set, as a script may give two blocks one signature.
     */
    private final Map<String, Set<String>> texts = new ConcurrentHashMap<>();

    /**
     * On every model, the thinking blocks each block this server made came after in its response (more than one list
     * when a script makes the same block in several places), by {@link #sequenceKey}: the extended thinking docs
     * ("Preserving thinking blocks") say the sequence of thinking blocks sent back must be the one the model made,
     * neither rearranged nor modified. Keyed by text as well as signature, as scripts reuse one signature.
     */
    private final Map<String, Set<List<String>>> sequences = new ConcurrentHashMap<>();

    /** Remembers what the thinking blocks of {@code reply}, the answer to {@code request}, are bound to. */
    void made(RecordedRequest request, FakeReply reply) {
        FakeReply.Message message = switch (reply) {
            case FakeReply.Message m -> m;
            case FakeReply.Delayed d when d.reply() instanceof FakeReply.Message m -> m;
            default -> null;
        };
        if (message == null) {
            return;
        }
        List<String> made = new ArrayList<>();
        for (FakeBlock block : message.content()) {
            if (block instanceof FakeBlock.Thinking t && !t.signature().isEmpty()) {
                texts.computeIfAbsent(t.signature(), k -> ConcurrentHashMap.newKeySet()).add(t.thinking());
            }
            String key = switch (block) {
                case FakeBlock.Thinking t when !t.signature().isEmpty() -> sequenceKey("thinking", t.signature(), t.thinking());
                case FakeBlock.RedactedThinking r when !r.data().isEmpty() -> sequenceKey("redacted_thinking", r.data(), "");
                default -> null;
            };
            if (key != null) {
                sequences.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(List.copyOf(made));
                made.add(key);
            }
        }
        JsonNode body = request.body();
        if (!ModelIds.listed(MODELS, body.path("model").asText()) || !body.path("messages").isArray()) {
            return;
        }
        byte[] prefix = null; // only for a reply that thinks
        List<String> before = new ArrayList<>();
        for (FakeBlock block : message.content()) {
            String key = switch (block) {
                case FakeBlock.Thinking t -> t.signature();
                case FakeBlock.RedactedThinking r -> r.data();
                default -> null;
            };
            if (key != null && !key.isEmpty()) {
                prefix = prefix != null ? prefix : new Prefixes(body).through(body.path("messages").size());
                bindings.put(key, new Binding(prefix, List.copyOf(before)));
                before.add(key);
            }
        }
    }

    /**
     * The refusal of a request that sends back a block of this server's whose prefix changed, or whose turn lost or
     * reordered the thinking made before it ("a thinking block between others was omitted or moved"), unless the
     * request asks for such blocks to be dropped.
     */
    Optional<RequestValidator.Violation> check(RecordedRequest request) {
        JsonNode body = request.body();
        JsonNode messages = body.path("messages");
        Optional<RequestValidator.Violation> altered = altered(messages);
        if (altered.isPresent()) {
            return altered;
        }
        if (!ModelIds.listed(MODELS, body.path("model").asText())) {
            // The models that bind their thinking check its order below, with the prefix and in their own words.
            return reordered(messages);
        }
        if (bindings.isEmpty() || !messages.isArray()) {
            return Optional.empty();
        }
        Prefixes prefixes = null; // digested once, and only when a block of this server's is sent back
        for (int i = 0; i < messages.size(); i++) {
            JsonNode content = messages.get(i).path("content");
            List<String> before = new ArrayList<>();
            for (int j = 0; j < content.size() && content.isArray(); j++) {
                JsonNode block = content.get(j);
                String type = block.path("type").asText();
                String key = type.equals("thinking") ? block.path("signature").asText()
                        : type.equals("redacted_thinking") ? block.path("data").asText() : null;
                if (key == null || key.isEmpty()) {
                    continue;
                }
                Binding made = bindings.get(key);
                if (made != null) {
                    prefixes = prefixes != null ? prefixes : new Prefixes(body);
                    if (!Arrays.equals(made.prefix(), prefixes.through(i)) || !made.before().equals(before)) {
                        if (drops(request)) {
                            return Optional.empty();
                        }
                        return Optional.of(new RequestValidator.Violation(ApiErrorType.INVALID_REQUEST, "messages." + i
                                + ".content." + j + ": Invalid `signature` in `" + type + "` block. The block is bound to a"
                                + " different conversation. Remove the block, or set"
                                + " `thinking.block_binding.prefix_mismatch_behavior` to \"drop_block\"."));
                    }
                }
                before.add(key);
            }
        }
        return Optional.empty();
    }

    /**
     * The first thinking block this server made that comes back with another text, on any model: the extended thinking
     * docs ("Preserving thinking blocks") ask for the complete unmodified block, and its signature is what the API
     * verifies it by, so the API refuses it in these words. Not droppable: {@code drop_block} is for a changed prefix.
     */
    private Optional<RequestValidator.Violation> altered(JsonNode messages) {
        if (texts.isEmpty() || !messages.isArray()) {
            return Optional.empty();
        }
        for (int i = 0; i < messages.size(); i++) {
            JsonNode content = messages.get(i).path("content");
            for (int j = 0; j < content.size() && content.isArray(); j++) {
                JsonNode block = content.get(j);
                Set<String> made = block.path("type").asText().equals("thinking") ? texts.get(block.path("signature").asText()) : null;
                if (made != null && !made.contains(block.path("thinking").asText())) {
                    return Optional.of(new RequestValidator.Violation(ApiErrorType.INVALID_REQUEST,
                            "messages." + i + ".content." + j + ": Invalid `signature` in `thinking` block"));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The first thinking block this server made that comes back in a message after other thinking blocks than it came
     * after in its response (a block of its turn left out before it, or the blocks rearranged), on the models that do
     * not bind their thinking: the extended thinking docs say the sequence must be the one the model made, and the
     * signatures that verify it are refused in these words, as an altered block is. A message whose thinking was all
     * left out has none to check: the docs let the thinking of earlier turns go.
     */
    private Optional<RequestValidator.Violation> reordered(JsonNode messages) {
        if (sequences.isEmpty() || !messages.isArray()) {
            return Optional.empty();
        }
        for (int i = 0; i < messages.size(); i++) {
            JsonNode content = messages.get(i).path("content");
            List<String> before = new ArrayList<>();
            for (int j = 0; j < content.size() && content.isArray(); j++) {
                JsonNode block = content.get(j);
                String type = block.path("type").asText();
                String key = type.equals("thinking") && !block.path("signature").asText().isEmpty()
                        ? sequenceKey(type, block.path("signature").asText(), block.path("thinking").asText())
                        : type.equals("redacted_thinking") && !block.path("data").asText().isEmpty()
                        ? sequenceKey(type, block.path("data").asText(), "") : null;
                if (key == null) {
                    continue;
                }
                Set<List<String>> made = sequences.get(key);
                if (made != null && !made.contains(before)) {
                    return Optional.of(new RequestValidator.Violation(ApiErrorType.INVALID_REQUEST,
                            "messages." + i + ".content." + j + ": Invalid `signature` in `" + type + "` block"));
                }
                before.add(key);
            }
        }
        return Optional.empty();
    }

    /** A block's key in {@link #sequences}: its type, signature (or redacted data) and text, run together unambiguously. */
    private static String sequenceKey(String type, String signature, String text) {
        return type + '\u0000' + signature.length() + ':' + signature + '\u0000' + text;
    }

    /** Whether the request asks for invalid blocks to be dropped, with the beta that defines the setting. */
    private static boolean drops(RecordedRequest request) {
        String betas = request.header("anthropic-beta");
        return "drop_block".equals(request.body().path("thinking").path("block_binding").path("prefix_mismatch_behavior").asText())
                && betas != null && Set.of(betas.replace(" ", "").split(",")).contains(BETA);
    }

    /**
     * The digests of a request's prefixes: {@code system} and {@code tools}, then each message in turn, without
     * {@code cache_control}, each written once as canonical JSON (key order aside, as the JSON values compare) into
     * one running SHA-256, so every block's prefix is compared in constant time rather than copied.
     */
    private static final class Prefixes {
        private final JsonNode messages;
        private final MessageDigest digest = Hashing.newDigest();
        private final List<byte[]> through = new ArrayList<>();

        Prefixes(JsonNode body) {
            this.messages = body.path("messages");
            update(body.path("system"));
            update(body.path("tools"));
            through.add(snapshot());
        }

        /** The digest of {@code system}, {@code tools} and the first {@code count} messages. */
        byte[] through(int count) {
            while (through.size() <= count) {
                update(messages.get(through.size() - 1));
                through.add(snapshot());
            }
            return through.get(count);
        }

        private void update(JsonNode node) {
            byte[] text = node.isMissingNode() ? new byte[0]
                    : dev.rein.json.Json.canonical(withoutCacheControl(node.deepCopy())).getBytes(StandardCharsets.UTF_8);
            // the length first, so that no two sequences of values run together into the same bytes
            digest.update(ByteBuffer.allocate(4).putInt(text.length).array());
            digest.update(text);
        }

        private byte[] snapshot() {
            try {
                return ((MessageDigest) digest.clone()).digest();
            } catch (CloneNotSupportedException e) {
                throw new IllegalStateException("every JDK's SHA-256 is cloneable", e);
            }
        }
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
