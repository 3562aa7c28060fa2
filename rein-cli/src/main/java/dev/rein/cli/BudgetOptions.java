package dev.rein.cli;

import dev.rein.budget.Budget;
import java.math.BigDecimal;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The budget options shared by every command that starts or resumes a run. Defaults come from {@link CliDefaults}. */
public final class BudgetOptions {
    @ExampleValue("10")
    @Option(names = "--max-steps", paramLabel = "N", converter = OptionValues.StepCount.class,
            description = "Most model calls that may propose actions; the final summary call is extra (default: ${DEFAULT-VALUE}).")
    int maxSteps;

    @ExampleValue("0.50")
    @Option(names = "--max-cost-usd", paramLabel = "X", converter = OptionValues.UsdAmount.class,
            description = "Money limit in US dollars over every model call of the run, priced from input, output,"
                    + " cache-read and cache-write tokens (default: ${DEFAULT-VALUE}).")
    BigDecimal maxCostUsd;

    @ExampleValue("120")
    @Option(names = "--max-seconds", paramLabel = "S", converter = OptionValues.Seconds.class,
            description = "Wall-clock limit of the run in seconds (default: ${DEFAULT-VALUE}).")
    Duration maxDuration;

    /** The budget these options describe. */
    public Budget toBudget() {
        return Budget.builder().maxSteps(maxSteps).maxCostUsd(maxCostUsd).maxDuration(maxDuration).build();
    }
}
