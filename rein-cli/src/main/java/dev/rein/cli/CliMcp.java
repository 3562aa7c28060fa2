package dev.rein.cli;

import dev.rein.mcp.McpConfig;
import dev.rein.mcp.McpConfigException;
import dev.rein.mcp.McpToolset;
import dev.rein.tool.Secrets;
import dev.rein.tool.Tool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The MCP servers of one CLI command: started before the run, ended (with every process they
 * started) when the command ends. The servers file of a run is remembered beside its settings, so
 * {@code rein resume} in another process starts the same servers.
 */
final class CliMcp implements AutoCloseable {
    static final CliMcp NONE = new CliMcp(null, null);

    private final Path file;
    private final McpToolset toolset;

    private CliMcp(Path file, McpToolset toolset) {
        this.file = file;
        this.toolset = toolset;
    }

    /** Reads a servers file, substituting {@code ${VAR}} from the environment; warnings go to stderr. */
    static McpConfig load(Path file, CliEnvironment env) {
        if (java.nio.file.Files.isDirectory(file)) {
            // the library's reading said only "cannot read MCP servers file DIR: Is a directory", not what to give
            throw new McpConfigException("MCP servers file " + file + " is a folder, not a file; give a JSON file with"
                    + " {\"mcpServers\": {...}} (see docs/mcp.md)");
        }
        McpConfig config = McpConfig.load(file, env.env());
        config.warnings().forEach(w -> env.err().println("warning: " + w));
        return config;
    }

    /**
     * Starts the servers of {@code config} (nothing when null).
     *
     * @param taken the names of the other tools the agent has: an MCP tool may not shadow one
     */
    static CliMcp start(Path file, McpConfig config, Collection<String> taken) {
        return start(file, config, taken, false);
    }

    /**
     * Starts the servers of {@code config} (nothing when null).
     *
     * @param taken      the names of the other tools the agent has: an MCP tool may not shadow one
     * @param finishTool whether the agent offers the finish tool (--finish), whose name an MCP tool may not take either
     */
    static CliMcp start(Path file, McpConfig config, Collection<String> taken, boolean finishTool) {
        if (config == null) {
            return NONE;
        }
        McpToolset toolset = McpToolset.start(config);
        if (finishTool && toolset.tools().stream().anyMatch(t -> t.name().equals("finish"))) {
            toolset.close();
            throw new McpConfigException("MCP tool name 'finish' is also the finish tool --finish offers; give the server a \"prefix\""
                    + " in " + file + " or add the tool to its \"deny\" list");
        }
        Set<String> clashes = toolset.tools().stream().map(Tool::name).filter(taken::contains).collect(Collectors.toCollection(java.util.TreeSet::new));
        if (!clashes.isEmpty()) {
            toolset.close();
            throw new McpConfigException("MCP tool name(s) " + clashes + " are also built-in tools given with --tools; give the"
                    + " server a \"prefix\" in " + file + " or leave the built-in out of --tools");
        }
        return new CliMcp(file.toAbsolutePath().normalize(), toolset);
    }

    List<Tool> tools() {
        return toolset == null ? List.of() : toolset.tools();
    }

    /** Adds the servers' tools to {@code agent} as a source, so a server's changed tool list reaches the run. */
    void offerTo(dev.rein.agent.Agent.Builder agent) {
        if (toolset != null) {
            agent.toolSource(toolset);
        }
    }

    /**
     * {@code system} followed by the servers' instructions as {@link McpToolset#instructionsPrompt()} gives them (each
     * wrapped as untrusted data, cut at {@link McpToolset#MAX_INSTRUCTIONS_CHARS} characters with a line saying so).
     * A warning on stderr says when a server's were cut, and when no server gave any (nothing is added then).
     */
    String withInstructions(String system, CliEnvironment env) {
        if (toolset == null) {
            return system;
        }
        McpToolset.InstructionsBlock instructions = toolset.instructionsBlock();
        if (instructions.text().isEmpty()) {
            env.err().println("warning: --mcp-instructions: no server of " + file + " gave instructions; nothing is added to the"
                    + " system prompt");
            return system;
        }
        instructions.cut().forEach((server, length) -> env.err().println("warning: --mcp-instructions: the instructions of MCP"
                + " server '" + server + "' have " + length + " characters; only their first " + instructions.maxCharsPerServer()
                + " are in the system prompt"));
        String block = instructions.text();
        return system.isEmpty() ? block : system + "\n\n" + block;
    }

    /** The values to mask in tool output and traces (header tokens, substituted variables). */
    Secrets secrets() {
        return toolset == null || toolset.secrets().isEmpty() ? Secrets.NONE : Secrets.of(toolset.secrets());
    }

    /** Remembers which servers file a run was started with. */
    void remember(CliHome home, String runId) {
        if (file == null) {
            return;
        }
        Path record = record(home, runId);
        try {
            Files.createDirectories(record.getParent());
            Files.writeString(record, file.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UsageException("cannot write " + record + " (" + dev.rein.internal.text.FileProblems.why(e) + ")");
        }
    }

    /** The servers file {@code runId} was started with, or null. */
    static Path remembered(CliHome home, String runId) {
        Path record = record(home, runId);
        try {
            return Files.isRegularFile(record) ? Path.of(Files.readString(record, StandardCharsets.UTF_8).strip()) : null;
        } catch (IOException e) {
            throw new UsageException("cannot read " + record + " (" + dev.rein.internal.text.FileProblems.why(e) + ")");
        }
    }

    private static Path record(CliHome home, String runId) {
        return home.directory().resolve("runs").resolve(runId + ".mcp");
    }

    @Override
    public void close() {
        if (toolset != null) {
            toolset.close();
        }
    }
}
