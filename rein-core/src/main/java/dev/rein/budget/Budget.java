package dev.rein.budget;

import dev.rein.ReinException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Layered limits for one run. Defaults: 15 steps, USD 1.00, 300 s. A null money, token or time
 * limit means "no limit of that kind". Per-tool call caps are by tool name.
 *
 * @param maxSteps        model calls that may propose actions (the final summary call is extra)
 * @param maxCostUsd      money across every model call, priced from all token kinds
 * @param maxDuration     wall-clock time, enforced during model and tool calls
 * @param maxInputTokens  input tokens across calls (uncached + cache read + cache write)
 * @param maxOutputTokens output tokens across calls
 * @param toolCallLimits  per-tool caps on calls in one run
 */
public record Budget(int maxSteps, BigDecimal maxCostUsd, Duration maxDuration, Long maxInputTokens,
                     Long maxOutputTokens, Map<String, Integer> toolCallLimits) {

    public static final int DEFAULT_MAX_STEPS = 15;
    public static final BigDecimal DEFAULT_MAX_COST_USD = new BigDecimal("1.00");
    public static final Duration DEFAULT_MAX_DURATION = Duration.ofSeconds(300);
    /**
     * The longest time limit: Long.MAX_VALUE milliseconds (about 292 million years). The deadline
     * and every report of the limit count in milliseconds, so a longer one cannot be enforced.
     */
    public static final Duration LONGEST_DURATION = Duration.ofMillis(Long.MAX_VALUE);

    private static final String DURATION_TO_GIVE = ": give the longest a run may take, e.g. Duration.ofSeconds(300)"
            + " (the default); for no time limit, set it to null";

    public Budget {
        if (maxSteps < 1) {
            throw new ReinException("maxSteps must be at least 1, was " + maxSteps + ": give the most model calls a run"
                    + " may make, e.g. " + DEFAULT_MAX_STEPS + " (the default)");
        }
        if (maxCostUsd != null && maxCostUsd.signum() <= 0) {
            throw new ReinException("maxCostUsd must be positive, was " + maxCostUsd.toPlainString() + ": give the most a run"
                    + " may spend in USD, e.g. 1.00 (the default); for no money limit, set it to null");
        }
        if (maxDuration != null && (maxDuration.isZero() || maxDuration.isNegative())) {
            throw new ReinException("maxDuration must be positive, was " + maxDuration + DURATION_TO_GIVE);
        }
        // under 1 ms a run could not start before its deadline passed, and messages would read "0 s"
        if (maxDuration != null && maxDuration.compareTo(Duration.ofMillis(1)) < 0) {
            throw new ReinException("maxDuration must be at least 1 ms, was " + maxDuration + DURATION_TO_GIVE);
        }
        // Duration.ofSeconds(Long.MAX_VALUE) as "forever" would overflow the deadline when a run starts
        // (an ArithmeticException out of agent.run); refused here, where the other limits are checked
        if (maxDuration != null && maxDuration.compareTo(LONGEST_DURATION) > 0) {
            throw new ReinException("maxDuration must be at most Long.MAX_VALUE milliseconds (about 292 million years),"
                    + " was " + maxDuration + "; for no time limit, set it to null");
        }
        if (maxInputTokens != null && maxInputTokens < 1) {
            throw new ReinException("maxInputTokens must be at least 1, was " + maxInputTokens + "; for no input token limit, set it to null");
        }
        if (maxOutputTokens != null && maxOutputTokens < 1) {
            throw new ReinException("maxOutputTokens must be at least 1, was " + maxOutputTokens + "; for no output token limit, set it to null");
        }
        if (toolCallLimits != null) {
            toolCallLimits.forEach((tool, cap) -> {
                if (tool == null || tool.isBlank()) {
                    throw new ReinException("a per-tool call limit needs the tool name it applies to, was " + tool);
                }
                if (cap == null) {
                    throw new ReinException("the call limit of tool '" + tool + "' is missing: give a number of at least 1");
                }
            });
        }
        toolCallLimits = toolCallLimits == null ? Map.of() : Map.copyOf(toolCallLimits);
        toolCallLimits.forEach((tool, cap) -> {
            if (cap < 1) {
                throw new ReinException("the call limit of tool '" + tool + "' must be at least 1, was " + cap
                        + ": give the most calls a run may make of it, or leave the tool out of toolCallLimits for no cap");
            }
        });
    }

    public static Budget defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.maxSteps = maxSteps;
        b.maxCostUsd = maxCostUsd;
        b.maxDuration = maxDuration;
        b.maxInputTokens = maxInputTokens;
        b.maxOutputTokens = maxOutputTokens;
        b.toolCallLimits.putAll(toolCallLimits);
        return b;
    }

    /** Builder for {@link Budget}. */
    public static final class Builder {
        private int maxSteps = DEFAULT_MAX_STEPS;
        private BigDecimal maxCostUsd = DEFAULT_MAX_COST_USD;
        private Duration maxDuration = DEFAULT_MAX_DURATION;
        private Long maxInputTokens;
        private Long maxOutputTokens;
        private final Map<String, Integer> toolCallLimits = new LinkedHashMap<>();

        public Builder maxSteps(int maxSteps) {
            this.maxSteps = maxSteps;
            return this;
        }

        /** The money limit in USD; null for none. */
        public Builder maxCostUsd(BigDecimal maxCostUsd) {
            this.maxCostUsd = maxCostUsd;
            return this;
        }

        /**
         * The money limit in USD as a decimal text such as {@code "0.50"}; null for none.
         *
         * @throws ReinException when the text is not a decimal number
         */
        public Builder maxCostUsd(String maxCostUsd) {
            if (maxCostUsd == null) {
                return maxCostUsd((BigDecimal) null);
            }
            try {
                return maxCostUsd(new BigDecimal(maxCostUsd.strip()));
            } catch (NumberFormatException e) {
                throw new ReinException("maxCostUsd '" + maxCostUsd + "' is not a number: write the USD amount as a decimal"
                        + " with a point, e.g. \"0.50\"");
            }
        }

        /** The wall-clock limit; null for none. */
        public Builder maxDuration(Duration maxDuration) {
            this.maxDuration = maxDuration;
            return this;
        }

        public Builder maxInputTokens(Long maxInputTokens) {
            this.maxInputTokens = maxInputTokens;
            return this;
        }

        public Builder maxOutputTokens(Long maxOutputTokens) {
            this.maxOutputTokens = maxOutputTokens;
            return this;
        }

        /**
         * The most calls of tool {@code tool} in one run (at least 1). Naming a tool again replaces its
         * limit, so {@code budget.toBuilder().toolCallLimit("search", 10)} raises or lowers one cap of a
         * budget; where the tool's own {@code maxCalls} is lower, that applies.
         */
        public Builder toolCallLimit(String tool, int maxCalls) {
            this.toolCallLimits.put(tool, maxCalls);
            return this;
        }

        public Budget build() {
            return new Budget(maxSteps, maxCostUsd, maxDuration, maxInputTokens, maxOutputTokens, toolCallLimits);
        }
    }
}
