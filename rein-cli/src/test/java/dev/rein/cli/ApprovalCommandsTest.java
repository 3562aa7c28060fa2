package dev.rein.cli;

import dev.rein.testkit.MessagingTools;
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

/** The approval flow across separate invocations: run → runs → show → approve → resume, each its own "process". */
class ApprovalCommandsTest {
    private static final String SEND = "{\"to\":\"sato@example.jp\",\"subject\":\"会議\",\"body\":\"明日10時に変更です。\"}";
    private final InProcessCli cli = new InProcessCli();

    private ScriptedModel sendThenConfirm() {
        return ScriptedModel.of(toolCalls("送ります。", call("send_message", SEND)), text("送信しました。"));
    }

    private String runId() throws Exception {
        try (var files = Files.list(cli.home().resolve("runs"))) {
            return files.findFirst().orElseThrow().getFileName().toString().replace(".json", "");
        }
    }

    @Test
    void aPausedRunIsListedShownApprovedAndResumedExactlyOnce() throws Exception {
        ScriptedModel model = sendThenConfirm();
        cli.models((name, env) -> model);
        InProcessCli.Outcome run = cli.run("run", "--tools", "lookup_contact,send_message", "佐藤さんに連絡して");
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCodes.WAITING_APPROVAL);
        Path outbox = cli.home().resolve("outbox.jsonl");
        assertThat(outbox).doesNotExist();
        String id = runId();
        // the library's "approve, reject or edit it, then resume run R" named no command of the CLI
        assertThat(run.stderr()).contains("on the command line: see the action with 'rein show " + id + "', decide with 'rein approve "
                + id + "' (or --reject REASON, --edit JSON), then 'rein resume " + id + "'");

        InProcessCli.Outcome runs = cli.run("runs");
        assertThat(runs.exitCode()).isZero();
        assertThat(runs.stdout()).contains(id).contains("WAITING_APPROVAL").contains("佐藤さんに連絡して");

        InProcessCli.Outcome show = cli.run("show", id);
        assertThat(show.stdout()).contains("send_message [IRREVERSIBLE]").contains("明日10時に変更です。");

        InProcessCli.Outcome approve = cli.run("approve", id);
        assertThat(approve.exitCode()).isZero();
        assertThat(approve.stderr()).contains("rein resume " + id);

        InProcessCli.Outcome resume = cli.run("resume", "--json", id);
        assertThat(resume.exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
        assertThat(resume.stdout()).contains("\"status\":\"SUCCEEDED\"").contains("送信しました。");
        assertThat(MessagingTools.read(outbox)).hasSize(1);

        InProcessCli.Outcome again = cli.run("resume", id);
        assertThat(again.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(MessagingTools.read(outbox)).hasSize(1);
    }

    /**
     * A typed run ('--output-schema') keeps its schema across the pause, with the command's settings and with the run
     * itself (the library's snapshot): the two agree, and the answer after 'rein resume' is checked as in the run.
     */
    @Test
    void aTypedRunPausedForApprovalChecksItsAnswerAfterTheResume(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path schema = dir.resolve("sent.json");
        Files.writeString(schema, "{\"type\":\"object\",\"properties\":{\"sent\":{\"type\":\"boolean\"}},\"required\":[\"sent\"]}");
        ScriptedModel model = ScriptedModel.of(toolCalls("送ります。", call("send_message", SEND)), text("送信しました。"),
                text("{\"sent\":true}"));
        cli.models((name, env) -> model);
        InProcessCli.Outcome run = cli.run("run", "--tools", "lookup_contact,send_message", "--output-schema", schema.toString(),
                "佐藤さんに連絡して");
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCodes.WAITING_APPROVAL);
        String id = runId();
        assertThat(cli.run("approve", id).exitCode()).isZero();

        InProcessCli.Outcome resume = cli.run("resume", "--json", id);

        assertThat(resume.exitCode()).as(resume.stderr()).isEqualTo(ExitCodes.SUCCEEDED);
        assertThat(Json.parse(resume.stdout()).get("answer").asText()).isEqualTo("{\"sent\":true}");
        assertThat(model.requests()).hasSize(3);
        var refused = model.requests().get(2).messages();
        assertThat(refused.get(refused.size() - 1).text()).contains("not valid output");
    }

    @Test
    void approvingAgainSaysWhyNothingIsLeftToDecideAndWhatToDoNext() throws Exception {
        ScriptedModel model = sendThenConfirm();
        cli.models((name, env) -> model);
        cli.run("run", "--tools", "send_message", "連絡して");
        String id = runId();
        assertThat(cli.run("approve", id).exitCode()).isZero();

        for (String[] again : new String[][] {{"approve", id}, {"approve", id, "--reject", "やめて"}}) {
            InProcessCli.Outcome twice = cli.run(again);
            assertThat(twice.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(twice.stderrLines()).singleElement().asString().isEqualTo("rein approve: every action run " + id
                    + " waits for is decided already (see 'rein show " + id + "'); continue it with 'rein resume " + id + "'");
        }
        assertThat(cli.run("resume", id).exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
        InProcessCli.Outcome ended = cli.run("approve", id);
        assertThat(ended.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(ended.stderrLines()).singleElement().asString().isEqualTo("rein approve: run " + id
                + " already ended SUCCEEDED (completed); there is nothing to approve; see 'rein show " + id + "', or ask a"
                + " follow-up with 'rein reply " + id + " \"TEXT\"'");
        assertThat(MessagingTools.read(cli.home().resolve("outbox.jsonl"))).hasSize(1);
    }

    /**
     * A run whose process died mid-run (killed during its second model call: its last save is the RUNNING one after the
     * first step) is stored RUNNING. approve says it is not waiting and that a run whose process died is continued with
     * rein resume; resume says on stderr that it takes the run up as stopped, what happens if another process still
     * runs it, and carries it on.
     */
    @Test
    void aRunWhoseProcessDiedIsPointedToResumeByApproveAndResumeSaysWhatItAssumes() throws Exception {
        ScriptedModel first = ScriptedModel.of(toolCalls(call("lookup_contact", "{\"name\":\"佐藤\"}")));
        cli.models((name, env) -> first);
        cli.run("run", "--tools", "lookup_contact,send_message", "佐藤さんの連絡先を調べて");
        String id = runId();
        // the store as a kill during the second model call leaves it: the step's results saved, the run RUNNING
        try (dev.rein.store.jdbc.JdbcRunStore store = dev.rein.store.jdbc.JdbcRunStore.sqlite(cli.home())) {
            dev.rein.state.RunSnapshot ended = store.load(id).orElseThrow();
            store.save(ended.withStatus(dev.rein.run.RunStatus.RUNNING, null, null, ended.updatedAt()));
        }
        assertThat(cli.run("runs").stdout()).contains("RUNNING");

        InProcessCli.Outcome approve = cli.run("approve", id);
        assertThat(approve.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(approve.stderrLines()).singleElement().asString().isEqualTo("rein approve: run " + id + " is RUNNING,"
                + " not waiting for any approval; see 'rein show " + id + "'. If the process that ran it has stopped"
                + " (it crashed or was killed), continue the run with 'rein resume " + id + "'");

        ScriptedModel rest = ScriptedModel.of(text("佐藤さんの連絡先を確認しました。"));
        cli.models((name, env) -> rest);
        InProcessCli.Outcome resume = cli.run("resume", id);
        assertThat(resume.exitCode()).as(resume.stderr()).isEqualTo(ExitCodes.SUCCEEDED);
        assertThat(resume.stderr()).contains("run " + id + " is stored as RUNNING: it is taken to have stopped with its"
                + " process and is continued here; if another process is still running it, the one that saves second stops"
                + " (store_conflict) and the other carries the run on");
        assertThat(resume.stdout()).contains("佐藤さんの連絡先を確認しました。");
    }

    @Test
    void aRejectionReachesTheModelAndNothingIsSent() throws Exception {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message", SEND)), text("送信を取りやめました。"));
        cli.models((name, env) -> model);
        cli.run("run", "--tools", "send_message", "連絡して");
        String id = runId();
        assertThat(cli.run("approve", id, "--reject", "宛先が違います").exitCode()).isZero();
        InProcessCli.Outcome resume = cli.run("resume", id);
        assertThat(resume.exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
        assertThat(model.lastRequest().messages().get(2).content().toString()).contains("宛先が違います");
        assertThat(cli.home().resolve("outbox.jsonl")).doesNotExist();
    }

    /**
     * 'rein approve RUN --reject wrong recipient': --reject takes one word, so picocli said only "Unmatched argument at
     * index 4: 'recipient'"; like 'rein reply RUN 会議室 B', it says that REASON is one argument and shows the quotes.
     */
    @Test
    void aReasonOfSeveralUnquotedWordsIsPointedToQuotes() throws Exception {
        ScriptedModel model = sendThenConfirm();
        cli.models((name, env) -> model);
        cli.run("run", "--tools", "send_message", "連絡して");
        String id = runId();
        InProcessCli.Outcome english = cli.run("approve", id, "--reject", "wrong", "recipient");
        assertThat(english.exitCode()).as(english.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(english.stdout()).isEmpty();
        assertThat(english.stderrLines()).singleElement().asString().isEqualTo("rein approve: the --reject REASON is one argument,"
                + " but 2 words were given; put it in quotes: rein approve " + id + " --reject \"wrong recipient\""
                + " (see 'rein approve --help')");
        // the reason before the run id, with '=', and in Japanese: the words that follow the reason are its own
        InProcessCli.Outcome before = cli.run("approve", "--as", "sato", "--reject=宛先が", "違います", "です", id);
        assertThat(before.exitCode()).as(before.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(before.stderrLines()).singleElement().asString().isEqualTo("rein approve: the --reject REASON is one argument,"
                + " but 3 words were given; put it in quotes: rein approve --as sato --reject \"宛先が 違います です\" " + id
                + " (see 'rein approve --help')");
        // a person's name of two words: picocli said only "Unmatched argument at index 4: 'Smith'"
        InProcessCli.Outcome name = cli.run("approve", id, "--as", "John", "Smith");
        assertThat(name.exitCode()).as(name.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(name.stderrLines()).singleElement().asString().isEqualTo("rein approve: the --as NAME is one argument,"
                + " but 2 words were given; put it in quotes: rein approve " + id + " --as \"John Smith\""
                + " (see 'rein approve --help')");
        // rev63: the words were put in double quotes as typed, where a shell expands $ and backquotes
        InProcessCli.Outcome dollar = cli.run("approve", id, "--reject", "costs", "$5", "`id`");
        assertThat(dollar.stderrLines()).singleElement().asString().endsWith("put it in quotes: rein approve " + id
                + " --reject 'costs $5 `id`' (see 'rein approve --help')");
        assertThat(cli.run("show", "--json", id).stdout()).as("nothing was decided").contains("\"pending_approvals\":1");
        assertThat(cli.run("approve", id, "--reject", "wrong recipient").exitCode()).isZero();
    }

    @Test
    void aReasonOrEditWithBytesThatAreNotUtf8IsRefusedNamingTheOption() throws Exception {
        ScriptedModel model = sendThenConfirm();
        cli.models((name, env) -> model);
        cli.run("run", "--tools", "send_message", "連絡して");
        String id = runId();
        InProcessCli.Outcome reject = cli.run("approve", id, "--reject", "wrong recipient \uFFFD");
        assertThat(reject.exitCode()).as(reject.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(reject.stderr()).contains("--reject is not valid UTF-8");
        InProcessCli.Outcome edit = cli.run("approve", id, "--edit",
                "{\"to\":\"bob@example.com\",\"subject\":\"caf\uFFFD\",\"body\":\"b\"}");
        assertThat(edit.exitCode()).as(edit.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(edit.stderr()).contains("--edit is not valid UTF-8");
        assertThat(cli.run("show", "--json", id).stdout()).as("nothing was decided").contains("\"pending_approvals\":1");
    }

    /**
     * Arguments that do not fit the tool's schema say what was wrong and what to give, naming the tool. Before: only "the
     * edited arguments do not fit tool 'send_message': $: array found, object expected".
     */
    @Test
    void anEditThatDoesNotFitTheSchemaSaysWhatToGive() throws Exception {
        ScriptedModel model = sendThenConfirm();
        cli.models((name, env) -> model);
        cli.run("run", "--tools", "send_message", "連絡して");
        String id = runId();
        InProcessCli.Outcome array = cli.run("approve", id, "--edit", "[1]");
        assertThat(array.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(array.stderrLines()).singleElement().asString().isEqualTo("rein approve: --edit: the edited arguments do not"
                + " fit tool 'send_message': $: array found, object expected; give the arguments of send_message as one JSON"
                + " object that fits its schema (see 'rein show " + id + "' for the arguments as proposed)");
        InProcessCli.Outcome wrongType = cli.run("approve", id, "--edit", "{\"to\":42}");
        assertThat(wrongType.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(wrongType.stderrLines()).singleElement().asString().startsWith("rein approve: --edit: the edited arguments do"
                + " not fit tool 'send_message': ").endsWith("; give the arguments of send_message as one JSON object that fits"
                + " its schema (see 'rein show " + id + "' for the arguments as proposed)");
        assertThat(cli.run("show", "--json", id).stdout()).as("nothing was decided").contains("\"pending_approvals\":1");
    }

    @Test
    void anEditIsRevalidatedAndTheEditedMessageIsSent() throws Exception {
        ScriptedModel model = sendThenConfirm();
        cli.models((name, env) -> model);
        cli.run("run", "--tools", "send_message", "連絡して");
        String id = runId();
        InProcessCli.Outcome invalid = cli.run("approve", id, "--edit", "{\"to\":42}");
        assertThat(invalid.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(invalid.stderrLines()).singleElement().asString().contains("rein approve:");
        InProcessCli.Outcome notJson = cli.run("approve", id, "--edit", "{oops");
        assertThat(notJson.exitCode()).isEqualTo(ExitCodes.USAGE);
        for (String blank : new String[] {"", "  "}) { // an unset shell variable: say so, not "$: unknown found"
            InProcessCli.Outcome empty = cli.run("approve", id, "--edit", blank);
            assertThat(empty.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(empty.stderrLines()).singleElement().asString().isEqualTo("rein approve: --edit is empty: give the new"
                    + " arguments as a JSON object, e.g. --edit '{\"to\":\"bob\"}' (see 'rein show " + id + "' for the arguments as proposed)");
        }
        String edited = "{\"to\":\"bob@example.com\",\"subject\":\"会議\",\"body\":\"変更です\"}";
        // Text after the object (a second object, a shell-quoting slip) would be dropped without a word.
        for (String trailing : new String[] {edited + " {\"body\":\"追記\"}", edited + " x", edited + "}"}) {
            InProcessCli.Outcome extra = cli.run("approve", id, "--edit", trailing);
            assertThat(extra.exitCode()).as(trailing).isEqualTo(ExitCodes.USAGE);
            assertThat(extra.stderrLines()).singleElement().asString().startsWith("rein approve: --edit: not valid JSON: ")
                    .contains("after the JSON value").contains("one JSON object");
        }
        assertThat(cli.run("show", "--json", id).stdout()).contains("\"pending_approvals\":1");
        assertThat(cli.run("approve", id, "--edit", edited + " \n").exitCode()).as("trailing white space is fine").isZero();
        assertThat(cli.run("resume", id).exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
        assertThat(MessagingTools.read(cli.home().resolve("outbox.jsonl"))).singleElement()
                .satisfies(m -> assertThat(m.get("to").asText()).isEqualTo("bob@example.com"));
    }

    /**
     * Two different actions wait: approve without --action names each with its tool; --action takes a hash's start in
     * either case (rein show prints it in lower case, a person may copy it from elsewhere in upper case); an action decided
     * already is said to be so, where the CLI said no waiting action's hash started so, as if the hash were mistyped.
     */
    @Test
    void choosingAmongSeveralActionsNamesTheirToolsTakesAnyCaseAndSaysWhichWasDecidedAlready() throws Exception {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message", SEND), call("send_message", SEND.replace("会議", "連絡"))),
                text("送信しました。"));
        cli.models((name, env) -> model);
        cli.run("run", "--tools", "send_message", "連絡して");
        String id = runId();
        JsonNode pending = Json.parse(cli.run("show", "--json", id).stdout()).get("pending_actions");
        String first = pending.get(0).get("action_hash").asText();
        String second = pending.get(1).get("action_hash").asText();

        InProcessCli.Outcome which = cli.run("approve", id);
        assertThat(which.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(which.stderrLines()).singleElement().asString().isEqualTo("rein approve: run " + id + " waits for 2 different"
                + " actions; choose one with --action HASH: send_message " + first + ", send_message " + second
                + " (see 'rein show " + id + "' for their arguments)");

        InProcessCli.Outcome upper = cli.run("approve", id, "--action", first.substring(0, 12).toUpperCase(java.util.Locale.ROOT));
        assertThat(upper.exitCode()).as(upper.stderr()).isZero();

        InProcessCli.Outcome again = cli.run("approve", id, "--action", first.substring(0, 12), "--reject", "やめて");
        assertThat(again.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(again.stderrLines()).singleElement().asString().isEqualTo("rein approve: the action of run " + id
                + " whose hash starts with '" + first.substring(0, 12) + "' (send_message " + first + ") is decided already;"
                + " still waiting: send_message " + second + " (see 'rein show " + id + "')");
        assertThat(cli.run("approve", id, "--action", second.substring(0, 8)).exitCode()).isZero();
        assertThat(cli.run("resume", id).exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
        assertThat(MessagingTools.read(cli.home().resolve("outbox.jsonl"))).hasSize(2);
    }

    @Test
    void showNamesEachDecisionRecordedBeforeTheRunResumes() throws Exception {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message", SEND), call("lookup_contact", "{\"name\":\"佐藤\"}"),
                call("send_message", SEND.replace("会議", "連絡"))), text("送信しました。"));
        cli.models((name, env) -> model);
        cli.run("run", "--tools", "lookup_contact,send_message", "連絡して");
        String id = runId();
        JsonNode pending = Json.parse(cli.run("show", "--json", id).stdout()).get("pending_actions");
        String first = pending.get(0).get("action_hash").asText();
        assertThat(cli.run("approve", id, "--action", first, "--reject", "宛先が違います", "--as", "佐藤花子").exitCode()).isZero();

        InProcessCli.Outcome show = cli.run("show", id);
        assertThat(show.stdout()).contains("Decided, carried out when the run resumes:")
                .contains("send_message [IRREVERSIBLE] action " + first + ": rejected (宛先が違います) by 佐藤花子")
                .contains("Waiting for approval:").contains(pending.get(1).get("action_hash").asText());

        String edited = "{\"to\":\"bob@example.com\",\"subject\":\"件名\",\"body\":\"本文\"}";
        assertThat(cli.run("approve", id, "--edit", edited, "--as", "佐藤花子").exitCode()).isZero();
        assertThat(cli.run("show", id).stdout()).contains("approved with edited arguments " + edited + " by 佐藤花子")
                .doesNotContain("Waiting for approval:");

        assertThat(cli.run("resume", id).exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
        assertThat(cli.run("show", id).stdout()).doesNotContain("Decided, carried out").contains("approval_decided");
    }

    /**
     * The name from {@code $USER} is printed as every other text from outside is: a control character or a bidi override in
     * it is shown as an escape, never written raw to the terminal. Before: "approved ... as " + the variable as it was.
     */
    @Test
    void theNameFromUserIsPrintedWithItsControlCharactersEscaped() throws Exception {
        ScriptedModel model = sendThenConfirm();
        cli.models((name, env) -> model);
        cli.run("run", "--tools", "lookup_contact,send_message", "佐藤さんに連絡して");
        String id = runId();
        cli.env("USER", "佐藤\u001b[2J\u202eevil");
        InProcessCli.Outcome approve = cli.run("approve", id);
        assertThat(approve.exitCode()).as(approve.stderr()).isZero();
        assertThat(approve.stderr()).doesNotContain("\u001b").doesNotContain("\u202e")
                .contains(" as 佐藤\\x1b[2J\\u202eevil");
    }

    /**
     * The --as limit counts characters as the message says, code points: a name of 150 characters outside the BMP (300
     * UTF-16 units) is taken, one of 201 refused. Before: the UTF-16 length was compared, so the 150-character name was
     * refused as longer than 200 characters.
     */
    @Test
    void theAsLimitCountsCharactersNotUtf16Units() throws Exception {
        ScriptedModel model = sendThenConfirm();
        cli.models((name, env) -> model);
        cli.run("run", "--tools", "lookup_contact,send_message", "佐藤さんに連絡して");
        String id = runId();
        String tooLong = "𠮷".repeat(201);
        InProcessCli.Outcome refused = cli.run("approve", id, "--as", tooLong);
        assertThat(refused.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(refused.stderr()).contains("--as must be a name of at most 200 characters");
        String name = "𠮷".repeat(150);
        InProcessCli.Outcome approve = cli.run("approve", id, "--as", name);
        assertThat(approve.exitCode()).as(approve.stderr()).isZero();
        assertThat(approve.stderr()).contains(" as " + name);
    }

    @Test
    void anEditThatIsNotClosedIsDescribedByLineAndColumnWithoutJacksonsSourcePlaceholder() throws Exception {
        ScriptedModel model = sendThenConfirm();
        cli.models((name, env) -> model);
        cli.run("run", "--tools", "send_message", "連絡して");
        String id = runId();
        InProcessCli.Outcome unclosed = cli.run("approve", id, "--edit", "{\"to\":\"bob@example.com\"");
        assertThat(unclosed.exitCode()).isEqualTo(ExitCodes.USAGE);
        // before: "... (start marker at [Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1,
        // column: 1])", which reads as a masked secret
        assertThat(unclosed.stderrLines()).singleElement().asString().startsWith("rein approve: --edit: not valid JSON: ")
                .contains("start marker at line 1, column 1").doesNotContain("REDACTED").doesNotContain("StreamReadFeature");

        cli.models((name, env) -> sendThenConfirm()).terminal(new Terminal(false, true, false, true))
                .input("e\n{\"to\":\"x\"\nn\nno\n");
        InProcessCli.Outcome inline = cli.run("run", "--tools", "send_message", "連絡して");
        assertThat(inline.stderr()).contains("Not accepted: not valid JSON: ").contains("line 1, column 1")
                .doesNotContain("REDACTED").doesNotContain("StreamReadFeature");
    }

    @Test
    void inlineApprovalAtATerminalAsksAndContinues() {
        ScriptedModel model = sendThenConfirm();
        cli.models((name, env) -> model).terminal(new Terminal(false, true, false, true)).input("y\n");
        InProcessCli.Outcome run = cli.run("run", "--tools", "send_message", "連絡して");
        assertThat(run.stderr()).contains("needs your approval").contains("Approve? [y]es / [n]o / [e]dit");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
        assertThat(MessagingTools.read(cli.home().resolve("outbox.jsonl"))).hasSize(1);
    }

    @Test
    void inlineApprovalWithoutAnAnswerLeavesTheRunWaiting() {
        cli.models((name, env) -> sendThenConfirm()).terminal(new Terminal(false, true, false, true)).input("");
        InProcessCli.Outcome run = cli.run("run", "--tools", "send_message", "連絡して");
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCodes.WAITING_APPROVAL);
        assertThat(cli.home().resolve("outbox.jsonl")).doesNotExist();
    }

    @Test
    void identicalActionsInOneResponseAreOneDecision() throws Exception {
        String sameInOtherOrder = "{\"body\":\"明日10時に変更です。\",\"subject\":\"会議\",\"to\":\"sato@example.jp\"}";
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message", SEND), call("send_message", sameInOtherOrder)),
                text("送信しました。"));
        cli.models((name, env) -> model);
        assertThat(cli.run("run", "--tools", "send_message", "連絡して").exitCode()).isEqualTo(ExitCodes.WAITING_APPROVAL);
        String id = runId();
        InProcessCli.Outcome approve = cli.run("approve", id);
        assertThat(approve.exitCode()).as(approve.stderr()).isZero();
        assertThat(cli.run("resume", id).exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
    }

    @Test
    void inlineApprovalAsksOnceForIdenticalActionsOfOneResponseAndContinues() {
        String sameInOtherOrder = "{\"body\":\"明日10時に変更です。\",\"subject\":\"会議\",\"to\":\"sato@example.jp\"}";
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message", SEND), call("send_message", sameInOtherOrder)),
                text("送信しました。"));
        // One answer: the identical second call is covered by it, so a second question would read end of input.
        cli.models((name, env) -> model).terminal(new Terminal(false, true, false, true)).input("y\n");
        InProcessCli.Outcome run = cli.run("run", "--tools", "send_message", "連絡して");
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCodes.SUCCEEDED);
        assertThat(run.stderr().split("Approve\\? ", -1)).as(run.stderr()).hasSize(2);
        assertThat(run.stderr()).doesNotContain("Not accepted");
    }

    @Test
    void withTheFinishToolAQuestionForTheUserEndsWithAHandoff() throws Exception {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("lookup_contact", "{\"name\":\"alice\"}")),
                toolCalls(call("finish", "{\"status\":\"needs_user_input\",\"summary\":\"two Alices\","
                        + "\"result\":\"Which Alice do you mean?\"}")));
        cli.models((name, env) -> model);
        InProcessCli.Outcome run = cli.run("run", "--finish", "--tools", "lookup_contact", "--json", "Tell Alice");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(run.stdout()).contains("\"reason\":\"needs_user_input\"").contains("Which Alice do you mean?");
        assertThat(model.requests().get(0).tools()).extracting(d -> d.name()).contains("finish");
        InProcessCli.Outcome show = cli.run("show", runId());
        assertThat(show.stdout()).contains("needs_user_input").contains("Which Alice do you mean?");
        JsonNode handoff = Json.parse(cli.run("show", "--json", runId()).stdout()).get("handoff");
        assertThat(handoff.get("reason").asText()).isEqualTo("needs_user_input");
        assertThat(handoff.get("question").asText()).isEqualTo("Which Alice do you mean?");
        assertThat(handoff.get("attempted_actions").get(0).get("tool").asText()).isEqualTo("lookup_contact");
        assertThat(handoff.has("open_questions")).isTrue();
    }

    @Test
    void truncatedToolOutputIsKeptInFullBesideTheRuns() throws Exception {
        String longName = "x".repeat(5_000);
        ScriptedModel model = ScriptedModel.of(toolCalls(call("lookup_contact", "{\"name\":\"" + longName + "\"}")), text("none"));
        cli.models((name, env) -> model);
        assertThat(cli.run("run", "--tools", "lookup_contact", "find " + "x").exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
        String seen = model.lastRequest().messages().get(2).content().toString();
        assertThat(seen).contains("characters were omitted");
        try (var stored = Files.walk(cli.home().resolve("outputs"))) {
            assertThat(stored.filter(Files::isRegularFile).toList()).singleElement()
                    .satisfies(f -> assertThat(Files.readString(f)).contains(longName));
        }
    }

    /**
     * {@code --action "$HASH"} with HASH unset: the empty prefix matched every hash, so the one waiting action was
     * approved (or rejected) without the person having named it. It is refused, as an empty --edit is.
     */
    @Test
    void anEmptyActionIsRefusedRatherThanTakenAsEveryAction() throws Exception {
        ScriptedModel model = sendThenConfirm();
        cli.models((name, env) -> model);
        cli.run("run", "--tools", "send_message", "連絡して");
        String id = runId();
        for (String blank : new String[] {"", " "}) {
            InProcessCli.Outcome empty = cli.run("approve", id, "--action", blank, "--reject", "違います");
            assertThat(empty.exitCode()).as(empty.stderr()).isEqualTo(ExitCodes.USAGE);
            assertThat(empty.stderrLines()).singleElement().asString().isEqualTo("rein approve: --action is empty: give the"
                    + " hash of the action to decide, or its first characters (see 'rein show " + id + "'), or leave --action out"
                    + " when the run waits for one action");
        }
        assertThat(cli.run("show", "--json", id).stdout()).as("nothing was decided").contains("\"pending_approvals\":1")
                .doesNotContain("違います");
    }

    /**
     * An empty --reject reason (--reject "$WHY" with WHY unset) recorded the rejection with "no reason given", for good: the
     * reason meant for the model was lost, where an empty --edit, --action and cancel --reason are refused. It is refused
     * too, and nothing is decided.
     */
    @Test
    void anEmptyRejectReasonIsRefusedAndNothingIsDecided() throws Exception {
        ScriptedModel model = sendThenConfirm();
        cli.models((name, env) -> model);
        cli.run("run", "--tools", "send_message", "連絡して");
        String id = runId();
        for (String blank : new String[] {"", " "}) {
            InProcessCli.Outcome empty = cli.run("approve", id, "--reject", blank);
            assertThat(empty.exitCode()).as(empty.stderr()).isEqualTo(ExitCodes.USAGE);
            assertThat(empty.stderrLines()).singleElement().asString().isEqualTo("rein approve: --reject is empty: say why the"
                    + " action is rejected, which the model sees as the tool result, e.g. --reject \"wrong recipient\"");
        }
        assertThat(cli.run("show", "--json", id).stdout()).as("nothing was decided").contains("\"pending_approvals\":1");
    }

    /**
     * show, approve, resume and reply word an unknown run id alike (one message, the library's): the id,
     * the store it is not in, and how to list the runs; exit 2, nothing on stdout.
     */
    @Test
    void everyCommandSaysAnUnknownRunIdTheSameWayNamingTheStoreAndHowToListTheRuns() throws Exception {
        ScriptedModel model = sendThenConfirm();
        cli.models((name, env) -> model);
        cli.run("run", "--tools", "send_message", "連絡して");
        String store = cli.home().resolve("rein.db").toAbsolutePath().toString();
        for (String id : new String[] {"run_nope", "../etc", "注文-1"}) {
            for (String[] args : new String[][] {{"show", id}, {"show", "--json", id}, {"approve", id},
                    {"approve", id, "--reject", "違います"}, {"resume", id}, {"reply", id, "続けて"}}) {
                InProcessCli.Outcome outcome = cli.run(args);
                String command = "rein " + args[0];
                assertThat(outcome.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCodes.USAGE);
                assertThat(outcome.stdout()).as(String.join(" ", args)).isEmpty();
                assertThat(outcome.stderrLines()).as(String.join(" ", args)).singleElement().asString().isEqualTo(command
                        + ": there is no run '" + id + "' in the run store " + store + "; list the stored runs with 'rein runs'");
            }
        }
        // quoted as typed, its line break shown as an escape (before: 'run_a; b', as if the id held "; ")
        for (String command : new String[] {"show", "approve", "resume"}) {
            assertThat(cli.run(command, "run_a\nb").stderrLines()).singleElement().asString()
                    .startsWith("rein " + command + ": there is no run 'run_a\\x0ab' in the run store ");
        }
    }

    @Test
    void badRunIdsAndOptionsAreOneLineUsageErrors() {
        for (String[] args : new String[][] {{"show", "run_nope"}, {"approve", "run_nope"}, {"resume", "run_nope"},
                {"approve", "../etc"}, {"approve", "x", "--reject", "r", "--edit", "{}"}}) {
            InProcessCli.Outcome outcome = cli.run(args);
            assertThat(outcome.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stderr()).as(String.join(" ", args)).doesNotContain("Exception").doesNotContain("\tat ");
        }
    }

    /**
     * --reject and --edit are one choice. Before: picocli's own words, "Error: --reject=REASON, --edit=JSON are mutually
     * exclusive (specify only one)", and for one given twice "Error: expected only one match but got [--reject=REASON |
     * --edit=JSON]={--reject=a} and [--reject=REASON | --edit=JSON]={--reject=b}", its internal notation.
     */
    @Test
    void rejectWithEditOrEitherTwiceSaysWhichAndWhatToGive() {
        InProcessCli.Outcome both = cli.run("approve", "run_1", "--reject", "違います", "--edit", "{}");
        assertThat(both.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(both.stdout()).isEmpty();
        assertThat(both.stderrLines()).containsExactly("rein approve: --reject and --edit cannot be used together; give one of"
                + " them: --reject REASON (reject the action) or --edit JSON (approve the action with these arguments instead)"
                + " (see 'rein approve --help')");
        assertThat(cli.run("approve", "--edit={}", "run_1", "--reject=no").stderrLines()).containsExactly("rein approve: --edit"
                + " and --reject cannot be used together; give one of them: --edit JSON (approve the action with these arguments"
                + " instead) or --reject REASON (reject the action) (see 'rein approve --help')");

        InProcessCli.Outcome twice = cli.run("approve", "run_1", "--reject", "a", "--reject", "b");
        assertThat(twice.exitCode()).isEqualTo(ExitCodes.USAGE);
        // as picocli says it of every other option given twice ('rein run --max-steps 3 --max-steps 4')
        assertThat(twice.stderrLines()).containsExactly("rein approve: option '--reject' (REASON) should be specified only once;"
                + " give it once, with the value meant (see 'rein approve --help')");
        assertThat(cli.run("approve", "run_1", "--edit", "{}", "--edit={}").stderrLines()).containsExactly("rein approve: option"
                + " '--edit' (JSON) should be specified only once; give it once, with the value meant (see 'rein approve"
                + " --help')");
    }

    @Test
    void aDamagedSettingsFileIsNamedByLineAndColumnWithWhatToDo() throws Exception {
        ScriptedModel model = sendThenConfirm();
        cli.models((name, env) -> model);
        cli.run("run", "--tools", "send_message", "連絡して");
        String id = runId();
        Path settings = cli.home().resolve("runs").resolve(id + ".json");
        Files.writeString(settings, "{\"model\":");

        for (String command : new String[] {"approve", "resume"}) {
            InProcessCli.Outcome outcome = cli.run(command, id);
            assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.USAGE);
            // Before: "cannot read F: Unexpected end-of-input ...; at [Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION`
            // disabled); line: 1, column: 10]", which reads as a masked secret and says nothing to do.
            assertThat(outcome.stderrLines()).singleElement().asString()
                    .startsWith("rein " + command + ": cannot read " + settings + ", the settings run " + id + " was started with:")
                    .contains("at line 1, column 10")
                    .endsWith("put back the file 'rein run' wrote, or start the task again with 'rein run'")
                    .doesNotContain("REDACTED").doesNotContain("StreamReadFeature");
        }
        assertThat(cli.home().resolve("outbox.jsonl")).doesNotExist();
    }
}
