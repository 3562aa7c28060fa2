package dev.rein.approval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.rein.json.Hashing;
import dev.rein.json.Json;

/**
 * The identity of an action: SHA-256 of the canonical JSON of {@code {"arguments": ..., "tool": ...}}
 * (keys sorted at every level). Two proposals hash alike exactly when they would do the same thing,
 * whatever the key order; an approval names this hash, so it covers that action and no other.
 */
public final class ActionHash {
    private ActionHash() {}

    public static String of(String tool, JsonNode arguments) {
        // The canonical text of {"arguments": ..., "tool": ...}, assembled around the arguments'
        // own canonical text ("arguments" sorts first) instead of building and walking a wrapper.
        JsonNode args = arguments == null ? NullNode.getInstance() : arguments;
        return Hashing.sha256("{\"arguments\":" + Json.canonical(args) + ",\"tool\":" + quoted(tool) + "}");
    }

    /**
     * The tool name as a canonical JSON string. A name of letters, digits, '_' and '-' (every
     * registered tool's) needs no escaping, so it is quoted directly instead of through a generator.
     */
    private static String quoted(String tool) {
        for (int i = 0; i < tool.length(); i++) {
            char c = tool.charAt(i);
            boolean plain = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-';
            if (!plain) {
                return Json.canonical(TextNode.valueOf(tool));
            }
        }
        return "\"" + tool + "\"";
    }

    /** The definition written out: the hash of the canonical wrapper object (tests compare {@link #of} with it). */
    static String ofWrapper(String tool, JsonNode arguments) {
        ObjectNode action = Json.object();
        action.put("tool", tool);
        action.set("arguments", arguments);
        return Hashing.sha256(Json.canonical(action));
    }

    /** Whether {@code text} has the form of an action hash: 64 hexadecimal digits, in either case. */
    public static boolean isHash(String text) {
        if (text == null || text.length() != 64) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (Character.digit(text.charAt(i), 16) < 0 || text.charAt(i) > 'f') {
                return false;
            }
        }
        return true;
    }

    /**
     * The hash {@code given} names, in the lower case {@link #of} writes: hex in upper case is the
     * same digest (copied from a tool that shows it so), so it names the same action. A value that
     * is not of a hash's form ({@link #isHash}) is returned unchanged.
     */
    public static String normalised(String given) {
        return isHash(given) ? given.toLowerCase(java.util.Locale.ROOT) : given;
    }

    /** The first 12 characters, for display. */
    public static String shortForm(String hash) {
        return hash.length() <= 12 ? hash : hash.substring(0, 12);
    }
}
