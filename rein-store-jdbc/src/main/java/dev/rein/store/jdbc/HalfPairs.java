package dev.rein.store.jdbc;

/**
 * Half a UTF-16 surrogate pair in stored JSON. A Java string holds one (a tool that cut its output inside
 * an emoji, an MCP server's JSON escaping a lone {@code \ud83d}), but it has no UTF-8 form: both drivers
 * encode the text as UTF-8 and write it as '?', so the run loaded back was not the one saved.
 */
final class HalfPairs {
    private HalfPairs() {}

    /**
     * {@code json} with each unpaired surrogate written as its JSON escape ({@code \ud83d}), which a JSON reader
     * turns back into the same character; whole pairs (emoji) pass unchanged. JSON text holds characters outside
     * ASCII only inside its strings, where an escape means the character itself. The same instance when there is
     * nothing to escape.
     */
    static String escaped(String json) {
        StringBuilder out = null;
        for (int i = 0, n = json.length(); i < n; i++) {
            char c = json.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(json.charAt(i + 1));
            if (!pair && Character.isSurrogate(c)) {
                if (out == null) {
                    out = new StringBuilder(n + 16).append(json, 0, i);
                }
                out.append("\\u").append(Integer.toHexString(c));
                continue;
            }
            if (out != null) {
                out.append(c);
                if (pair) {
                    out.append(json.charAt(i + 1));
                }
            }
            if (pair) {
                i++;
            }
        }
        return out == null ? json : out.toString();
    }
}
