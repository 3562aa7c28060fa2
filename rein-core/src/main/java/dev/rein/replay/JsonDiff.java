package dev.rein.replay;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/** The first place two JSON values differ, as a readable path with both values. */
final class JsonDiff {
    /** How much of a differing value a report shows; longer values say how long they are. */
    private static final int SHOWN = 300;

    private JsonDiff() {}

    /** "at messages[3].content[0].content: recorded "..." / now "..."", or empty when equal. */
    static Optional<String> first(JsonNode recorded, JsonNode now) {
        return first("", recorded, now);
    }

    private static Optional<String> first(String path, JsonNode recorded, JsonNode now) {
        if (recorded == null || now == null || recorded.getNodeType() != now.getNodeType()) {
            return Optional.of(describe(path, recorded, now));
        }
        if (recorded.isObject()) {
            Set<String> names = new LinkedHashSet<>();
            recorded.fieldNames().forEachRemaining(names::add);
            now.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                Optional<String> d = first(path.isEmpty() ? name : path + "." + name, recorded.get(name), now.get(name));
                if (d.isPresent()) {
                    return d;
                }
            }
            return Optional.empty();
        }
        if (recorded.isArray()) {
            Iterator<JsonNode> a = recorded.elements();
            Iterator<JsonNode> b = now.elements();
            for (int i = 0; a.hasNext() || b.hasNext(); i++) {
                Optional<String> d = first(path + "[" + i + "]", a.hasNext() ? a.next() : null, b.hasNext() ? b.next() : null);
                if (d.isPresent()) {
                    return d;
                }
            }
            return Optional.empty();
        }
        return recorded.equals(now) ? Optional.empty() : Optional.of(describe(path, recorded, now));
    }

    private static String describe(String path, JsonNode recorded, JsonNode now) {
        String a = recorded == null ? null : Json.write(recorded);
        String b = now == null ? null : Json.write(now);
        int at = a == null || b == null ? 0 : firstDifference(a, b);
        return "at " + (path.isEmpty() ? "the request" : path) + ": recorded " + shown(a, at) + " / now " + shown(b, at);
    }

    private static int firstDifference(String a, String b) {
        int i = 0;
        while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        return i;
    }

    /**
     * {@code text} whole, or when longer than {@link #SHOWN} the part around {@code at}, where the
     * two values first differ: a long prompt or tool result changed near its end would otherwise
     * show the same beginning on both sides.
     */
    private static String shown(String text, int at) {
        if (text == null) {
            return "(nothing)";
        }
        if (text.length() <= SHOWN) {
            return text;
        }
        int start = Math.max(0, Math.min(at - SHOWN / 3, text.length() - SHOWN));
        int end = start + SHOWN;
        start = Character.isLowSurrogate(text.charAt(start)) ? start + 1 : start; // never half a character
        end = end < text.length() && Character.isLowSurrogate(text.charAt(end)) ? end - 1 : end;
        return (start > 0 ? "…" : "") + text.substring(start, end) + (end < text.length() ? "…" : "") + " (" + text.length()
                + " characters in all)";
    }
}
