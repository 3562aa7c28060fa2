package dev.rein.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.testkit.FakeMessagesServer;
import dev.rein.testkit.FakeReply;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ExamplesTest {
    @Test
    void everyExampleIsListedWithADescription() {
        assertThat(Examples.list()).extracting(Examples.Info::name)
                .containsExactly("date", "orders", "expense", "assistant", "code", "sql", "web", "npc", "workflow");
        assertThat(Examples.list()).allSatisfy(info -> assertThat(info.description()).isNotBlank().doesNotContain("\n"));
    }

    @Test
    void theConsoleShowsControlCharactersFromModelsAndToolsVisibly() {
        String hostile = "page \u001b]0;pwned\u0007\u001b[2J\u009b31m\u202eend";
        assertThat(Display.line(hostile, 200)).isEqualTo("page \\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\u202eend");
        assertThat(Display.indent("a\u001b[31m\nb\tc", "| ")).isEqualTo("| a\\x1b[31m\n| b\tc");
        assertThat(Display.line("日本語のテキスト", 200)).isEqualTo("日本語のテキスト");
    }

    @Test
    void aLineIsCutOnlyWhenTheMarkerIsShorterThanWhatItLeavesOut() {
        // The orders demo showed a warehouse's delay reason with "… (2 characters omitted) …" in it: longer than whole.
        String reason = "x".repeat(20) + "ab" + "y".repeat(20);
        assertThat(Display.line(reason, 40)).isEqualTo(reason);
        String longer = "x".repeat(20) + "-".repeat(100) + "y".repeat(20);
        assertThat(Display.line(longer, 40)).isEqualTo("x".repeat(20) + " … (100 characters omitted) … " + "y".repeat(20));
    }

    @Test
    void theConsoleShowsEveryInvisibleFormatCharacterVisibly() {
        // The Arabic letter mark, a word joiner, a deprecated format character, a soft hyphen and tag characters spelling "hi".
        String hidden = "東京\u061cA\u2060B\u206bC\u00adD\udb40\udc68\udb40\udc69E";
        String shown = "東京\\u061cA\\u2060B\\u206bC\\xadD\\udb40\\udc68\\udb40\\udc69E";
        assertThat(Display.line(hidden, 200)).isEqualTo(shown);
        assertThat(Display.indent(hidden + "\nnext", "| ")).isEqualTo("| " + shown + "\n| next");
    }

    /**
     * An example asks for no more output per step than its money limit buys, so its demo shows the lowering only where
     * the limit really runs short. Before: the date and assistant agents kept the default max_tokens 8192 under a USD
     * 0.05 limit (5,000 tokens at the demo's USD 10 per million), and every step of their demos printed a
     * {@code max_tokens_lowered} line.
     */
    @ParameterizedTest
    @ValueSource(strings = {"date", "orders", "expense", "assistant", "code", "sql", "web", "npc", "workflow"})
    void noDemoAsksForMoreOutputThanItsMoneyLimitBuys(String name) {
        SuiteRuns.DemoOutput demo = SuiteRuns.demo(name);
        assertThat(demo.exitCode()).as(demo.out() + demo.err()).isZero();
        assertThat(demo.out()).doesNotContain("max_tokens_lowered");
    }

    @Test
    void anUnknownNameIsAUsageErrorThatListsTheExamples() {
        Captured c = new Captured();
        assertThat(Examples.run("nothing", true, c.out, c.err)).isEqualTo(Examples.USAGE);
        assertThat(c.err()).contains("unknown example 'nothing'").contains("date, orders, expense");
        assertThat(c.out()).isEmpty();
    }

    /**
     * A library caller's misspelled name gets the likely example, as the rein command's user does. Before: only the list
     * ("unknown example 'ordres'; the examples are: date, orders, ...").
     */
    @Test
    void aMisspelledNameSaysWhichExampleItIsLike() {
        Captured run = new Captured();
        assertThat(Examples.run("ordres", true, run.out, run.err)).isEqualTo(Examples.USAGE);
        assertThat(run.err().strip()).isEqualTo("rein example: unknown example 'ordres'; did you mean orders?");
        Captured evaluate = new Captured();
        assertThat(Examples.evaluate("dtae", true, 1, evaluate.out, evaluate.err)).isEqualTo(Examples.USAGE);
        assertThat(evaluate.err().strip()).isEqualTo("rein example: unknown example 'dtae'; did you mean date?");
        assertThatThrownBy(() -> Examples.suite("sq")).hasMessage("unknown example 'sq'; did you mean sql?");
    }

    @Test
    void withoutAKeyTheExampleRunsOfflineAndSaysSo() {
        Captured c = new Captured();
        int code = Examples.run("date", false, Examples.provider().defaultModel(), Map.of(), c.out, c.err);
        assertThat(code).isZero();
        // both credentials the provider takes are named (before: ANTHROPIC_API_KEY alone)
        assertThat(c.err()).contains("ANTHROPIC_API_KEY is not set, so the example runs offline on its scripted model")
                .contains("ANTHROPIC_AUTH_TOKEN").doesNotContain("rein demo");
        assertThat(c.out()).contains("Model:   scripted (offline");
    }

    @Test
    void anExampleSuiteCanBeEvaluatedByName() {
        Captured c = new Captured();
        assertThat(Examples.evaluate("date", true, 1, c.out, c.err)).isZero();
        assertThat(c.out()).contains("Suite date-assistant").contains("hundred-days");
    }

    /** The real-model path end to end, against the fake Messages API: real HTTP, the official SDK, the real clock. */
    @Test
    void withAKeyTheExampleTalksToTheMessagesApi() {
        String today = LocalDate.now(ZoneId.of("Asia/Tokyo")).toString();
        String later = LocalDate.parse(today).plusDays(100).toString();
        try (FakeMessagesServer server = FakeMessagesServer.start()) {
            server.enqueue(FakeReply.toolUse("toolu_1", "get_current_time", "{\"timezone\":\"Asia/Tokyo\"}"),
                    FakeReply.toolUse("toolu_2", "add_days", "{\"date\":\"" + today + "\",\"days\":100}"),
                    FakeReply.text("100 days from today (" + today + ") is " + later + "."));
            Captured c = new Captured();
            int code = Examples.run("date", false, "claude-sonnet-5", Map.of("ANTHROPIC_API_KEY", "sk-ant-test",
                    "ANTHROPIC_BASE_URL", server.baseUrl()), c.out, c.err);
            assertThat(code).as(c.out() + c.err()).isZero();
            assertThat(c.out()).contains("Model:   claude-sonnet-5 (Anthropic API)").contains(later);
            assertThat(server.requests()).hasSize(3);
        }
    }

    private static final class Captured {
        final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
        final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

        String out() {
            return outBytes.toString(StandardCharsets.UTF_8);
        }

        String err() {
            return errBytes.toString(StandardCharsets.UTF_8);
        }
    }

    /** A null Evaluation is said so (before: a bare NullPointerException "evaluation"). */
    @Test
    void evaluateWithoutAnEvaluationSaysWhatToPass() {
        assertThatThrownBy(() -> Examples.evaluate("date", true, null, null, Map.of(), null, java.util.List.of(), s -> s,
                System.out, System.err)).isInstanceOf(dev.rein.ReinException.class)
                .hasMessageContaining("Examples.evaluate(...) was given no Evaluation (null)");
    }
}
