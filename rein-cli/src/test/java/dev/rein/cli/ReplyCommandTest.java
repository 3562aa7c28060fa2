package dev.rein.cli;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.testkit.ScriptedModel;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** {@code rein reply}: a run that asked for input is answered in a later invocation and finishes. */
class ReplyCommandTest {
    private final InProcessCli cli = new InProcessCli();

    private String runId() throws Exception {
        try (var files = Files.list(cli.home().resolve("runs"))) {
            return files.findFirst().orElseThrow().getFileName().toString().replace(".json", "");
        }
    }

    @Test
    void aQuestionForTheUserIsAnsweredWithReply() throws Exception {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("lookup_contact", "{\"name\":\"alice\"}")),
                toolCalls(call("finish", "{\"status\":\"needs_user_input\",\"summary\":\"two Alices\","
                        + "\"result\":\"Which Alice do you mean?\"}")),
                toolCalls(call("finish", "{\"status\":\"completed\",\"summary\":\"ok\",\"result\":\"Alice Sato it is.\"}")));
        cli.models((name, env) -> model);
        assertThat(cli.run("run", "--finish", "--tools", "lookup_contact", "Tell Alice").exitCode()).isEqualTo(ExitCodes.FAILED);
        String id = runId();
        InProcessCli.Outcome reply = cli.run("reply", "--json", id, "佐藤アリスさんです");
        assertThat(reply.exitCode()).as(reply.stderr()).isEqualTo(ExitCodes.SUCCEEDED);
        assertThat(reply.stdout()).contains("\"status\":\"SUCCEEDED\"").contains("Alice Sato it is.");
        assertThat(model.requests().get(2).messages().get(model.requests().get(2).messages().size() - 1).text())
                .contains("佐藤アリスさんです");
    }

    @Test
    void aReplyTurnIsStreamedWithJsonStreamFromTurnStartedToTheResult() throws Exception {
        ScriptedModel model = ScriptedModel.of(text("どの会議室ですか?"), text("会議室Bを予約しました 🗓"));
        cli.models((name, env) -> model);
        assertThat(cli.run("run", "会議室を予約して").exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
        String id = runId();

        InProcessCli.Outcome reply = cli.run("reply", "--json-stream", id, "会議室Bでお願いします");

        assertThat(reply.exitCode()).as(reply.stderr()).isEqualTo(ExitCodes.SUCCEEDED);
        java.util.List<com.fasterxml.jackson.databind.JsonNode> lines = reply.stdout().lines().map(Json::parse).toList();
        java.util.List<String> types = lines.stream().map(l -> l.get("type").asText()).toList();
        assertThat(types).containsSubsequence("turn_started", "model_request", "text_delta", "model_response", "run_finished", "result");
        assertThat(lines.get(0).get("text").asText()).isEqualTo("会議室Bでお願いします");
        assertThat(lines.get(lines.size() - 1).get("answer").asText()).isEqualTo("会議室Bを予約しました 🗓");
        assertThat(cli.run("reply", "--json", "--json-stream", id, "ありがとう").stderr())
                .contains("--json and --json-stream cannot be used together");
    }

    @Test
    void aRunThatAskedForInputSaysOnItsSummaryLineHowToAnswerIt() throws Exception {
        cli.models((name, env) -> ScriptedModel.of(toolCalls(call("finish", "{\"status\":\"needs_user_input\",\"summary\":\"二人いる\","
                + "\"result\":\"どのアリスさんですか?\"}"))));
        InProcessCli.Outcome run = cli.run("run", "--finish", "アリスに連絡して");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILED);
        String id = runId();
        assertThat(run.stderrLines()).last().asString().startsWith("rein: FAILED (needs_user_input)")
                .contains("answer it with: rein reply " + id + " \"TEXT\"");
    }

    @Test
    void aRunThatCannotTakeAReplyIsRefusedByName() throws Exception {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message",
                "{\"to\":\"sato@example.jp\",\"subject\":\"s\",\"body\":\"b\"}")), text("sent"));
        cli.models((name, env) -> model);
        cli.run("run", "--tools", "send_message", "連絡して");
        String id = runId();
        InProcessCli.Outcome paused = cli.run("reply", id, "hi");
        assertThat(paused.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(paused.stderr()).contains("has not ended").contains("rein resume " + id);
        // a reply of only invisible characters (a zero-width space) is as empty as "" and creates no model
        int models = cli.modelsCreated();
        InProcessCli.Outcome invisible = cli.run("reply", id, "\u200B\u00A0");
        assertThat(invisible.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(invisible.stderr()).contains("the reply is empty");
        assertThat(cli.modelsCreated()).isEqualTo(models);
        InProcessCli.Outcome missing = cli.run("reply", "run_nope", "hi");
        assertThat(missing.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(missing.stderr()).contains("run_nope").contains("rein runs");
    }

    /**
     * A run cancelled while a call waited for approval ended with that call unanswered; reply continues it (the call
     * answered as never run, before the reply), where it was refused before as a run that cannot take a reply.
     */
    @Test
    void aCancelledRunTakesAReplyWithItsUnansweredCallSaidNeverRun() throws Exception {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message",
                "{\"to\":\"sato@example.jp\",\"subject\":\"s\",\"body\":\"b\"}")), text("送らずにおきます"));
        cli.models((name, env) -> model);
        cli.run("run", "--tools", "send_message", "連絡して");
        String id = runId();
        try (dev.rein.store.jdbc.JdbcRunStore store = dev.rein.store.jdbc.JdbcRunStore.sqlite(cli.home())) {
            dev.rein.state.Runs.in(store).cancel(id, "やめた");
        }

        InProcessCli.Outcome resume = cli.run("resume", id);
        assertThat(resume.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(resume.stderr()).contains("already ended CANCELLED").contains("continue it with 'rein reply " + id);

        InProcessCli.Outcome reply = cli.run("reply", "--json", id, "送らなくていいです");

        assertThat(reply.exitCode()).as(reply.stderr()).isEqualTo(ExitCodes.SUCCEEDED);
        assertThat(reply.stdout()).contains("送らずにおきます");
        java.util.List<dev.rein.model.Message> sent = model.requests().get(1).messages();
        dev.rein.model.Message answered = sent.get(sent.size() - 1);
        assertThat(answered.content().get(0)).isInstanceOfSatisfying(dev.rein.model.ToolResultBlock.class,
                r -> assertThat(r.content()).contains("never run"));
        assertThat(answered.text()).isEqualTo("送らなくていいです");
    }

    /**
     * {@code rein reply RUN 会議室 B}: TEXT is one argument (rein run joins a GOAL's words, reply does not), and picocli
     * said only "Unmatched argument at index 3: 'B'"; the line says to quote the reply, with the command to type.
     */
    @Test
    void aReplyOfSeveralUnquotedWordsIsPointedToQuotes() throws Exception {
        ScriptedModel model = ScriptedModel.of(text("first answer"), text("second answer"));
        cli.models((name, env) -> model);
        assertThat(cli.run("run", "--tools", "", "質問").exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
        String id = runId();
        InProcessCli.Outcome reply = cli.run("reply", "--json", id, "会議室", "B", "です");
        assertThat(reply.exitCode()).as(reply.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(reply.stdout()).isEmpty();
        assertThat(reply.stderrLines()).singleElement().asString().isEqualTo("rein reply: the reply TEXT is one argument, but 3"
                + " words were given; put it in quotes: rein reply --json " + id + " \"会議室 B です\" (see 'rein reply --help')");
        assertThat(model.requests()).as("nothing was sent for the refused reply").hasSize(1);
    }

    /**
     * rev63: the quoted TEXT was put in double quotes as typed, so a shell given the hint expanded {@code $5}, dropped
     * inner quotes and ran backquoted commands ({@code `id`} became the reply); quoted as any other word of a hint now,
     * after '--' and without it.
     */
    @Test
    void aReplyOfSeveralWordsIsQuotedSoAShellSendsThemAsTyped() throws Exception {
        ScriptedModel model = ScriptedModel.of(text("first answer"), text("second answer"));
        cli.models((name, env) -> model);
        assertThat(cli.run("run", "--tools", "", "質問").exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
        String id = runId();
        InProcessCli.Outcome plain = cli.run("reply", id, "costs $5", "say \"hi\"", "`id`");
        assertThat(plain.stderrLines()).singleElement().asString().endsWith("put it in quotes: rein reply " + id
                + " 'costs $5 say \"hi\" `id`' (see 'rein reply --help')");
        InProcessCli.Outcome dashed = cli.run("reply", id, "--", "--json", "it's $HOME");
        assertThat(dashed.stderrLines()).singleElement().asString().endsWith("put it in quotes: rein reply " + id
                + " -- '--json it'\\''s $HOME' (see 'rein reply --help')");
        assertThat(model.requests()).as("nothing was sent for the refused replies").hasSize(1);
    }

    @Test
    void aReplyWithBytesThatAreNotUtf8IsRefusedNamingTheArgument() throws Exception {
        ScriptedModel model = ScriptedModel.of(text("first answer"), text("second answer"));
        cli.models((name, env) -> model);
        assertThat(cli.run("run", "--tools", "", "質問").exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
        String id = runId();
        InProcessCli.Outcome reply = cli.run("reply", id, "caf\uFFFD au lait");
        assertThat(reply.exitCode()).as(reply.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(reply.stderr()).contains("TEXT is not valid UTF-8").contains("U+FFFD at character 4");
        assertThat(model.requests()).as("nothing was sent for the refused reply").hasSize(1);
    }

    @Test
    void showListsTheRepliesByTurn() throws Exception {
        ScriptedModel model = ScriptedModel.of(text("It ships on 2026-12-03."), text("Yes, by courier."), text("Noted."));
        cli.models((name, env) -> model);
        assertThat(cli.run("run", "--tools", "", "When does A-104 ship?").exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
        String id = runId();
        assertThat(cli.run("show", id).stdout()).doesNotContain("Replies:");
        assertThat(cli.run("reply", id, "By courier?").exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
        assertThat(cli.run("reply", id, "住所は\n東京都です").exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
        InProcessCli.Outcome show = cli.run("show", id);
        assertThat(show.exitCode()).as(show.stderr()).isEqualTo(ExitCodes.SUCCEEDED);
        assertThat(show.stdout()).contains("  Replies:\n    turn 2: By courier?\n    turn 3: 住所は 東京都です\n");
        // --json keeps each reply whole, line break included
        var replies = Json.parse(cli.run("show", "--json", id).stdout()).get("replies");
        assertThat(replies).hasSize(2);
        assertThat(replies.get(0).get("turn").asInt()).isEqualTo(2);
        assertThat(replies.get(1).get("text").asText()).isEqualTo("住所は\n東京都です");
    }
}
