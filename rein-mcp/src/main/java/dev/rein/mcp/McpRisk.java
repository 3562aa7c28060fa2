package dev.rein.mcp;

import dev.rein.tool.Risk;

/**
 * The risk of an MCP tool. Annotations are hints from a server that may not be trusted, so the
 * mapping is safe by default: only {@code readOnlyHint: true} makes a tool READ; a tool that is not
 * read-only is WRITE only when it says {@code destructiveHint: false}; anything else, including a
 * tool without annotations, is IRREVERSIBLE (the protocol's default for {@code destructiveHint} is true).
 */
public final class McpRisk {
    private McpRisk() {}

    /** The risk the annotations give (null hints are absent). */
    public static Risk derive(Boolean readOnlyHint, Boolean destructiveHint) {
        if (Boolean.TRUE.equals(readOnlyHint)) {
            return Risk.READ;
        }
        if (Boolean.FALSE.equals(destructiveHint)) {
            return Risk.WRITE;
        }
        return Risk.IRREVERSIBLE;
    }

    /** True when {@code a} is stricter (needs more care) than {@code b}. */
    public static boolean stricter(Risk a, Risk b) {
        return a.ordinal() > b.ordinal();
    }

    /** The stricter of two risks. */
    public static Risk max(Risk a, Risk b) {
        return stricter(a, b) ? a : b;
    }
}
