package dev.rein.openai;

import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;

/**
 * OpenAI's published prices for its public models, in USD per million tokens (input, cached input,
 * output). Cache writes are not charged by OpenAI and never reported, so their price does not
 * matter. Models of other servers (Ollama, vLLM, ...) are not listed: give them a price, e.g.
 * zero for a local server.
 */
public final class OpenAiPrices {
    /** The table. */
    public static final PriceTable TABLE = PriceTable.empty()
            .with("gpt-5", ModelPrice.of("1.25", "0.125", "10.00"))
            .with("gpt-5-mini", ModelPrice.of("0.25", "0.025", "2.00"))
            .with("gpt-5-nano", ModelPrice.of("0.05", "0.005", "0.40"))
            .with("gpt-4.1", ModelPrice.of("2.00", "0.50", "8.00"))
            .with("gpt-4.1-mini", ModelPrice.of("0.40", "0.10", "1.60"))
            .with("gpt-4.1-nano", ModelPrice.of("0.10", "0.025", "0.40"))
            .with("gpt-4o", ModelPrice.of("2.50", "1.25", "10.00"))
            // The first gpt-4o snapshot kept its launch price, with no cached-input discount: by its base
            // name it would be priced at half, and a money budget let a run spend twice its limit.
            .with("gpt-4o-2024-05-13", ModelPrice.of("5.00", "5.00", "15.00"))
            .with("gpt-4o-mini", ModelPrice.of("0.15", "0.075", "0.60"))
            .with("o3", ModelPrice.of("2.00", "0.50", "8.00"))
            .with("o4-mini", ModelPrice.of("1.10", "0.275", "4.40"))
            // a gateway names these openai/gpt-5 (OpenRouter): priced at these rows (PriceTable.find)
            .ofVendor("openai");

    private OpenAiPrices() {}
}
