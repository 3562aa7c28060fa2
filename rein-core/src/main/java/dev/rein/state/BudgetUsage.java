package dev.rein.state;

import dev.rein.model.Usage;
import java.math.BigDecimal;

/**
 * What a run has used so far.
 *
 * @param activeMillis running time; time spent paused (waiting for approval) is not counted
 */
public record BudgetUsage(int steps, Usage usage, BigDecimal costUsd, long activeMillis) {
    public static final BudgetUsage NONE = new BudgetUsage(0, Usage.ZERO, BigDecimal.ZERO, 0);
}
