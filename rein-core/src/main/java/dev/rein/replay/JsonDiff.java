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
        return "at " + (path.isEmpty() ? "the request" : path) + ": recorded " + shown(recorded) + " / now " + shown(now);
    }

    private static String shown(JsonNode value) {
        if (value == null) {
            return "(nothing)";
        }
        String text = Json.write(value);
        return text.length() <= SHOWN ? text : text.substring(0, SHOWN) + "… (" + text.length() + " characters in all)";
    }
}
