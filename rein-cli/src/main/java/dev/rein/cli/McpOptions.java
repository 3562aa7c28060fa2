package dev.rein.cli;

import dev.rein.mcp.McpConfig;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --mcp FILE}: the MCP servers whose tools the agent is offered next to its own (shared by run, resume, reply and example). */
final class McpOptions {
    @ExampleValue("mcp.json")
    @Option(names = "--mcp", paramLabel = "FILE",
            description = "MCP servers file ({\"mcpServers\": {...}}, as other MCP clients use, plus Rein's keys risk, allow,"
                    + " deny, scope, timeout_seconds, trust, prefix): their tools are offered next to the agent's own. See docs/mcp.md.")
    Path file;

    /** The parsed servers file, or null without {@code --mcp}; a bad file is a usage error naming it. */
    McpConfig config(CliEnvironment env) {
        return file == null ? null : CliMcp.load(file, env);
    }
}
