package dev.rein.mcp;

import dev.rein.mcp.internal.ConfigParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The MCP servers an agent uses, in the {@code {"mcpServers": {...}}} format other MCP clients
 * read, plus Rein's optional per-server keys ({@code risk}, {@code allow}, {@code deny},
 * {@code scope}, {@code timeout_seconds}, {@code trust}, {@code prefix}). See docs/mcp.md.
 *
 * @param servers  the servers, in file order (servers with {@code "disabled": true} are left out)
 * @param warnings keys of other clients that Rein read but does not honour, one line each
 */
public record McpConfig(List<McpServerConfig> servers, List<String> warnings) {
    public McpConfig {
        servers = List.copyOf(servers);
        warnings = List.copyOf(warnings);
    }

    /**
     * Parses a servers file. {@code ${NAME}} (or {@code ${NAME:-default}}) in a command, argument,
     * URL, environment value or header value is replaced from {@code variables}.
     *
     * @param origin names the text in error messages (a file name)
     * @throws McpConfigException naming what is wrong and where
     */
    public static McpConfig parse(String json, String origin, Map<String, String> variables) {
        return ConfigParser.parse(json, origin, variables);
    }

    /** Reads and parses {@code file}; see {@link #parse}. */
    public static McpConfig load(Path file, Map<String, String> variables) {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString(), variables);
        } catch (NoSuchFileException e) {
            throw new McpConfigException("MCP servers file " + file + " does not exist; give a JSON file with {\"mcpServers\": {...}}");
        } catch (IOException e) {
            throw new McpConfigException("cannot read MCP servers file " + file + ": " + e.getMessage());
        }
    }
}
