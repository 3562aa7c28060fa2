package dev.rein.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.model.Usage;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class BudgetTest {
    /** A priced model for the meter's tests (USD per million tokens, cache writes 1.25x input). */
    private static final PriceTable PRICES = PriceTable.empty()
            .with("claude-haiku-4-5", ModelPrice.of("1.00", "0.10", "1.25", "5.00"));

    @Test
    void defaultsAreFifteenStepsOneDollarFiveMinutes() {
        Budget b = Budget.defaults();
        assertThat(b.maxSteps()).isEqualTo(15);
        assertThat(b.maxCostUsd()).isEqualByComparingTo("1.00");
        assertThat(b.maxDuration()).isEqualTo(Duration.ofSeconds(300));
    }

    @Test
    void cacheWriteClassesArePricedApart() {
        ModelPrice price = ModelPrice.of("3.00", "0.30", "3.75", "15.00").withCacheWriteClass("long", "6.00");
        // 1M of each: input 3.00 + output 15.00 + cache read 0.30 + plain write 3.75 + 'long' write 6.00
        Usage usage = Usage.of(1_000_000, 1_000_000, 1_000_000, 2_000_000).withCacheWriteDetail("long", 1_000_000);
        assertThat(price.cost(usage)).isEqualByComparingTo("28.05");
        assertThat(ModelPrice.of("1", "0.1", "2").cost(Usage.of(0, 0, 0, 1_000_000))).as("writes cost like input by default")
                .isEqualByComparingTo("1");
        assertThat(PriceTable.empty().with("gpt-9", ModelPrice.of("1", "0.1", "2")).find("gpt-9-2026")).isPresent();
        // A short number after the name is a version, another model: claude-fable-5-2 is not claude-fable-5.
        assertThat(PriceTable.empty().with("claude-fable-5", ModelPrice.of("10", "1", "50")).find("claude-fable-5-2")).isEmpty();
        assertThat(PriceTable.empty().with("gpt-9", ModelPrice.of("1", "0.1", "2")).find("gpt-9-2026-01-31")).isPresent();
        assertThat(PriceTable.empty().with("claude-x-5", ModelPrice.of("1", "0.1", "2")).find("claude-x-5-20261015")).isPresent();
    }

    @Test
    void aTimeLimitNoDeadlineCanCountIsRefusedWhenTheBudgetIsBuiltAndTheLongestOneRuns() {
        // "forever" as Duration.ofSeconds(Long.MAX_VALUE) used to pass here and overflow when the run started
        assertThatThrownBy(() -> Budget.builder().maxDuration(Duration.ofSeconds(Long.MAX_VALUE)).build())
                .isInstanceOf(ReinException.class).hasMessageContaining("at most").hasMessageContaining("null");
        assertThatThrownBy(() -> Budget.builder().maxDuration(Budget.LONGEST_DURATION.plusMillis(1)).build())
                .isInstanceOf(ReinException.class);
        Clock clock = Clock.fixed(Instant.parse("2026-12-03T00:00:00Z"), ZoneOffset.UTC);
        BudgetMeter meter = new BudgetMeter(Budget.builder().maxDuration(Budget.LONGEST_DURATION).build(), PRICES,
                "claude-haiku-4-5", clock, clock.instant());
        assertThat(meter.check()).isEmpty();
        assertThat(meter.deadline()).isAfter(clock.instant().plus(Duration.ofDays(365L * 1_000_000)));
    }

    @Test
    void aTokenLimitBelowOneNamesTheLimitAndItsValue() {
        assertThatThrownBy(() -> Budget.builder().maxInputTokens(0L).build()).isInstanceOf(ReinException.class)
                .hasMessage("maxInputTokens must be at least 1, was 0; for no input token limit, set it to null");
        assertThatThrownBy(() -> Budget.builder().maxOutputTokens(-5L).build()).isInstanceOf(ReinException.class)
                .hasMessage("maxOutputTokens must be at least 1, was -5; for no output token limit, set it to null");
        assertThat(Budget.builder().maxInputTokens(1L).maxOutputTokens(1L).build().maxOutputTokens()).isEqualTo(1L);
    }

    @Test
    void aTimeLimitUnderAMillisecondIsRefusedRatherThanReportedAsZeroSeconds() {
        // it ran, stopped at once and said "the time limit of 0 s was reached" (and max_seconds 0 in the trace)
        assertThatThrownBy(() -> Budget.builder().maxDuration(Duration.ofNanos(1)).build()).isInstanceOf(ReinException.class)
                .hasMessage("maxDuration must be at least 1 ms, was PT0.000000001S: give the longest a run may take, e.g."
                        + " Duration.ofSeconds(300) (the default); for no time limit, set it to null");
        assertThat(Budget.builder().maxDuration(Duration.ofMillis(1)).build().maxDuration()).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void aMoneyBudgetForAnUnpricedModelIsAConfigurationError() {
        Clock clock = Clock.fixed(Instant.EPOCH, ZoneOffset.UTC);
        assertThatThrownBy(() -> new BudgetMeter(Budget.defaults(), PRICES, "mystery-model", clock, Instant.EPOCH))
                .isInstanceOf(ReinException.class).hasMessageContaining("mystery-model").hasMessageContaining("PriceTable");
        BudgetMeter unlimited = new BudgetMeter(Budget.builder().maxCostUsd((BigDecimal) null).build(), PRICES,
                "mystery-model", clock, Instant.EPOCH);
        assertThat(unlimited.check()).isEmpty();
    }

    @Test
    void eachLayerIsCheckedWithoutSideEffects() {
        Clock clock = Clock.fixed(Instant.EPOCH, ZoneOffset.UTC);
        Budget budget = Budget.builder().maxSteps(2).maxCostUsd("0.01").maxInputTokens(5_000L).build();
        BudgetMeter meter = new BudgetMeter(budget, PRICES, "claude-haiku-4-5", clock, Instant.EPOCH);
        meter.countStep();
        assertThat(meter.check()).isEmpty();
        assertThat(meter.check()).isEmpty();
        meter.record(Usage.of(1_000, 100, 0, 0));
        assertThat(meter.check()).isEmpty();
        meter.record(Usage.of(1_000, 2_000, 0, 0));
        assertThat(meter.check()).contains(BudgetKind.COST);
        BudgetMeter tokens = new BudgetMeter(budget, PRICES, "claude-haiku-4-5", clock, Instant.EPOCH);
        tokens.record(Usage.of(10, 0, 4_000, 1_000));
        assertThat(tokens.check()).contains(BudgetKind.INPUT_TOKENS);
        BudgetMeter late = new BudgetMeter(budget, PRICES, "claude-haiku-4-5", clock, Instant.EPOCH.minusSeconds(301));
        assertThat(late.check()).contains(BudgetKind.DEADLINE);
    }

    @Test
    void invalidLimitsAreRejected() {
        assertThatThrownBy(() -> Budget.builder().maxSteps(0).build()).isInstanceOf(ReinException.class);
        assertThatThrownBy(() -> Budget.builder().maxCostUsd("-1").build()).isInstanceOf(ReinException.class);
        assertThatThrownBy(() -> Budget.builder().maxDuration(Duration.ZERO).build()).isInstanceOf(ReinException.class);
        assertThatThrownBy(() -> Budget.builder().toolCallLimit("x", 0).build()).isInstanceOf(ReinException.class);
    }

    @Test
    void aMoneyLimitThatIsNotANumberAndACapWithoutAToolNameSayWhatIsWrong() {
        assertThatThrownBy(() -> Budget.builder().maxCostUsd("0,50"))
                .isInstanceOf(ReinException.class).hasMessageContaining("'0,50'").hasMessageContaining("\"0.50\"");
        assertThatThrownBy(() -> Budget.builder().toolCallLimit(null, 3).build())
                .isInstanceOf(ReinException.class).hasMessageContaining("tool name");
        java.util.Map<String, Integer> limits = new java.util.HashMap<>();
        limits.put("search", null);
        assertThatThrownBy(() -> new Budget(5, null, null, null, null, limits))
                .isInstanceOf(ReinException.class).hasMessageContaining("'search'");
    }

    @Test
    void aPriceThatIsNotANumberIsAConfigurationErrorNamingThePriceAndItsText() {
        // a comma as the decimal mark, a currency sign, a missing price: configuration errors (ReinException)
        // naming which price and what was given, not NumberFormatException's "Character , is neither a decimal digit"
        assertThatThrownBy(() -> ModelPrice.of("1,50", "0.10", "5.00")).isInstanceOf(ReinException.class)
                .hasMessage("the input price '1,50' is not a number: write USD per million tokens as a decimal with a point,"
                        + " e.g. \"3.00\"");
        assertThatThrownBy(() -> ModelPrice.of("1.00", "0.10", "2.50", "$5")).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("the output price '$5' is not a number");
        assertThatThrownBy(() -> ModelPrice.of("1.00", null, "5.00")).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("the cache read price is missing (null)");
        assertThatThrownBy(() -> ModelPrice.of("3.00", "0.30", "15.00").withCacheWriteClass("1h", "six"))
                .isInstanceOf(ReinException.class).hasMessageStartingWith("the cache write of class '1h' price 'six' is not a number");
        assertThatThrownBy(() -> ModelPrice.of("1.00", "-0.10", "5.00")).isInstanceOf(ReinException.class)
                .hasMessage("model prices cannot be negative, was cache read -0.10");
        assertThat(ModelPrice.of(" 1.00 ", "0.10", "5.00").inputPerMTok()).isEqualByComparingTo("1.00");
    }

    /** Said what was wrong, not what to give (maxSteps, maxCostUsd, maxDuration). */
    @Test
    void aLimitOutOfRangeSaysWhatToGive() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Budget.builder().maxSteps(0).build())
                .hasMessage("maxSteps must be at least 1, was 0: give the most model calls a run may make, e.g. 15 (the default)");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Budget.builder().maxCostUsd(java.math.BigDecimal.ZERO).build())
                .hasMessage("maxCostUsd must be positive, was 0: give the most a run may spend in USD, e.g. 1.00 (the default);"
                        + " for no money limit, set it to null");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Budget.builder().maxDuration(java.time.Duration.ZERO).build())
                .hasMessage("maxDuration must be positive, was PT0S: give the longest a run may take, e.g."
                        + " Duration.ofSeconds(300) (the default); for no time limit, set it to null");
    }
}
