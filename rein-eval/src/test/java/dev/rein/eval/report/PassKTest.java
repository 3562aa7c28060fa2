package dev.rein.eval.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class PassKTest {
    private static void assertClose(BigDecimal actual, String expected) {
        assertThat(actual.subtract(new BigDecimal(expected)).abs()).isLessThan(new BigDecimal("1e-11"));
    }

    @Test
    void knownValues() {
        // n=10, c=3: one draw passes with 3/10; two draws: at least one 1 - 21/45, both 3/45.
        assertClose(PassK.passAtK(10, 3, 1), "0.3");
        assertClose(PassK.passHatK(10, 3, 1), "0.3");
        assertClose(PassK.passAtK(10, 3, 2), "0.533333333333");
        assertClose(PassK.passHatK(10, 3, 2), "0.066666666667");
        assertClose(PassK.passHatK(10, 3, 3), "0.008333333333"); // 1/120
        assertClose(PassK.passAtK(10, 3, 8), "1"); // C(7,8) = 0: eight draws always include a pass
        // n=5, c=4: all five draws must include the failure.
        assertClose(PassK.passAtK(5, 4, 5), "1");
        assertClose(PassK.passHatK(5, 4, 5), "0");
        assertClose(PassK.passHatK(5, 4, 4), "0.2");
    }

    @Test
    void perfectAndHopelessAgents() {
        for (int k = 1; k <= 6; k++) {
            assertClose(PassK.passAtK(6, 6, k), "1");
            assertClose(PassK.passHatK(6, 6, k), "1");
            assertClose(PassK.passAtK(6, 0, k), "0");
            assertClose(PassK.passHatK(6, 0, k), "0");
        }
    }

    @Test
    void binomialsAreExactForLargeN() {
        assertThat(PassK.comb(100, 50)).isEqualTo(new BigInteger("100891344545564193334812497256"));
        assertThat(PassK.comb(5, 7)).isZero();
        // pass^k with n=1000, c=999, k=500: exactly (1000-500)/1000 = 0.5, far beyond double-safe binomials.
        assertClose(PassK.passHatK(1000, 999, 500), "0.5");
        assertClose(PassK.passAtK(1000, 1, 500), "0.5");
    }

    @Test
    void rejectsImpossibleCounts() {
        assertThatThrownBy(() -> PassK.passAtK(3, 4, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PassK.passHatK(3, 1, 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PassK.passHatK(3, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Property
    void passHatKIsTheProductOfDrawsWithoutReplacement(@ForAll @IntRange(min = 1, max = 40) int n,
                                                       @ForAll @IntRange(min = 0, max = 40) int c,
                                                       @ForAll @IntRange(min = 1, max = 40) int k) {
        if (c > n || k > n) {
            return;
        }
        BigDecimal product = BigDecimal.ONE;
        BigDecimal noneProduct = BigDecimal.ONE;
        for (int i = 0; i < k; i++) {
            product = product.multiply(BigDecimal.valueOf(Math.max(c - i, 0)).divide(BigDecimal.valueOf(n - i), MathContext.DECIMAL128));
            noneProduct = noneProduct.multiply(BigDecimal.valueOf(Math.max(n - c - i, 0))
                    .divide(BigDecimal.valueOf(n - i), MathContext.DECIMAL128));
        }
        assertThat(PassK.passHatK(n, c, k).subtract(product).abs()).isLessThan(new BigDecimal("1e-11"));
        assertThat(PassK.passAtK(n, c, k).subtract(BigDecimal.ONE.subtract(noneProduct)).abs()).isLessThan(new BigDecimal("1e-11"));
        assertThat(PassK.passAtK(n, c, k)).isGreaterThanOrEqualTo(PassK.passHatK(n, c, k));
        if (k > 1) {
            assertThat(PassK.passAtK(n, c, k)).isGreaterThanOrEqualTo(PassK.passAtK(n, c, k - 1));
            assertThat(PassK.passHatK(n, c, k)).isLessThanOrEqualTo(PassK.passHatK(n, c, k - 1));
        }
    }

    /** The definition: the ratio of binomials, rounded once. */
    private static BigDecimal exactRatio(int n, int good, int k) {
        return new BigDecimal(PassK.comb(good, k)).divide(new BigDecimal(PassK.comb(n, k)), PassK.SCALE, RoundingMode.HALF_EVEN);
    }

    @Property(tries = 200)
    void theCurveOfEveryKIsTheRatioOfBinomialsRoundedOnce(@ForAll @IntRange(min = 1, max = 120) int n,
                                                         @ForAll @IntRange(min = 0, max = 120) int c) {
        if (c > n) {
            return;
        }
        List<BigDecimal> atLeastOne = PassK.passAtKCurve(n, c);
        List<BigDecimal> all = PassK.passHatKCurve(n, c);
        assertThat(atLeastOne).hasSize(n);
        for (int k = 1; k <= n; k++) {
            assertThat(all.get(k - 1)).isEqualTo(exactRatio(n, c, k)).isEqualTo(PassK.passHatK(n, c, k));
            assertThat(atLeastOne.get(k - 1)).isEqualTo(BigDecimal.ONE.subtract(exactRatio(n, n - c, k)))
                    .isEqualTo(PassK.passAtK(n, c, k));
        }
    }

    @Test
    void aRatioOnTheHalfWayPointOfTheRoundingRoundsAsTheExactValue() {
        // 1/8192 = 0.0001220703125 exactly: half-way between two values of 12 decimals, so half-even gives ...312
        assertThat(PassK.passHatK(8192, 1, 1)).isEqualTo(new BigDecimal("0.000122070312"));
        assertThat(PassK.passHatKCurve(8192, 1).get(0)).isEqualTo(new BigDecimal("0.000122070312"));
        // C(4095, 2) / C(8192, 2) = 4095 * 4094 / (8192 * 8191) is no tie: rounded to nearest
        assertThat(PassK.passHatK(8192, 4095, 2)).isEqualTo(exactRatio(8192, 4095, 2));
    }

    @Test
    void aCurveWithAHalfWayPointAtEveryOtherKIsStillQuick() {
        // 8,192 trials, one failed: pass^k = (8192 - k) / 8192, for odd k exactly half-way between two values of 12
        // decimals, so the exact ratio decides half of the values; the binomials of each from scratch took 90 s
        List<BigDecimal> all = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> PassK.passHatKCurve(8192, 8191));
        assertThat(all.get(0)).isEqualTo(new BigDecimal("0.999877929688")); // 0.9998779296875, half-even up to the 8
        assertThat(all.get(2)).isEqualTo(new BigDecimal("0.999633789062")); // 0.9996337890625, half-even down to the 2
        assertThat(all.get(4094)).isEqualTo(exactRatio(8192, 8191, 4095));
        assertThat(all.get(8190)).isEqualTo(new BigDecimal("0.000122070312"));
        assertThat(PassK.passAtKCurve(8192, 1).get(8190)).isEqualTo(BigDecimal.ONE.subtract(exactRatio(8192, 8191, 8191)));
    }

    @Test
    void largeCountsGiveFiniteExactValues() {
        int n = 100_000;
        // pass^k with one failure among n is (n - k) / n; pass@k with one pass is k / n
        List<BigDecimal> all = PassK.passHatKCurve(n, n - 1);
        assertThat(all.get(0)).isEqualByComparingTo("0.99999");
        assertThat(all.get(49_999)).isEqualByComparingTo("0.5");
        assertThat(all.get(n - 1)).isEqualByComparingTo("0");
        assertThat(PassK.passAtKCurve(n, 1).get(24_999)).isEqualByComparingTo("0.25");
        assertThat(PassK.passAtK(Integer.MAX_VALUE, 1, 2)).isEqualByComparingTo(exactRatio(Integer.MAX_VALUE, 2, 1)
                .setScale(PassK.SCALE, RoundingMode.HALF_EVEN)); // 2 / (2^31 - 1)
        assertThat(PassK.passHatK(Integer.MAX_VALUE, Integer.MAX_VALUE / 2, 1000)).isEqualByComparingTo("0");
        assertThat(PassK.passAtK(Integer.MAX_VALUE, Integer.MAX_VALUE / 2, 1000)).isEqualByComparingTo("1");
    }

    @Test
    void nearestRankPercentiles() {
        List<Integer> sorted = List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        assertThat(Distribution.nearestRank(sorted, 50)).isEqualTo(5);
        assertThat(Distribution.nearestRank(sorted, 90)).isEqualTo(9);
        assertThat(Distribution.nearestRank(List.of(7), 90)).isEqualTo(7);
        assertThat(Distribution.nearestRank(List.of(1, 2, 3), 50)).isEqualTo(2);
        Distribution d = Distribution.of(List.of(new BigDecimal("0.30"), new BigDecimal("0.10"), new BigDecimal("0.20")), 2);
        assertThat(d.p50()).isEqualByComparingTo("0.20");
        assertThat(d.p90()).isEqualByComparingTo("0.30");
        assertThat(d.max()).isEqualByComparingTo("0.30");
        assertThat(d.mean()).isEqualByComparingTo("0.20");
        assertThat(Distribution.of(List.of(BigDecimal.ONE, BigDecimal.TWO), 0).mean()).isEqualByComparingTo("1.50");
        assertThat(Distribution.of(List.of(), 2).p50()).isNull();
    }

    @Test
    void percentilesOfMoreValuesThanAnIntCanCountTimesAPercentAreStillTheNearestRank() {
        // 30 million graded trials (100 tasks x 300,000): 90 x 30,000,000 is beyond an int
        int size = 30_000_000;
        List<Integer> sorted = new java.util.AbstractList<>() {
            @Override
            public Integer get(int index) {
                return java.util.Objects.checkIndex(index, size) + 1;
            }

            @Override
            public int size() {
                return size;
            }
        };
        assertThat(Distribution.nearestRank(sorted, 90)).isEqualTo(27_000_000);
        assertThat(Distribution.nearestRank(sorted, 50)).isEqualTo(15_000_000);
        assertThat(Distribution.nearestRank(sorted, 100)).isEqualTo(size);
    }
}
