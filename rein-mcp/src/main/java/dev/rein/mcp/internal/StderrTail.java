package dev.rein.mcp.internal;

import dev.rein.tool.Secrets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

/**
 * The last lines a server wrote to stderr, and the last lines it wrote to stdout that were no
 * JSON-RPC message (skipped), for error messages; secrets masked, control characters escaped.
 */
public final class StderrTail {
    private static final int LINES = 12;
    private static final int STDOUT_LINES = 3;
    private static final int LINE_CHARS = 300;
    /** The characters of a skipped stdout line shown, as of a server's message quoted in an error. */
    private static final int STDOUT_LINE_CHARS = 200;

    private final Deque<String> lines = new ArrayDeque<>();
    private final Deque<String> stdout = new ArrayDeque<>();
    /** Whether a stdout line was skipped before (the first is said, the others only kept). */
    private boolean skipped;
    private final Map<String, String> secrets;

    public StderrTail(Map<String, String> secrets) {
        this.secrets = Map.copyOf(secrets);
    }

    public synchronized void add(String line) {
        add(line, 0);
    }

    /**
     * Keeps a stderr line of which {@code dropped} more characters were read and not kept (past what
     * the reader holds of one line), counted in the length its cut says.
     */
    public synchronized void add(String line, long dropped) {
        if (line.isBlank()) {
            return;
        }
        if (lines.size() == LINES) {
            lines.removeFirst();
        }
        // Masked before it is cut: a secret cut in two is no longer found, and its first part would show. Its control
        // characters escaped: the tail reaches exceptions and results a library caller prints or logs as they are, where
        // an escape sequence (a colored log line, or a hostile one retitling the terminal) must not arrive raw. Cut as
        // every quote of a server's words is, saying how much was left out, so a cut line is not read as a whole one.
        lines.addLast(Quoted.of(mask(line), LINE_CHARS, dropped));
    }

    /**
     * Keeps a line the server wrote to stdout that is no JSON-RPC message, which was skipped: what a
     * server print()s there is often why it fails later.
     *
     * @return the line as it is shown ({@link #visibleStdout}) when it is the first such line of this server, which is
     *     worth saying once; null for the others (masked and cut once, not again for the warning)
     */
    public synchronized String addStdout(String line) {
        if (stdout.size() == STDOUT_LINES) {
            stdout.removeFirst();
        }
        String shown = visibleStdout(line);
        stdout.addLast(shown);
        boolean first = !skipped;
        skipped = true;
        return first ? shown : null;
    }

    /**
     * A skipped stdout line as it is shown: masked, cut to {@value #STDOUT_LINE_CHARS} characters, its control characters
     * (a tab, an escape sequence) escaped after the cut, so the cut counts the characters the server sent and never splits
     * an escape.
     */
    String visibleStdout(String line) {
        // As a stderr line is, not folded onto one line as StdioTransport.abbreviate folds a multi-line text: it is one line
        // already, and folded, a tab showed as a space where the stderr line beside it shows \x09, and a column's run of
        // spaces became one.
        return Quoted.ofLine(mask(line), STDOUT_LINE_CHARS);
    }

    /** {@code text} with the server's secrets masked; mask text before cutting it short. */
    String mask(String text) {
        return Secrets.mask(text, secrets);
    }

    /**
     * " Its stderr ended with: a | b | c", then " Lines it wrote to its stdout ... ended with: d | e"
     * when it wrote such lines; "" when it wrote nothing of either.
     */
    public synchronized String describe() {
        return (lines.isEmpty() ? "" : " Its stderr ended with: " + String.join(" | ", lines))
                + (stdout.isEmpty() ? "" : " Lines it wrote to its stdout that are not MCP messages (skipped; a stdio server writes"
                + " its logs to stderr) ended with: " + String.join(" | ", stdout));
    }
}
