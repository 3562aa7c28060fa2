package dev.rein.budget;

import dev.rein.ReinException;
import dev.rein.model.Usage;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Tracks one run's consumption against its {@link Budget}. Not thread-safe: the loop owns it.
 * {@link #check()} has no side effects.
 */
public final class BudgetMeter {
    private final Budget budget;
    private final ModelPrice price;
    private final Clock clock;
    private final Instant deadline;
    private int steps;
    private Usage usage = Usage.ZERO;
    private BigDecimal costUsd = BigDecimal.ZERO;

    /**
     * @throws ReinException when a money budget is set and {@code model} has no price: a run is
     *                       never priced as free
     */
    public BudgetMeter(Budget budget, PriceTable prices, String model, Clock clock, Instant startedAt) {
        this.budget = budget;
        this.clock = clock;
        this.price = prices.find(model).orElse(null);
        if (price == null && budget.maxCostUsd() != null) {
            throw new ReinException("no price is known for model '" + model + "', so the USD " + budget.maxCostUsd()
                    + " budget cannot be enforced. Add it with PriceTable.with(\"" + model
                    + "\", ModelPrice.of(input, cacheRead, output)) or remove the money budget.");
        }
        this.deadline = budget.maxDuration() == null ? Instant.MAX : startedAt.plus(budget.maxDuration());
    }

    /** Restores counters (for a resumed run). */
    public void restore(int steps, Usage usage, BigDecimal costUsd) {
        this.steps = steps;
        this.usage = usage;
        this.costUsd = costUsd;
    }

    public void countStep() {
        steps++;
    }

    /** Adds one model call's usage and returns its cost in USD (zero when the model is unpriced). */
    public BigDecimal record(Usage callUsage) {
        usage = usage.plus(callUsage);
        BigDecimal cost = price == null ? BigDecimal.ZERO : price.cost(callUsage);
        costUsd = costUsd.add(cost);
        return cost;
    }

    /** Adds the usage of a call to another model, priced with {@code callPrice} (zero when null). */
    public BigDecimal record(Usage callUsage, ModelPrice callPrice) {
        usage = usage.plus(callUsage);
        BigDecimal cost = callPrice == null ? BigDecimal.ZERO : callPrice.cost(callUsage);
        costUsd = costUsd.add(cost);
        return cost;
    }

    /** The first exhausted budget layer, if any, for starting another step. */
    public Optional<BudgetKind> check() {
        if (!clock.instant().isBefore(deadline)) {
            return Optional.of(BudgetKind.DEADLINE);
        }
        if (budget.maxCostUsd() != null && costUsd.compareTo(budget.maxCostUsd()) >= 0) {
            return Optional.of(BudgetKind.COST);
        }
        if (budget.maxInputTokens() != null && usage.totalInputTokens() >= budget.maxInputTokens()) {
            return Optional.of(BudgetKind.INPUT_TOKENS);
        }
        if (budget.maxOutputTokens() != null && usage.outputTokens() >= budget.maxOutputTokens()) {
            return Optional.of(BudgetKind.OUTPUT_TOKENS);
        }
        if (steps >= budget.maxSteps()) {
            return Optional.of(BudgetKind.STEPS);
        }
        return Optional.empty();
    }

    /** A human sentence about an exhausted layer. */
    public String describe(BudgetKind kind) {
        return switch (kind) {
            case STEPS -> "the step limit of " + budget.maxSteps() + " was reached";
            case COST -> "the cost limit of USD " + budget.maxCostUsd() + " was reached (spent USD " + costUsd.toPlainString() + ")";
            case DEADLINE -> "the time limit of " + budget.maxDuration().toSeconds() + " s was reached";
            case INPUT_TOKENS -> "the input token limit of " + budget.maxInputTokens() + " was reached";
            case OUTPUT_TOKENS -> "the output token limit of " + budget.maxOutputTokens() + " was reached";
        };
    }

    public Instant deadline() {
        return deadline;
    }

    public Duration remaining() {
        return deadline.equals(Instant.MAX) ? Duration.ofDays(365) : Duration.between(clock.instant(), deadline);
    }

    public int steps() {
        return steps;
    }

    public Usage usage() {
        return usage;
    }

    public BigDecimal costUsd() {
        return costUsd;
    }

    public Budget budget() {
        return budget;
    }
}
