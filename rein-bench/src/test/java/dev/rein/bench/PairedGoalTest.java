package dev.rein.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.rein.bench.PairedGoal.Pair;
import dev.rein.bench.PairedGoal.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PairedGoalTest {
    @Test
    void theTailIsTheBinomialsUpperTail() {
        assertThat(PairedGoal.tail(5, 5)).isEqualTo(1.0 / 32);
        assertThat(PairedGoal.tail(6, 6)).isEqualTo(1.0 / 64);
        assertThat(PairedGoal.tail(7, 8)).isEqualTo(9.0 / 256);
        assertThat(PairedGoal.tail(6, 8)).isEqualTo(37.0 / 256);
        assertThat(PairedGoal.tail(8, 9)).isEqualTo(10.0 / 512);
        assertThat(PairedGoal.tail(0, 4)).isEqualTo(1.0);
        assertThat(PairedGoal.tail(0, 0)).isEqualTo(1.0);
        assertThat(PairedGoal.tail(15, 30)).isCloseTo(0.5722, within(1e-4));
    }

    @Test
    void fiveIsTheFewestThatCanDecideAtFivePercent() {
        assertThat(PairedGoal.fewestToDecide()).isEqualTo(5);
        assertThat(PairedGoal.judge(1.2, pairs(4, 0)).verdict()).isEqualTo(Verdict.UNDECIDED);
        assertThat(PairedGoal.judge(1.2, pairs(0, 4)).verdict()).isEqualTo(Verdict.UNDECIDED);
        assertThat(PairedGoal.judge(1.2, pairs(5, 0)).verdict()).isEqualTo(Verdict.MET);
        assertThat(PairedGoal.judge(1.2, pairs(0, 5)).verdict()).isEqualTo(Verdict.NOT_MET);
    }

    @Test
    void theThresholdsTheBriefNames() {
        assertThat(PairedGoal.judge(1.2, pairs(6, 0)).verdict()).isEqualTo(Verdict.MET);
        assertThat(PairedGoal.judge(1.2, pairs(5, 1)).verdict()).isEqualTo(Verdict.UNDECIDED); // 7/64 = 0.11
        assertThat(PairedGoal.judge(1.2, pairs(7, 1)).verdict()).isEqualTo(Verdict.MET); // 9/256 = 0.035
        assertThat(PairedGoal.judge(1.2, pairs(6, 2)).verdict()).isEqualTo(Verdict.UNDECIDED); // 37/256 = 0.145
        assertThat(PairedGoal.judge(1.2, pairs(1, 7)).verdict()).isEqualTo(Verdict.NOT_MET);
    }

    @Test
    void aPairExactlyAtTheLimitMeetsTheGoalButIsLeftOutOfTheTest() {
        List<Pair> p = pairs(5, 0);
        p.add(Pair.of("tie", 120, 100));
        PairedGoal.Result r = PairedGoal.judge(1.2, p);

        assertThat(r.ties()).isEqualTo(1);
        assertThat(r.pMet()).isEqualTo(1.0 / 32); // 5 of 5, not 6 of 6
    }

    @Test
    void aNegativeDenominatorIsJudgedByTheInequalityAndHasNoRatio() {
        // Rein's overhead 40 against LangChain4j's -10: the ratio -4 would say "≤ 1.0"; the goal is missed
        Pair missed = Pair.of("f", 40, -10);
        // Rein's overhead -30 against LangChain4j's -10: -30 ≤ 1.0 × -10, met (the ratio 3.0 would say not)
        Pair met = Pair.of("f", -30, -10);

        assertThat(missed.margin(1.0)).isNegative();
        assertThat(met.margin(1.0)).isPositive();
        assertThat(missed.ratio()).isNaN();
        assertThat(Pair.of("f", 40, 0).ratio()).isNaN();
        assertThat(PairedGoal.judge(1.0, List.of(missed, missed, missed, missed, missed)).verdict()).isEqualTo(Verdict.NOT_MET);
    }

    @Test
    void aFailedPairMissesTheGoal() {
        List<Pair> p = pairs(4, 0);
        p.add(Pair.failed("repeat 5"));
        PairedGoal.Result r = PairedGoal.judge(1.2, p);

        assertThat(r.missed()).isEqualTo(1);
        assertThat(r.verdict()).isEqualTo(Verdict.UNDECIDED);
        assertThat(r.ratios()).hasSize(4);
    }

    @Test
    void bothIsMetOnlyWhenBothAreAndNotMetWhenEitherMissesAtHalfTheLevel() {
        PairedGoal.Result met = PairedGoal.judge(1.2, pairs(6, 0));
        PairedGoal.Result missed6 = PairedGoal.judge(1.2, pairs(0, 6)); // p = 1/64 < 2.5 %
        PairedGoal.Result missed5 = PairedGoal.judge(1.2, pairs(0, 5)); // p = 1/32: not met alone, not below 2.5 %

        assertThat(PairedGoal.both(met, met)).isEqualTo(Verdict.MET);
        assertThat(PairedGoal.both(met, missed6)).isEqualTo(Verdict.NOT_MET);
        assertThat(PairedGoal.both(met, missed5)).isEqualTo(Verdict.UNDECIDED);
    }

    /** Rev127 item 4: a margin within 1e-9 of the values' size is a tie, and no ratio prints as "-0.00". */
    @Test
    void aMarginWithinRoundingIsATieAndNegativeZeroIsZero() {
        assertThat(Pair.of("f", 315.8 - 217.0, 311.2 - 212.4).margin(1.0)).isZero();
        assertThat(Pair.of("f", -30, -48).margin(0.5)).isNegative(); // -30 > min(-48, -24)
        assertThat(Pair.of("f", -50, -48).margin(0.5)).isPositive();
        assertThat(PairedGoal.fixed(-0.001, 2)).isEqualTo("0.00");
        assertThat(PairedGoal.fixed(-0.01, 2)).isEqualTo("-0.01");
    }

    /** {@code met} pairs at 1.1 and {@code missed} at 1.3 times their denominator. */
    private static List<Pair> pairs(int met, int missed) {
        List<Pair> p = new ArrayList<>();
        for (int i = 0; i < met; i++) {
            p.add(Pair.of("m" + i, 110, 100));
        }
        for (int i = 0; i < missed; i++) {
            p.add(Pair.of("x" + i, 130, 100));
        }
        return p;
    }
}
