package dev.rein.eval.report;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Percentiles of a sample (nearest-rank: the p-th percentile is the smallest value with at least
 * p% of the sample at or below it, so it is always a value that occurred), its maximum and its
 * mean (two more decimal places than the values). Empty samples give nulls.
 */
public record Distribution(BigDecimal p50, BigDecimal p90, BigDecimal max, BigDecimal mean) {
    public static Distribution of(Collection<BigDecimal> values, int scale) {
        if (values.isEmpty()) {
            return new Distribution(null, null, null, null);
        }
        List<BigDecimal> sorted = new ArrayList<>(values);
        sorted.sort(null);
        BigDecimal sum = sorted.stream().reduce(BigDecimal.ZERO, BigDecimal::add);
        BigDecimal mean = sum.divide(BigDecimal.valueOf(sorted.size()), scale + 2, RoundingMode.HALF_EVEN);
        return new Distribution(scaled(nearestRank(sorted, 50), scale), scaled(nearestRank(sorted, 90), scale),
                scaled(sorted.get(sorted.size() - 1), scale), mean);
    }

    /** The nearest-rank percentile of a sorted, non-empty list. */
    public static <T> T nearestRank(List<T> sorted, int percent) {
        // in long: 90 x 24 million graded trials is beyond an int, and the overflow gave the minimum as p90
        long rank = ((long) percent * sorted.size() + 99) / 100;
        return sorted.get((int) Math.max(rank, 1) - 1);
    }

    private static BigDecimal scaled(BigDecimal value, int scale) {
        return value.setScale(scale, RoundingMode.HALF_EVEN);
    }
}
