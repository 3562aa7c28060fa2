package dev.rein.eval.report;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Exact pass@k and pass^k for one task with {@code n} graded trials of which {@code c} passed.
 * Binomial coefficients are computed as {@link BigInteger}s and the ratio rounded once, so large
 * n loses no precision.
 *
 * <ul>
 *   <li>pass@k = 1 - C(n-c, k) / C(n, k): the chance that at least one of k trials drawn
 *       without replacement passes (can the agent do it at all?).</li>
 *   <li>pass^k = C(c, k) / C(n, k): the chance that all k drawn trials pass (does it do it every
 *       time?). It falls as k grows unless the agent is perfectly reliable.</li>
 * </ul>
 */
public final class PassK {
    /** Decimal places kept in results. */
    public static final int SCALE = 12;

    private PassK() {}

    public static BigDecimal passAtK(int n, int c, int k) {
        check(n, c, k);
        return BigDecimal.ONE.subtract(ratio(comb(n - c, k), comb(n, k)));
    }

    public static BigDecimal passHatK(int n, int c, int k) {
        check(n, c, k);
        return ratio(comb(c, k), comb(n, k));
    }

    /** C(n, k); zero when k > n. */
    public static BigInteger comb(int n, int k) {
        if (k < 0 || n < 0) {
            throw new IllegalArgumentException("comb(" + n + ", " + k + ") is undefined");
        }
        if (k > n) {
            return BigInteger.ZERO;
        }
        int m = Math.min(k, n - k);
        BigInteger result = BigInteger.ONE;
        for (int i = 1; i <= m; i++) {
            // Exact at every step: the product of i consecutive integers is divisible by i!.
            result = result.multiply(BigInteger.valueOf(n - m + i)).divide(BigInteger.valueOf(i));
        }
        return result;
    }

    private static BigDecimal ratio(BigInteger numerator, BigInteger denominator) {
        return new BigDecimal(numerator).divide(new BigDecimal(denominator), SCALE, RoundingMode.HALF_EVEN);
    }

    private static void check(int n, int c, int k) {
        if (n < 1 || c < 0 || c > n || k < 1 || k > n) {
            throw new IllegalArgumentException("need 0 <= c <= n and 1 <= k <= n, got n=" + n + ", c=" + c + ", k=" + k);
        }
    }
}
