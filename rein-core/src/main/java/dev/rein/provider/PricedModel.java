package dev.rein.provider;

import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import java.util.Objects;

/**
 * A model with a price of its own for one model name, e.g. a local server's model priced at zero,
 * for code that builds agents from a model alone (the eval harness, the examples): as {@link
 * ModelDefaults} it names {@code modelName} and prices it on top of the wrapped model's own table.
 * Calls go to the wrapped model unchanged; {@link #close()} closes it.
 */
public final class PricedModel implements Model, ModelDefaults, AutoCloseable {
    private final Model model;
    private final String modelName;
    private final PriceTable prices;

    private PricedModel(Model model, String modelName, ModelPrice price) {
        this.model = Objects.requireNonNull(model, "model");
        this.modelName = Objects.requireNonNull(modelName, "modelName");
        PriceTable own = model instanceof ModelDefaults defaults ? defaults.prices() : PriceTable.empty();
        this.prices = own.with(modelName, Objects.requireNonNull(price, "price"));
    }

    /**
     * {@code model}, with {@code modelName} priced at {@code price}.
     *
     * @param model the model calls go to
     * @param modelName the model name to price (and the default name)
     * @param price its price
     * @return the priced model
     */
    public static PricedModel of(Model model, String modelName, ModelPrice price) {
        return new PricedModel(model, modelName, price);
    }

    @Override
    public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
        return model.call(request, context);
    }

    @Override
    public long countTokens(ModelRequest request) throws ModelException, InterruptedException {
        return model.countTokens(request);
    }

    /** As the wrapped model, so that pricing it does not change which thread its calls run on. */
    @Override
    public boolean abortsOnInterrupt() {
        return model.abortsOnInterrupt();
    }

    @Override
    public String defaultModelName() {
        return modelName;
    }

    @Override
    public PriceTable prices() {
        return prices;
    }

    @Override
    public String providerName() {
        return model instanceof ModelDefaults defaults ? defaults.providerName() : null;
    }

    @Override
    public void close() throws Exception {
        if (model instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }
}
