package dev.rein.examples;

import dev.rein.budget.PriceTable;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelDeadlineException;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.provider.ModelDefaults;
import java.util.Objects;

/**
 * A demo's real model, remembering whether its last call failed: a demo reports only whether it ended as intended, and
 * one that did not because the provider refused it (a key refused with HTTP 401, a server that cannot be reached) is a
 * setup failure to be told apart from an agent that ran and got it wrong. A failure a retry got past is forgotten by
 * the call that answered.
 */
final class ProviderWatch implements Model, ModelDefaults, AutoCloseable {
    private final Model model;
    private volatile ModelException lastFailure;

    ProviderWatch(Model model) {
        this.model = Objects.requireNonNull(model, "model");
    }

    @Override
    public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
        try {
            ModelResponse response = model.call(request, context);
            lastFailure = null;
            return response;
        } catch (ModelDeadlineException e) {
            throw e; // the run's time ran out: a budget stop, not the provider's failure
        } catch (ModelException e) {
            lastFailure = e;
            throw e;
        }
    }

    @Override
    public long countTokens(ModelRequest request) throws ModelException, InterruptedException {
        return model.countTokens(request);
    }

    @Override
    public boolean abortsOnInterrupt() {
        return model.abortsOnInterrupt();
    }

    /**
     * The provider's last failure in the words a run's message uses ("the model provider failed (HTTP 401): ..."), or
     * null when its last call answered.
     */
    String lastFailure() {
        ModelException e = lastFailure;
        if (e == null) {
            return null;
        }
        return "the model provider failed" + (e.httpStatus() > 0 ? " (HTTP " + e.httpStatus() + ")" : "") + ": "
                + (e.getMessage() == null || e.getMessage().isBlank() ? e.kind() : e.getMessage());
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
    public void close() throws Exception {
        if (model instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }
}
