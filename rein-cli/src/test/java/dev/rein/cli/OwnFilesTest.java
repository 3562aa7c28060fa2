package dev.rein.cli;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.testkit.ScriptedModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An output file named by mistake after a file Rein keeps, or one the same command reads, is refused before anything
 * is written. 'rein run --trace $REIN_HOME/rein.db' emptied the run store, every stored run lost ('rein runs': not a
 * SQLite database); 'rein run --output-schema s.json --trace s.json' replaced the schema with the trace.
 */
class OwnFilesTest {
    @TempDir
    Path dir;

    private final InProcessCli cli = new InProcessCli().models((name, env) -> ScriptedModel.of(text("done"), text("again")));

    private String firstRun() {
        InProcessCli.Outcome first = cli.run("run", "--json", "first goal");
        assertThat(first.exitCode()).as(first.stderr()).isZero();
        return dev.rein.json.Json.parse(first.stdout()).get("run_id").asText();
    }

    @Test
    void aTraceNamedAfterTheRunStoreIsRefusedAndTheStoredRunsAreKept() throws IOException {
        String id = firstRun();
        Path store = cli.home().resolve("rein.db");
        byte[] before = Files.readAllBytes(store);
        Path settings = cli.home().resolve("runs").resolve(id + ".json");
        String settingsBefore = Files.readString(settings);
        for (String[] command : new String[][] {
                {"run", "--trace", store.toString(), "second goal"},
                {"reply", id, "more", "--trace", store.toString()},
                {"cancel", id, "--trace", store.toString()},
                {"demo", "--trace", store.toString()},
                {"run", "--trace", settings.toString(), "third goal"}}) {
            Path named = Path.of(command[java.util.Arrays.asList(command).indexOf("--trace") + 1]);
            InProcessCli.Outcome outcome = cli.run(command);
            assertThat(outcome.exitCode()).as(String.join(" ", command)).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stderr()).as(String.join(" ", command))
                    .startsWith("rein " + command[0] + ": --trace " + named + " is a file rein keeps in " + cli.home())
                    .contains("give the trace a file of its own, such as " + (command[0].equals("demo") ? "demo" : "run") + ".jsonl");
        }
        assertThat(Files.readString(settings)).isEqualTo(settingsBefore);
        assertThat(Files.readAllBytes(store)).isEqualTo(before);
        InProcessCli.Outcome runs = cli.run("runs");
        assertThat(runs.exitCode()).as(runs.stderr()).isZero();
        assertThat(runs.stdout()).contains(id);
    }

    @Test
    void aTraceThatIsAHardLinkToTheRunStoreIsRefusedAndTheStoredRunsAreKept() throws IOException {
        String id = firstRun();
        Path store = cli.home().resolve("rein.db");
        byte[] before = Files.readAllBytes(store);
        Path link = Files.createLink(dir.resolve("db-hard.jsonl"), store);
        InProcessCli.Outcome outcome = cli.run("run", "--trace", link.toString(), "second goal");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderr()).startsWith("rein run: --trace " + link + " is a file rein keeps in " + cli.home())
                .contains("give the trace a file of its own, such as run.jsonl");
        Path settings = cli.home().resolve("runs").resolve(id + ".json");
        Path settingsLink = Files.createLink(dir.resolve("settings-hard.jsonl"), settings);
        outcome = cli.run("run", "--trace", settingsLink.toString(), "third goal");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderr()).startsWith("rein run: --trace " + settingsLink + " is a file rein keeps in " + cli.home());
        assertThat(Files.readAllBytes(store)).isEqualTo(before);
        InProcessCli.Outcome runs = cli.run("runs");
        assertThat(runs.exitCode()).as(runs.stderr()).isZero();
        assertThat(runs.stdout()).contains(id);
    }

    /**
     * On a file system that ignores case (macOS, Windows), 'REIN.DB' is 'rein.db': a trace named so before the store
     * existed was written, and the store then opened the trace as its database. The names are compared ignoring case
     * (the comparison itself: this file system keeps case apart). Before: null, the name passed.
     */
    @Test
    void aNameThatDiffersFromAKeptOneOnlyInCaseIsRefusedBeforeTheFileExists() {
        CliHome home = CliHome.of(java.util.Map.of("REIN_HOME", dir.resolve("home").toString()));
        assertThat(home.kept(dir.resolve("home").resolve("REIN.DB"))).startsWith("a file rein keeps in ");
        assertThat(home.kept(dir.resolve("home").resolve("Rein.db-WAL"))).startsWith("a file rein keeps in ");
        assertThat(home.kept(dir.resolve("home").resolve("OUTBOX.jsonl"))).startsWith("a file rein keeps in ");
        assertThat(home.kept(dir.resolve("home").resolve("RUNS").resolve("run_1.json"))).startsWith("inside runs, a folder");
        // the home itself spelled in another case, before it exists
        assertThat(home.kept(dir.resolve("HOME").resolve("rein.db"))).startsWith("a file rein keeps in ");
        assertThat(home.kept(dir.resolve("home").resolve("trace.jsonl"))).isNull();
        assertThat(home.kept(dir.resolve("homework").resolve("rein.db"))).isNull();
    }

    @Test
    void aNewNameInAFolderReinKeepsIsRefusedAsInsideThatFolder() {
        firstRun();
        Path named = cli.home().resolve("runs").resolve("mytrace.jsonl");
        InProcessCli.Outcome outcome = cli.run("run", "--trace", named.toString(), "goal");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderr()).startsWith("rein run: --trace " + named + " is inside runs, a folder rein keeps in " + cli.home())
                .contains("give the trace a file of its own, such as run.jsonl");
        assertThat(named).doesNotExist();
    }

    @Test
    void aTraceNamedAfterAFileTheCommandReadsIsRefusedAndTheFileKept() throws IOException {
        Path schema = Files.writeString(dir.resolve("s.json"), "{\"type\": \"object\"}");
        InProcessCli.Outcome outcome = cli.run("run", "--output-schema", schema.toString(), "--trace", schema.toString(), "goal");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderr()).isEqualTo("rein run: --trace " + schema + " is the --output-schema file too: writing the trace"
                + " there would destroy it; give the trace a file of its own, such as run.jsonl" + System.lineSeparator());
        assertThat(Files.readString(schema)).isEqualTo("{\"type\": \"object\"}");
        Path servers = Files.writeString(dir.resolve("servers.json"), "{\"mcpServers\": {}}");
        outcome = cli.run("run", "--mcp", servers.toString(), "--trace", dir.resolve(".").resolve("servers.json").toString(), "goal");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderr()).contains("is the --mcp file too: writing the trace there would destroy it");
        assertThat(Files.readString(servers)).isEqualTo("{\"mcpServers\": {}}");
    }

    @Test
    void anEvalReportNamedAfterTheRunStoreIsRefused() throws IOException {
        firstRun();
        Path store = cli.home().resolve("rein.db");
        byte[] before = Files.readAllBytes(store);
        InProcessCli.Outcome outcome = cli.run("eval", Path.of("../docs/eval-suite-example.yaml").toString(), "--report", store.toString());
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderr()).contains("--report " + store + " is a file rein keeps in " + cli.home())
                .contains("give the report a file of its own, such as report.html");
        assertThat(Files.readAllBytes(store)).isEqualTo(before);
        // a trace kept beside the runs, in a folder of its own, is the user's
        InProcessCli.Outcome beside = cli.run("run", "--trace", cli.home().resolve("traces/run.jsonl").toString(), "goal");
        assertThat(beside.exitCode()).as(beside.stderr()).isZero();
    }
}
