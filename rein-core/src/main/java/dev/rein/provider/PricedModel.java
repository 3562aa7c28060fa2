package dev.rein.provider;

import dev.rein.ReinException;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.model.Model;

/**
 * A model with a price of its own for one model name, e.g. a local server's model priced at zero,
 * for code that builds agents from a model alone (the eval harness, the examples): as {@link
 * ModelDefaults} it names {@code modelName} and prices it on top of the wrapped model's own table.
 * Everything else goes to the wrapped model unchanged ({@link ForwardingModel}); {@link #close()} closes it.
 */
public final class PricedModel extends ForwardingModel {
    private final String modelName;
    private final PriceTable prices;

    private PricedModel(Model model, String modelName, ModelPrice price) {
        super(model);
        if (modelName == null || modelName.isBlank()) {
            throw new ReinException("PricedModel.of was given " + (modelName == null ? "no model name (null)"
                    : "a blank model name") + ": give the name requests use, which the price is for");
        }
        if (price == null) {
            throw new ReinException("PricedModel.of was given no price (null) for '" + modelName + "': give one, e.g."
                    + " ModelPrice.of(\"0\", \"0\", \"0\") for a free local model");
        }
        this.modelName = modelName;
        PriceTable own = model instanceof ModelDefaults defaults ? defaults.prices() : PriceTable.empty();
        this.prices = own.with(modelName, price);
    }

    /**
     * {@code model}, with {@code modelName} priced at {@code price}.
     *
     * @param model the model calls go to
     * @param modelName the model name to price (and the default name)
     * @param price its price
     * @return the priced model
     * @throws ReinException when the model, the name or the price is missing
     */
    public static PricedModel of(Model model, String modelName, ModelPrice price) {
        return new PricedModel(model, modelName, price);
    }

    @Override
    public String defaultModelName() {
        return modelName;
    }

    @Override
    public PriceTable prices() {
        return prices;
    }
}
