package dev.rein.cli;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.testkit.ScriptedModel;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LiveViewTest {
    @Test
    void onATerminalASpinnerShowsWhileTheModelThinksAndIsClearedBeforeEachLine() {
        ScriptedModel slow = ScriptedModel.of(
                ScriptedModel.delayed(Duration.ofMillis(350), toolCalls(call("calculate", "{\"expression\":\"1 + 1\"}"))),
                text("2"));
        InProcessCli.Outcome outcome = new InProcessCli().terminal(new Terminal(true, true, false))
                .models((name, env) -> slow).run("run", "one plus one");

        assertThat(outcome.exitCode()).isZero();
        assertThat(outcome.stderr()).contains("⠋ step 1 the model is thinking").contains("\r\033[K");
        // The spinner line is cleared before the next line is printed, so it never leaves fragments behind.
        assertThat(outcome.stderr()).contains("\r\033[Kstep 1  model replied (tool_use")
                .doesNotContainPattern("\\d\\.\\ds[^\\r]");
        assertThat(outcome.stdout()).isEqualTo("2" + System.lineSeparator());
    }

    @Test
    void withoutATerminalOrWithJsonTheViewIsPlainLines() {
        for (Terminal terminal : new Terminal[] {Terminal.NONE, new Terminal(false, true, false), new Terminal(true, true, true)}) {
            InProcessCli.Outcome outcome = new InProcessCli().terminal(terminal)
                    .models((name, env) -> ScriptedModel.of(ScriptedModel.delayed(Duration.ofMillis(250), text("ok"))))
                    .run("run", "hi");
            assertThat(outcome.stderr()).as(terminal.toString()).doesNotContain("\r").doesNotContain("\033").contains("step 1  model replied");
        }
        InProcessCli.Outcome json = new InProcessCli().terminal(new Terminal(true, true, false))
                .models((name, env) -> ScriptedModel.of(ScriptedModel.delayed(Duration.ofMillis(250), text("ok"))))
                .run("run", "--json", "hi");
        assertThat(json.stderr()).doesNotContain("\r").doesNotContain("\033");
    }

    /** A stop reason Rein has no value for is shown as the provider sent it beside "unknown"; before, only "unknown". */
    @Test
    void anUnknownStopReasonShowsTheProvidersOwnWord() {
        ScriptedModel model = ScriptedModel.of((request, number) -> new dev.rein.model.ModelResponse("msg_1", request.model(),
                java.util.List.of(new dev.rein.model.TextBlock("2")), dev.rein.model.StopReason.UNKNOWN, null,
                ScriptedModel.DEFAULT_USAGE, null, "eos"));
        InProcessCli.Outcome outcome = new InProcessCli().models((name, env) -> model).run("run", "one plus one");
        assertThat(outcome.stderr()).contains("step 1  model replied (unknown: eos, ");
        InProcessCli.Outcome known = new InProcessCli().models((name, env) -> ScriptedModel.of(text("ok"))).run("run", "hi");
        assertThat(known.stderr()).contains("step 1  model replied (end_turn, ");
    }

    @Test
    void theLimitsLineCountsOneStepAsOneStep() {
        InProcessCli.Outcome outcome = new InProcessCli().models((name, env) -> ScriptedModel.of(text("ok")))
                .run("run", "--max-steps", "1", "hi");
        assertThat(outcome.stderr()).contains("limits: 1 step, ").doesNotContain("1 steps");
    }

    @Test
    void longToolResultsAreShortenedWithANote() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("calculate", "{\"expression\":\"2 ** 1000\"}")), text("big"));
        InProcessCli.Outcome outcome = new InProcessCli().models((name, env) -> model).run("run", "big number");
        assertThat(outcome.stderr()).containsPattern("← calculate ok in \\d+ ms: \\d{" + LiveView.MAX_RESULT + "}… \\(\\+\\d+ chars\\)");
    }

    @Test
    void aFailedModelCallsLineNamesItsRequestIdForTheProvidersSupport() {
        ScriptedModel model = ScriptedModel.of(ScriptedModel.fail(new dev.rein.model.ModelException(
                dev.rein.model.ModelException.Kind.INVALID_REQUEST, 400, "bad request", false, null, "req_011CX", null)));
        InProcessCli.Outcome outcome = new InProcessCli().models((name, env) -> model).run("run", "hi");
        assertThat(outcome.stderr()).contains("✗ model call failed (INVALID_REQUEST 400, request-id req_011CX): bad request");
    }

    @Test
    void guardInterventionsAreShown() {
        ScriptedModel.Turn same = toolCalls(call("calculate", "{\"expression\":\"1 + 1\"}"));
        ScriptedModel model = ScriptedModel.of(same, same, same, same, same, same, text("2"));
        InProcessCli.Outcome outcome = new InProcessCli().models((name, env) -> model).run("run", "--json", "one plus one");
        assertThat(outcome.stderr()).contains("! stall (");
    }

    /**
     * A continued run's reply is cut after its control characters are made visible, each escape whole, and the note counts
     * the reply's characters left out. Before: the escaped text was cut ("ab\\x0…", a fragment reading as text) and the
     * escapes' letters were counted (+200 for a reply of 180 characters).
     */
    @Test
    void aTurnsTextIsCutWithoutCuttingAnEscapeAndCountsItsOwnCharacters() {
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        try (StatusLine line = new StatusLine(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8), false)) {
            new LiveView(line).onEvent(new dev.rein.trace.TraceEvent.TurnStarted("r1", 3, java.time.Instant.EPOCH, 2,
                    "ab\u0007".repeat(60)));
        }
        assertThat(err.toString(java.nio.charset.StandardCharsets.UTF_8)).contains("run r1 continues, turn 2: "
                + "ab\\x07".repeat(26) + "ab… (+100 chars)");
    }

    /**
     * A result's part for the person (an MCP block for audience ["user"]) is shown on its line, shortened as the content is.
     * Before, only the content was shown: with --mcp, the model's note that the content was for the user, and not it.
     */
    @Test
    void aResultsPartForThePersonIsShownShortenedOnItsLine() {
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        try (StatusLine line = new StatusLine(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8), false)) {
            LiveView view = new LiveView(line);
            view.onEvent(new dev.rein.trace.TraceEvent.ToolCompleted("r1", 1, java.time.Instant.EPOCH, "c1", "chart",
                    "(the tool returned content for the user only, which is not shown to you)", false, "NONE", null, 3, false,
                    "READ", "売上グラフ\n" + "▇".repeat(200)));
            view.onEvent(new dev.rein.trace.TraceEvent.ToolCompleted("r1", 1, java.time.Instant.EPOCH, "c2", "look", "seen",
                    false, "NONE", null, 3, false, "READ"));
            view.onEvent(new dev.rein.trace.TraceEvent.OutputTruncated("r1", 1, java.time.Instant.EPOCH, "c1", "chart", 5_000, 100,
                    "ab".repeat(32), true, "memory", "user_content"));
        }
        String shown = err.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(shown).contains("← chart ok in 3 ms: (the tool returned content for the user only, which is not shown to you)"
                + " · for you: 売上グラフ " + "▇".repeat(LiveView.MAX_RESULT - 6) + "… (+46 chars)");
        assertThat(shown).contains("← look ok in 3 ms: seen" + System.lineSeparator()).contains("! chart output for you cut: 100 of ")
                .doesNotContain("cut for the model");
    }
}
