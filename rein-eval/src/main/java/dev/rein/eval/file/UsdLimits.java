package dev.rein.eval.file;

import java.math.BigDecimal;

/**
 * The money limits a person may write: a suite file's {@code agent.max_cost_usd} and {@code rein run
 * --max-cost-usd} take the same range, so one limit means the same in both. Here, not in the CLI,
 * because the CLI depends on this module and not the other way round.
 */
public final class UsdLimits {
    /** One millionth of a dollar: the precision 'rein runs' shows a cost in. */
    public static final BigDecimal LEAST = new BigDecimal("0.000001");
    /** Far above any one run's cost: a limit beyond it is a slip, and 1e400 was printed with its 401 digits. */
    public static final BigDecimal MOST = new BigDecimal("1000000");

    private UsdLimits() {}

    /** Whether {@code usd} is from {@link #LEAST} to {@link #MOST}. */
    public static boolean contains(BigDecimal usd) {
        return usd.compareTo(LEAST) >= 0 && usd.compareTo(MOST) <= 0;
    }
}
