package dev.rein.mcp.internal;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The warnings about one configured server, each said once for as long as its toolset runs: a
 * server that reconnects or opens a new session (a restart, an HTTP session it forgot) does the
 * same again, and a warning repeated per session would only fill the log.
 */
final class ServerWarnings {
    /** A bound on the warnings remembered (one per kind, or per distinct icon note): a server cannot fill memory. */
    private static final int MAX = 100;

    private final Set<String> said = ConcurrentHashMap.newKeySet();
    private final Consumer<String> sink;

    /** Warnings to the log (logger {@code dev.rein.mcp}). */
    ServerWarnings() {
        this(org.slf4j.LoggerFactory.getLogger("dev.rein.mcp")::warn);
    }

    /** Warnings to {@code sink} (for tests). */
    ServerWarnings(Consumer<String> sink) {
        this.sink = sink;
    }

    /** Says {@code text} unless a warning of {@code kind} was already said of this server. */
    void once(String kind, Supplier<String> text) {
        if (said.size() < MAX && said.add(kind)) {
            sink.accept(text.get());
        }
    }
}
