package dev.rein.mcp.internal;

import dev.rein.tool.Secrets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

/** The last lines a server wrote to stderr, for error messages; secrets masked. */
public final class StderrTail {
    private static final int LINES = 12;
    private static final int LINE_CHARS = 300;

    private final Deque<String> lines = new ArrayDeque<>();
    private final Map<String, String> secrets;

    public StderrTail(Map<String, String> secrets) {
        this.secrets = Map.copyOf(secrets);
    }

    public synchronized void add(String line) {
        if (line.isBlank()) {
            return;
        }
        if (lines.size() == LINES) {
            lines.removeFirst();
        }
        // Masked before it is cut: a secret cut in two is no longer found, and its first part would show.
        String masked = mask(line);
        lines.addLast(StdioTransport.first(masked, LINE_CHARS));
    }

    /** {@code text} with the server's secrets masked; mask text before cutting it short. */
    String mask(String text) {
        return Secrets.mask(text, secrets);
    }

    /** " Its stderr ended with: a | b | c" or "" when it wrote nothing. */
    public synchronized String describe() {
        if (lines.isEmpty()) {
            return "";
        }
        return " Its stderr ended with: " + String.join(" | ", lines);
    }
}
