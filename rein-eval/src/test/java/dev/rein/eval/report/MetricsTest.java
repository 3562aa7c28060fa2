package dev.rein.eval.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.rein.eval.FailureKind;
import dev.rein.eval.TaskCategory;
import dev.rein.eval.run.TrialOutcome;
import dev.rein.eval.run.Verdict;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetricsTest {
    private static TrialOutcome trial(String task, int index, Verdict verdict, FailureKind kind, int steps, String cost) {
        return new TrialOutcome(task, TaskCategory.SHOULD_SUCCEED, index, verdict, kind, false, false,
                verdict == Verdict.INFRA_ERROR ? null : "succeeded", "completed", "", "", steps, new BigDecimal(cost), 1,
                null, List.of(), List.of(), List.of(), "run", verdict == Verdict.INFRA_ERROR ? "boom" : null);
    }

    @Test
    void passKIsAveragedOverTasks() {
        List<TrialOutcome> always = List.of(trial("a", 0, Verdict.PASSED, null, 1, "0"), trial("a", 1, Verdict.PASSED, null, 1, "0"),
                trial("a", 2, Verdict.PASSED, null, 1, "0"));
        List<TrialOutcome> never = List.of(trial("b", 0, Verdict.FAILED, FailureKind.WRONG_OUTCOME, 1, "0"),
                trial("b", 1, Verdict.FAILED, FailureKind.WRONG_OUTCOME, 1, "0"),
                trial("b", 2, Verdict.UNSAFE, FailureKind.UNSAFE_ACTION, 1, "0"));
        List<TrialOutcome> once = List.of(trial("c", 0, Verdict.PASSED, null, 1, "0"),
                trial("c", 1, Verdict.FAILED, FailureKind.BUDGET, 1, "0"), trial("c", 2, Verdict.FAILED, FailureKind.STALL, 1, "0"));
        EvalReport.Summary s = Metrics.summarise(List.of(always, never, once));
        // pass@1: (1 + 0 + 1/3) / 3; pass@3: (1 + 0 + 1) / 3; pass^3: (1 + 0 + 0) / 3.
        assertThat(s.passAtK().get("1")).isEqualTo(0.444444);
        assertThat(s.passAtK().get("3")).isEqualTo(0.666667);
        assertThat(s.passHatK().get("3")).isEqualTo(0.333333);
        // pass^2 for c: C(1,2)/C(3,2) = 0; pass@2 for c: 1 - C(2,2)/C(3,2) = 2/3.
        assertThat(s.passHatK().get("2")).isEqualTo(0.333333);
        assertThat(s.passAtK().get("2")).isEqualTo(0.555556);
        assertThat(s.successRate()).isEqualTo(0.444444);
        assertThat(s.failureKinds()).containsEntry("wrong_outcome", 2).containsEntry("unsafe_action", 1)
                .containsEntry("budget", 1).containsEntry("stall", 1).containsEntry("verification", 0).containsEntry("error", 0);
        assertThat(s.failureKinds().keySet()).containsExactly("unsafe_action", "stall", "verification", "budget", "error",
                "wrong_outcome");
        assertThat(s.unsafe()).isEqualTo(1);
    }

    @Test
    void infrastructureErrorsAreLeftOutOfRatesAndPassK() {
        List<TrialOutcome> task = List.of(trial("a", 0, Verdict.PASSED, null, 2, "0.10"), trial("a", 1, Verdict.INFRA_ERROR, null, 0, "0"),
                trial("a", 2, Verdict.FAILED, FailureKind.WRONG_OUTCOME, 4, "0.30"));
        EvalReport.Summary s = Metrics.summarise(List.of(task));
        assertThat(s.trials()).isEqualTo(3);
        assertThat(s.graded()).isEqualTo(2);
        assertThat(s.infraErrors()).isEqualTo(1);
        assertThat(s.successRate()).isEqualTo(0.5);
        // Only two graded trials: k runs to 2, never 3.
        assertThat(s.passAtK()).containsOnlyKeys("1", "2");
        assertThat(s.passAtK().get("2")).isEqualTo(1.0);
        assertThat(s.passHatK().get("2")).isEqualTo(0.0);
        assertThat(s.steps().p50()).isEqualByComparingTo("2");
        assertThat(s.steps().max()).isEqualByComparingTo("4");
        assertThat(s.costUsd().p90()).isEqualByComparingTo("0.30");
        assertThat(s.totalCostUsd()).isEqualByComparingTo("0.40");
    }

    @Test
    void passKOfTwentyThousandTrialsATaskIsExactAndQuick() {
        // rein eval --trials 20000 on an offline suite: pass@k and pass^k for every k up to 20,000, which the
        // binomials of every k took hours to compute after the trials had run
        int n = 20_000;
        List<TrialOutcome> oneFailure = new ArrayList<>();
        List<TrialOutcome> onePass = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            oneFailure.add(trial("a", i, i == 7 ? Verdict.FAILED : Verdict.PASSED, i == 7 ? FailureKind.WRONG_OUTCOME : null, 1, "0"));
            onePass.add(trial("b", i, i == 7 ? Verdict.PASSED : Verdict.FAILED, i == 7 ? null : FailureKind.WRONG_OUTCOME, 1, "0"));
        }
        EvalReport.Summary s = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> Metrics.summarise(List.of(oneFailure, onePass)));
        assertThat(s.passAtK()).hasSize(n);
        assertThat(s.passHatK()).hasSize(n);
        // a: pass^k = (n-k)/n, pass@k = 1 from k = 2; b: pass^k = 0 from k = 2, pass@k = k/n; then the average of the two
        assertThat(s.passHatK().get("1")).isEqualTo(0.5);
        assertThat(s.passAtK().get("1")).isEqualTo(0.5);
        assertThat(s.passHatK().get("3")).isEqualTo(0.499925);
        assertThat(s.passAtK().get("3")).isEqualTo(0.500075);
        assertThat(s.passHatK().get("10000")).isEqualTo(0.25);
        assertThat(s.passAtK().get("10000")).isEqualTo(0.75);
        assertThat(s.passHatK().get("19999")).isEqualTo(0.000025);
        assertThat(s.passHatK().get("20000")).isEqualTo(0.0);
        assertThat(s.passAtK().get("20000")).isEqualTo(1.0);
        assertThat(s.passAtK().values()).allSatisfy(v -> assertThat(v).isBetween(0.0, 1.0));
        assertThat(s.passHatK().values()).allSatisfy(v -> assertThat(v).isBetween(0.0, 1.0));
    }

    @Test
    void nothingGradedGivesNullRates() {
        EvalReport.Summary s = Metrics.summarise(List.of(List.of(trial("a", 0, Verdict.INFRA_ERROR, null, 0, "0"))));
        assertThat(s.successRate()).isNull();
        assertThat(s.passAtK()).isEmpty();
        assertThat(s.steps().p50()).isNull();
    }
}
