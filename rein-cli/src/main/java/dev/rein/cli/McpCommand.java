package dev.rein.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.json.Json;
import dev.rein.mcp.McpConfig;
import dev.rein.mcp.McpServerConfig;
import dev.rein.mcp.McpToolInfo;
import dev.rein.mcp.McpToolset;
import dev.rein.tool.Principal;
import dev.rein.tool.Tool;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code rein mcp list FILE}: what Rein makes of the tools of an MCP servers file. */
@Command(name = "mcp", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        header = "Inspect MCP servers files.",
        description = {"MCP servers give the agent their tools with --mcp FILE on 'rein run' and 'rein resume'; see docs/mcp.md.", ""},
        subcommands = McpCommand.ListCommand.class)
final class McpCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "no subcommand given; use 'rein mcp list FILE'");
    }

    /** Starts every server of the file, prints its tools with their risk, then ends the servers. */
    @Command(name = "list", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
            header = "List the servers of FILE, their tools, each tool's risk and whether it needs approval.",
            description = {"Starts every server of FILE, lists its tools and ends the servers again. A tool's risk comes from"
                    + " its annotations (readOnlyHint: true -> read; destructiveHint: false -> write; else irreversible)"
                    + " or from the file's \"risk\" override; with the default approval policy every tool that is not"
                    + " read needs a person's approval.", ""},
            footerHeading = "%nExit codes:%n", footer = {"  0 listed   2 the file or a server is unusable (one line on stderr says why)"})
    static final class ListCommand implements Callable<Integer> {
        private final CliEnvironment env;

        @Parameters(index = "0", paramLabel = "FILE", description = "The MCP servers file.")
        Path file;

        @Option(names = "--json", description = "Print one JSON object: {\"servers\": [{\"name\", \"transport\", \"tools\": [...]}]}.")
        boolean json;

        ListCommand(CliEnvironment env) {
            this.env = env;
        }

        @Override
        public Integer call() {
            McpConfig config = CliMcp.load(file, env);
            try (McpToolset toolset = McpToolset.start(config)) {
                List<Tool> tools = toolset.tools();
                List<McpToolInfo> infos = toolset.describe();
                if (json) {
                    env.out().println(Json.write(json(config, tools, infos)));
                } else {
                    printText(config, tools, infos);
                }
            }
            return ExitCodes.SUCCEEDED;
        }

        private void printText(McpConfig config, List<Tool> tools, List<McpToolInfo> infos) {
            for (McpServerConfig server : config.servers()) {
                List<Integer> mine = indexes(infos, server);
                env.out().println(server.name() + " (" + transport(server) + "): " + mine.size() + (mine.size() == 1 ? " tool" : " tools")
                        + (server.scope() == null ? "" : ", scope " + server.scope()));
                int width = mine.stream().mapToInt(i -> infos.get(i).name().length()).max().orElse(4);
                for (int i : mine) {
                    McpToolInfo info = infos.get(i);
                    String notes = (info.overridden() ? "override; annotations give " + lower(info.derivedRisk()) : "")
                            + (Boolean.TRUE.equals(info.idempotentHint()) ? (info.overridden() ? ", " : "") + "idempotent" : "");
                    env.out().println(String.format(Locale.ROOT, "  %-" + width + "s  %-12s  %-14s  %s", info.name(), lower(info.risk()),
                            needsApproval(tools.get(i)) ? "needs approval" : "runs freely", notes).stripTrailing());
                }
            }
        }

        private static ObjectNode json(McpConfig config, List<Tool> tools, List<McpToolInfo> infos) {
            ObjectNode root = Json.object();
            ArrayNode servers = root.putArray("servers");
            for (McpServerConfig server : config.servers()) {
                ObjectNode s = servers.addObject().put("name", server.name())
                        .put("transport", server.transport() instanceof McpServerConfig.Stdio ? "stdio" : "http")
                        .put("scope", server.scope())
                        .put("timeout_seconds", server.timeout().toMillis() / 1000.0)
                        .put("trust", server.trust());
                ArrayNode list = s.putArray("tools");
                for (int i : indexes(infos, server)) {
                    McpToolInfo info = infos.get(i);
                    list.addObject().put("name", info.name()).put("mcp_name", info.mcpName()).put("risk", lower(info.risk()))
                            .put("derived_risk", lower(info.derivedRisk())).put("overridden", info.overridden())
                            .put("needs_approval", needsApproval(tools.get(i))).put("idempotent_hint", info.idempotentHint())
                            .put("description", info.description());
                }
            }
            return root;
        }

        private static List<Integer> indexes(List<McpToolInfo> infos, McpServerConfig server) {
            return java.util.stream.IntStream.range(0, infos.size()).filter(i -> infos.get(i).server().equals(server.name())).boxed().toList();
        }

        /** As the CLI's agents decide it: the default approval policy. */
        private static boolean needsApproval(Tool tool) {
            return ApprovalPolicy.SIDE_EFFECTS.requiresApproval(tool, Json.object(), Principal.ANONYMOUS);
        }

        private static String transport(McpServerConfig server) {
            return switch (server.transport()) {
                case McpServerConfig.Stdio stdio -> "stdio: " + stdio.command();
                // A token substituted into the URL is a secret like a header's.
                case McpServerConfig.Http http -> "http: " + dev.rein.tool.Secrets.mask(http.url().toString(), server.secrets());
            };
        }

        private static String lower(dev.rein.tool.Risk risk) {
            return risk.name().toLowerCase(Locale.ROOT);
        }
    }
}
