package dev.rein.budget;

import dev.rein.ConfigurationException;
import dev.rein.internal.text.Durations;
import dev.rein.model.Usage;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Tracks one run's consumption against its {@link Budget}. Not thread-safe: the loop owns it.
 * {@link #check()} has no side effects.
 */
public final class BudgetMeter {
    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);
    /** Said of a token or money limit reached when some calls were charged an estimate. */
    private static final String ESTIMATED = "estimated: the provider reported no token usage for some calls";
    private final Budget budget;
    private final ModelPrice price;
    private final String model;
    private final Clock clock;
    private final Instant deadline;
    private final Instant startedAt;
    /** The conversation's budget across turns, or null (only the per-turn budget applies). */
    private Budget conversation;
    private Instant conversationDeadline = Instant.MAX;
    private int stepsBefore;
    private Usage usageBefore = Usage.ZERO;
    private BigDecimal costBefore = BigDecimal.ZERO;
    private int steps;
    private Usage usage = Usage.ZERO;
    private BigDecimal costUsd = BigDecimal.ZERO;
    /**
     * See {@link #takeUnpricedTiers()}: every one since the last take, not the last call's alone, as a model interceptor
     * may call the model more than once for one traced call (and keep an earlier answer).
     */
    private final java.util.Set<UnpricedTier> unpricedTiers = new java.util.LinkedHashSet<>();
    /** See {@link #takeUnpricedModels()}: noted since the last take. */
    private final java.util.Set<String> unpricedModels = new java.util.LinkedHashSet<>();
    /** The unpriced models already noted by this meter, so each is noted once. */
    private final java.util.Set<String> notedModels = new java.util.HashSet<>();
    /** Whether {@link #restore} gave usage: the run made calls before this meter (see {@link #takeUnpricedModels()}). */
    private boolean restoredWithUsage;

    /**
     * A service tier a call was served at that the price used for it has no rates for, the model that price is of
     * (null when the caller did not name it), and that price, so the call was charged at its base rates; the price
     * says what a tier's rates must include (a rate for each of its cache write classes).
     *
     * @param tier  the tier as the response names it ({@link dev.rein.model.ModelResponse#serviceTier()})
     * @param model the model whose price was used, as the request reaching the pricing named it; null when not given
     * @param price the price used, which lacks the tier
     */
    public record UnpricedTier(String tier, String model, ModelPrice price) {}

    /**
     * @throws ConfigurationException when a money budget is set and {@code model} has no price: a
     *                                run is never priced as free
     */
    public BudgetMeter(Budget budget, PriceTable prices, String model, Clock clock, Instant startedAt) {
        this.budget = budget;
        this.clock = clock;
        this.price = prices.find(model).orElse(null);
        this.model = model;
        requirePrice(budget, "the USD %s budget", "remove the money budget");
        this.startedAt = startedAt;
        this.deadline = budget.maxDuration() == null ? Instant.MAX : startedAt.plus(budget.maxDuration());
    }

    /**
     * Makes this meter count one turn of a conversation: the per-turn budget counts from what the
     * earlier turns used ({@code stepsBefore}, {@code usageBefore}, {@code costBefore}, their
     * running time {@code activeMillisBefore}), and {@code conversationBudget} (null for none) caps
     * the totals. Call after {@link #restore}.
     *
     * @throws ConfigurationException when {@code conversationBudget} has a money limit and the model
     *                                has no price, as for the per-turn budget
     */
    public void startTurn(int stepsBefore, Usage usageBefore, BigDecimal costBefore, long activeMillisBefore,
                          Budget conversationBudget) {
        if (conversationBudget != null) {
            requirePrice(conversationBudget, "the conversation budget's USD %s limit",
                    "remove the money limit from the conversation budget");
        }
        this.stepsBefore = stepsBefore;
        this.usageBefore = usageBefore;
        this.costBefore = costBefore;
        this.conversation = conversationBudget;
        if (conversationBudget != null && conversationBudget.maxDuration() != null) {
            conversationDeadline = startedAt.plus(conversationBudget.maxDuration()).minusMillis(activeMillisBefore);
        }
    }

    /** Refuses a money limit that an unpriced model would never reach: a run is never priced as free. */
    private void requirePrice(Budget limits, String what, String orElse) {
        if (price == null && limits.maxCostUsd() != null) {
            throw new ConfigurationException("no price is known for model '" + model + "', so "
                    + what.formatted(limits.maxCostUsd().toPlainString()) + " cannot be enforced. Add it with PriceTable.with(\""
                    + model + "\", ModelPrice.of(input, cacheRead, output)) or " + orElse + ".");
        }
    }

    /**
     * Refuses a call to {@code callModel}, a model other than the run's (chosen by a model-call
     * stage, such as a fallback), when it has no price and a money limit is set: its calls would
     * count as free and the limit would never trigger.
     *
     * @throws ConfigurationException naming the model and the limit (the run ends
     *                                {@code FAILED/configuration_error} with its message)
     */
    public void requirePriced(String callModel) {
        for (Budget limits : conversation == null ? List.of(budget) : List.of(budget, conversation)) {
            if (limits.maxCostUsd() != null) {
                String what = limits == budget ? "the USD %s budget" : "the conversation budget's USD %s limit";
                throw new ConfigurationException("no price is known for model '" + callModel + "', which a model-call stage chose"
                        + " for this call, so " + what.formatted(limits.maxCostUsd().toPlainString()) + " cannot be enforced"
                        + " (a money limit needs the price of every model called); the call was not made. Add it with price(\""
                        + callModel + "\", ModelPrice.of(input, cacheRead, output)) on the agent builder (or in the PriceTable"
                        + " given to prices(...)), or remove the money limit.");
            }
        }
    }

    /** Restores counters (for a resumed run). */
    public void restore(int steps, Usage usage, BigDecimal costUsd) {
        this.restoredWithUsage = usage.totalInputTokens() != 0 || usage.outputTokens() != 0;
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
        return record(callUsage, callPrice, null, null);
    }

    /**
     * Adds the usage of a call to model {@code model} served at service tier {@code tier} (null: the provider's standard
     * one), priced with {@code callPrice} (the agent's own price, {@link #price()}, for a call to the agent's model), and
     * returns its cost in USD: at the tier's rates when the price has them, else at its base price (zero when null).
     * {@code model} names the price in what {@link #takeUnpricedTiers()} returns when it lacks the tier.
     */
    public BigDecimal record(Usage callUsage, ModelPrice callPrice, String tier, String model) {
        // an unpriced model counts as free without a word: its first call on this meter says so. The agent's own model
        // not on a meter restored with usage (a resumed run, a later step on an engine such as Temporal, whose meter is
        // made anew for each step): the run's first call was most likely its own and said it. Which models a run noted is
        // not kept with it, so another model (a fallback's) is said again at its first call on each such meter
        if (callPrice == null && model != null && !(restoredWithUsage && model.equals(this.model)) && notedModels.add(model)) {
            unpricedModels.add(model);
        }
        usage = usage.plus(callUsage);
        BigDecimal cost = callPrice == null ? BigDecimal.ZERO : callPrice.cost(callUsage, tier);
        costUsd = costUsd.add(cost);
        // a priced model whose price lacks the tier: charged at the base price, which the call's trace must say
        if (callPrice != null && !callPrice.pricesTier(tier)) {
            unpricedTiers.add(new UnpricedTier(tier, model, callPrice));
        }
        return cost;
    }

    /**
     * The service tiers of the calls recorded since the last take whose model's price has no rates for them, so those
     * calls were charged at the base price (a cheaper or dearer tier counted wrongly), in the order first recorded; empty
     * when every tier was priced, the provider named none, or the model has no price. Read and cleared, for the trace
     * event of the call they were made for.
     */
    public java.util.List<UnpricedTier> takeUnpricedTiers() {
        java.util.List<UnpricedTier> tiers = java.util.List.copyOf(unpricedTiers);
        unpricedTiers.clear();
        return tiers;
    }

    /**
     * The models with no price whose calls were recorded since the last take as costing USD 0, each at its first call this
     * meter saw (the agent's own model too when a stage's priced choice answered the run's first call). A meter
     * {@linkplain #restore restored} with usage (a resumed run, each step after the first on Temporal) does not name the
     * agent's own model (the run's earlier calls are taken to have), but names another model (a fallback's) again: the run
     * keeps no record of the models it named. Read and cleared, for the trace event of the call they were made for.
     */
    public java.util.List<String> takeUnpricedModels() {
        java.util.List<String> models = java.util.List.copyOf(unpricedModels);
        unpricedModels.clear();
        return models;
    }

    /** The first exhausted budget layer, if any, for starting another step (this turn's, then the conversation's). */
    public Optional<BudgetKind> check() {
        Optional<BudgetKind> turn = exhausted(budget, deadline, steps - stepsBefore, usage.totalInputTokens()
                - usageBefore.totalInputTokens(), usage.outputTokens() - usageBefore.outputTokens(), costUsd.subtract(costBefore));
        if (turn.isPresent() || conversation == null) {
            return turn;
        }
        return exhausted(conversation, conversationDeadline, steps, usage.totalInputTokens(), usage.outputTokens(), costUsd);
    }

    /**
     * The first spending limit (money, input or output tokens) reached, of this turn's budget or the
     * conversation's: unlike {@link #check()}, not the step count nor the time, so that a step already
     * counted can tell whether a call made on its behalf before its model call (a compaction) spent
     * what that call would have needed.
     */
    public Optional<BudgetKind> spent() {
        Optional<BudgetKind> turn = exhausted(budget, Instant.MAX, 0, usage.totalInputTokens() - usageBefore.totalInputTokens(),
                usage.outputTokens() - usageBefore.outputTokens(), costUsd.subtract(costBefore));
        if (turn.isPresent() || conversation == null) {
            return turn;
        }
        return exhausted(conversation, Instant.MAX, 0, usage.totalInputTokens(), usage.outputTokens(), costUsd);
    }

    private Optional<BudgetKind> exhausted(Budget b, Instant until, int stepsUsed, long input, long output, BigDecimal cost) {
        if (!clock.instant().isBefore(until)) {
            return Optional.of(BudgetKind.DEADLINE);
        }
        if (b.maxCostUsd() != null && cost.compareTo(b.maxCostUsd()) >= 0) {
            return Optional.of(BudgetKind.COST);
        }
        if (b.maxInputTokens() != null && input >= b.maxInputTokens()) {
            return Optional.of(BudgetKind.INPUT_TOKENS);
        }
        if (b.maxOutputTokens() != null && output >= b.maxOutputTokens()) {
            return Optional.of(BudgetKind.OUTPUT_TOKENS);
        }
        if (stepsUsed >= b.maxSteps()) {
            return Optional.of(BudgetKind.STEPS);
        }
        return Optional.empty();
    }

    /**
     * The output tokens this turn may still spend: the least of what its own output limit and the
     * conversation's leave (zero or less when one is reached), or empty when neither has one.
     */
    public OptionalLong outputTokensLeft() {
        long left = Long.MAX_VALUE;
        if (budget.maxOutputTokens() != null) {
            left = budget.maxOutputTokens() - (usage.outputTokens() - usageBefore.outputTokens());
        }
        if (conversation != null && conversation.maxOutputTokens() != null) {
            left = Math.min(left, conversation.maxOutputTokens() - usage.outputTokens());
        }
        return left == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(left);
    }

    /**
     * The output tokens the money this turn may still spend buys at the model's highest output rate
     * (its long-context rate when that is higher), rounded up: a call that writes no more than these
     * spends on output at most the money left (plus less than one token's price), so its overrun of a
     * money limit is at most its input's cost. Empty when no money limit applies (this turn's nor the
     * conversation's), the model has no price or its output is free; zero or less when the money is
     * spent.
     */
    public OptionalLong outputTokensAffordable() {
        return outputTokensAffordable(price);
    }

    /**
     * As {@link #outputTokensAffordable()}, for a call to a model priced {@code callPrice} (a critic's own
     * model): the tokens the money left buys at its highest output rate; empty when it is null.
     */
    public OptionalLong outputTokensAffordable(ModelPrice callPrice) {
        BigDecimal left = moneyLeft();
        BigDecimal perMTok = highestOutputPerMTok(callPrice);
        if (left == null || perMTok == null || perMTok.signum() == 0) {
            return OptionalLong.empty();
        }
        if (left.signum() <= 0) {
            return OptionalLong.of(0);
        }
        BigDecimal tokens = left.multiply(MILLION).divide(perMTok, 0, java.math.RoundingMode.CEILING);
        return OptionalLong.of(tokens.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : tokens.longValue());
    }

    /**
     * The money this turn may still spend: the least of what its own limit and the conversation's leave
     * (zero or less when one is reached), or null when neither has a money limit.
     */
    public BigDecimal moneyLeft() {
        BigDecimal left = null;
        if (budget.maxCostUsd() != null) {
            left = budget.maxCostUsd().subtract(costUsd.subtract(costBefore));
        }
        if (conversation != null && conversation.maxCostUsd() != null) {
            BigDecimal conversationLeft = conversation.maxCostUsd().subtract(costUsd);
            left = left == null ? conversationLeft : left.min(conversationLeft);
        }
        return left;
    }

    /** The model's highest output rate in USD per million tokens, or null when it has no price. */
    public BigDecimal highestOutputPerMTok() {
        return highestOutputPerMTok(price);
    }

    /**
     * {@code price}'s highest output rate in USD per million tokens (its long-context or a service tier's when higher), or
     * null for null.
     */
    public static BigDecimal highestOutputPerMTok(ModelPrice price) {
        if (price == null) {
            return null;
        }
        BigDecimal highest = price.longContext() == null ? price.outputPerMTok()
                : price.outputPerMTok().max(price.longContext().price().outputPerMTok());
        for (ModelPrice tier : price.tiers().values()) {
            // a call may be served at a dearer tier: what the money left buys is counted at the dearest rate
            highest = highest.max(highestOutputPerMTok(tier));
        }
        return highest;
    }

    /** The price the run's model is charged at, or null when it has none. */
    public ModelPrice price() {
        return price;
    }

    /** A human sentence about an exhausted layer. */
    public String describe(BudgetKind kind) {
        boolean turnLimit = exhausted(budget, deadline, steps - stepsBefore, usage.totalInputTokens()
                - usageBefore.totalInputTokens(), usage.outputTokens() - usageBefore.outputTokens(), costUsd.subtract(costBefore))
                .filter(kind::equals).isPresent();
        if (conversation != null && !turnLimit) {
            return "the conversation's " + describe(conversation, kind, costUsd.toPlainString()).substring("the ".length())
                    + " across all turns";
        }
        // A later turn's limit counts from the turn's start, and so does what it says was spent
        boolean laterTurn = stepsBefore > 0 || costBefore.signum() > 0;
        return describe(budget, kind, laterTurn ? costUsd.subtract(costBefore).toPlainString() + " in this turn"
                : costUsd.toPlainString());
    }

    /** {@code spent}: the money the limit counted, as the message says it. */
    private String describe(Budget budget, BudgetKind kind, String spent) {
        // A limit reached on an estimate says so: the counts are not the provider's
        String estimated = usage.estimated() ? ESTIMATED : "";
        return switch (kind) {
            case STEPS -> "the step limit of " + budget.maxSteps() + " was reached";
            case COST -> "the cost limit of USD " + budget.maxCostUsd().toPlainString() + " was reached (spent USD " + spent
                    + (estimated.isEmpty() ? ")" : ", " + estimated + ")");
            case DEADLINE -> "the time limit of " + Durations.human(budget.maxDuration()) + " was reached";
            case INPUT_TOKENS -> "the input token limit of " + budget.maxInputTokens() + " was reached"
                    + (estimated.isEmpty() ? "" : " (" + estimated + ")");
            case OUTPUT_TOKENS -> "the output token limit of " + budget.maxOutputTokens() + " was reached"
                    + (estimated.isEmpty() ? "" : " (" + estimated + ")");
        };
    }

    /** When this turn must end: its own time limit or the conversation's, whichever comes first. */
    public Instant deadline() {
        return deadline.isBefore(conversationDeadline) ? deadline : conversationDeadline;
    }

    public Duration remaining() {
        Instant end = deadline();
        return end.equals(Instant.MAX) ? Duration.ofDays(365) : Duration.between(clock.instant(), end);
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
