package dev.rein.mcp.internal;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * Whether the MCP SDK under Rein is set to log what servers send. At DEBUG it logs each message as it came, which Rein
 * cannot change: {@code McpSchema} each text it reads (over HTTP each JSON body as the server sent it, a malformed answer
 * in it included), {@code McpClientSession} each answer, request and notification it receives (a tool's whole output),
 * {@code HttpClientStreamableHttpTransport} each message sent (a call's arguments). Masking is Rein's and comes after, so a
 * secret a tool returns is in those lines raw. Rein's only lever is to say so, once, when the application has them on.
 */
public final class SdkLogging {
    /** The SDK's loggers that log whole messages at DEBUG (a server's words, or a call's arguments). */
    static final List<String> LOGGERS = List.of("io.modelcontextprotocol.spec.McpSchema",
            "io.modelcontextprotocol.spec.McpClientSession",
            "io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport");

    private static final AtomicBoolean SAID = new AtomicBoolean();

    private SdkLogging() {
    }

    /** Logs the {@link #warning} (logger {@code dev.rein.mcp}) the first time a toolset starts in this JVM, if there is one. */
    public static void warnOnce() {
        if (!SAID.get()) {
            warning(SdkLogging::debugEnabled).ifPresent(text -> {
                if (SAID.compareAndSet(false, true)) {
                    org.slf4j.LoggerFactory.getLogger("dev.rein.mcp").warn(text);
                }
            });
        }
    }

    /** The warning naming the SDK's loggers {@code debugOn} says log at DEBUG; empty when none does. */
    static Optional<String> warning(Predicate<String> debugOn) {
        List<String> on = LOGGERS.stream().filter(debugOn).toList();
        if (on.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("The MCP SDK's logger" + (on.size() == 1 ? " " : "s ") + String.join(", ", on)
                + (on.size() == 1 ? " is" : " are") + " at DEBUG: the SDK logs every message of an MCP server there as the"
                + " server sent it (a tool's whole output, over HTTP each JSON body, a malformed one included), unmasked,"
                + " uncut and with control characters raw, which Rein cannot change; set logger io.modelcontextprotocol to"
                + " WARN (or off) wherever logs are kept or shown");
    }

    static boolean debugEnabled(String logger) {
        return org.slf4j.LoggerFactory.getLogger(logger).isDebugEnabled();
    }
}
