package dev.rein.cli;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.state.RunSnapshot;
import dev.rein.store.jdbc.JdbcRunStore;
import dev.rein.testkit.MessagingTools;
import dev.rein.testkit.ScriptedModel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The commands {@link RunReport}'s summary line and {@link ResumeCommand#nextTurn} print for a run whose id needs
 * quoting, taken as printed (the quotes that set them off, the id's own quoting, {@code --} before a leading '-'), read by
 * a real shell and run through the CLI: each reaches that run. 'rein resume' and 'rein reply' continue only runs 'rein run'
 * started, whose ids are letters, digits, '_' and '-', so of the ids that need quoting only one starting with '-' reaches
 * those lines through the CLI: it goes the whole way (approve, resume, reply). An id with a space, quotes, Japanese or
 * '$' (an application's run) reaches them here by calling them, and the printed command, run, reaches that run: shown,
 * approved, or refused as "stored by an application" by name, never "there is no run".
 */
class PrintedCommandsRunTest {
    private static final String SEND = "{\"to\":\"sato@example.jp\",\"subject\":\"会議\",\"body\":\"明日10時に変更です。\"}";

    /** A run 'rein run' started, stored under an id starting with '-': every command printed for it, run as printed, works. */
    @Test
    void theCommandsPrintedForARunWithALeadingDashRunAsPrinted() throws Exception {
        String id = "-app_1";
        InProcessCli cli = new InProcessCli();
        ScriptedModel model = ScriptedModel.of(text("始めました"), // the 'rein run' whose settings the run takes
                toolCalls(call("send_message", SEND)), // resumed after the first approval: another send, another pause
                toolCalls(call("finish", "{\"status\":\"needs_user_input\",\"summary\":\"時間\",\"result\":\"何時ですか?\"}")),
                toolCalls(call("finish", "{\"status\":\"completed\",\"summary\":\"ok\",\"result\":\"送りました\"}")),
                toolCalls(call("finish", "{\"status\":\"completed\",\"summary\":\"ok\",\"result\":\"はい\"}")));
        cli.models((name, env) -> model);
        assertThat(cli.run("run", "--finish", "--tools", "send_message", "始めて").exitCode()).isZero();
        String started;
        try (var files = Files.list(cli.home().resolve("runs"))) {
            started = files.findFirst().orElseThrow().getFileName().toString();
        }
        storePausedRunAs(cli, id);
        // the settings 'rein run' keeps: to the CLI, a run it started
        Files.copy(cli.home().resolve("runs").resolve(started), cli.home().resolve("runs").resolve(id + ".json"));
        assertThat(cli.run("approve", "--", id).exitCode()).isZero();

        InProcessCli.Outcome paused = cli.run("resume", "--", id);
        assertThat(paused.exitCode()).as(paused.stderr()).isEqualTo(ExitCodes.WAITING_APPROVAL);
        String summary = paused.stderrLines().getLast();
        assertThat(run(cli, printed(summary, "show")).exitCode()).as(summary).isZero();
        assertThat(run(cli, printed(summary, "approve")).exitCode()).as(summary).isZero();
        InProcessCli.Outcome asked = run(cli, printed(summary, "resume"));
        assertThat(asked.exitCode()).as(asked.stderr()).isEqualTo(ExitCodes.FAILED);

        String question = asked.stderrLines().getLast();
        assertThat(question).contains("answer it with: rein reply -- -app_1 \"TEXT\"");
        InProcessCli.Outcome answered = run(cli, printed(question, "reply"));
        assertThat(answered.exitCode()).as(answered.stderr()).isEqualTo(ExitCodes.SUCCEEDED);
        assertThat(answered.stdout()).contains("送りました");

        InProcessCli.Outcome ended = cli.run("resume", "--", id);
        assertThat(ended.exitCode()).isEqualTo(ExitCodes.USAGE);
        String nextTurn = ended.stderrLines().getLast();
        assertThat(nextTurn).contains("ask a follow-up with 'rein reply -- -app_1 \"TEXT\"'");
        InProcessCli.Outcome followUp = run(cli, printed(nextTurn, "reply"));
        assertThat(followUp.exitCode()).as(followUp.stderr()).isEqualTo(ExitCodes.SUCCEEDED);
        assertThat(followUp.stdout()).contains("はい");
    }

    /**
     * An application's run under an id with a space, quotes, Japanese or '$': the commands RunReport (paused, asked,
     * cancelled) and nextTurn (cancelled) print for it, run as printed, reach that run.
     */
    @Test
    void theCommandsPrintedForAnIdThatNeedsQuotingReachThatRun() throws Exception {
        for (String id : List.of("my run", "order \"A 1\"", "佐藤さんの 実行", "it's", "-my $run's", "run_`id`!")) {
            InProcessCli cli = new InProcessCli();
            RunResult paused = storePausedRunAs(cli, id);
            String waiting = summary(cli, paused);
            assertThat(run(cli, printed(waiting, "show")).stdout()).as(waiting).contains("佐藤さんに連絡して");
            assertThat(refusal(cli, printed(waiting, "resume"))).as(waiting).contains("run " + id + " was stored by an application");
            for (String status : List.of("asked", "cancelled")) {
                RunResult ended = status.equals("asked")
                        ? result(id, RunStatus.FAILED, Reasons.NEEDS_USER_INPUT) : result(id, RunStatus.CANCELLED, "cancelled");
                String line = summary(cli, ended);
                assertThat(refusal(cli, printed(line, "reply"))).as(line).contains("run " + id + " ");
            }
            InProcessCli.Outcome approved = run(cli, printed(waiting, "approve"));
            assertThat(approved.exitCode()).as(waiting + "\n" + approved.stderr()).isZero();

            assertThat(cli.run("cancel", "--", id).exitCode()).isZero();
            RunSnapshot cancelled;
            try (JdbcRunStore store = JdbcRunStore.sqlite(cli.home())) {
                cancelled = store.load(id).orElseThrow();
            }
            String next = ResumeCommand.nextTurn(cancelled);
            assertThat(refusal(cli, printed(next, "reply"))).as(next).contains("run " + id + " was stored by an application");
        }
    }

    /** The command {@code line} prints for {@code verb}: set off in quotes, or bare after "with" or a colon. */
    private static String printed(String line, String verb) {
        String command = "rein " + verb + " ";
        int at = line.indexOf(command);
        assertThat(at).as(line).isPositive();
        char before = line.charAt(at - 1);
        if (before == '\'' || before == '"') {
            int end = line.indexOf(before, at);
            return line.substring(at - 1, end + 1);
        }
        // bare: to the placeholder a reply ends with, or to where the sentence goes on (no id here holds ", ", " (" or ") ")
        int text = line.indexOf("\"TEXT\"", at);
        if (text >= 0) {
            return line.substring(at, text + "\"TEXT\"".length());
        }
        int end = line.length();
        for (String after : List.of(", ", " (", ") ")) {
            int found = line.indexOf(after, at);
            end = found < 0 ? end : Math.min(end, found);
        }
        return line.substring(at, end);
    }

    /** {@code command} as a shell reads it (its setting-off quotes too) run through the CLI. */
    private static InProcessCli.Outcome run(InProcessCli cli, String command) throws Exception {
        List<String> words = ParsedBack.sh(command);
        if (words.size() == 1) {
            words = ParsedBack.sh(words.getFirst());
        }
        assertThat(words.getFirst()).as(command).isEqualTo("rein");
        return cli.run(words.subList(1, words.size()).toArray(String[]::new));
    }

    /** What the CLI refused {@code command} with: a usage error about the run, not "there is no run". */
    private static String refusal(InProcessCli cli, String command) throws Exception {
        InProcessCli.Outcome outcome = run(cli, command);
        assertThat(outcome.exitCode()).as(command + "\n" + outcome.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderr()).as(command).doesNotContain("there is no run");
        return outcome.stderr();
    }

    private static String summary(InProcessCli cli, RunResult result) {
        CliEnvironment env = new CliEnvironment(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), java.util.Map.of(), Terminal.NONE,
                (name, e) -> null, false, new java.io.ByteArrayInputStream(new byte[0]));
        return new RunReport(env, false, false, null, r -> List.of(), null, false).summary(result);
    }

    private static RunResult result(String id, RunStatus status, String reason) {
        return new RunResult(id, status, reason, "止まりました", null, 1, dev.rein.model.Usage.ZERO, java.math.BigDecimal.ZERO,
                java.time.Duration.ofMillis(5), null, List.of());
    }

    /** A run paused for approval, stored by an application under {@code id}. */
    private static RunResult storePausedRunAs(InProcessCli cli, String id) {
        try (JdbcRunStore store = JdbcRunStore.sqlite(cli.home())) {
            RunResult paused = Agent.builder().model(ScriptedModel.of(toolCalls(call("send_message", SEND))))
                    .tools(MessagingTools.outbox(cli.home().resolve("outbox.jsonl"))).store(store).runIds(() -> id)
                    .build().run("佐藤さんに連絡して");
            assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
            return paused;
        }
    }
}
