package dev.rein.internal.provider;

import dev.rein.provider.ModelProvider;

import dev.rein.budget.PriceTable;

/** The installed providers' price tables, merged once per class loader (providers do not change at run time). */
public final class InstalledProviders {
    private static volatile PriceTable prices;

    private InstalledProviders() {}

    /** Every installed provider's prices; a later provider's entry wins for the same model name. */
    public static PriceTable prices() {
        PriceTable merged = prices;
        if (merged == null) {
            merged = PriceTable.empty();
            for (ModelProvider provider : ModelProvider.available()) {
                merged = merged.withAll(provider.prices());
            }
            prices = merged;
        }
        return merged;
    }
}
