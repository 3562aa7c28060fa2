package dev.rein.eval.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
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
}
