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
 */
final class Origin {
    static final String FIELD = "origin";

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
}
