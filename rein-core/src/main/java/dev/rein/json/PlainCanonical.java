package dev.rein.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.Iterator;
import java.util.function.UnaryOperator;

/**
 * The canonical text of the values tool arguments nearly always are (objects, arrays, strings,
 * integers, booleans, null, not deeply nested), written into a StringBuilder exactly as
 * {@link Json#canonical}'s generator writes them: starting a Jackson generator costs more than
 * writing a small value. Anything else (floats, binary, POJO nodes, deep nesting) is declined and
 * goes through the generator. {@code PlainCanonicalTest} compares both on every char and on random
 * documents.
 */
final class PlainCanonical {
    /** Deeper values go through the generator, which also enforces the depth limit. */
    private static final int MAX_DEPTH = 64;
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private PlainCanonical() {}

    /** The canonical text of {@code node}, or null when it is not plain ({@code strings} then has not been called). */
    static String of(JsonNode node, UnaryOperator<String> strings) {
        if (!plain(node, 0)) {
            return null;
        }
        StringBuilder out = new StringBuilder(64);
        append(out, node, strings);
        return out.toString();
    }

    private static boolean plain(JsonNode node, int depth) {
        switch (node.getNodeType()) {
            case OBJECT, ARRAY -> {
                if (depth >= MAX_DEPTH) {
                    return false;
                }
                for (JsonNode child : node) {
                    if (!plain(child, depth + 1)) {
                        return false;
                    }
                }
                return true;
            }
            case STRING, BOOLEAN, NULL -> {
                return true;
            }
            case NUMBER -> {
                return node.isInt() || node.isLong() || node.isShort() || node.isBigInteger();
            }
            default -> {
                return false;
            }
        }
    }

    private static void append(StringBuilder out, JsonNode node, UnaryOperator<String> strings) {
        switch (node.getNodeType()) {
            case OBJECT -> {
                String[] names = new String[node.size()];
                Iterator<String> it = node.fieldNames();
                for (int i = 0; i < names.length; i++) {
                    names[i] = it.next();
                }
                Arrays.sort(names);
                out.append('{');
                for (int i = 0; i < names.length; i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    string(out, names[i]);
                    out.append(':');
                    append(out, node.get(names[i]), strings);
                }
                out.append('}');
            }
            case ARRAY -> {
                out.append('[');
                for (int i = 0; i < node.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    append(out, node.get(i), strings);
                }
                out.append(']');
            }
            case STRING -> string(out, strings.apply(node.textValue()));
            case BOOLEAN -> out.append(node.booleanValue());
            case NULL -> out.append("null");
            case NUMBER -> {
                if (node.isInt() || node.isLong() || node.isShort()) {
                    out.append(node.longValue());
                } else {
                    out.append(node.bigIntegerValue());
                }
            }
            default -> throw new IllegalStateException("not plain: " + node.getNodeType());
        }
    }

    /** A JSON string as Jackson's writer quotes it: {@code "} and {@code \} escaped, control characters too, nothing else. */
    private static void string(StringBuilder out, String s) {
        out.append('"');
        int plain = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\') {
                continue;
            }
            out.append(s, plain, i).append('\\');
            switch (c) {
                case '"', '\\' -> out.append(c);
                case '\b' -> out.append('b');
                case '\t' -> out.append('t');
                case '\n' -> out.append('n');
                case '\f' -> out.append('f');
                case '\r' -> out.append('r');
                default -> out.append("u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
            plain = i + 1;
        }
        out.append(s, plain, s.length()).append('"');
    }
}
