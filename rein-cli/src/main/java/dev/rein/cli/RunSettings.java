package dev.rein.cli;

import dev.rein.budget.Budget;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;

/** The options a run was started with, kept so another process can resume it with the same agent. */
record RunSettings(String model, List<String> tools, String system, int maxSteps, BigDecimal maxCostUsd, long maxMillis,
                   boolean finishTool) {
    RunSettings {
        tools = List.copyOf(tools);
        system = system == null ? "" : system;
    }

    Budget budget() {
        return Budget.builder().maxSteps(maxSteps).maxCostUsd(maxCostUsd).maxDuration(Duration.ofMillis(maxMillis)).build();
    }
}
