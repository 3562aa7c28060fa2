package dev.rein.cli;

import dev.rein.testkit.MessagingTools;
import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.testkit.ScriptedModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI gaps and defects of the hardening audit (issue 9), in-process with scripted models. */
class CliHardeningTest {
    /** An OSC title change, a screen clear, colour, a carriage return, a C1 CSI and a bidi override. */
    private static final String HOSTILE = "\u001b]0;pwned\u0007\u001b[2J\u001b[31mred\rover\u009b31m\u202eevil";
    private static final String SEND = "{\"to\":\"sato@example.jp\",\"subject\":\"会議\",\"body\":\"明日10時に変更です。\"}";

    private final InProcessCli cli = new InProcessCli();

    private String runId() throws Exception {
        try (var files = Files.list(cli.home().resolve("runs"))) {
            return files.findFirst().orElseThrow().getFileName().toString().replace(".json", "");
        }
    }

    private static void assertNoRawControls(String printed) {
        assertThat(printed.chars().filter(c -> c < 0x20 && c != '\n' && c != '\t' || c >= 0x7f && c <= 0x9f || c == 0x202e))
                .as(printed).isEmpty();
    }

    @Test
    void controlCharactersFromModelsAndToolsAreMadeVisibleInEverythingPrinted() throws Exception {
        String args = Json.write(Json.object().put("name", HOSTILE));
        cli.models((name, env) -> ScriptedModel.of(toolCalls("looking up " + HOSTILE, call("lookup_contact", args)),
                text("answer " + HOSTILE)));
        InProcessCli.Outcome run = cli.run("run", "--tools", "lookup_contact", "find " + HOSTILE);
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertNoRawControls(run.stdout());
        assertNoRawControls(run.stderr());
        assertThat(run.stderr()).contains("No contact named '\\x1b]0;pwned\\x07\\x1b[2J\\x1b[31mred over\\x9b31m\\u202eevil'");
        assertThat(run.stdout()).contains("answer \\x1b]0;pwned");

        InProcessCli.Outcome show = cli.run("show", runId());
        assertNoRawControls(show.stdout());
        assertThat(show.stdout()).contains("\\x1b]0;pwned");
        InProcessCli.Outcome runs = cli.run("runs");
        assertNoRawControls(runs.stdout());
    }

    @Test
    void everyInvisibleFormatCharacterFromAToolIsMadeVisibleNotOnlyTheBidiOverrides() throws Exception {
        // The Arabic letter mark (a bidi control), a word joiner, a deprecated format character, a soft
        // hyphen and Unicode tag characters spelling "hi" (invisible text that models read), next to Japanese.
        String hidden = "東京\u061cA\u2060B\u206bC\u00adD\udb40\udc68\udb40\udc69E";
        String args = Json.write(Json.object().put("name", hidden));
        cli.models((name, env) -> ScriptedModel.of(toolCalls(call("lookup_contact", args)), text("answer " + hidden)));
        InProcessCli.Outcome run = cli.run("run", "--tools", "lookup_contact", "find them");
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        String shown = "東京\\u061cA\\u2060B\\u206bC\\xadD\\udb40\\udc68\\udb40\\udc69E";
        assertThat(run.stderr()).contains("No contact named '" + shown + "'");
        assertThat(run.stdout()).contains("answer " + shown);
        for (String printed : List.of(run.stdout(), run.stderr(), cli.run("show", runId()).stdout())) {
            assertThat(printed.codePoints().filter(c -> Character.getType(c) == Character.FORMAT)).as(printed).isEmpty();
        }
    }

    @Test
    void theInlineApprovalPromptShowsHostileArgumentsVisibly() {
        String send = Json.write(Json.object().put("to", "sato@example.jp").put("subject", HOSTILE).put("body", "b"));
        cli.models((name, env) -> ScriptedModel.of(toolCalls(call("send_message", send)), text("stopped")))
                .terminal(new Terminal(false, true, false, true)).input("n\nno\n");
        InProcessCli.Outcome run = cli.run("run", "--tools", "send_message", "send it");
        assertThat(run.stderr()).contains("needs your approval");
        assertNoRawControls(run.stderr());
    }

    @Test
    void maxTokensIsSentValidatedAndKeptForResume() throws Exception {
        ScriptedModel model = ScriptedModel.of(text("ok"));
        assertThat(cli.models((name, env) -> model).run("run", "--max-tokens", "1234", "hi").exitCode()).isZero();
        assertThat(model.lastRequest().maxTokens()).isEqualTo(1234);

        ScriptedModel defaults = ScriptedModel.of(text("ok"));
        new InProcessCli().models((name, env) -> defaults).run("run", "hi");
        assertThat(defaults.lastRequest().maxTokens()).isEqualTo(8192);

        for (String bad : new String[] {"0", "-5", "many", "99999999999", "1.5"}) {
            InProcessCli fresh = new InProcessCli().models((name, env) -> ScriptedModel.of(text("must not run")));
            InProcessCli.Outcome outcome = fresh.run("run", "--max-tokens", bad, "hi");
            assertThat(outcome.exitCode()).as(bad).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stderrLines()).as(bad).singleElement().asString().contains("--max-tokens");
            assertThat(fresh.modelsCreated()).isZero();
        }

        // A paused run resumes with the limit it was started with, or a new one given to resume.
        ScriptedModel paused = ScriptedModel.of(toolCalls(call("send_message", SEND)), text("sent"));
        InProcessCli approvals = new InProcessCli().models((name, env) -> paused);
        approvals.run("run", "--max-tokens", "777", "--tools", "send_message", "send it");
        String id;
        try (var files = Files.list(approvals.home().resolve("runs"))) {
            id = files.findFirst().orElseThrow().getFileName().toString().replace(".json", "");
        }
        approvals.run("approve", id);
        assertThat(approvals.run("resume", "--max-tokens", "2000", id).exitCode()).isZero();
        assertThat(paused.lastRequest().maxTokens()).isEqualTo(2000);
        assertThat(paused.requests().get(0).maxTokens()).isEqualTo(777);
        assertThat(approvals.run("resume", "--max-tokens", "0", id).stderr()).contains("--max-tokens");
    }

    @Test
    void aFailedRunPrintsItsReasonAndThePartialTextLabelled() {
        InProcessCli.Outcome cut = cli.models((name, env) -> ScriptedModel.of(
                ScriptedModel.reply(StopReason.MAX_TOKENS, ScriptedModel.DEFAULT_USAGE, new TextBlock("The first half of the"))))
                .run("run", "--max-tokens", "50", "write a long essay");
        assertThat(cut.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(cut.stdout()).startsWith("FAILED (max_tokens): the model's response was cut off at max_tokens (50)")
                .contains("Partial text (not taken as an answer):" + System.lineSeparator() + "The first half of the");
        // stdout, which a script or a person keeps, names the option too and not only the library's maxTokens
        assertThat(cut.stdout().lines().findFirst().orElseThrow()).endsWith("(on the command line: raise --max-tokens)");
        assertThat(cut.stderr()).contains("rein: FAILED (max_tokens)").contains("--max-tokens");

        InProcessCli.Outcome refused = new InProcessCli().models((name, env) -> ScriptedModel.of(
                ScriptedModel.reply(StopReason.REFUSAL, ScriptedModel.DEFAULT_USAGE, new TextBlock("I can't help with that."))))
                .run("run", "do something bad");
        assertThat(refused.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(refused.stdout()).startsWith("FAILED (refusal): the model refused to continue")
                .contains("Partial text (not taken as an answer):" + System.lineSeparator() + "I can't help with that.");
    }

    /** REIN_HOME naming a file, not a directory, says that in words instead of repeating the path in brackets. */
    @Test
    void reinHomeNamingAFileSaysItIsAFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = Files.writeString(dir.resolve("home.txt"), "not a directory");
        InProcessCli.Outcome outcome = new InProcessCli().env("REIN_HOME", file.toString())
                .models((name, env) -> ScriptedModel.of(text("done"))).run("run", "do it");

        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderrLines()).singleElement().asString()
                .isEqualTo("rein run: cannot open the run store in " + file + " (" + file + " is a file, not a directory); set"
                        + " REIN_HOME to a writable directory");
    }

    /** A failed run whose answer only restates the failure prints the failure once on stdout, not again as an answer. */
    @Test
    void aFailedRunWhoseAnswerOnlyRestatesTheFailureDoesNotPrintItTwice() {
        InProcessCli.Outcome failed = new InProcessCli().models((name, env) -> (request, context) -> {
            throw new dev.rein.model.ModelException(dev.rein.model.ModelException.Kind.INVALID_REQUEST, 400, "the request was refused: 壊れた要求");
        }).run("run", "do it");

        assertThat(failed.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(failed.stdout()).isEqualTo("FAILED (provider_error): the model provider failed (HTTP 400): the request was"
                + " refused: 壊れた要求" + System.lineSeparator());

        // what the run did learn is still printed, without the restated failure
        ScriptedModel then = ScriptedModel.of(toolCalls(call("calculate", "{\"expression\":\"1+1\"}")));
        InProcessCli.Outcome partly = new InProcessCli().models((name, env) -> (request, context) -> {
            if (request.messages().size() > 1) {
                throw new dev.rein.model.ModelException(dev.rein.model.ModelException.Kind.INVALID_REQUEST, 400, "壊れた要求");
            }
            return then.call(request, context);
        }).run("run", "do it");

        assertThat(partly.stdout()).isEqualTo("FAILED (provider_error): the model provider failed (HTTP 400): 壊れた要求"
                + System.lineSeparator() + "Answer so far:" + System.lineSeparator() + "Tool calls made: 1 (calculate)."
                + System.lineSeparator());
    }

    @Test
    void showAndRunsPrintJsonAndAPausedRunJsonListsItsPendingActions() throws Exception {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message", SEND)), text("送信しました。"));
        cli.models((name, env) -> model);
        InProcessCli.Outcome run = cli.run("run", "--json", "--tools", "send_message", "連絡して");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.WAITING_APPROVAL);
        JsonNode paused = Json.parse(run.stdout());
        assertThat(fields(paused)).containsExactly("run_id", "status", "reason", "answer", "steps", "usage", "cost_usd",
                "pending_actions");
        JsonNode action = paused.get("pending_actions").get(0);
        assertThat(paused.get("pending_actions")).hasSize(1);
        assertThat(fields(action)).containsExactly("action_hash", "tool", "arguments", "risk", "call_id", "step");
        assertThat(action.get("tool").asText()).isEqualTo("send_message");
        assertThat(action.get("arguments")).isEqualTo(Json.parse(SEND));
        String id = paused.get("run_id").asText();

        InProcessCli.Outcome runs = cli.run("runs", "--json");
        assertThat(runs.stdout().lines()).hasSize(1);
        JsonNode listed = Json.parse(runs.stdout()).get("runs").get(0);
        assertThat(fields(listed)).containsExactly("run_id", "status", "reason", "goal", "model", "steps", "cost_usd",
                "pending_approvals", "created_at", "updated_at");
        assertThat(listed.get("run_id").asText()).isEqualTo(id);
        assertThat(listed.get("goal").asText()).isEqualTo("連絡して");
        assertThat(listed.get("pending_approvals").asInt()).isEqualTo(1);

        InProcessCli.Outcome show = cli.run("show", "--json", id);
        assertThat(show.stdout().lines()).hasSize(1);
        JsonNode shown = Json.parse(show.stdout());
        assertThat(fields(shown)).containsExactly("run_id", "status", "reason", "goal", "model", "steps", "usage", "cost_usd",
                "pending_approvals", "created_at", "updated_at", "message", "answer", "pending_actions", "handoff", "trace",
                "replies");
        assertThat(shown.get("status").asText()).isEqualTo("WAITING_APPROVAL");
        assertThat(shown.get("pending_actions")).isEqualTo(paused.get("pending_actions"));
        assertThat(shown.get("usage")).isEqualTo(paused.get("usage"));
        assertThat(shown.get("trace").isArray()).isTrue();

        // What a script does with it: approve exactly the action shown.
        InProcessCli.Outcome approve = cli.run("approve", id, "--action", action.get("action_hash").asText());
        assertThat(approve.exitCode()).as(approve.stderr()).isZero();
        assertThat(cli.run("resume", id).exitCode()).isZero();
        assertThat(Json.parse(cli.run("show", "--json", id).stdout()).get("pending_actions")).isEmpty();
    }

    private static List<String> fields(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void decisionsAreRecordedAsTheNameGivenOrTheOsUser(@TempDir Path dir) throws Exception {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message", SEND)), text("sent"));
        cli.models((name, env) -> model);
        cli.run("run", "--tools", "send_message", "send it");
        String id = runId();
        InProcessCli.Outcome approve = cli.run("approve", id, "--as", "Sato Hanako");
        assertThat(approve.exitCode()).as(approve.stderr()).isZero();
        assertThat(approve.stderr()).contains("as Sato Hanako");
        Path trace = dir.resolve("resume.jsonl");
        assertThat(cli.run("resume", "--trace", trace.toString(), id).exitCode()).isZero();
        assertThat(decidedBy(trace)).containsExactly("Sato Hanako");

        InProcessCli inline = new InProcessCli().env("USER", "ignored")
                .models((name, env) -> ScriptedModel.of(toolCalls(call("send_message", SEND)), text("sent")))
                .terminal(new Terminal(false, true, false, true)).input("y\n");
        Path inlineTrace = dir.resolve("inline.jsonl");
        assertThat(inline.run("run", "--as", "bob", "--trace", inlineTrace.toString(), "--tools", "send_message", "send it")
                .exitCode()).isZero();
        assertThat(decidedBy(inlineTrace)).containsExactly("bob");

        InProcessCli osUser = new InProcessCli().env("USER", "taro")
                .models((name, env) -> ScriptedModel.of(toolCalls(call("send_message", SEND)), text("sent")));
        osUser.run("run", "--tools", "send_message", "send it");
        String other;
        try (var files = Files.list(osUser.home().resolve("runs"))) {
            other = files.findFirst().orElseThrow().getFileName().toString().replace(".json", "");
        }
        assertThat(osUser.run("approve", other).stderr()).contains("as taro");
        assertThat(osUser.run("approve", other, "--as", " ").exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(osUser.run("approve", other, "--as", "a\u001bb").exitCode()).isEqualTo(ExitCodes.USAGE);
        // the refusal shows the character it refuses: a tab or line break turned into a space showed a name with nothing
        // wrong in it ("got 'Sato Hanako'")
        for (String name : new String[] {"Sato\tHanako", "Sato\nHanako"}) {
            InProcessCli.Outcome refused = osUser.run("approve", other, "--as", name);
            assertThat(refused.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(refused.stderrLines()).singleElement().asString()
                    .contains("got 'Sato" + (name.contains("\t") ? "\\x09" : "\\x0a") + "Hanako'");
        }
    }

    @Test
    void aDeciderNameWithBytesThatAreNotUtf8IsRefusedByName() throws Exception {
        // 'José' in Latin-1 arrives as 'Jos\uFFFD': the decision would be recorded under a name nobody has.
        cli.models((name, env) -> ScriptedModel.of(toolCalls(call("send_message", SEND)), text("sent")));
        cli.run("run", "--tools", "send_message", "send it");
        String id = runId();
        InProcessCli.Outcome approve = cli.run("approve", id, "--as", "Jos\uFFFD");
        assertThat(approve.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(approve.stderrLines()).singleElement().asString().startsWith("rein approve: --as is not valid UTF-8")
                .contains("U+FFFD at character 4");
        assertThat(Json.parse(cli.run("show", "--json", id).stdout()).get("pending_approvals").asInt()).isEqualTo(1);
        InProcessCli.Outcome inline = new InProcessCli().models((name, env) -> ScriptedModel.of(text("must not run")))
                .run("run", "--as", "Jos\uFFFD", "hello");
        assertThat(inline.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(inline.stderrLines()).singleElement().asString().startsWith("rein run: --as is not valid UTF-8");
    }

    private static List<String> decidedBy(Path trace) throws Exception {
        return Files.readAllLines(trace).stream().map(Json::parse).filter(e -> e.get("type").asText().equals("approval_decided"))
                .map(e -> e.get("decided_by").asText()).toList();
    }

    /** docs/cli.md: 'rein show RUN --json' has the fields of 'rein runs --json'; one run's times must be the same in both. */
    @Test
    void runsAndShowJsonGiveARunTheSameTimes() throws Exception {
        cli.models((name, env) -> ScriptedModel.of(text("ok")));
        assertThat(cli.run("run", "hi").exitCode()).isZero();
        String id = runId();
        JsonNode listed = Json.parse(cli.run("runs", "--json").stdout()).get("runs").get(0);
        JsonNode shown = Json.parse(cli.run("show", id, "--json").stdout());
        assertThat(shown.get("created_at").asText()).isEqualTo(listed.get("created_at").asText());
        assertThat(shown.get("updated_at").asText()).isEqualTo(listed.get("updated_at").asText());
    }

    /**
     * 'rein show RUN --json' has the run's token totals as 'rein run --json' has them (the same "usage" object, after
     * "steps"), and the same cost. Before: no usage at all, so a script could not read a stored run's tokens.
     */
    @Test
    void showJsonHasTheRunsUsageAsRunJsonHasIt() throws Exception {
        cli.models((name, env) -> ScriptedModel.of(
                ScriptedModel.withUsage(dev.rein.model.Usage.of(1200, 30, 1000, 155),
                        ScriptedModel.toolCalls(ScriptedModel.call("calculate", "{\"expression\":\"1 + 1\"}"))),
                ScriptedModel.withUsage(new dev.rein.model.Usage(300, 25, 0, 0, java.util.Map.of(), false, java.util.Map.of(), 20),
                        text("2"))));
        InProcessCli.Outcome run = cli.run("run", "--json", "--price", "3,15", "one plus one");
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode ran = Json.parse(run.stdout());
        JsonNode shown = Json.parse(cli.run("show", "--json", ran.get("run_id").asText()).stdout());
        assertThat(shown.get("usage")).isEqualTo(ran.get("usage"));
        assertThat(shown.get("usage").get("input_tokens").asLong()).isEqualTo(1500);
        assertThat(shown.get("usage").get("cache_read_input_tokens").asLong()).isEqualTo(1000);
        assertThat(shown.get("usage").get("reasoning_output_tokens").asLong()).isEqualTo(20);
        assertThat(shown.get("cost_usd").decimalValue()).isEqualByComparingTo(ran.get("cost_usd").decimalValue());
        List<String> fields = new java.util.ArrayList<>();
        shown.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsSubsequence("steps", "usage", "cost_usd");
    }

    @Test
    void readingCommandsOnAMissingStoreSaySoAndCreateNothing(@TempDir Path dir) {
        Path home = dir.resolve("nothing-here");
        InProcessCli fresh = new InProcessCli().env("REIN_HOME", home.toString());
        InProcessCli.Outcome runs = fresh.run("runs");
        assertThat(runs.exitCode()).isZero();
        assertThat(runs.stdout()).isEmpty();
        assertThat(runs.stderrLines()).singleElement().asString().contains("no run store in " + home.toAbsolutePath())
                .contains("rein run GOAL");
        InProcessCli.Outcome json = fresh.run("runs", "--json");
        assertThat(Json.parse(json.stdout()).get("runs")).isEmpty();
        // the line says which command it comes from, as every other line of the CLI on stderr does
        for (InProcessCli.Outcome listed : List.of(runs, json)) {
            assertThat(listed.stderrLines()).singleElement().asString().startsWith("rein runs: no run store in ");
        }
        for (String[] args : new String[][] {{"show", "run_x"}, {"show", "--json", "run_x"}, {"approve", "run_x"}, {"resume", "run_x"}}) {
            InProcessCli.Outcome outcome = fresh.run(args);
            assertThat(outcome.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stdout()).isEmpty();
            assertThat(outcome.stderrLines()).singleElement().asString().contains("no run store in");
        }
        assertThat(home).doesNotExist();
    }

    /** An empty store is said to be empty on stderr by the command, as its other lines are; stdout keeps the empty list. */
    @Test
    void runsOfAnEmptyStoreSaySoOnALineNamingTheCommand(@TempDir Path dir) {
        dev.rein.store.jdbc.JdbcRunStore.sqlite(dir).close();
        InProcessCli fresh = new InProcessCli().env("REIN_HOME", dir.toString());
        for (String[] args : new String[][] {{"runs"}, {"runs", "--json"}}) {
            InProcessCli.Outcome outcome = fresh.run(args);
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(outcome.stderrLines()).as(String.join(" ", args)).singleElement().asString()
                    .startsWith("rein runs: no runs stored in " + dir.toAbsolutePath());
        }
    }

    /**
     * A REIN_HOME that is a file (or lies under one), or a rein.db that is a directory, was reported as "no rein.db: no run
     * was started here", which sent the user to start a run; the reading commands name what is in the way instead.
     */
    @Test
    void aHomeThatIsAFileOrAStoreThatIsADirectoryIsNamedNotCalledMissing(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("home-file"), "not a directory");
        Path storeDir = Files.createDirectories(dir.resolve("home").resolve("rein.db"));
        String[][] commands = {{"runs"}, {"runs", "--json"}, {"show", "run_x"}, {"approve", "run_x"}, {"resume", "run_x"},
                {"reply", "run_x", "はい"}, {"memory", "list"}, {"memory", "forget", "mem_1"}};
        for (Path home : List.of(file, file.resolve("sub"), storeDir.getParent())) {
            InProcessCli fresh = new InProcessCli().env("REIN_HOME", home.toString());
            String expected = home.equals(storeDir.getParent())
                    ? "the run store " + storeDir.toAbsolutePath() + " is a directory, not a SQLite database; move it aside to"
                            + " start an empty store there, or set REIN_HOME to the directory of your runs"
                    : "cannot open the run store in " + home.toAbsolutePath() + " (" + file.toAbsolutePath() + " is a file, not a"
                            + " directory); set REIN_HOME to the directory of your runs";
            for (String[] args : commands) {
                InProcessCli.Outcome outcome = fresh.run(args);
                String call = home + ": " + String.join(" ", args);
                assertThat(outcome.exitCode()).as(call).isEqualTo(ExitCodes.USAGE);
                assertThat(outcome.stdout()).as(call).isEmpty();
                assertThat(outcome.stderrLines()).as(call).singleElement().asString()
                        .isEqualTo("rein " + String.join(" ", args).replaceFirst(" (run_x|mem_1|--json).*", "") + ": " + expected);
            }
            // 'rein run', which creates the store, says the same of rein.db (of a home that is a file, see reinHomeNamingAFileSaysItIsAFile)
            InProcessCli.Outcome run = fresh.models((name, env) -> ScriptedModel.of(text("must not run"))).run("run", "hi");
            assertThat(run.exitCode()).as(home + ": run").isEqualTo(ExitCodes.USAGE);
            assertThat(run.stderrLines()).as(home + ": run").singleElement().asString()
                    .isEqualTo("rein run: " + (home.equals(storeDir.getParent()) ? expected
                            : "cannot open the run store in " + home.toAbsolutePath() + " (" + file.toAbsolutePath() + " is a file, not a"
                                    + " directory); set REIN_HOME to a writable directory"));
        }
        assertThat(file).hasContent("not a directory");
        assertThat(storeDir).isEmptyDirectory();
    }

    /**
     * A run that ended FAILED on a provider error (a 5xx that outlasted the retries) is not continued: docs/cli.md
     * keeps resume for runs that have not ended and reply for answered or asking ones. Both say so and what to do
     * instead, start a new run, and create no model. (Probe: passes on the code as it was.)
     */
    @Test
    void aRunThatEndedOnAProviderErrorIsPointedToANewRunByResumeAndReply() throws Exception {
        cli.models((name, env) -> ScriptedModel.of(ScriptedModel.fail(new dev.rein.model.ModelException(
                dev.rein.model.ModelException.Kind.SERVER_ERROR, 500, "internal server error", false, null, "req_1", null))));
        assertThat(cli.run("run", "何か").exitCode()).isEqualTo(ExitCodes.FAILED);
        String id = runId();
        long created = cli.modelsCreated();
        InProcessCli.Outcome resumed = cli.run("resume", id);
        assertThat(resumed.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(resumed.stdout()).isEmpty();
        assertThat(resumed.stderrLines()).singleElement().asString()
                .contains("already ended FAILED (provider_error)").contains("start a new run with 'rein run GOAL'");
        InProcessCli.Outcome replied = cli.run("reply", id, "もう一度");
        assertThat(replied.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(replied.stderrLines()).singleElement().asString()
                .contains("ended FAILED (provider_error)").contains("start a new run with 'rein run GOAL'");
        assertThat(cli.modelsCreated()).isEqualTo(created);
    }

    @Test
    void aRunThatAskedForInputOrAnsweredIsPointedToReplyByResumeAndApprove() throws Exception {
        cli.models((name, env) -> ScriptedModel.of(toolCalls(call("finish",
                "{\"status\":\"needs_user_input\",\"summary\":\"部屋が不明\",\"result\":\"どの部屋ですか?\"}"))));
        assertThat(cli.run("run", "--finish", "会議室を予約して").exitCode()).isEqualTo(ExitCodes.FAILED);
        String asked = runId();
        InProcessCli.Outcome resumed = cli.run("resume", asked);
        assertThat(resumed.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(resumed.stderrLines()).singleElement().asString()
                .contains("already ended FAILED (needs_user_input)").contains("rein reply " + asked + " \"TEXT\"")
                .doesNotContain("start a new run");
        InProcessCli.Outcome approved = cli.run("approve", asked);
        assertThat(approved.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(approved.stderrLines()).singleElement().asString().contains("rein reply " + asked + " \"TEXT\"");

        cli.models((name, env) -> ScriptedModel.of(text("5 です")));
        InProcessCli.Outcome second = cli.run("run", "--json", "2+3 は?");
        assertThat(second.exitCode()).isZero();
        String answered = dev.rein.json.Json.parse(second.stdout()).get("run_id").asText();
        assertThat(cli.run("resume", answered).stderrLines()).singleElement().asString()
                .contains("already ended SUCCEEDED (completed)").contains("rein reply " + answered + " \"TEXT\"");
    }

    @Test
    void resumeRefusalsNameTheCommandsNotTheJavaApi() throws Exception {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message", SEND)), text("sent"));
        cli.models((name, env) -> model);
        cli.run("run", "--tools", "send_message", "send it");
        String id = runId();
        InProcessCli.Outcome waiting = cli.run("resume", id);
        assertThat(waiting.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(waiting.stderrLines()).singleElement().asString().contains("rein approve " + id)
                .doesNotContain("Runs.approve").doesNotContain("agent.runs()");
        assertThat(cli.modelsCreated()).isEqualTo(1);
        cli.run("approve", id);
        assertThat(cli.run("resume", id).exitCode()).isZero();
        InProcessCli.Outcome ended = cli.run("resume", id);
        assertThat(ended.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(ended.stderrLines()).singleElement().asString().contains("already ended SUCCEEDED").contains("rein show " + id);
        assertThat(MessagingTools.read(cli.home().resolve("outbox.jsonl"))).hasSize(1);
    }

    @Test
    void severalCallsOfOneResponseAreShownInCallOrderAndEachResultNamesItsCall() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("get_current_time", "{\"timezone\":\"Asia/Tokyo\"}"),
                call("calculate", "{\"expression\":\"2 + 2\"}"), call("get_current_time", "{\"timezone\":\"UTC\"}")), text("done"));
        InProcessCli.Outcome run = cli.models((name, env) -> model).run("run", "three calls");
        assertThat(run.exitCode()).isZero();
        List<String> calls = run.stderrLines().stream().filter(l -> l.contains("→ ")).toList();
        assertThat(calls).containsExactly("step 1  → get_current_time #1/3 {\"timezone\":\"Asia/Tokyo\"}",
                "step 1  → calculate #2/3 {\"expression\":\"2 + 2\"}", "step 1  → get_current_time #3/3 {\"timezone\":\"UTC\"}");
        assertThat(run.stderrLines().stream().filter(l -> l.contains("← "))).hasSize(3)
                // calculate stops at 100 ms; on a loaded machine even 2 + 2 may: the line still names its call.
                .anyMatch(l -> l.startsWith("step 1  ← calculate #2/3 "))
                .anyMatch(l -> l.startsWith("step 1  ← get_current_time #1/3 ok in "))
                .anyMatch(l -> l.startsWith("step 1  ← get_current_time #3/3 ok in "));
    }

    @Test
    void aFileNameWithBytesThatAreNotUtf8IsRefusedByNameRatherThanWrittenUnderAnotherName(@TempDir Path dir) throws Exception {
        // 'café.jsonl' with a Latin-1 é: the JVM hands it over as 'caf\uFFFD.jsonl', a file of another name.
        String trace = dir.resolve("caf\uFFFD.jsonl").toString();
        InProcessCli fresh = new InProcessCli().models((name, env) -> ScriptedModel.of(text("must not run")));
        for (String[] args : List.of(new String[] {"run", "--trace", trace, "hello"}, new String[] {"demo", "--trace", trace},
                new String[] {"resume", "--trace", trace, "run_x"}, new String[] {"eval", "--report", trace, "suite.yaml"},
                new String[] {"run", "--output-schema", trace, "hello"})) {
            InProcessCli.Outcome outcome = fresh.run(args);
            String option = args[1];
            assertThat(outcome.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stdout()).isEmpty();
            assertThat(outcome.stderrLines()).as(String.join(" ", args)).singleElement().asString()
                    .contains("Invalid value for option '" + option + "': ").contains("is not valid UTF-8")
                    .contains("U+FFFD at character " + (trace.indexOf('\uFFFD') + 1));
        }
        assertThat(fresh.modelsCreated()).isZero();
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void anEmptyFileOrFolderNameIsRefusedByNameRatherThanTakenAsTheWorkingDirectory() {
        // An unset shell variable ('rein index "$DOCS"') gives "", which Path.of reads as the working directory:
        // 'rein index ""' indexed it, 'eval --traces ""' wrote every trial's trace into it.
        InProcessCli fresh = new InProcessCli().models((name, env) -> ScriptedModel.of(text("must not run")));
        // what to give is what the argument takes: a file for a FILE (a folder is no --report), a folder for a DIR
        List<String[]> cases = List.of(
                new String[] {"option '--trace'", "a file", "run", "--trace", "", "hello"},
                new String[] {"option '--output-schema'", "a file", "run", "--output-schema", "", "hello"},
                new String[] {"option '--mcp'", "a file", "run", "--mcp", "", "hello"},
                new String[] {"option '--trace'", "a file", "demo", "--trace", ""},
                new String[] {"option '--trace'", "a file", "resume", "--trace", "", "run_x"},
                new String[] {"option '--traces'", "a folder", "eval", "--traces", "", "no-such-suite.yaml"},
                new String[] {"option '--report'", "a file", "eval", "--report", "", "no-such-suite.yaml"},
                new String[] {"positional parameter at index 0 (SUITE)", "a file or folder", "eval", ""},
                new String[] {"positional parameter at index 0 (DIR)", "a folder", "index", ""},
                new String[] {"positional parameter at index 0 (TRACE)", "a file or folder", "replay", ""},
                new String[] {"positional parameter at index 0 (FILE)", "a file", "mcp", "list", ""});
        for (String[] c : cases) {
            String[] args = java.util.Arrays.copyOfRange(c, 2, c.length);
            InProcessCli.Outcome outcome = fresh.run(args);
            assertThat(outcome.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stdout()).as(String.join(" ", args)).isEmpty();
            assertThat(outcome.stderrLines()).as(String.join(" ", args)).singleElement().asString()
                    .contains("Invalid value for " + c[0] + ": the name is empty, which would mean the working directory;"
                            + " give " + c[1] + " name (");
        }
        assertThat(fresh.modelsCreated()).isZero();
    }

    @Test
    void aGoalThatStartsWithADashIsPointedToDoubleDashNotCalledMissing() {
        // 'rein run "-5 + 3 は?"' said "Missing required parameter: 'GOAL'" though a goal was given. A word shaped like an
        // option ('-x') is named as an unknown option first (UnknownOptionTest).
        InProcessCli fresh = new InProcessCli().models((name, env) -> ScriptedModel.of(text("must not run")));
        for (String[] args : new String[][] {{"run", "-5 + 3 は?"}, {"run", "-q", "- list the files"}, {"run", "--json", "-5+3"},
                {"reply", "run_x", "-1 でお願いします"}}) {
            InProcessCli.Outcome outcome = fresh.run(args);
            String goal = args[args.length - 1];
            assertThat(outcome.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stdout()).isEmpty();
            assertThat(outcome.stderrLines()).as(String.join(" ", args)).singleElement().asString()
                    .contains("'" + goal + "' starts with '-', so it was taken for an option; to pass it as text, put -- before it: rein "
                            + args[0] + " ").containsPattern(" -- \"?" + java.util.regex.Pattern.quote(goal));
        }
        assertThat(fresh.modelsCreated()).isZero();
    }

    /**
     * docs/cli.md: error messages show every control character as an escape. The lines about bad arguments quoted them
     * raw (the '-' hint, the quoted reply, picocli's 'Unmatched argument'), so an argument holding ESC [2J (pasted, or
     * from a variable) cleared or recoloured the terminal.
     */
    @Test
    void aBadArgumentsControlCharactersAreEscapedInTheUsageLine() {
        InProcessCli fresh = new InProcessCli().models((name, env) -> ScriptedModel.of(text("must not run")));
        for (String[] args : new String[][] {{"run", "-5 \u001b[2J"}, {"reply", "run_x", "a", "\u001b[31mred"},
                {"show", "run_x", "\u001b]0;title\u0007"}}) {
            InProcessCli.Outcome outcome = fresh.run(args);
            assertThat(outcome.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stderrLines()).as(String.join(" ", args)).singleElement().asString()
                    .doesNotContain("\u001b").doesNotContain("\u0007").contains("\\x1b");
        }
    }

    @Test
    void aServersFileOrSuiteFileThatIsNotUtf8IsRefusedAsSuchInOneLine(@TempDir Path dir) throws Exception {
        byte[] latin1 = "{\"mcpServers\": {\"caf\u00e9\": {\"command\": \"node\"}}}".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        Path servers = Files.write(dir.resolve("servers.json"), latin1);
        Path suite = Files.write(dir.resolve("suite.yaml"), "name: caf\u00e9\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        InProcessCli fresh = new InProcessCli().models((name, env) -> ScriptedModel.of(text("must not run")));
        for (String[] args : List.of(new String[] {"run", "--mcp", servers.toString(), "do it"},
                new String[] {"mcp", "list", servers.toString()})) {
            InProcessCli.Outcome outcome = fresh.run(args);
            assertThat(outcome.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stderrLines()).as(String.join(" ", args)).singleElement().asString()
                    .endsWith("MCP servers file " + servers + " is not UTF-8 text; save it as UTF-8 JSON with {\"mcpServers\": {...}}");
        }
        assertThat(fresh.modelsCreated()).isZero();
        InProcessCli.Outcome eval = fresh.run("eval", suite.toString());
        assertThat(eval.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(eval.stderrLines()).singleElement().asString()
                .isEqualTo("rein eval: suite file " + suite + " is not UTF-8 text; save it as UTF-8");
    }

    @Test
    void aBaseUrlWithoutAHostOrWithASpaceIsAUsageErrorBeforeAnyCall() {
        for (String url : new String[] {"http://", "http://exa mple.com", "https://:8080/v1"}) {
            for (String provider : new String[] {"anthropic", "openai"}) {
                InProcessCli option = new InProcessCli().models(ProviderModels::create).env("ANTHROPIC_API_KEY", "sk-test");
                InProcessCli.Outcome run = option.run("run", "--provider", provider, "--base-url", url, "--price", "0,0", "hi");
                assertThat(run.exitCode()).as(provider + " " + url).isEqualTo(ExitCodes.USAGE);
                assertThat(run.stdout()).isEmpty();
                assertThat(run.stderrLines()).as(provider + " " + url).singleElement().asString()
                        .isEqualTo("rein run: --base-url must be an http:// or https:// URL with a host, was '" + url + "'");

                String variable = provider.toUpperCase(java.util.Locale.ROOT) + "_BASE_URL";
                InProcessCli fromEnv = new InProcessCli().models(ProviderModels::create).env("ANTHROPIC_API_KEY", "sk-test")
                        .env(variable, url);
                InProcessCli.Outcome env = fromEnv.run("run", "--provider", provider, "--price", "0,0", "hi");
                assertThat(env.exitCode()).as(variable + "=" + url).isEqualTo(ExitCodes.USAGE);
                assertThat(env.stderrLines()).as(variable + "=" + url).singleElement().asString()
                        .startsWith("rein run: " + variable + " must be an http:// or https:// URL with a host, was '" + url + "'");
            }
        }
    }

    /** '--base-url ""' (an unset shell variable) named the problem ("was ''") but not what to give instead. */
    @Test
    void anEmptyBaseUrlSaysWhatToGiveOrToLeaveTheOptionOut() {
        for (String url : new String[] {"", " "}) {
            for (String provider : new String[] {"anthropic", "openai"}) {
                InProcessCli option = new InProcessCli().models(ProviderModels::create).env("ANTHROPIC_API_KEY", "sk-test");
                InProcessCli.Outcome run = option.run("run", "--provider", provider, "--base-url", url, "--price", "0,0", "hi");
                assertThat(run.exitCode()).as(provider + " '" + url + "'").isEqualTo(ExitCodes.USAGE);
                assertThat(run.stdout()).isEmpty();
                assertThat(run.stderrLines()).as(provider + " '" + url + "'").singleElement().asString()
                        .isEqualTo("rein run: --base-url is empty: give the provider's API base URL, an http:// or https:// URL"
                                + " with a host (e.g. http://localhost:11434/v1), or leave --base-url out to use "
                                + provider.toUpperCase(java.util.Locale.ROOT) + "_BASE_URL or the provider's public API");
                assertThat(option.modelsCreated()).isZero();
            }
        }
        // rein resume of a run started with a base URL: leaving the option out keeps the run's own
        ProviderOptions resume = new ProviderOptions();
        resume.baseUrl = "";
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> resume.select(java.util.Map.of(),
                        new ProviderSelection("openai", "http://127.0.0.1:11434/v1", null)))
                .isInstanceOf(UsageException.class).hasMessageEndingWith("or leave --base-url out to use the run's own");
    }

    /** '--tools "calculate,,get_current_time"' (a name left out between two commas) ran with the other tools, without a word. */
    @Test
    void anEmptyEntryInToolsIsRefusedNamingItsPosition() {
        InProcessCli fresh = new InProcessCli().env("ANTHROPIC_API_KEY", "sk-test")
                .models((name, env) -> ScriptedModel.of(text("must not run")));
        String[][] lists = {{"calculate,,get_current_time", "2"}, {"calculate,", "2"}, {",calculate", "1"}, {"calculate, ,x", "2"}};
        for (String[] list : lists) {
            InProcessCli.Outcome run = fresh.run("run", "--tools", list[0], "hi");
            assertThat(run.exitCode()).as(list[0]).isEqualTo(ExitCodes.USAGE);
            assertThat(run.stdout()).as(list[0]).isEmpty();
            assertThat(run.stderrLines()).as(list[0]).singleElement().asString()
                    .isEqualTo("rein run: --tools '" + list[0] + "' has an empty entry at position " + list[1] + "; give tool names"
                            + " separated by single commas, e.g. --tools calculate,get_current_time, or --tools \"\" for no tools");
        }
        assertThat(fresh.modelsCreated()).isZero();
        // no tools at all stays what docs/cli.md says it is, also next to --memory (which adds its own to the list)
        InProcessCli none = new InProcessCli().models((name, env) -> ScriptedModel.of(text("ok")));
        assertThat(none.run("run", "--tools", "", "hi").exitCode()).isZero();
        assertThat(none.run("run", "--tools", "", "--memory", "hi").exitCode()).isZero();
    }

    @Test
    void aHostNameWithAnUnderscoreIsAUsageErrorThatSaysWhatToUseInstead() {
        // A Docker Compose service such as ollama_server resolves, but Java's HTTP clients cannot
        // address it: the OpenAI SDK failed with a NullPointerException, the JDK client at the first call.
        String url = "http://ollama_server:11434/v1";
        for (String provider : new String[] {"anthropic", "openai"}) {
            InProcessCli cli = new InProcessCli().models(ProviderModels::create).env("ANTHROPIC_API_KEY", "sk-test");
            InProcessCli.Outcome run = cli.run("run", "--provider", provider, "--base-url", url, "--price", "0,0", "hi");
            assertThat(run.exitCode()).as(provider).isEqualTo(ExitCodes.USAGE);
            assertThat(run.stderrLines()).as(provider).singleElement().asString()
                    .startsWith("rein run: --base-url must be an http:// or https:// URL with a host, was '" + url + "'")
                    .contains("cannot address a host name with '_'")
                    .contains("IP address");
        }
    }

    @Test
    void anApiKeyWithACharacterNoHeaderCanCarryIsAUsageErrorThatDoesNotShowTheKey() {
        // A key pasted with a zero-width space: the run failed (exit 1) with the HTTP client's
        // 'invalid header value: "sk-ant-..."', printing the key in the summary, --json and the trace.
        InProcessCli cli = new InProcessCli().models(ProviderModels::create).env("ANTHROPIC_API_KEY", "sk-ant-secret\u200b");
        InProcessCli.Outcome run = cli.run("run", "--json", "--base-url", "http://127.0.0.1:9", "今日は何日?");
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.stdout()).isEmpty();
        assertThat(run.stderrLines()).singleElement().asString()
                .startsWith("rein run: ANTHROPIC_API_KEY has a character no HTTP header can carry (U+200B, character 14 of 14)")
                .doesNotContain("sk-ant-secret");
    }

    @Test
    void aBaseUrlWithAPasswordIsAUsageErrorThatDoesNotShowThePassword() {
        InProcessCli cli = new InProcessCli().models(ProviderModels::create).env("ANTHROPIC_API_KEY", "sk-test");
        InProcessCli.Outcome run = cli.run("run", "--base-url", "http://proxy:s3cret@127.0.0.1:9", "hi");
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.stderrLines()).singleElement().asString()
                .startsWith("rein run: ANTHROPIC_BASE_URL must not carry a user name or password, was 'http://***@127.0.0.1:9'")
                .doesNotContain("s3cret");
    }
    /**
     * A trace folder the checks before the run let through but that cannot be made (a folder under /proc, which even
     * root cannot create) said only the JDK's message, the path: "cannot write the trace file /proc/x/y.jsonl: /proc/x".
     * It now says why, in words.
     */
    @Test
    void aTraceFolderThatCannotBeMadeSaysWhy() {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isDirectory(Path.of("/proc/self")), "Linux /proc");
        InProcessCli.Outcome outcome = new InProcessCli().models((name, env) -> dev.rein.testkit.ScriptedModel.of(
                dev.rein.testkit.ScriptedModel.text("hi"))).run("run", "--trace", "/proc/rein-x/y.jsonl", "say hi");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderrLines()).singleElement().asString()
                .startsWith("rein run: cannot write the trace file /proc/rein-x/y.jsonl: ")
                .doesNotEndWith(": /proc/rein-x").containsAnyOf("its folder /proc/rein-x cannot be made (", "is not writable");
    }
}
