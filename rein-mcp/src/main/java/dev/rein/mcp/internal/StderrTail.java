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
        lines.addLast(line.length() > LINE_CHARS ? line.substring(0, LINE_CHARS) + "…" : line);
    }

    /** " Its stderr ended with: a | b | c" or "" when it wrote nothing. */
    public synchronized String describe() {
        if (lines.isEmpty()) {
            return "";
        }
        return " Its stderr ended with: " + Secrets.mask(String.join(" | ", lines), secrets);
    }
}
