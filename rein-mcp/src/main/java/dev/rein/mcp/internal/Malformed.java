package dev.rein.mcp.internal;

import dev.rein.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Checks a server's {@code initialize}, {@code tools/list} and {@code tools/call} answers against
 * the types the protocol defines (revisions 2025-06-18 and 2025-11-25, schema.ts) before the SDK reads them. A
 * wrongly typed field made the SDK refuse the whole answer with Jackson's words and Java type
 * names, which named neither the tool nor the field, so one bad tool failed the server's start
 * under advice about its command, and one bad result restarted a server that had answered.
 * Instead, a bad tool entry becomes a placeholder carrying what is wrong with it: Rein refuses it
 * at start naming tool and field (unless it is denied), and leaves it out of a later listing. A
 * bad result (a wrongly typed field, no {@code content}, or a content block without a field its type requires) becomes
 * a placeholder error result that the call reports, naming the field, and the server is kept. A bad {@code initialize} answer is refused ({@link Answer}), naming the field.
 * The note travels in {@code _meta} under {@link #META}; a server's own value there is dropped, so
 * a server cannot pass a well-formed answer off as malformed.
 *
 * <p>Icons (a tool's, a resource link's) are the exception: they are only for a client to display,
 * which Rein does not do, and the protocol asks nothing of a client about a bad one. An icon that is
 * not what the protocol defines is left out, with a warning, and the tool or result is used.
 */
final class Malformed {
    /** The {@code _meta} key carrying what is wrong with an answer or a tool entry. */
    static final String META = "dev.rein/malformed";
    private static final List<String> HINTS = List.of("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint");

    private Malformed() {}

    /** An answer that is not what the protocol defines, which the SDK is not to read; the message says what is wrong. */
    static final class Answer extends RuntimeException {
        Answer(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * {@code data}, an {@code initialize} answer, unchanged.
     *
     * @throws Answer naming the field, when one has a type the protocol does not allow there
     */
    static Object initializeResult(Object data) {
        return initializeResult(data, note -> {});
    }

    /**
     * As {@link #initializeResult(Object)}, with only the valid icons of {@code serverInfo} (and
     * without a {@code websiteUrl} that is not a string): each left out is told to {@code leftOut}.
     */
    static Object initializeResult(Object data, Consumer<String> leftOut) {
        if (!(data instanceof Map<?, ?> result)) {
            throw new Answer("its initialize answer is " + show(data) + ", not an object");
        }
        String problem = fields(result, "", Map.of("protocolVersion", "a string", "capabilities", "an object",
                "serverInfo", "an object", "instructions", "a string", "_meta", "an object"));
        if (problem == null && result.get("capabilities") instanceof Map<?, ?> capabilities) {
            problem = fields(capabilities, "capabilities", Map.of("tools", "an object", "prompts", "an object",
                    "resources", "an object", "logging", "an object", "completions", "an object", "experimental", "an object"));
            for (String capability : List.of("tools", "prompts", "resources")) {
                if (problem == null && capabilities.get(capability) instanceof Map<?, ?> declared) {
                    problem = fields(declared, "capabilities." + capability, Map.of("listChanged", "true or false",
                            "subscribe", "true or false"));
                }
            }
        }
        if (problem == null && result.get("serverInfo") instanceof Map<?, ?> info) {
            problem = fields(info, "serverInfo", Map.of("name", "a string", "version", "a string", "title", "a string"));
        }
        if (problem == null && result.get("protocolVersion") == null) {
            // Without it there is no version to speak; the SDK's refusal read as the server choosing version ''.
            problem = result.containsKey("protocolVersion") ? "\"protocolVersion\" null, where the protocol requires a string"
                    : "no \"protocolVersion\", which the protocol requires";
        }
        // Required by the schema as well, and refused when missing by the TypeScript and Python SDKs' clients (the Java
        // SDK takes the answer without them, as if the server had said nothing of what it offers or what it is).
        if (problem == null) {
            problem = required(result, "", "capabilities", "an object, {} for none", "an object");
        }
        if (problem == null) {
            problem = required(result, "", "serverInfo", "an object with \"name\" and \"version\"", "an object");
        }
        for (String key : List.of("name", "version")) {
            if (problem == null) {
                problem = required((Map<?, ?>) result.get("serverInfo"), "serverInfo.", key, "a string", "a string");
            }
        }
        if (problem != null) {
            throw new Answer("its initialize answer is not what the protocol defines: " + problem);
        }
        if (!(result.get("serverInfo") instanceof Map<?, ?> info)) {
            return data;
        }
        // Both only for a client to show its user (Implementation, 2025-11-25); the SDK reads them, so a bad one must not reach it.
        Consumer<String> told = note -> leftOut.accept("answered initialize with " + note);
        Object kept = withValidIcons(info, "serverInfo.icons", told);
        Object url = info.get("websiteUrl");
        if (url != null && !(url instanceof String)) {
            told.accept("\"serverInfo.websiteUrl\" " + show(url) + ", where the protocol requires a string");
            Map<Object, Object> copy = new LinkedHashMap<>((Map<?, ?>) kept);
            copy.remove("websiteUrl");
            kept = copy;
        }
        if (kept == info) {
            return data;
        }
        Map<Object, Object> copy = new LinkedHashMap<>(result);
        copy.put("serverInfo", kept);
        return copy;
    }

    /** What is wrong with the answer or tool entry whose {@code _meta} is {@code meta}; null when nothing. */
    static String of(Map<String, Object> meta) {
        return meta != null && meta.get(META) instanceof String problem ? problem : null;
    }

    /**
     * A {@code tools/list} answer with each malformed tool entry replaced by a placeholder (its
     * name when it has one, an empty input schema, the problem in {@code _meta}); an answer
     * whose own fields are wrong becomes an empty list with the problem in its {@code _meta}.
     */
    static Object listing(Object data) {
        return listing(data, note -> {});
    }

    /** As {@link #listing(Object)}; each icon left out is told to {@code leftOut}, naming the tool and the field. */
    static Object listing(Object data, Consumer<String> leftOut) {
        if (!(data instanceof Map<?, ?> result)) {
            return placeholderListing("it is " + show(data) + ", not an object");
        }
        if (!(result.get("tools") instanceof List<?> tools)) {
            return placeholderListing(!result.containsKey("tools") ? "it has no \"tools\" (an array is required)"
                    : "its \"tools\" is " + show(result.get("tools")) + ", not an array");
        }
        Object cursor = result.get("nextCursor");
        if (cursor != null && !(cursor instanceof String)) {
            return placeholderListing("its \"nextCursor\" is " + show(cursor) + ", not a string");
        }
        List<Object> checked = new ArrayList<>(tools.size());
        for (int i = 0; i < tools.size(); i++) {
            Object entry = tools.get(i);
            String problem = toolProblem(entry);
            if (problem == null) {
                String name = (String) ((Map<?, ?>) entry).get("name");
                checked.add(withoutSdkOnlyHint(withoutNote(withValidIcons(entry, "icons",
                        note -> leftOut.accept("listed tool '" + StdioTransport.abbreviate(name) + "' with " + note)))));
                continue;
            }
            Map<String, Object> placeholder = new LinkedHashMap<>();
            if (entry instanceof Map<?, ?> tool && tool.get("name") instanceof String name) {
                placeholder.put("name", name);
            } else {
                problem += " (entry " + (i + 1) + " of its tools/list answer" + describedAs(entry) + ")";
            }
            placeholder.put("inputSchema", Map.of("type", "object"));
            placeholder.put("_meta", Map.of(META, problem));
            checked.add(placeholder);
        }
        Map<Object, Object> copy = new LinkedHashMap<>(result);
        copy.put("tools", checked);
        return withoutNote(copy);
    }

    /**
     * A {@code tools/call} answer, or when one of its fields has the wrong type a placeholder
     * error result with the problem in its {@code _meta}.
     */
    static Object callResult(Object data) {
        return callResult(data, note -> {});
    }

    /** As {@link #callResult(Object)}; each icon of a resource link left out is told to {@code leftOut}, naming the field. */
    static Object callResult(Object data, Consumer<String> leftOut) {
        String problem = callProblem(data);
        if (problem == null) {
            return withoutNote(withValidLinkIcons(data, leftOut));
        }
        Map<String, Object> placeholder = new LinkedHashMap<>();
        placeholder.put("content", List.of());
        placeholder.put("isError", true);
        placeholder.put("_meta", Map.of(META, problem));
        return placeholder;
    }

    private static String callProblem(Object data) {
        if (!(data instanceof Map<?, ?> result)) {
            return "an answer that is " + show(data) + ", not an object";
        }
        Object content = result.get("content");
        if (content == null && !(result.get("structuredContent") instanceof Map<?, ?>)) {
            // CallToolResult requires it (schema 2025-11-25, as every revision before), [] when there is nothing to
            // show; the Python SDK refuses an answer without it too. Taken as [], the model was told the tool returned
            // nothing. An answer with structured content alone is taken (below): the tools page asks a tool that returns
            // structured content only to repeat it as text (SHOULD), and the TypeScript SDK's client reads a missing
            // "content" as [] (its types make "content" optional beside structured content; the schema requires it).
            return result.containsKey("content") ? "\"content\" null, where the protocol requires an array of content blocks"
                    : show(result) + " without \"content\", which the protocol requires (an array of content blocks, [] for none)";
        }
        if (content == null) {
            content = List.of(); // structured content alone: the model is shown it as JSON (ResultText)
        }
        if (!(content instanceof List<?> blocks)) {
            return "\"content\" " + show(content) + ", where the protocol requires an array of content blocks";
        }
        for (int i = 0; i < blocks.size(); i++) {
            String problem = blockProblem(blocks.get(i), "content[" + i + "]");
            if (problem != null) {
                return problem;
            }
        }
        Object isError = result.get("isError");
        if (isError != null && !(isError instanceof Boolean)) {
            return "\"isError\" " + show(isError) + ", where the protocol requires true or false";
        }
        Object structured = result.get("structuredContent");
        if (structured != null && !(structured instanceof Map<?, ?>)) {
            return "\"structuredContent\" " + show(structured) + ", where the protocol requires an object";
        }
        Object meta = result.get("_meta");
        if (meta != null && !(meta instanceof Map<?, ?>)) {
            return "\"_meta\" " + show(meta) + ", where the protocol requires an object";
        }
        return null;
    }

    /**
     * What is wrong with a content block of a type the protocol defines, as "FIELD VALUE, where …";
     * null when nothing (a block of another type is described, not refused: see
     * {@link CancellingTransport#withKnownContent}).
     */
    private static String blockProblem(Object block, String at) {
        if (!(block instanceof Map<?, ?> map) || !(map.get("type") instanceof String type)) {
            return null;
        }
        // The fields each type requires (schema.ts, 2025-06-18 and 2025-11-25): a block without one is as
        // malformed as one with a wrong type, where before a text block without "text" became an empty
        // line and an image without "mimeType" was shown as "[image null, …]".
        String problem = switch (type) {
            case "text" -> required(map, at, List.of("text"), Map.of("text", "a string"));
            case "image", "audio" -> {
                String wrong = required(map, at, List.of("data", "mimeType"), Map.of("data", "a string", "mimeType", "a string"));
                yield wrong != null ? wrong : notBase64(map, at, "data");
            }
            case "resource_link" -> {
                String wrong = required(map, at, List.of("uri", "name"), Map.of("uri", "a string", "name", "a string",
                        "title", "a string", "description", "a string", "mimeType", "a string", "size", "an integer"));
                // its icons are checked apart: a bad one is left out (withValidLinkIcons), not a malformed result
                yield wrong;
            }
            case "resource" -> map.get("resource") == null ? missing(map, at, "resource", "an object")
                    : resourceProblem(map.get("resource"), at + ".resource");
            default -> null;
        };
        if (problem == null) {
            problem = fields(map, at, Map.of("annotations", "an object", "_meta", "an object"));
        }
        if (problem == null && map.get("annotations") instanceof Map<?, ?> annotations) {
            problem = fields(annotations, at + ".annotations", Map.of("audience", "an array", "priority", "a number",
                    "lastModified", "a string"));
            if (problem == null && annotations.get("audience") instanceof List<?> audience) {
                for (Object role : audience) {
                    if (!"user".equals(role) && !"assistant".equals(role)) {
                        return "\"" + at + ".annotations.audience\" " + show(audience) + ", where the protocol allows only \"user\""
                                + " and \"assistant\"";
                    }
                }
            }
        }
        return problem;
    }

    private static String resourceProblem(Object resource, String at) {
        if (!(resource instanceof Map<?, ?> map)) {
            return "\"" + at + "\" " + show(resource) + ", where the protocol requires an object";
        }
        String problem = required(map, at, List.of("uri"), Map.of("uri", "a string", "mimeType", "a string", "text", "a string",
                "blob", "a string", "_meta", "an object"));
        if (problem == null && map.get("text") == null && map.get("blob") == null) {
            return "\"" + at + "\" " + show(resource) + ", where the protocol requires a \"text\" or a \"blob\"";
        }
        return problem != null ? problem : notBase64(map, at, "blob");
    }

    /**
     * What is wrong with {@code map}'s string {@code key} when it is not base64 (schema: format
     * "byte"), read as the TypeScript SDK's client reads it (forgiving-base64: ASCII whitespace
     * skipped, padding optional); null when it is, or absent. Else an image of so many bytes was
     * told to the model, counted from whatever characters were base64 ones.
     */
    private static String notBase64(Map<?, ?> map, String at, String key) {
        return map.get(key) instanceof String text && !base64(text)
                ? "\"" + at + "." + key + "\" " + show(text) + ", where the protocol requires base64" : null;
    }

    static boolean base64(String text) {
        int data = 0;
        int padding = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r') {
                continue;
            }
            if (c == '=') {
                padding++;
            } else if (padding > 0 || !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/')) {
                return false; // a character outside the alphabet, or data after padding
            } else {
                data++;
            }
        }
        return padding <= 2 && (padding == 0 || (data + padding) % 4 == 0) && data % 4 != 1;
    }

    /**
     * As {@link #fields}, and first the first of {@code keys} (each one of {@code expected}) that
     * {@code map} lacks, as "AT VALUE without "KEY", which the protocol requires (KIND)", or has as
     * JSON {@code null}, as "AT.KEY null, where the protocol requires KIND"; else null.
     */
    private static String required(Map<?, ?> map, String at, List<String> keys, Map<String, String> expected) {
        for (String key : keys) {
            if (map.get(key) == null) {
                return missing(map, at, key, expected.get(key));
            }
        }
        return fields(map, at, expected);
    }

    private static String missing(Map<?, ?> map, String at, String key, String kind) {
        // A key sent as null is there, with a value of the wrong type: "without" it sent a server's author looking for a
        // field the answer has.
        return map.containsKey(key) ? "\"" + at + "." + key + "\" null, where the protocol requires " + kind
                : "\"" + at + "\" " + show(map) + " without \"" + key + "\", which the protocol requires (" + kind + ")";
    }

    /**
     * {@code entry} (a tool or a resource link) with only the icons at {@code at} that are what
     * the protocol defines (an {@code Icon[]}, schema 2025-11-25); each left out, or {@code icons}
     * that are not an array, is told to {@code leftOut} as "AT… VALUE, where …". The SDK reads icons
     * too, so a bad one must not reach it; being only for display, none is worth the tool or the answer.
     */
    private static Object withValidIcons(Object entry, String at, Consumer<String> leftOut) {
        if (!(entry instanceof Map<?, ?> map) || map.get("icons") == null) {
            return entry;
        }
        Map<Object, Object> copy = new LinkedHashMap<>(map);
        if (!(map.get("icons") instanceof List<?> list)) {
            leftOut.accept("\"" + at + "\" " + show(map.get("icons")) + ", where the protocol requires an array");
            copy.remove("icons");
            return copy;
        }
        List<Object> kept = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            String problem = iconProblem(list.get(i), at + "[" + i + "]");
            if (problem == null) {
                kept.add(list.get(i));
            } else {
                leftOut.accept(problem);
            }
        }
        if (kept.size() == list.size()) {
            return entry;
        }
        copy.put("icons", kept);
        return copy;
    }

    /** A tool result whose resource links keep only their valid icons, as {@link #withValidIcons} says. */
    private static Object withValidLinkIcons(Object data, Consumer<String> leftOut) {
        if (!(data instanceof Map<?, ?> result) || !(result.get("content") instanceof List<?> blocks)) {
            return data;
        }
        List<Object> checked = new ArrayList<>(blocks.size());
        boolean changed = false;
        for (int i = 0; i < blocks.size(); i++) {
            Object block = blocks.get(i);
            Object kept = block instanceof Map<?, ?> map && "resource_link".equals(map.get("type"))
                    ? withValidIcons(block, "content[" + i + "].icons", note -> leftOut.accept("answered a tool call with " + note))
                    : block;
            changed |= kept != block;
            checked.add(kept);
        }
        if (!changed) {
            return data;
        }
        Map<Object, Object> copy = new LinkedHashMap<>(result);
        copy.put("content", checked);
        return copy;
    }

    /** What is wrong with one icon at {@code here}, as "HERE… VALUE, where …"; null when nothing. */
    private static String iconProblem(Object entry, String here) {
        if (!(entry instanceof Map<?, ?> icon)) {
            return "\"" + here + "\" " + show(entry) + ", where the protocol requires an object";
        }
        String problem = required(icon, here, List.of("src"), Map.of("src", "a string", "mimeType", "a string",
                "sizes", "an array", "theme", "a string"));
        if (problem == null && icon.get("sizes") instanceof List<?> sizes && !sizes.stream().allMatch(String.class::isInstance)) {
            problem = "\"" + here + ".sizes\" " + show(sizes) + ", where the protocol requires an array of strings";
        }
        if (problem == null && icon.get("theme") != null && !"light".equals(icon.get("theme")) && !"dark".equals(icon.get("theme"))) {
            problem = "\"" + here + ".theme\" " + show(icon.get("theme")) + ", where the protocol allows only \"light\" and \"dark\"";
        }
        return problem;
    }

    /** What is wrong when {@code map} lacks {@code key} or has it null, as "no "AT.KEY", which …"; null when it has one. */
    private static String required(Map<?, ?> map, String at, String key, String shape, String type) {
        if (map.get(key) != null) {
            return null;
        }
        return map.containsKey(key) ? "\"" + at + key + "\" null, where the protocol requires " + type
                : "no \"" + at + key + "\", which the protocol requires (" + shape + ")";
    }

    /** The first of {@code expected} (key → kind) present in {@code map} with another type, as "AT.KEY VALUE, where …"; else null. */
    private static String fields(Map<?, ?> map, String at, Map<String, String> expected) {
        for (var field : new java.util.TreeMap<>(expected).entrySet()) {
            Object value = map.get(field.getKey());
            boolean fits = value == null || switch (field.getValue()) {
                case "a string" -> value instanceof String;
                case "a number" -> value instanceof Number;
                case "an integer" -> integral(value);
                case "an object" -> value instanceof Map<?, ?>;
                case "an array" -> value instanceof List<?>;
                default -> value instanceof Boolean;
            };
            if (!fits) {
                return "\"" + (at.isEmpty() ? "" : at + ".") + field.getKey() + "\" " + show(value) + ", where the protocol requires "
                        + field.getValue();
            }
        }
        return null;
    }

    /** What is wrong with one entry of a tool list, as "FIELD VALUE, where …"; null when nothing. */
    private static String toolProblem(Object entry) {
        if (!(entry instanceof Map<?, ?> tool)) {
            return "an entry that is " + show(entry) + ", not a tool object";
        }
        Object name = tool.get("name");
        if (!(name instanceof String)) {
            return !tool.containsKey("name") ? "a tool without a \"name\"" : "a tool whose \"name\" is " + show(name) + ", not a string";
        }
        for (String key : List.of("title", "description")) {
            if (tool.get(key) != null && !(tool.get(key) instanceof String)) {
                return "\"" + key + "\" " + show(tool.get(key)) + ", where the protocol requires a string";
            }
        }
        // A missing inputSchema is tolerated (Rein takes it as {"type": "object"}); a wrongly typed one is not.
        for (String key : List.of("inputSchema", "outputSchema", "_meta")) {
            if (tool.get(key) != null && !(tool.get(key) instanceof Map<?, ?>)) {
                return "\"" + key + "\" " + show(tool.get(key)) + ", where the protocol requires an object";
            }
        }
        Object annotations = tool.get("annotations");
        if (annotations == null) {
            return null;
        }
        if (!(annotations instanceof Map<?, ?> hints)) {
            return "\"annotations\" " + show(annotations) + ", where the protocol requires an object";
        }
        if (hints.get("title") != null && !(hints.get("title") instanceof String)) {
            return "\"annotations.title\" " + show(hints.get("title")) + ", where the protocol requires a string";
        }
        for (String hint : HINTS) {
            if (hints.get(hint) != null && !(hints.get(hint) instanceof Boolean)) {
                return "\"annotations." + hint + "\" " + show(hints.get(hint)) + ", where the protocol requires true or false";
            }
        }
        return null;
    }

    /** Whether {@code value} is a JSON integer: a number without a fraction ({@code 3.0} is one in JSON Schema too). */
    private static boolean integral(Object value) {
        return switch (value) {
            case Integer i -> true;
            case Long l -> true;
            case Short s -> true;
            case Byte b -> true;
            case java.math.BigInteger b -> true;
            case Double d -> !d.isInfinite() && d == Math.rint(d);
            case Float f -> !f.isInfinite() && f == Math.rint(f);
            case java.math.BigDecimal d -> d.stripTrailingZeros().scale() <= 0;
            default -> false;
        };
    }

    private static String describedAs(Object entry) {
        if (entry instanceof Map<?, ?> tool) {
            Object said = tool.get("description") instanceof String d ? d : tool.get("title") instanceof String t ? t : null;
            if (said != null) {
                return ", described as '" + StdioTransport.abbreviate((String) said) + "'";
            }
        }
        return "";
    }

    /**
     * {@code entry} without an {@code annotations.returnDirect} that is not a boolean: the SDK reads
     * that key of its own, which the protocol does not define (so a server may send anything
     * there) and Rein does not use.
     */
    private static Object withoutSdkOnlyHint(Object entry) {
        if (!(entry instanceof Map<?, ?> tool) || !(tool.get("annotations") instanceof Map<?, ?> hints)
                || hints.get("returnDirect") == null || hints.get("returnDirect") instanceof Boolean) {
            return entry;
        }
        Map<Object, Object> copy = new LinkedHashMap<>(tool);
        Map<Object, Object> hintsCopy = new LinkedHashMap<>(hints);
        hintsCopy.remove("returnDirect");
        copy.put("annotations", hintsCopy);
        return copy;
    }

    private static Object placeholderListing(String problem) {
        return Map.of("tools", List.of(), "_meta", Map.of(META, "its tools/list answer is not what the protocol defines: " + problem));
    }

    /** {@code data} without a note of this class's name in its {@code _meta}: only Rein writes that. */
    private static Object withoutNote(Object data) {
        if (!(data instanceof Map<?, ?> map) || !(map.get("_meta") instanceof Map<?, ?> meta) || !meta.containsKey(META)) {
            return data;
        }
        Map<Object, Object> copy = new LinkedHashMap<>(map);
        Map<Object, Object> metaCopy = new LinkedHashMap<>(meta);
        metaCopy.remove(META);
        copy.put("_meta", metaCopy);
        return copy;
    }

    /** A value as JSON, cut short, for a message. */
    static String show(Object value) {
        String json;
        try {
            json = Json.write(Json.mapper().valueToTree(value));
        } catch (RuntimeException e) {
            json = String.valueOf(value);
        }
        return StdioTransport.abbreviate(json, 60);
    }
}
