package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/cli.md against the command line itself, so the user docs cannot silently fall behind. */
class CliDocsTest {
    /** The commands table at the top of docs/cli.md: its rows up to the first blank line. */
    private static List<String> commandTable() throws Exception {
        List<String> lines = Files.readAllLines(LauncherProcess.ROOT.resolve("docs/cli.md"), StandardCharsets.UTF_8);
        int start = lines.indexOf("| command | what it does |");
        assertThat(start).as("the commands table of docs/cli.md").isNotNegative();
        return lines.subList(start, lines.size()).stream().takeWhile(line -> line.startsWith("|")).toList();
    }

    @Test
    void everyCommandInTheHelpIsInTheCommandsTable() throws Exception {
        List<String> table = commandTable();
        String help = new InProcessCli().run("--help").stdout();
        // The command names: two-space indented first words of the "Commands:" section.
        List<String> commands = help.substring(help.indexOf("Commands:"), help.indexOf("Exit codes:")).lines()
                .filter(line -> line.matches("  [a-z]+ .*")).map(line -> line.strip().split(" ")[0])
                .filter(name -> !name.equals("help")).toList();
        assertThat(commands).contains("run", "demo", "replay");
        for (String name : commands) {
            assertThat(table).as("docs/cli.md's commands table has a row for 'rein %s'", name)
                    .anyMatch(row -> row.contains("`rein " + name + " ") || row.contains("`rein " + name + "`"));
        }
    }

    /**
     * The help's Environment section lists the variables the CLI reads, but not the one that turns on
     * the OpenTelemetry export of runs (issue 14: off unless configured, the standard variables turn it
     * on), so 'rein --help' gave no hint that it exists or where it is described.
     */
    @Test
    void theHelpsEnvironmentNamesTheVariableThatTurnsOnOpenTelemetry() {
        String help = new InProcessCli().run("--help").stdout();
        String environment = help.substring(help.indexOf("Environment:"));
        assertThat(environment).contains("OTEL_EXPORTER_OTLP_ENDPOINT").contains("docs/observability.md");
    }

    @Test
    void theHelpsExitCodesEnvironmentAndExamplesFitEightyColumnsUnbroken() {
        // Help in a pipe or a file is 80 columns wide; a longer footer line was broken at column 0 mid-URL or
        // mid-command ('... --model' / 'qwen3:8b --price 0,0 ...'), so the example could not be copied as shown.
        String[][] commands = {{}, {"run"}, {"demo"}, {"runs"}, {"show"}, {"approve"}, {"resume"}, {"reply"}, {"memory"},
                {"memory", "list"}, {"memory", "forget"}, {"index"}, {"eval"}, {"examples"}, {"example"}, {"replay"}, {"mcp"},
                {"mcp", "list"}};
        for (String[] command : commands) {
            String[] args = java.util.Arrays.copyOf(command, command.length + 1);
            args[command.length] = "--help";
            InProcessCli.Outcome help = new InProcessCli().run(args);
            assertThat(help.exitCode()).isZero();
            boolean footer = false;
            for (String line : help.stdout().lines().toList()) {
                if (line.matches("(Exit codes|Environment|Examples):")) {
                    footer = true;
                } else if (footer && !line.isEmpty() && !line.startsWith(" ") && !line.startsWith("Try ")) {
                    throw new AssertionError("'rein " + String.join(" ", command) + " --help' breaks a line at 80 columns: '"
                            + line + "'\n" + help.stdout());
                }
            }
        }
    }
}
