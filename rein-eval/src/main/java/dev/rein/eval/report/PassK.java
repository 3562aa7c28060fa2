package dev.rein.eval.report;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * Exact pass@k and pass^k for one task with {@code n} graded trials of which {@code c} passed,
 * each the exact value rounded once to {@value #SCALE} decimals, whatever n is.
 *
 * <ul>
 *   <li>pass@k = 1 - C(n-c, k) / C(n, k): the chance that at least one of k trials drawn
 *       without replacement passes (can the agent do it at all?).</li>
 *   <li>pass^k = C(c, k) / C(n, k): the chance that all k drawn trials pass (does it do it every
 *       time?). It falls as k grows unless the agent is perfectly reliable.</li>
 * </ul>
 *
 * <p>The ratio of binomials is the product of the draws' chances, (c/n)((c-1)/(n-1))..., kept in
 * fixed point to {@value #DIGITS} decimals: each draw cuts off less than one unit of the last
 * decimal, so after any number of draws an int can count it is at most 1e-35 below the exact value,
 * its rounding to {@value #SCALE} decimals is the exact value's unless it lies next to a half-way
 * point, and there the exact ratio of {@link BigInteger} binomials decides. So {@link
 * #passAtKCurve} gives every k from 1 to n in time linear in n, where the binomials of every k
 * would take time cubic in n (minutes for 10,000 trials).
 */
public final class PassK {
    /** Decimal places kept in results. */
    public static final int SCALE = 12;

    /** Decimals of the running product. */
    private static final int DIGITS = 45;
    private static final BigInteger ONE = BigInteger.TEN.pow(DIGITS);
    /** One unit of the result's last decimal, in units of the product's. */
    private static final BigInteger UNIT = BigInteger.TEN.pow(DIGITS - SCALE);
    private static final BigInteger HALF_UNIT = UNIT.shiftRight(1);
    /**
     * Below 1e-30 the exact value is below 1e-30 + 1e-35, so it and every later one (the ratio never grows
     * with k) round to 0 at {@value #SCALE} decimals.
     */
    private static final BigInteger NEGLIGIBLE = BigInteger.TEN.pow(DIGITS - 30);
    /** Nearer a half-way point of the rounding than 1e-30, the product cannot be trusted to round as the exact value. */
    private static final BigInteger NEAR_HALF = NEGLIGIBLE;

    private PassK() {}

    public static BigDecimal passAtK(int n, int c, int k) {
        check(n, c, k);
        return BigDecimal.ONE.subtract(drawnFrom(n, n - c, k));
    }

    public static BigDecimal passHatK(int n, int c, int k) {
        check(n, c, k);
        return drawnFrom(n, c, k);
    }

    /** pass@k for k = 1..n (element k - 1), each equal to {@link #passAtK(int, int, int)}. */
    public static List<BigDecimal> passAtKCurve(int n, int c) {
        check(n, c, 1);
        return curve(n, n - c, true);
    }

    /** pass^k for k = 1..n (element k - 1), each equal to {@link #passHatK(int, int, int)}. */
    public static List<BigDecimal> passHatKCurve(int n, int c) {
        check(n, c, 1);
        return curve(n, c, false);
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

    /** C(good, k) / C(n, k) rounded to SCALE decimals. */
    private static BigDecimal drawnFrom(int n, int good, int k) {
        BigInteger product = ONE;
        for (int i = 0; i < k && product.signum() != 0; i++) {
            product = draw(product, n, good, i);
        }
        return rounded(product, k, new Binomials(n, good));
    }

    private static List<BigDecimal> curve(int n, int good, boolean complement) {
        List<BigDecimal> values = new ArrayList<>(n);
        BigInteger product = ONE;
        Binomials exact = new Binomials(n, good);
        for (int k = 1; k <= n; k++) {
            product = draw(product, n, good, k - 1);
            BigDecimal ratio = rounded(product, k, exact);
            values.add(complement ? BigDecimal.ONE.subtract(ratio) : ratio);
        }
        return values;
    }

    /**
     * C(good, k) and C(n, k) for a growing k, each from the one before with one multiplication and division, so
     * a curve whose values lie on half-way points again and again (8,192 trials, one failed: every other k) costs
     * one pass over k rather than binomials from scratch for each.
     */
    private static final class Binomials {
        private final int n;
        private final int good;
        private int k;
        private BigInteger ofGood = BigInteger.ONE;
        private BigInteger ofN = BigInteger.ONE;

        Binomials(int n, int good) {
            this.n = n;
            this.good = good;
        }

        BigDecimal ratio(int to) {
            for (; k < to; k++) {
                BigInteger next = BigInteger.valueOf(k + 1);
                ofGood = ofGood.multiply(BigInteger.valueOf(Math.max(good - k, 0))).divide(next); // exact, as in comb
                ofN = ofN.multiply(BigInteger.valueOf(n - k)).divide(next);
            }
            return new BigDecimal(ofGood).divide(new BigDecimal(ofN), SCALE, RoundingMode.HALF_EVEN);
        }
    }

    /** The product after drawing one more trial, the (i+1)-th, from the good ones; 0 once it is negligible. */
    private static BigInteger draw(BigInteger product, int n, int good, int i) {
        if (product.signum() == 0 || good - i <= 0) {
            return BigInteger.ZERO;
        }
        BigInteger next = product.multiply(BigInteger.valueOf(good - i)).divide(BigInteger.valueOf(n - i));
        return next.compareTo(NEGLIGIBLE) < 0 ? BigInteger.ZERO : next;
    }

    /** The product rounded as the exact C(good, k) / C(n, k) rounds. */
    private static BigDecimal rounded(BigInteger product, int k, Binomials exact) {
        if (product.signum() == 0) {
            return zero();
        }
        BigInteger[] units = product.divideAndRemainder(UNIT);
        if (units[1].subtract(HALF_UNIT).abs().compareTo(NEAR_HALF) < 0) {
            return exact.ratio(k);
        }
        BigInteger result = units[1].compareTo(HALF_UNIT) > 0 ? units[0].add(BigInteger.ONE) : units[0];
        return new BigDecimal(result, SCALE);
    }

    private static BigDecimal zero() {
        return BigDecimal.ZERO.setScale(SCALE);
    }

    private static void check(int n, int c, int k) {
        if (n < 1 || c < 0 || c > n || k < 1 || k > n) {
            throw new IllegalArgumentException("need 0 <= c <= n and 1 <= k <= n, got n=" + n + ", c=" + c + ", k=" + k);
        }
    }
}
