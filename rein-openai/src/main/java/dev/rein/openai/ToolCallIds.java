package dev.rein.openai;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The id a tool call goes over the wire with, in its call and in its result alike. A history may carry ids the
 * server would refuse: another provider's (a fallback's {@code toolu_...}, a resumed run's), a gateway's, or
 * one Rein gave a call that came without ({@code call_0}). The public API takes at most 40 characters
 * ("string too long. Expected a string with maximum length 40"), Mistral exactly 9 of {@code a-z A-Z 0-9}
 * ("Tool call id was call_0 but must be a-z, A-Z, 0-9, with a length of 9"). Such an id is replaced by one
 * made from its hash, the same every time, so the wire forms stay reusable and every request names a call
 * alike; an id the server takes is sent as it is, and the history keeps its own ids.
 */
final class ToolCallIds {
    private static final int LONGEST = 40;
    private static final Pattern MISTRAL_ID = Pattern.compile("[a-zA-Z0-9]{9}");
    private static final char[] ALPHANUMERIC =
            "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();

    private ToolCallIds() {}

    /**
     * Whether a base URL is Mistral's own API ({@code api.mistral.ai}, {@code codestral.mistral.ai}), whose ids
     * are 9 letters or digits. A Mistral model on another server (Ollama, vLLM) is left alone: those servers take
     * any id, or make Mistral's form themselves, and the calls are echoed back unchanged.
     */
    static boolean mistralHost(String baseUrl) {
        try {
            String host = java.net.URI.create(baseUrl).getHost();
            return host != null && (host.equals("mistral.ai") || host.endsWith(".mistral.ai"));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The id to send for {@code id}. */
    static String wire(String id, boolean mistral) {
        if (mistral) {
            if (MISTRAL_ID.matcher(id).matches()) {
                return id;
            }
            byte[] hash = sha256(id);
            StringBuilder wire = new StringBuilder(9);
            for (int i = 0; i < 9; i++) {
                wire.append(ALPHANUMERIC[(hash[i] & 0xFF) % ALPHANUMERIC.length]);
            }
            return wire.toString();
        }
        if (id.length() <= LONGEST) {
            return id;
        }
        // Recognizable by its start, told apart by the hash of the whole.
        return id.substring(0, LONGEST - 13) + "_" + HexFormat.of().formatHex(sha256(id)).substring(0, 12);
    }

    private static byte[] sha256(String id) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }
}
