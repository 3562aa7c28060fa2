package dev.rein.provider;

import dev.rein.ReinException;
import dev.rein.budget.PriceTable;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import java.net.URI;

/**
 * A model that passes everything to the model it wraps: the base of a wrapper (one that adds options to each
 * request, prices a model name, watches the calls' failures), which overrides only what it changes. Every method of
 * {@link Model}, {@link ModelDefaults} and {@link AutoCloseable} is forwarded here, once for all wrappers: a wrapper
 * that forwarded them by hand and missed one ({@link #abortsOnInterrupt()}) changed which thread its calls ran on.
 * The defaults are the wrapped model's when it has them ({@code null} names and an empty price table otherwise), and
 * {@link #close()} closes the wrapped model when it can be closed.
 */
public abstract class ForwardingModel implements Model, ModelDefaults, AutoCloseable {
    private final Model model;

    /**
     * @param model the model every call goes to
     * @throws ReinException when it is null
     */
    protected ForwardingModel(Model model) {
        if (model == null) {
            throw new ReinException(getClass().getSimpleName() + " was given no model to wrap (null): pass the model its"
                    + " calls go to");
        }
        this.model = model;
    }

    /** The wrapped model. */
    protected final Model wrapped() {
        return model;
    }

    @Override
    public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
        return model.call(request, context);
    }

    @Override
    public long countTokens(ModelRequest request) throws ModelException, InterruptedException {
        return model.countTokens(request);
    }

    /** As the wrapped model, so that wrapping it does not change which thread its calls run on. */
    @Override
    public boolean abortsOnInterrupt() {
        return model.abortsOnInterrupt();
    }

    @Override
    public String defaultModelName() {
        return model instanceof ModelDefaults defaults ? defaults.defaultModelName() : null;
    }

    @Override
    public PriceTable prices() {
        return model instanceof ModelDefaults defaults ? defaults.prices() : PriceTable.empty();
    }

    @Override
    public String providerName() {
        return model instanceof ModelDefaults defaults ? defaults.providerName() : null;
    }

    @Override
    public String apiType() {
        return model instanceof ModelDefaults defaults ? defaults.apiType() : null;
    }

    @Override
    public URI serverUri() {
        return model instanceof ModelDefaults defaults ? defaults.serverUri() : null;
    }

    @Override
    public boolean streams() {
        return model instanceof ModelDefaults defaults && defaults.streams();
    }

    @Override
    public void close() throws Exception {
        if (model instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }
}
