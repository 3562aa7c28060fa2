package dev.rein.cli;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.testkit.ScriptedModel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The spinner line is redrawn after a carriage return and cleared with ESC [K, which reach only the cursor's row: a
 * line wider than the terminal wraps, and every redraw then leaves a row behind. It was up to about 68 columns (a
 * 60-character label, the frame and the time) however narrow the terminal (COLUMNS=40).
 */
class StatusLineTest {
    @Test
    void theSpinnerFitsTheTerminalsWidthWideCharactersCountingTwo() throws Exception {
        for (String label : List.of("step 12 the model is preparing a call to search_documents_in_the_archive_of_2026",
                "step 3 the model is preparing a call to 会議室の予約状況を確認する検索ツール")) {
            for (int columns : new int[] {40, 30, 80}) {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
                try (StatusLine line = new StatusLine(err, true, columns)) {
                    line.waitingFor(label);
                    Thread.sleep(250);
                }
                List<String> drawn = Arrays.stream(bytes.toString(StandardCharsets.UTF_8).split("\r\033\\[K"))
                        .filter(s -> !s.isEmpty()).toList();
                assertThat(drawn).as(columns + ": " + label).isNotEmpty()
                        .allSatisfy(s -> assertThat(width(s)).as(s).isLessThan(columns))
                        .allSatisfy(s -> assertThat(s).startsWith(s.substring(0, 2)).contains("step ").matches(".* \\d+\\.\\ds"));
            }
        }
    }

    @Test
    void theColumnsComeFromTheEnvironmentThenTheLauncherElseEighty() {
        assertThat(Terminal.columns(Map.of("COLUMNS", "40"))).isEqualTo(40);
        assertThat(Terminal.columns(Map.of("COLUMNS", "wide"))).isEqualTo(80);
        assertThat(Terminal.columns(Map.of("COLUMNS", "0"))).isEqualTo(80);
        assertThat(Terminal.columns(Map.of())).isEqualTo(80);
    }

    @Test
    void aRunOnANarrowTerminalDrawsItsSpinnerWithinTheWidth() {
        ScriptedModel slow = ScriptedModel.of(ScriptedModel.delayed(Duration.ofMillis(350), text("ok")));
        InProcessCli.Outcome outcome = new InProcessCli().terminal(new Terminal(true, true, false)).env("COLUMNS", "24")
                .models((name, env) -> slow).run("run", "hi");
        assertThat(outcome.exitCode()).isZero();
        List<String> spinner = Arrays.stream(outcome.stderr().split("\r\033\\[K"))
                .filter(s -> s.startsWith("⠋") || s.startsWith("⠙")).toList();
        assertThat(spinner).isNotEmpty().allSatisfy(s -> assertThat(width(s)).as(s).isLessThan(24));
    }

    /** Terminal columns: East Asian wide characters take two. */
    private static int width(String s) {
        return s.codePoints().map(cp -> cp >= 0x1100 && Character.UnicodeScript.of(cp) != Character.UnicodeScript.BRAILLE ? 2 : 1).sum();
    }
}
