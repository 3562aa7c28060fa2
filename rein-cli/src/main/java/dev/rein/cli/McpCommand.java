package dev.rein.cli;

import dev.rein.internal.text.Counts;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
        // the commands that take --mcp are named by describe(), from their options
        description = {"MCP servers give the agent their tools with --mcp FILE; see docs/mcp.md.", ""},
        subcommands = McpCommand.ListCommand.class)
final class McpCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /**
     * Names in {@code rein mcp}'s help every command of {@code rein} that has the {@code --mcp} option, found from their
     * options: written by hand the list named only run and resume, while reply, eval and example take it too.
     */
    static void describe(picocli.CommandLine rein) {
        List<String> taking = rein.getSubcommands().values().stream().map(picocli.CommandLine::getCommandSpec)
                .filter(command -> command.findOption("--mcp") != null).map(command -> SuggestedCommand.quoted("rein " + command.name()))
                .distinct().toList();
        String commands = taking.size() < 2 ? String.join("", taking)
                : String.join(", ", taking.subList(0, taking.size() - 1)) + " and " + taking.getLast();
        rein.getSubcommands().get("mcp").getCommandSpec().usageMessage().description(
                "MCP servers give the agent their tools with --mcp FILE on " + commands + "; see docs/mcp.md.", "");
    }

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

        @ExampleValue("mcp.json")
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
                List<Listed> listed = listed(toolset.tools(), toolset.describe());
                if (json) {
                    env.out().println(Json.write(json(config, listed)));
                } else {
                    printText(config, listed);
                }
            }
            return ExitCodes.SUCCEEDED;
        }

        private void printText(McpConfig config, List<Listed> listed) {
            if (config.servers().isEmpty()) {
                // without a line the command would look as if it had not run
                env.out().println("no servers in " + file + ": its \"mcpServers\" object is empty or every server in it has"
                        + " \"disabled\": true");
            }
            for (McpServerConfig server : config.servers()) {
                List<Listed> mine = of(listed, server);
                env.out().println(server.name() + " (" + transport(server) + "): " + Counts.of(mine.size(), "tool")
                        + (server.scope() == null ? "" : ", scope " + server.scope()));
                int width = mine.stream().mapToInt(l -> l.info().name().length()).max().orElse(4);
                for (Listed tool : mine) {
                    McpToolInfo info = tool.info();
                    String notes = (info.overridden() ? "override; annotations give " + lower(info.derivedRisk()) : "")
                            + (Boolean.TRUE.equals(info.idempotentHint()) ? (info.overridden() ? ", " : "") + "idempotent" : "");
                    if (!info.name().equals(server.prefix() + info.mcpName())) {
                        // "allow", "deny" and "risk" take the server's name, which a changed name no longer shows.
                        notes += (notes.isEmpty() ? "" : "; ") + "server's name: " + Text.visible(info.mcpName());
                    }
                    env.out().println(String.format(Locale.ROOT, "  %-" + width + "s  %-12s  %-14s  %s", info.name(), lower(info.risk()),
                            tool.needsApproval() ? "needs approval" : "runs freely", notes).stripTrailing());
                }
            }
        }

        private static ObjectNode json(McpConfig config, List<Listed> listed) {
            ObjectNode root = Json.object();
            ArrayNode servers = root.putArray("servers");
            for (McpServerConfig server : config.servers()) {
                ObjectNode s = servers.addObject().put("name", server.name())
                        .put("transport", server.transport() instanceof McpServerConfig.Stdio ? "stdio" : "http")
                        .put("scope", server.scope())
                        .put("timeout_seconds", server.timeout().toMillis() / 1000.0)
                        .put("trust", server.trust());
                ArrayNode list = s.putArray("tools");
                for (Listed tool : of(listed, server)) {
                    McpToolInfo info = tool.info();
                    list.addObject().put("name", info.name()).put("mcp_name", info.mcpName()).put("risk", lower(info.risk()))
                            .put("derived_risk", lower(info.derivedRisk())).put("overridden", info.overridden())
                            .put("needs_approval", tool.needsApproval()).put("idempotent_hint", info.idempotentHint())
                            .put("description", info.description());
                }
            }
            return root;
        }

        /** A tool as listed: what Rein made of it and whether the default approval policy makes it wait. */
        record Listed(McpToolInfo info, boolean needsApproval) {}

        /**
         * Pairs each tool description with its tool by name, not by position: the two lists are read one after the
         * other, and a server that sends a new list in between (list_changed) would otherwise pair one tool's
         * approval with another's name. A tool in only one of the lists was just added or withdrawn and is left out.
         */
        static List<Listed> listed(List<Tool> tools, List<McpToolInfo> infos) {
            Map<String, Tool> byName = new HashMap<>();
            tools.forEach(tool -> byName.put(tool.name(), tool));
            return infos.stream().filter(info -> byName.containsKey(info.name()))
                    .map(info -> new Listed(info, needsApproval(byName.get(info.name())))).toList();
        }

        private static List<Listed> of(List<Listed> listed, McpServerConfig server) {
            return listed.stream().filter(l -> l.info().server().equals(server.name())).toList();
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
