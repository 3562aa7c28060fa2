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
}
