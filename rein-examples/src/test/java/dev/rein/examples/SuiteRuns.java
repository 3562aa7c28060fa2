package dev.rein.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.eval.Suite;
import dev.rein.eval.cli.TextSummary;
import dev.rein.eval.report.EvalReport;
import dev.rein.eval.run.EvalResult;
import dev.rein.eval.run.EvalRunner;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs suites and demos offline for the tests. */
public final class SuiteRuns {
    private SuiteRuns() {}

    /** Runs {@code suite} on its scripts and asserts that every trial passed, showing the summary otherwise. */
    public static EvalResult assertAllPass(Suite suite) throws InterruptedException {
        EvalResult result = EvalRunner.builder().parallelism(4).build().run(suite);
        EvalReport report = EvalReport.of(result);
        assertThat(report.summary().infraErrors()).as(TextSummary.render(report)).isZero();
        assertThat(report.summary().passed()).as(TextSummary.render(report)).isEqualTo(report.summary().graded());
        return result;
    }

    /** A demo's printed output and exit code. */
    public record DemoOutput(int exitCode, String out, String err) {}

    /** Runs the named example offline and captures what it prints. */
    public static DemoOutput demo(String name) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Examples.run(name, true, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new DemoOutput(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
