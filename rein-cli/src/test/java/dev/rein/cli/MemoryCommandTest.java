package dev.rein.cli;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.testkit.ScriptedModel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rein run --memory}, then {@code rein memory list} and {@code forget}. */
class MemoryCommandTest {
    private final InProcessCli cli = new InProcessCli();

    /**
     * A tenant or user name the JVM could not decode names another scope: listing or forgetting under it would say there
     * is nothing (exit 0) for a scope no one uses. Refused as rein run's --as is; a name is shown without raw controls.
     */
    @Test
    void aTenantOrUserThatIsNotUtf8IsRefusedAndNamesAreShownWithoutControls() {
        for (String[] args : new String[][] {{"memory", "list", "--user", "caf\uFFFD"}, {"memory", "list", "--json", "--tenant", "t\uFFFD"},
                {"memory", "forget", "mem_x", "--user", "caf\uFFFD"}}) {
            InProcessCli.Outcome outcome = cli.run(args);
            String option = args[args.length - 2];
            assertThat(outcome.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stdout()).as(String.join(" ", args)).isEmpty();
            assertThat(outcome.stderrLines()).as(String.join(" ", args)).singleElement().asString()
                    .startsWith("rein memory " + args[1] + ": " + option + " is not valid UTF-8:");
        }
        InProcessCli.Outcome list = cli.run("memory", "list", "--user", "\u001b[2J佐藤");
        assertThat(list.exitCode()).as(list.stderr()).isZero();
        assertThat(list.stdout()).isEqualTo("no memory entries for \\x1b[2J佐藤 in tenant default" + System.lineSeparator());
    }

    /**
     * An empty or blank --tenant or --user is named, with what to give. Before: "--tenant and --user must not be empty" for
     * either, which named both and said nothing of what to give or that leaving it out gives the default.
     */
    @Test
    void anEmptyTenantOrUserIsNamedWithWhatToGive() {
        InProcessCli.Outcome tenant = cli.run("memory", "list", "--tenant", "");
        assertThat(tenant.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(tenant.stdout()).isEmpty();
        assertThat(tenant.stderrLines()).containsExactly("rein memory list: --tenant is empty: give the tenant's name, e.g."
                + " --tenant acme, or leave --tenant out for tenant 'default'");
        assertThat(cli.run("memory", "forget", "mem_x", "--user", " ").stderrLines()).containsExactly("rein memory forget: --user"
                + " is blank: give the user's name, e.g. --user alice, or leave --user out for user 'anonymous'");
    }

    /**
     * An empty or blank ID is named as such, with what to give, before the store is looked at. Before: "there is no memory
     * entry  for anonymous in tenant default" (the empty id an unseen double space), or "no run store" where none was.
     */
    @Test
    void anEmptyIdIsNamedWithWhatToGive(@TempDir Path dir) {
        for (InProcessCli any : new InProcessCli[] {cli, new InProcessCli().env("REIN_HOME", dir.resolve("none").toString())}) {
            for (String id : new String[] {"", "  "}) {
                InProcessCli.Outcome outcome = any.run("memory", "forget", id);
                assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
                assertThat(outcome.stdout()).isEmpty();
                assertThat(outcome.stderrLines()).containsExactly("rein memory forget: the ID is " + (id.isEmpty() ? "empty" : "blank")
                        + ": give the id of the entry to forget, e.g. rein memory forget mem_8d2e4f6a1b3c5d7e9f0a (see 'rein"
                        + " memory list' for the ids)");
            }
        }
        assertThat(dir.resolve("none")).doesNotExist();
    }

    /** Like 'rein runs': listing where no run was ever stored is an empty list (exit 0), and creates nothing. */
    @Test
    void listOnAMissingStoreIsAnEmptyListAndCreatesNothing(@TempDir Path dir) {
        Path home = dir.resolve("nothing-here");
        InProcessCli fresh = new InProcessCli().env("REIN_HOME", home.toString());
        InProcessCli.Outcome list = fresh.run("memory", "list");
        assertThat(list.exitCode()).as(list.stderr()).isZero();
        assertThat(list.stdout()).contains("no memory entries");
        assertThat(list.stderrLines()).singleElement().asString().contains("no run store in " + home.toAbsolutePath());
        InProcessCli.Outcome json = fresh.run("memory", "list", "--json");
        assertThat(json.exitCode()).as(json.stderr()).isZero();
        assertThat(Json.parse(json.stdout()).get("entries")).isEmpty();
        // the line says which command it comes from, as every other line of the CLI on stderr does
        for (InProcessCli.Outcome listed : java.util.List.of(list, json)) {
            assertThat(listed.stderrLines()).singleElement().asString()
                    .startsWith("rein memory list: no run store in " + home.toAbsolutePath());
        }
        // Forgetting an entry that cannot exist stays a usage error, as documented for an unknown id.
        assertThat(fresh.run("memory", "forget", "mem_x").exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(home).doesNotExist();
    }

    @Test
    void rememberWaitsForApprovalThenTheEntryIsListedAndForgotten() throws Exception {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("remember", "{\"text\":\"連絡はメールで\"}")), text("覚えました"),
                toolCalls(call("recall", "{\"query\":\"メール\"}")), text("メールです"));
        cli.models((name, env) -> model);
        assertThat(cli.run("run", "--memory", "メールで連絡してほしいと覚えて").exitCode()).isEqualTo(ExitCodes.WAITING_APPROVAL);
        String id;
        try (var files = Files.list(cli.home().resolve("runs"))) {
            id = files.findFirst().orElseThrow().getFileName().toString().replace(".json", "");
        }
        assertThat(cli.run("memory", "list").stdout()).contains("no memory entries");
        assertThat(cli.run("approve", id).exitCode()).isZero();
        assertThat(cli.run("resume", id).exitCode()).isEqualTo(ExitCodes.SUCCEEDED);

        JsonNode listed = Json.parse(cli.run("memory", "list", "--json").stdout()).get("entries");
        assertThat(listed).hasSize(1);
        assertThat(listed.get(0).get("text").asText()).isEqualTo("連絡はメールで");
        assertThat(listed.get(0).get("source_run").asText()).isEqualTo(id);
        assertThat(cli.run("memory", "list", "--tenant", "other").stdout()).contains("no memory entries");

        InProcessCli.Outcome recall = cli.run("run", "--memory", "どう連絡する?");
        assertThat(recall.exitCode()).as(recall.stderr()).isEqualTo(ExitCodes.SUCCEEDED);
        assertThat(model.requests().get(3).messages().get(2).content().toString()).contains("連絡はメールで");

        String entry = listed.get(0).get("id").asText();
        // another tenant's forget finds nothing there, and is told how to list that tenant's entries
        InProcessCli.Outcome elsewhere = cli.run("memory", "forget", entry, "--tenant", "acme", "--user", "佐藤");
        assertThat(elsewhere.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(elsewhere.stderr()).contains("no memory entry " + entry + " for 佐藤 in tenant acme")
                .contains("list them with 'rein memory list --tenant acme --user \"佐藤\"'");
        // a name with a control character is shown escaped ('佐\x0a藤'), which a pasted command would keep as typed (rev77 1)
        InProcessCli.Outcome escaped = cli.run("memory", "forget", entry, "--tenant", "acme", "--user", "佐\n藤");
        assertThat(escaped.stderr()).contains("no memory entry " + entry).doesNotContain("rein memory list --")
                .contains("list them with 'rein memory list' given the same --tenant and --user, in quotes");
        assertThat(cli.run("memory", "forget", entry).stdout()).contains("forgot " + entry);
        assertThat(cli.run("memory", "list").stdout()).contains("no memory entries");
        InProcessCli.Outcome again = cli.run("memory", "forget", entry);
        assertThat(again.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(again.stderr()).contains("no memory entry " + entry);
    }

    /** A rein.db that is not a database (damaged, or another file) is named with what to do, not 'a writable directory'. */
    @Test
    void aStoreFileThatIsNotADatabaseIsNamedWithWhatToDo() throws Exception {
        Files.createDirectories(cli.home());
        Files.writeString(cli.home().resolve("rein.db"), "not a database, just text long enough to be read as a header ".repeat(20));
        for (String[] args : new String[][] {{"memory", "list"}, {"memory", "forget", "mem_1"}, {"runs"}}) {
            InProcessCli.Outcome o = cli.run(args);
            assertThat(o.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCodes.USAGE);
            assertThat(o.stderrLines()).as(String.join(" ", args)).singleElement().asString()
                    .contains(cli.home().resolve("rein.db") + " is not a SQLite database")
                    .contains("move it aside").doesNotContain("writable directory");
        }
    }

    /** A rein.db written by a later Rein says to upgrade, not to find 'a writable directory'. */
    @Test
    void aStoreOfANewerReinSaysToUpgradeNotToFindAWritableDirectory() throws Exception {
        Files.createDirectories(cli.home());
        try (var connection = java.sql.DriverManager.getConnection("jdbc:sqlite:" + cli.home().resolve("rein.db"))) {
            connection.createStatement().executeUpdate("CREATE TABLE rein_schema (version INTEGER NOT NULL)");
            connection.createStatement().executeUpdate("INSERT INTO rein_schema (version) VALUES (99)");
        }
        for (String[] args : new String[][] {{"memory", "list"}, {"runs"}, {"show", "run_1"}}) {
            InProcessCli.Outcome o = cli.run(args);
            assertThat(o.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCodes.USAGE);
            assertThat(o.stderrLines()).as(String.join(" ", args)).singleElement().asString()
                    .contains("schema version 99").contains("upgrade Rein").doesNotContain("writable directory");
        }
    }

    /**
     * docs/memory.md: expired entries are not recalled, and list still shows them until they are
     * forgotten; the list says which have expired (no longer recalled), in text and in JSON.
     */
    @Test
    void listMarksTheEntriesThatHaveExpiredAndAreNoLongerRecalled() {
        java.time.Instant now = java.time.Instant.now();
        dev.rein.memory.MemoryScope scope = CliMemory.DEFAULT_SCOPE;
        dev.rein.memory.MemorySource source = new dev.rein.memory.MemorySource("run_1", null, null);
        new CliMemory(cli.home()).remember(new dev.rein.memory.MemoryEntry("mem_old", scope, "古い住所", source, "anonymous",
                now.minus(java.time.Duration.ofDays(10)), now.minus(java.time.Duration.ofDays(1))));
        new CliMemory(cli.home()).remember(new dev.rein.memory.MemoryEntry("mem_new", scope, "新しい住所", source, "anonymous",
                now.minus(java.time.Duration.ofDays(2)), now.plus(java.time.Duration.ofDays(300))));

        InProcessCli.Outcome list = cli.run("memory", "list");
        assertThat(list.exitCode()).as(list.stderr()).isZero();
        String oldLine = list.stdout().lines().filter(l -> l.startsWith("mem_old")).findFirst().orElseThrow();
        String newLine = list.stdout().lines().filter(l -> l.startsWith("mem_new")).findFirst().orElseThrow();
        assertThat(oldLine).contains("expired ").contains("no longer recalled");
        assertThat(newLine).contains("expires ").doesNotContain("expired");

        JsonNode entries = Json.parse(cli.run("memory", "list", "--json").stdout()).get("entries");
        for (JsonNode e : entries) {
            assertThat(e.get("expired").asBoolean()).as(e.get("id").asText()).isEqualTo(e.get("id").asText().equals("mem_old"));
        }
    }

    /**
     * The hint an expired entry's line gives, pasted as printed, forgets that entry: it names the entry's tenant and user
     * (a pasted 'rein memory forget ID' looked in the default scope and found nothing there), quoted for the shell, and an
     * id starting with '-' after {@code --}. Before: {@code 'rein memory forget mem_old'} for an entry of acme / 佐藤.
     */
    @Test
    void theExpiredEntrysHintRunAsPrintedForgetsTheEntryInItsOwnScope() throws Exception {
        java.time.Instant now = java.time.Instant.now();
        dev.rein.memory.MemorySource source = new dev.rein.memory.MemorySource("run_1", null, null);
        String[][] cases = {{"acme", "佐藤", "mem_old"}, {"acme corp", "佐藤 花子", "mem old 1"}, {"it's $x", "`id` \"佐藤\"", "-mem_1"},
                {"default", "anonymous", "mem_default"}, {"default", "鈴木", "-mem 2"}};
        for (String[] c : cases) {
            dev.rein.memory.MemoryScope scope = new dev.rein.memory.MemoryScope(c[0], c[1]);
            new CliMemory(cli.home()).remember(new dev.rein.memory.MemoryEntry(c[2], scope, "古い住所", source, c[1],
                    now.minus(java.time.Duration.ofDays(10)), now.minus(java.time.Duration.ofDays(1))));
            InProcessCli.Outcome list = cli.run("memory", "list", "--tenant", c[0], "--user", c[1]);
            assertThat(list.exitCode()).as(list.stderr()).isZero();
            String line = list.stdout().lines().filter(l -> l.startsWith(c[2] + "  ")).findFirst().orElseThrow();
            runTheHintAsPrinted(line, "no longer recalled; (.*) deletes it\\)$", c[2]);
            assertThat(cli.run("memory", "list", "--tenant", c[0], "--user", c[1]).stdout()).as(line).contains("no memory entries");
        }
        // a name with a control character is shown escaped, which a pasted command would keep as typed: no command
        dev.rein.memory.MemoryScope escaped = new dev.rein.memory.MemoryScope("acme", "佐\u001b藤");
        new CliMemory(cli.home()).remember(new dev.rein.memory.MemoryEntry("mem_esc", escaped, "古い住所", source, "佐藤",
                now.minus(java.time.Duration.ofDays(10)), now.minus(java.time.Duration.ofDays(1))));
        assertThat(cli.run("memory", "list", "--tenant", "acme", "--user", "佐\u001b藤").stdout())
                .contains("(no longer recalled; 'rein memory forget' given its id and the same --tenant and --user, in quotes, deletes it)")
                .doesNotContain("\u001b");
    }

    /**
     * Before: one entry whose text was edited outside Rein (emptied with an SQL client) made 'rein memory list' fail
     * with IllegalArgumentException 'a memory entry needs text', so none of the user's entries could be listed, nor
     * the bad one found to forget it. Now it is left out with one line on stderr saying how to forget it (exit 0).
     */
    @Test
    void anEntryEditedOutsideReinIsLeftOutOfTheListingSayingHowToForgetItAndTheOthersAreListed() throws Exception {
        java.time.Instant now = java.time.Instant.now();
        dev.rein.memory.MemorySource source = new dev.rein.memory.MemorySource("run_1", null, null);
        for (String id : java.util.List.of("mem_ok", "mem_bad")) {
            new CliMemory(cli.home()).remember(new dev.rein.memory.MemoryEntry(id, CliMemory.DEFAULT_SCOPE, "住所は大阪 " + id, source,
                    "anonymous", now, null));
        }
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + cli.home().resolve("rein.db"));
             java.sql.Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE rein_memory SET text = '' WHERE id = 'mem_bad'");
        }

        InProcessCli.Outcome list = cli.run("memory", "list");
        assertThat(list.exitCode()).as(list.stderr()).isZero();
        assertThat(list.stdout()).contains("mem_ok").doesNotContain("mem_bad");
        assertThat(list.stderrLines()).singleElement().asString()
                .startsWith("rein memory list: memory entry mem_bad of user anonymous in tenant default in ")
                .contains("cannot be read (its text is empty)")
                .contains("'rein memory forget mem_bad'");
        InProcessCli.Outcome json = cli.run("memory", "list", "--json");
        assertThat(json.exitCode()).as(json.stderr()).isZero();
        assertThat(Json.parse(json.stdout()).get("entries")).hasSize(1);
        assertThat(cli.run("memory", "forget", "mem_bad").stdout()).contains("forgot mem_bad");
        assertThat(cli.run("memory", "list").stderr()).isEmpty();
    }

    /**
     * The hint rein-store-jdbc gives for an entry it cannot read, pasted as printed, forgets that entry. Before, it was
     * built by hand: the id bare and not after {@code --}, names single-quoted inside the command's own single quotes:
     * {@code 'rein memory forget -bad 1 --tenant 'it'\''s' ...'} gave no command, {@code mem 2} exited 2.
     */
    @Test
    void theUnreadableEntrysHintRunAsPrintedForgetsTheEntry() throws Exception {
        java.time.Instant now = java.time.Instant.now();
        dev.rein.memory.MemorySource source = new dev.rein.memory.MemorySource("run_1", null, null);
        String[][] cases = {{"it's", "佐藤 花子", "-bad 1"}, {"acme", "bob", "mem 2"}, {"it's $x", "`id` \"佐藤\"", "-mem_1"},
                {"default", "anonymous", "mem_bad"}, {"acme corp", "bob", "mem's"}};
        for (String[] c : cases) {
            dev.rein.memory.MemoryScope scope = new dev.rein.memory.MemoryScope(c[0], c[1]);
            new CliMemory(cli.home()).remember(new dev.rein.memory.MemoryEntry(c[2], scope, "old", source, "x", now, null));
            try (java.sql.Connection db = java.sql.DriverManager.getConnection("jdbc:sqlite:" + cli.home().resolve("rein.db"));
                 java.sql.PreparedStatement st = db.prepareStatement("UPDATE rein_memory SET text = '' WHERE id = ?")) {
                st.setString(1, c[2]);
                assertThat(st.executeUpdate()).isEqualTo(1);
            }
            InProcessCli.Outcome list = cli.run("memory", "list", "--tenant", c[0], "--user", c[1]);
            assertThat(list.exitCode()).as(list.stderr()).isZero();
            String line = list.stderrLines().getFirst();
            runTheHintAsPrinted(line, "forget it \\((.*), or MemoryStore\\.forget\\)", c[2]);
            assertThat(cli.run("memory", "list", "--tenant", c[0], "--user", c[1]).stderr()).as(line).isEmpty();
        }
    }

    /**
     * Runs the 'rein memory forget' command that {@code line} prints where {@code hint}'s group 1 is, read by sh as a person
     * pasting it would (with the quotes that set it off, or inside them), and checks that it forgot the entry {@code id}.
     */
    private void runTheHintAsPrinted(String line, String hint, String id) throws Exception {
        java.util.regex.Matcher command = java.util.regex.Pattern.compile(hint).matcher(line);
        assertThat(command.find()).as(line).isTrue();
        java.util.List<String> words = ParsedBack.sh(command.group(1));
        if (words.size() == 1) { // set off in quotes: the command is what they hold
            words = ParsedBack.sh(words.getFirst());
        }
        assertThat(words.subList(0, 3)).as(line).containsExactly("rein", "memory", "forget");
        InProcessCli.Outcome forget = cli.run(words.subList(1, words.size()).toArray(String[]::new));
        assertThat(forget.exitCode()).as(line + "\n" + forget.stderr()).isZero();
        assertThat(forget.stdout()).as(line).isEqualTo("forgot " + id + System.lineSeparator());
    }

    /**
     * An id with a control character is shown escaped, as docs/cli.md says: before (rev116), 'memory list', 'forgot ID' and
     * 'there is no memory entry ID' printed it raw, so an escape sequence in it reached the terminal.
     */
    @Test
    void anIdWithAControlCharacterIsShownEscaped() throws Exception {
        String id = "mem_\u001b[2J";
        new CliMemory(cli.home()).remember(new dev.rein.memory.MemoryEntry(id, CliMemory.DEFAULT_SCOPE, "住所は大阪",
                new dev.rein.memory.MemorySource("run_1", null, null), "anonymous", java.time.Instant.now(), null));
        InProcessCli.Outcome list = cli.run("memory", "list");
        assertThat(list.stdout()).contains("mem_\\x1b[2J").doesNotContain("\u001b");
        InProcessCli.Outcome none = cli.run("memory", "forget", "mem_\u001b[0m");
        assertThat(none.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(none.stderr()).contains("there is no memory entry mem_\\x1b[0m").doesNotContain("\u001b");
        InProcessCli.Outcome forgot = cli.run("memory", "forget", id);
        assertThat(forgot.stdout()).isEqualTo("forgot mem_\\x1b[2J" + System.lineSeparator());
    }
}
