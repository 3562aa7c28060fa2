package dev.rein.cli;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * The real MCP servers from npm, installed at pinned versions by {@code .ci/run} (or by hand:
 * {@code npm ci --prefix rein-mcp/src/test/mcp-servers}). Under {@code CI=true} a missing server
 * fails the test; elsewhere the test is skipped with a message saying how to install them.
 */
final class NpmServers {
    static final Path ROOT = Path.of("..", "rein-mcp", "src", "test", "mcp-servers").toAbsolutePath().normalize();

    private NpmServers() {}

    /** The entry script of {@code @modelcontextprotocol/<name>}; fails (CI) or skips when it is missing. */
    static Path script(String name) {
        Path script = ROOT.resolve("node_modules/@modelcontextprotocol").resolve(name).resolve("dist/index.js");
        String node = node();
        if (node == null || !Files.isRegularFile(script)) {
            String message = "the MCP test servers are not installed (" + (node == null ? "no 'node' on the PATH" : script + " is missing")
                    + "); install them with: npm ci --prefix " + ROOT;
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail(message);
            }
            Assumptions.abort(message);
        }
        return script;
    }

    /** The keys of a stdio server entry running {@code node SCRIPT ARGS}, without the braces. */
    static String stdio(String name, String... args) {
        StringBuilder sb = new StringBuilder("\"command\": \"node\", \"args\": [\"" + json(script(name).toString()) + "\"");
        for (String arg : args) {
            sb.append(", \"").append(json(arg)).append('"');
        }
        return sb.append("]").toString();
    }

    static String json(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private static String node() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir, "node");
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return null;
    }
}
