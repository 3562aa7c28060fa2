package dev.rein.store.jdbc;

/**
 * Half a UTF-16 surrogate pair in stored JSON. A Java string holds one (a tool that cut its output inside
 * an emoji, an MCP server's JSON escaping a lone {@code \ud83d}), but it has no UTF-8 form: both drivers
 * encode the text as UTF-8 and write it as '?', so the run loaded back was not the one saved.
 */
final class HalfPairs {
    private HalfPairs() {}

    /** {@code json} with each unpaired surrogate written as its JSON escape ({@link dev.rein.json.Json#escapeHalfPairs}). */
    static String escaped(String json) {
        return dev.rein.json.Json.escapeHalfPairs(json);
    }
}
