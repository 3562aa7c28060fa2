package dev.rein.cli;

import dev.rein.budget.Budget;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Option defaults taken from the library, so the CLI and the help text can never disagree with
 * the core: the provider's default model, every built-in tool, and the budget defaults of {@link Budget}.
 */
public final class CliDefaults implements IDefaultValueProvider {
    @Override
    public String defaultValue(ArgSpec argSpec) {
        if (!(argSpec instanceof OptionSpec option) || !"run".equals(option.command().name())) {
            // Only 'run' takes its defaults from the library; other commands mean "not given" by null.
            return null;
        }
        return switch (option.longestName()) {
            case "--model" -> defaultModel();
            case "--tools" -> ToolCatalog.builtins().allNames();
            case "--max-steps" -> String.valueOf(Budget.DEFAULT_MAX_STEPS);
            case "--max-cost-usd" -> Budget.DEFAULT_MAX_COST_USD.toPlainString();
            case "--max-seconds" -> String.valueOf(Budget.DEFAULT_MAX_DURATION.toSeconds());
            default -> null;
        };
    }

    /**
     * The default provider's default model; none for an unknown {@code REIN_PROVIDER}, which the
     * command then reports as a one-line usage error instead of failing while parsing.
     */
    private static String defaultModel() {
        try {
            return ProviderModels.provider(System.getenv()).defaultModel();
        } catch (UsageException e) {
            return null;
        }
    }
}
