package dev.rein.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A goal of the form {@code over ≤ limit × under}, judged on paired measurements: fork i of the per-step loop runs
 * every client in turn, and repeat r of the concurrency runner does too, so each fork (repeat) measures Rein and
 * what it is compared with under the same machine load. Forks of one client differ by up to 25 % on this machine,
 * more than is left between Rein and its goals, so a ratio of medians alone flips between runs.
 *
 * <p>The verdict is a one-sided sign test at {@link #ALPHA}: under the null hypothesis a fork is as likely to meet
 * the goal as to miss it (its median margin is zero), and the goal is <em>met</em> when at least as many forks
 * meeting it as measured would happen by chance with probability below {@link #ALPHA} (5 of 5, 6 of 6, 7 of 7,
 * 7 of 8, 8 of 9 ...), <em>not met</em> likewise for the forks that miss it, and <em>undecided</em> otherwise. With
 * fewer than {@link #fewestToDecide()} forks nothing can be decided. A fork is judged by the inequality, not by its
 * ratio: when {@code under ≤ 0} (LangChain4j cheaper than its floor in that fork) the ratio is meaningless, the
 * inequality is not (and with {@code limit < 1} it is {@code over ≤ min(under, limit × under)}, see
 * {@link Pair#margin}). A fork at the limit, within rounding ({@link #TIE}), meets the goal but is left out of the
 * test, as the sign test leaves out ties.
 */
final class PairedGoal {
    /** The test's level: one-sided, 5 %. */
    static final double ALPHA = 0.05;

    /** A margin this small relative to the values it compares is a tie: what is left is rounding, not a difference. */
    static final double TIE = 1e-9;

    private PairedGoal() {}

    /** What a goal's verdict is. */
    enum Verdict { MET, NOT_MET, UNDECIDED }

    /**
     * One fork's (or repeat's) measurement: {@code over ≤ limit × under} meets the goal. A failed pair (Rein lost
     * runs) misses it whatever its numbers.
     */
    record Pair(String label, double over, double under, boolean failed) {
        static Pair of(String label, double over, double under) {
            return new Pair(label, over, under, false);
        }

        static Pair failed(String label) {
            return new Pair(label, Double.NaN, Double.NaN, true);
        }

        /** {@code over / under}, or NaN when it means nothing ({@code under ≤ 0}, or the pair failed). */
        double ratio() {
            return !failed && under > 0 ? over / under : Double.NaN;
        }

        /**
         * How far the pair is inside the goal: positive meets it, negative misses it, zero is at the limit. A margin
         * within {@link #TIE} of the values' size is zero: 315.8 − 217.0 and 311.2 − 212.4 differ by 1e-14 in
         * doubles, and are a tie, not a miss. When {@code under ≤ 0} and {@code limit < 1}, {@code limit × under}
         * is above {@code under} (half of −48 is −24), so the bound is {@code min(under, limit × under)}: Rein's
         * overhead must be no more than LangChain4j's, not merely below half of a negative number.
         */
        double margin(double limit) {
            if (failed) {
                return Double.NEGATIVE_INFINITY;
            }
            double bound = under <= 0 ? Math.min(under, limit * under) : limit * under;
            double margin = bound - over;
            return Math.abs(margin) <= TIE * Math.max(Math.abs(bound), Math.abs(over)) ? 0 : margin;
        }
    }

    /**
     * The goal judged over {@code pairs}: {@code met} pairs inside it, {@code missed} outside, {@code ties} exactly
     * at the limit; {@code pMet} and {@code pMissed} are the sign test's one-sided p-values.
     */
    record Result(double limit, List<Pair> pairs, int met, int missed, int ties, double pMet, double pMissed,
            Verdict verdict) {
        /** The ratios that mean something, for their median and range. */
        List<Double> ratios() {
            List<Double> r = new ArrayList<>();
            for (Pair p : pairs) {
                if (!Double.isNaN(p.ratio())) {
                    r.add(p.ratio());
                }
            }
            return r;
        }

        /** Pairs whose denominator was ≤ 0 (not failed ones). */
        long undefinedRatios() {
            return pairs.stream().filter(p -> !p.failed() && Double.isNaN(p.ratio())).count();
        }
    }

    /** {@code v} with {@code decimals} decimals, never "-0.00": a value that rounds to zero is written without a sign. */
    static String fixed(double v, int decimals) {
        String s = String.format(Locale.ROOT, "%." + decimals + "f", v);
        return s.matches("-0\\.?0*") ? s.substring(1) : s;
    }

    /**
     * The median of {@code values} and, when there are several, their range in parentheses, {@code decimals}
     * decimals; a range with a negative end is written "a to b", as "−1.35–−1.30" would read as a minus.
     */
    static String medianWithRange(List<Double> values, int decimals) {
        String median = fixed(LoopBench.median(values), decimals);
        if (values.size() == 1) {
            return median;
        }
        double min = values.stream().mapToDouble(d -> d).min().orElseThrow();
        double max = values.stream().mapToDouble(d -> d).max().orElseThrow();
        return median + " (" + fixed(min, decimals) + (min < 0 ? " to " : "–") + fixed(max, decimals) + ")";
    }

    static Result judge(double limit, List<Pair> pairs) {
        int met = 0;
        int missed = 0;
        int ties = 0;
        for (Pair p : pairs) {
            double margin = p.margin(limit);
            if (margin > 0) {
                met++;
            } else if (margin < 0) {
                missed++;
            } else {
                ties++;
            }
        }
        int n = met + missed;
        double pMet = tail(met, n);
        double pMissed = tail(missed, n);
        Verdict verdict = pMet < ALPHA ? Verdict.MET : pMissed < ALPHA ? Verdict.NOT_MET : Verdict.UNDECIDED;
        return new Result(limit, List.copyOf(pairs), met, missed, ties, pMet, pMissed, verdict);
    }

    /**
     * Both of two goals judged on the same pairs (the concurrency goal: wall time and peak RSS). Met only when both
     * are met, an intersection-union test, which keeps the level at {@link #ALPHA}; not met when either is missed
     * at {@code ALPHA / 2} (Bonferroni, as either of two tests may reject); undecided otherwise.
     */
    static Verdict both(Result a, Result b) {
        if (a.verdict() == Verdict.MET && b.verdict() == Verdict.MET) {
            return Verdict.MET;
        }
        return a.pMissed() < ALPHA / 2 || b.pMissed() < ALPHA / 2 ? Verdict.NOT_MET : Verdict.UNDECIDED;
    }

    /** P(K ≥ k) for K ~ Binomial(n, 1/2): the chance of k or more of n pairs on one side by luck. 1 when n is 0. */
    static double tail(int k, int n) {
        if (k <= 0) {
            return 1;
        }
        double sum = 0;
        double choose = 1; // C(n, i), built up from C(n, 0); exact in a double for the forks a run has
        for (int i = 0; i <= n; i++) {
            if (i > 0) {
                choose = choose * (n - i + 1) / i;
            }
            if (i >= k) {
                sum += choose;
            }
        }
        return sum / Math.pow(2, n);
    }

    /** The fewest pairs that can decide anything at {@link #ALPHA}: all of them on one side must be rare enough. */
    static int fewestToDecide() {
        return fewestToDecide(ALPHA);
    }

    /** The fewest pairs of which all on one side have a one-sided p-value below {@code level}. */
    static int fewestToDecide(double level) {
        int n = 1;
        while (tail(n, n) >= level) {
            n++;
        }
        return n;
    }
    /**
     * The table row {@code | what | ratio of medians | per-pair ratios: median (range) | met in | verdict |}.
     * {@code unit} names the pairs ("forks", "repeats"), {@code under} the denominator (said when it is ≤ 0),
     * {@code leftOut} the pairs that could not be formed, and {@code runsFailed} overrides the verdict.
     */
    static String row(String what, String ratioOfMedians, Result r, String unit, String under, List<String> leftOut,
            boolean runsFailed) {
        return "| " + what + " | " + ratioOfMedians + " | " + perPairRatios(r, unit, under) + " | "
                + metIn(r.met() + r.ties(), r.pairs().size(), unit,
                        r.ties() == 0 ? "" : " (" + r.ties() + " exactly at the limit, left out of the test)", leftOut)
                + " | " + (runsFailed ? "**not met: runs failed**" : verdict(r, unit)) + " |";
    }

    /** The row of two goals that must both be met, judged by {@link #both}. */
    static String bothRow(String what, Result a, Result b, String unit, List<String> leftOut, boolean runsFailed) {
        int met = 0;
        for (int i = 0; i < a.pairs().size(); i++) {
            if (a.pairs().get(i).margin(a.limit()) >= 0 && b.pairs().get(i).margin(b.limit()) >= 0) {
                met++;
            }
        }
        Verdict v = both(a, b);
        int tested = Math.min(a.met() + a.missed(), b.met() + b.missed());
        String text = runsFailed ? "**not met: runs failed**"
                : v == Verdict.MET ? "met (both met)"
                : v == Verdict.NOT_MET ? String.format(Locale.ROOT, "**not met** (p = %.3f for one of them, %s %% needed)",
                        Math.min(a.pMissed(), b.pMissed()), percent(ALPHA / 2))
                : tested == 0 && a.ties() + b.ties() > 0 ? nothingToTest(unit)
                : tested < fewestToDecide() ? tooFew(tested, unit)
                // at half the level, 5 of 5 (p = 1/32) is not enough: "not met" cannot happen, say what it needs
                : tested < fewestToDecide(ALPHA / 2) ? String.format(Locale.ROOT, "undecided (not met needs p < %s %%, so at least %d %s)",
                        percent(ALPHA / 2), fewestToDecide(ALPHA / 2), unit)
                : "undecided";
        return "| " + what + " | — | — | " + metIn(met, a.pairs().size(), unit, "", leftOut) + " | " + text + " |";
    }

    private static String perPairRatios(Result r, String unit, String under) {
        List<Double> ratios = r.ratios();
        long undefined = r.undefinedRatios();
        String note = undefined == 0 ? "" : under + " ≤ 0 in " + count(undefined, unit);
        if (ratios.isEmpty()) {
            return "—" + (note.isEmpty() ? "" : " (" + note + ")");
        }
        return medianWithRange(ratios, 2) + (note.isEmpty() ? "" : "; " + note);
    }

    private static String metIn(int met, int of, String unit, String ties, List<String> leftOut) {
        return met + " of " + count(of, unit) + ties + (leftOut.isEmpty() ? "" : "; left out: " + String.join(", ", leftOut));
    }

    private static String verdict(Result r, String unit) {
        int tested = r.met() + r.missed();
        return switch (r.verdict()) {
            case MET -> String.format(Locale.ROOT, "met (p = %.3f)", r.pMet());
            case NOT_MET -> String.format(Locale.ROOT, "**not met** (p = %.3f)", r.pMissed());
            case UNDECIDED -> tested == 0 && r.ties() > 0 ? nothingToTest(unit)
                    : tested < fewestToDecide() ? tooFew(tested, unit)
                    : r.met() >= r.missed()
                            ? String.format(Locale.ROOT, "undecided (p = %.3f for met, %s %% needed)", r.pMet(), percent(ALPHA))
                    : String.format(Locale.ROOT, "undecided (p = %.3f for not met, %s %% needed)", r.pMissed(), percent(ALPHA));
        };
    }

    private static String tooFew(int tested, String unit) {
        return String.format(Locale.ROOT, "undecided: %s cannot decide at %s %% (at least %d are needed)", count(tested, unit),
                percent(ALPHA), fewestToDecide());
    }

    /** Every pair exactly at the limit: the sign test leaves ties out, so there is nothing left to test. */
    private static String nothingToTest(String unit) {
        return "undecided (no " + unit.substring(0, unit.length() - 1) + " off the limit: nothing to test)";
    }

    /** A level as a percentage, as the summary writes it: "5", "2.5". */
    static String percent(double level) {
        return java.math.BigDecimal.valueOf(100 * level).stripTrailingZeros().toPlainString();
    }

    /** "1 fork", "4 forks". */
    private static String count(long n, String unit) {
        return n + " " + (n == 1 ? unit.substring(0, unit.length() - 1) : unit);
    }
}
