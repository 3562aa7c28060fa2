package dev.rein.openai;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.model.OpaqueBlock;
import java.net.URI;
import java.util.Locale;

/**
 * The server a response came from ({@code scheme://host:port} of the base URL), kept in the blocks
 * that hold fields outside Chat Completions ({@code reasoning_content}, {@code reasoning_details}, a
 * call's {@code extra_content}). Only the server that sent such a field wants it back: another one
 * (a fallback model, a run resumed elsewhere) may refuse the whole request for it, as Groq does
 * ("property 'reasoning_content' is unsupported"), and the history holds it at every later step.
 *
 * <p>{@code reasoning_content} is the exception: a model family whose thinking mode refuses a tool-call turn without it
 * (DeepSeek; Moonshot's Kimi: "thinking is enabled but reasoning_content is missing in assistant tool call message"), or
 * whose makers ask for it back on such a turn (GLM, MiniMax-M2), needs it on every host that serves it (api.moonshot.ai,
 * api.moonshot.cn, api.kimi.com; vLLM; a gateway of one's own), so its block also records that {@link #family} and goes
 * back to the same family elsewhere.
 */
final class Origin {
    static final String FIELD = "origin";
    static final String FAMILY = "family";
    /** MiniMax's model family ({@link #family}), whose reasoning goes back in its think tags ({@link ReasoningContent}). */
    static final String MINIMAX = "minimax";

    private Origin() {}

    /** The origin of a base URL, or the URL itself when it has no host. */
    static String of(String baseUrl) {
        try {
            URI uri = URI.create(baseUrl.strip());
            if (uri.getHost() == null || uri.getScheme() == null) {
                return baseUrl;
            }
            int port = uri.getPort() != -1 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
            return (uri.getScheme() + "://" + uri.getHost() + ":" + port).toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            return baseUrl;
        }
    }

    /**
     * The model family of a server and model whose thinking mode wants its reasoning back on a tool-call turn wherever it
     * is served ("deepseek", "moonshot", "glm", "minimax"), or null: known by the host of DeepSeek's, Moonshot's and
     * MiniMax's own APIs, else by the model's name (its last path segment, as gateways and vLLM name it: deepseek-ai/DeepSeek-V3.1,
     * zai-org/GLM-4.6, MiniMaxAI/MiniMax-M2). GLM's interleaved thinking (Z.ai's guide: thinking "returned together with
     * the tool results", since GLM-4.5) and MiniMax-M2's (MiniMax's tool-use guide: the complete assistant message goes
     * back "to maintain the continuity of the reasoning chain") ask for it as DeepSeek and Kimi do; Qwen3's model card
     * asks for no thinking in the history, and its chat template drops it. Null for Groq and Cerebras, which refuse the
     * field whatever model they serve.
     */
    static String family(String origin, String model) {
        String host = origin == null ? "" : URI.create(origin).getHost();
        host = host == null ? "" : host.toLowerCase(Locale.ROOT);
        if (host.endsWith("groq.com") || host.endsWith("cerebras.ai")) {
            return null;
        }
        if (host.equals("deepseek.com") || host.endsWith(".deepseek.com")) {
            return "deepseek";
        }
        if (host.endsWith("moonshot.ai") || host.endsWith("moonshot.cn") || host.equals("kimi.com") || host.endsWith(".kimi.com")) {
            return "moonshot";
        }
        if (isMiniMaxApi(origin)) {
            return MINIMAX; // its own API serves only its models, whatever a name (a dated alias) says
        }
        if (model == null) {
            return null;
        }
        String name = model.substring(model.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        return name.startsWith("deepseek") ? "deepseek"
                : name.startsWith("kimi") || name.startsWith("moonshot") ? "moonshot"
                : name.startsWith("glm") ? "glm"
                : name.startsWith("minimax") ? MINIMAX : null;
    }

    /**
     * Whether the server at {@code origin} is MiniMax's own API (api.minimax.io, api.minimaxi.com, and the older
     * api.minimax.chat), which serves only MiniMax's models ({@link #family} "minimax").
     */
    static boolean isMiniMaxApi(String origin) {
        String host = origin == null ? null : URI.create(origin).getHost();
        if (host == null) {
            return false;
        }
        host = host.toLowerCase(Locale.ROOT);
        for (String domain : new String[] {"minimax.io", "minimaxi.com", "minimax.chat"}) {
            if (host.equals(domain) || host.endsWith("." + domain)) {
                return true;
            }
        }
        return false;
    }

    /** Marks a kept block with the server it came from; a null origin leaves it unmarked. */
    static ObjectNode mark(ObjectNode json, String origin) {
        if (origin != null) {
            json.put(FIELD, origin);
        }
        return json;
    }

    /**
     * Whether a kept block goes back to the server at {@code origin}: it came from there, or it has
     * no origin (kept before origins were, or by a mapper that knows none), as it always went back.
     */
    static boolean echoTo(OpaqueBlock block, String origin) {
        String from = block.json().path(FIELD).asText(null);
        return from == null || origin == null || from.equals(origin);
    }

    /**
     * Whether a kept block goes back to the server at {@code origin}, serving a model of {@code family} ({@link #family}):
     * as {@link #echoTo(OpaqueBlock, String)}, or the block was marked with that same family.
     */
    static boolean echoTo(OpaqueBlock block, String origin, String family) {
        return echoTo(block, origin) || family != null && family.equals(block.json().path(FAMILY).asText(null));
    }
}
