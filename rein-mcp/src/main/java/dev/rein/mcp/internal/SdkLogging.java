package dev.rein.mcp.internal;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * Whether the MCP SDK under Rein is set to log what servers send, or what Rein sends them. At DEBUG it logs each
 * message as it came, which Rein cannot change: {@code McpSchema} each text it reads (over HTTP each JSON body as the
 * server sent it, a malformed answer in it included), {@code McpClientSession} each answer, request and notification it
 * receives (a tool's whole output), {@code McpAsyncClient} each log message and progress notification, and each new
 * list of tools, resources or prompts and each changed resource's contents (which it reads) a server announces,
 * {@code ResponseBodyHandlers$SseEventParser} the event-stream lines it skips, raw; and
 * {@code HttpClientStreamableHttpTransport} each message sent (a call's arguments). Masking is Rein's and comes after, so
 * a secret a tool returns is in those lines raw. Rein's only lever is to say so, once, when the application has them on.
 * ({@code LifecycleInitializer} logs a server's instructions at INFO; not checked here: INFO is on almost everywhere, and
 * docs/mcp.md names it.)
 */
public final class SdkLogging {
    /** The SDK's loggers that log whole messages at DEBUG, each with what it logs (a server's words, or Rein's). */
    static final List<SdkLogger> LOGGERS = List.of(
            new SdkLogger("io.modelcontextprotocol.spec.McpSchema", "each message a server sends, as it came: over HTTP"
                    + " each JSON body, a malformed one included"),
            new SdkLogger("io.modelcontextprotocol.spec.McpClientSession", "each answer, request and notification a server"
                    + " sends, a tool's whole output included"),
            new SdkLogger("io.modelcontextprotocol.client.McpAsyncClient", "each log message and progress notification a"
                    + " server sends, and each list of tools, resources or prompts and each resource's contents it"
                    + " announces anew"),
            new SdkLogger("io.modelcontextprotocol.client.transport.ResponseBodyHandlers$SseEventParser", "the lines of a"
                    + " server's event stream it skips, raw"),
            new SdkLogger("io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport", "each message Rein"
                    + " sends, a tool call's arguments included"));

    /** An SDK logger's name and what it logs at DEBUG, as the warning says it. */
    record SdkLogger(String name, String logs) {}

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

    /** The warning naming the SDK's loggers {@code debugOn} says log at DEBUG, each with what it logs; empty when none does. */
    static Optional<String> warning(Predicate<String> debugOn) {
        List<String> on = LOGGERS.stream().filter(l -> debugOn.test(l.name())).map(l -> l.name() + " (" + l.logs() + ")")
                .toList();
        if (on.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("The MCP SDK logs at DEBUG, unmasked, uncut and with control characters raw, which Rein cannot"
                + " change: " + String.join("; ", on) + "; set logger io.modelcontextprotocol to WARN (or off) wherever logs"
                + " are kept or shown");
    }

    static boolean debugEnabled(String logger) {
        return org.slf4j.LoggerFactory.getLogger(logger).isDebugEnabled();
    }
}
