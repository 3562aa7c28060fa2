package dev.rein.mcp;

import dev.rein.mcp.internal.ConfigParser;
import dev.rein.tool.Secrets;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
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
        Map<String, String> copy = Map.copyOf(variables);
        return ConfigParser.parse(json, origin, copy::get);
    }

    /**
     * Parses a servers file whose {@code ${NAME}} are read from {@code variables} (usually the
     * environment) and, when not set there, from the agent's {@code secrets}.
     */
    public static McpConfig parse(String json, String origin, Map<String, String> variables, Secrets secrets) {
        Map<String, String> copy = Map.copyOf(variables);
        return ConfigParser.parse(json, origin, name -> copy.containsKey(name) ? copy.get(name) : secrets.get(name).orElse(null));
    }

    /** Reads and parses {@code file}; see {@link #parse(String, String, Map)}. */
    public static McpConfig load(Path file, Map<String, String> variables) {
        return load(file, variables, Secrets.NONE);
    }

    /** Reads and parses {@code file}; see {@link #parse(String, String, Map, Secrets)}. */
    public static McpConfig load(Path file, Map<String, String> variables, Secrets secrets) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            // A byte order mark ("UTF-8 with BOM", as Windows editors save) is not JSON; RFC 8259 lets a parser ignore it.
            return parse(text.startsWith("\uFEFF") ? text.substring(1) : text, file.toString(), variables, secrets);
        } catch (NoSuchFileException e) {
            throw new McpConfigException("MCP servers file " + file + " does not exist; give a JSON file with {\"mcpServers\": {...}}");
        } catch (CharacterCodingException e) {
            throw new McpConfigException("MCP servers file " + file + " is not UTF-8 text; save it as UTF-8 JSON with {\"mcpServers\": {...}}");
        } catch (IOException e) {
            throw new McpConfigException(unreadable(file, e));
        }
    }

    /** Why {@code file} could not be read, from what reading it threw (not a missing file or bad encoding). */
    static String unreadable(Path file, IOException e) {
        if (e instanceof AccessDeniedException) {
            // Its message is the path alone, which read as 'cannot read MCP servers file F: F'.
            return "cannot read MCP servers file " + file + ": permission denied; give the user running Rein read"
                    + " permission on it (and on its folders), or give a servers file that user can read";
        }
        if (Files.isDirectory(file)) {
            return "MCP servers file " + file + " is a folder, not a file; give a JSON file with {\"mcpServers\": {...}} (see docs/mcp.md)";
        }
        // A FileSystemException's message starts with the path again; its reason alone says what happened.
        String why = e instanceof FileSystemException fs && fs.getReason() != null ? fs.getReason() : e.getMessage();
        return "cannot read MCP servers file " + file + ": " + (why == null ? e.getClass().getSimpleName() : why);
    }
}
