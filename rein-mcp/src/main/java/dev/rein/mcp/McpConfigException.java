package dev.rein.mcp;

import dev.rein.ReinException;

/**
 * An MCP configuration that cannot be used: a malformed servers file, an unknown key, a server
 * that cannot be started or does not answer. The message names the server and says what to do;
 * for a server that failed to start it ends with the last lines the server wrote to stderr.
 */
public final class McpConfigException extends ReinException {
    public McpConfigException(String message) {
        super(message);
    }

    public McpConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
