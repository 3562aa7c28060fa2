package dev.rein.eval.cli;

import dev.rein.eval.Finding;
import dev.rein.eval.internal.DisplayWidth;
import dev.rein.eval.report.EvalReport;
import dev.rein.eval.run.TrialOutcome;
import java.math.BigDecimal;
import java.math.RoundingMode;
import dev.rein.internal.text.Controls;
import dev.rein.internal.text.Counts;
import java.util.Locale;
import java.util.stream.Collectors;

/** The plain-text summary {@code rein eval} prints when JSON was not asked for. */
public final class TextSummary {
    private TextSummary() {}

    public static String render(EvalReport report) {
        EvalReport.Summary s = report.summary();
        String k = Integer.toString(report.trialsPerTask());
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "Suite %s: %s x %s, model %s, %.1f s%n", visible(report.suite()),
                Counts.of(s.tasks(), "task"), Counts.of(report.trialsPerTask(), "trial"), visible(report.model()),
                report.durationMs() / 1000.0));
        if (report.interrupted()) {
            // said on stdout too, where the summary may be kept apart from stderr's line (a file, a CI log)
            out.append("  INTERRUPTED after ").append(s.trials()).append(" of ").append(Counts.of(report.trialsPlanned(), "trial"))
                    .append(": the figures cover the ").append(s.trials()).append(" that ended; ").append(unfinished(report))
                    .append('\n');
        }
        String passAtK = k.equals("1") ? "" : ", pass@" + k + " " + pct(s.passAtK().get(k)); // with one trial it is pass@1
        out.append(String.format(Locale.ROOT, "  success rate %s (%d/%d graded), pass@1 %s%s, pass^%s %s%n",
                pct(s.successRate()), s.passed(), s.graded(), pct(s.passAtK().get("1")), passAtK, k, pct(s.passHatK().get(k))));
        out.append(String.format(Locale.ROOT, "  unsafe %d%s, safe refusals %d, infrastructure errors %d%n", s.unsafe(),
                s.unsafeSuccesses() > 0 ? " (" + s.unsafeSuccesses() + " would otherwise have passed)" : "", s.safeRefusals(),
                s.infraErrors()));
        String kinds = s.failureKinds().entrySet().stream().filter(e -> e.getValue() > 0)
                .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
        out.append("  failure kinds: ").append(kinds.isEmpty() ? "none" : kinds).append('\n');
        out.append(String.format(Locale.ROOT, "  steps p50 %s p90 %s max %s; cost p50 %s p90 %s max %s, total %s%n%n",
                plain(s.steps().p50()), plain(s.steps().p90()), plain(s.steps().max()), usd(s.costUsd().p50()),
                usd(s.costUsd().p90()), usd(s.costUsd().max()), usd(s.totalCostUsd())));
        // as wide as the longest id (a trace file's name, up to 80 characters), in terminal columns: a Japanese id's
        // characters take two each, so padding by chars would push its row's other columns to the right
        int idWidth = Math.max(28, report.tasks().stream().mapToInt(task -> columns(task.id())).max().orElse(0));
        String row = "%s %-20s %8s %8s %8s %7";
        out.append(String.format(Locale.ROOT, row + "s %6s%n", padded("task", idWidth), "category", "passed", "pass@" + k,
                "pass^" + k, "unsafe", "infra"));
        for (EvalReport.TaskReport task : report.tasks()) {
            EvalReport.Summary m = task.metrics();
            out.append(String.format(Locale.ROOT, row + "d %6d%n", padded(task.id(), idWidth), task.category().id(),
                    m.passed() + "/" + m.graded(), pct(m.passAtK().get(k)), pct(m.passHatK().get(k)), m.unsafe(), m.infraErrors()));
        }
        appendFailures(report, out);
        return out.toString();
    }

    /**
     * What became of the trials of an interrupted evaluation that did not end, as the summary, the line on stderr and
     * the HTML page say it: "2 in flight were cancelled and 1 had not started", "... and none was left to start".
     */
    static String unfinished(EvalReport report) {
        int cancelled = report.trialsCancelled();
        int notStarted = report.trialsNotStarted();
        String inFlight = cancelled == 0 ? "none was in flight" : cancelled + " in flight " + (cancelled == 1 ? "was" : "were")
                + " cancelled";
        return inFlight + " and " + (notStarted == 0 ? "none was left to start" : notStarted + " had not started");
    }

    private static void appendFailures(EvalReport report, StringBuilder out) {
        boolean header = false;
        for (TrialOutcome trial : report.trials()) {
            if (trial.passed()) {
                continue;
            }
            if (!header) {
                out.append("\nTrials that did not pass:\n");
                header = true;
            }
            out.append("  ").append(trial.taskId()).append(" #").append(trial.trial()).append(' ').append(trial.verdict().id());
            if (trial.failureKind() != null) {
                out.append(" (").append(trial.failureKind().id()).append(trial.safeRefusal() ? ", safe refusal" : "").append(')');
            }
            out.append(": ");
            if (trial.infraError() != null) {
                out.append(visible(trial.infraError()));
            } else {
                out.append(trial.findings().stream().filter(f -> !f.passed()).map(TextSummary::describe)
                        .collect(Collectors.joining("; ")));
            }
            out.append('\n');
        }
    }

    private static String describe(Finding finding) {
        return visible(finding.grader() + ": " + finding.message());
    }

    /** {@code id} (a task id: letters, digits and marks, no control character) and spaces to fill {@code width} columns. */
    private static String padded(String id, int width) {
        return id + " ".repeat(Math.max(0, width - columns(id)));
    }

    /** The terminal columns {@code text} takes ({@link DisplayWidth}, the progress bar's rule too). */
    static int columns(String text) {
        return DisplayWidth.of(text);
    }

    /**
     * Findings and errors quote what the agent, its tools and the provider wrote (an agent's failure
     * summary, a provider's message), and a suite's name is the file's: shown with every control
     * character as an escape, so none of them reaches the terminal, and each trial stays one line.
     */
    private static String visible(String text) {
        return text == null ? "null" : Controls.visible(text, false);
    }

    /**
     * A rate as a percentage to one decimal, as the summary and the HTML report show it: the rate's decimal
     * value ({@link BigDecimal#valueOf(double)}, the shortest decimal that reads back as the rate, which is
     * what the report's JSON holds) times 100, rounded half up, so 9 passed trials of 2,000 (exactly 0.45%)
     * are "0.5%" whatever the binary product {@code 0.0045 * 100} (0.44999999999999996) is. The report's
     * page rounds by this rule too, from the same digits. A rate that is neither all nor nothing is never
     * shown as 100.0% or 0.0% (1,999 passed trials of 2,000 are "&gt;99.9%"), so a flaky result does not
     * read as a perfect or a hopeless one.
     *
     * @param rate a rate from 0 to 1, or null when nothing was graded ("n/a")
     */
    public static String pct(Double rate) {
        if (rate == null) {
            return "n/a";
        }
        String shown = BigDecimal.valueOf(rate).movePointRight(2).setScale(1, RoundingMode.HALF_UP).toPlainString();
        if (rate < 1 && shown.equals("100.0")) {
            return ">99.9%";
        }
        if (rate > 0 && shown.equals("0.0")) {
            return "<0.1%";
        }
        return shown + "%";
    }

    private static String plain(BigDecimal value) {
        return value == null ? "n/a" : value.toPlainString();
    }

    private static String usd(BigDecimal value) {
        return value == null ? "n/a" : "$" + value.toPlainString();
    }
}
