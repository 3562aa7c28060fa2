package dev.rein.mcp;

import dev.rein.tool.Risk;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One MCP server of a configuration: how to reach it and Rein's limits for its tools.
 *
 * @param name      the key of the server in {@code mcpServers}
 * @param transport how the server is reached
 * @param risk      the risk set for every tool of the server ({@code "risk": "write"}), or null
 * @param toolRisk  per-tool risk overrides, by the server's tool name; they win over {@code risk}
 * @param allow     when not empty, the only tools offered (by the server's tool name)
 * @param deny      tools never offered
 * @param scope     a scope the run's principal must hold to call any tool of this server, or null
 * @param timeout   the limit of one call
 * @param trust     true lets an override make a tool <em>less</em> strict than its annotations say
 * @param prefix    put before every tool name (to tell apart servers offering the same names), or ""
 * @param secrets   values to mask wherever they could show (header values, substituted variables), by name
 */
public record McpServerConfig(String name, Transport transport, Risk risk, Map<String, Risk> toolRisk,
                              Set<String> allow, Set<String> deny, String scope, Duration timeout, boolean trust,
                              String prefix, Map<String, String> secrets) {
    /** The per-call timeout when {@code timeout_seconds} is not set. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    public McpServerConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(transport, "transport");
        toolRisk = Map.copyOf(toolRisk);
        allow = Set.copyOf(allow);
        deny = Set.copyOf(deny);
        timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
        prefix = prefix == null ? "" : prefix;
        secrets = Map.copyOf(secrets);
    }

    /** The override configured for {@code tool}, if any: its own, else the server's. */
    public Optional<Risk> overrideFor(String tool) {
        return Optional.ofNullable(toolRisk.getOrDefault(tool, risk));
    }

    /** True when the server's tool {@code tool} may be offered (allow and deny lists). */
    public boolean offers(String tool) {
        return (allow.isEmpty() || allow.contains(tool)) && !deny.contains(tool);
    }

    /** How a server is reached. */
    public sealed interface Transport permits Stdio, Http {}

    /**
     * A local process speaking MCP on its standard input and output.
     *
     * @param directory the working directory, or null for the current one
     */
    public record Stdio(String command, List<String> args, Map<String, String> env, Path directory) implements Transport {
        public Stdio {
            Objects.requireNonNull(command, "command");
            args = List.copyOf(args);
            env = Map.copyOf(env);
        }
    }

    /** A server reached with the streamable HTTP transport; header values are secrets. */
    public record Http(URI url, Map<String, String> headers) implements Transport {
        public Http {
            Objects.requireNonNull(url, "url");
            headers = Map.copyOf(headers);
        }

        /** Without header values, user info or query, any of which may hold a token. */
        @Override
        public String toString() {
            String shown = url.getScheme() + "://" + url.getHost() + (url.getPort() >= 0 ? ":" + url.getPort() : "")
                    + (url.getRawPath() == null ? "" : url.getRawPath()) + (url.getRawQuery() == null ? "" : "?…");
            return "Http[url=" + shown + ", headers=" + headers.keySet() + "]";
        }
    }
}
