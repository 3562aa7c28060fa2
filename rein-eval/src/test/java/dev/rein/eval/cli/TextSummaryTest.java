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
}
