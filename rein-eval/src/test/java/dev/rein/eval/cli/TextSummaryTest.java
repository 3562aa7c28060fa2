package dev.rein.eval.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.eval.FailureKind;
import dev.rein.eval.TaskCategory;
import dev.rein.eval.report.EvalReport;
import dev.rein.eval.run.EvalResult;
import dev.rein.eval.run.TrialOutcome;
import dev.rein.eval.run.Verdict;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextSummaryTest {
    private static EvalReport report(int trials, int passed) {
        List<TrialOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < trials; i++) {
            Verdict verdict = i < passed ? Verdict.PASSED : Verdict.FAILED;
            outcomes.add(new TrialOutcome("t", TaskCategory.SHOULD_SUCCEED, i, verdict,
                    verdict == Verdict.PASSED ? null : FailureKind.WRONG_OUTCOME, false, false, "succeeded", "completed", "",
                    "", 1, BigDecimal.ZERO, 1, null, List.of(), List.of(), List.of(), "run", null));
        }
        Instant at = Instant.parse("2026-12-05T10:00:00Z");
        return EvalReport.of(new EvalResult("s", "", "scripted", trials, at, at,
                List.of(new EvalResult.TaskInfo("t", TaskCategory.SHOULD_SUCCEED, "g", "succeeded")), outcomes));
    }

    @Test
    void aRateThatIsNotAllOrNothingIsNeverShownAsOneHundredOrZeroPercent() {
        // 2999 of 3000 rounded to one decimal read "100.0%", as if every trial had passed
        String nearlyAll = TextSummary.render(report(3000, 2999));
        // pass@3000 is exactly 1 (some trial of all 3000 passed) and pass^3000 exactly 0
        assertThat(nearlyAll).contains("success rate >99.9% (2999/3000 graded), pass@1 >99.9%, pass@3000 100.0%, pass^3000 0.0%");
        // and 1 of 3000 read "0.0%", as if none had
        String nearlyNone = TextSummary.render(report(3000, 1));
        assertThat(nearlyNone).contains("success rate <0.1% (1/3000 graded), pass@1 <0.1%");
        assertThat(TextSummary.render(report(2000, 2000))).contains("success rate 100.0% (2000/2000 graded)");
        assertThat(TextSummary.render(report(2000, 0))).contains("success rate 0.0% (0/2000 graded)");
        assertThat(TextSummary.render(report(3, 2))).contains("success rate 66.7% (2/3 graded)");
    }

    /**
     * A rate at a half-way point of one decimal (9 of 2,000 is exactly 0.45%) is rounded up from its decimal value, whatever
     * the binary product rate × 100 is (0.44999999999999996 here): the HTML page rounds by the same rule.
     */
    @Test
    void aRateHalfWayBetweenTwoTenthsRoundsUpFromItsDecimalValue() {
        assertThat(TextSummary.render(report(2000, 9))).contains("success rate 0.5% (9/2000 graded)"); // 0.4% before
        assertThat(TextSummary.render(report(2000, 59))).contains("success rate 3.0% (59/2000 graded)"); // 2.9% before
        assertThat(TextSummary.render(report(2000, 63))).contains("success rate 3.2% (63/2000 graded)");
        assertThat(TextSummary.render(report(2000, 1))).contains("success rate 0.1% (1/2000 graded)");
        assertThat(TextSummary.pct(0.9995)).isEqualTo(">99.9%"); // rounds to 100.0, but not every trial passed
        assertThat(TextSummary.pct(1e-7)).isEqualTo("<0.1%");
        assertThat(TextSummary.pct(0.00049)).isEqualTo("<0.1%");
        assertThat(TextSummary.pct(0.00051)).isEqualTo("0.1%");
    }

    /**
     * The task table's columns line up whatever the length of a task's id (up to 80 characters in a suite file; a trace
     * file's name in a folder of traces). Before: the id column was 28 wide, and a longer id pushed its row's figures
     * to the right of the header's, e.g. "reship-waits-for-approval.0.jsonl waiting_approval          1/1".
     */
    @Test
    void theTaskTableLinesUpWithLongTaskIds() {
        Instant at = Instant.parse("2026-12-05T10:00:00Z");
        List<EvalResult.TaskInfo> tasks = new ArrayList<>();
        List<TrialOutcome> outcomes = new ArrayList<>();
        for (String id : List.of("short", "reship-waits-for-approval.0.jsonl")) {
            tasks.add(new EvalResult.TaskInfo(id, TaskCategory.SHOULD_SUCCEED, "g", "succeeded"));
            outcomes.add(new TrialOutcome(id, TaskCategory.SHOULD_SUCCEED, 0, Verdict.PASSED, null, false, false, "succeeded",
                    "completed", "", "", 1, BigDecimal.ZERO, 1, null, List.of(), List.of(), List.of(), "run", null));
        }
        String summary = TextSummary.render(EvalReport.of(new EvalResult("s", "", "scripted", 1, at, at, tasks, outcomes)));
        List<String> table = summary.lines().dropWhile(line -> !line.startsWith("task ")).limit(3).toList();
        assertThat(table).hasSize(3);
        int category = table.getFirst().indexOf("category");
        int infra = table.getFirst().indexOf("infra") + "infra".length();
        for (String row : table.subList(1, 3)) {
            assertThat(row.indexOf("should_succeed")).as(row).isEqualTo(category);
            assertThat(row.length()).as(row).isEqualTo(infra);
        }
    }
}
