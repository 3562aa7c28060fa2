package dev.rein.mcp;

import dev.rein.ReinException;

/**
 * An MCP configuration that cannot be used: a malformed servers file, an unknown key, a server
 * that cannot be started or does not answer. The message names the server and says what to do;
 * for a server that failed to start it ends with the last lines the server wrote to stderr.
 *
 * <p>The message quotes what servers sent (their stderr, a line of their stdout, an error they
 * answered with), which a caller prints or logs as it is: its control characters (an ANSI or OSC
 * escape sequence, a carriage return) are shown as escapes ({@code \x1b}), so it is one line that
 * cannot drive a terminal.
 */
public final class McpConfigException extends ReinException {
    /** @param message what is wrong and what to do; its control characters are escaped */
    public McpConfigException(String message) {
        super(visible(message));
    }

    /** @param message what is wrong and what to do; its control characters are escaped */
    public McpConfigException(String message, Throwable cause) {
        super(visible(message), cause);
    }

    private static String visible(String message) {
        return message == null ? null : dev.rein.internal.text.Controls.visible(message, false);
    }
}
