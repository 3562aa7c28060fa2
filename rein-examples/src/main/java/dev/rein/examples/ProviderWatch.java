package dev.rein.examples;

import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelDeadlineException;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.provider.ForwardingModel;

/**
 * A demo's real model, remembering whether its last call failed: a demo reports only whether it ended as intended, and
 * one that did not because the provider refused it (a key refused with HTTP 401, a server that cannot be reached) is a
 * setup failure to be told apart from an agent that ran and got it wrong. A failure a retry got past is forgotten by
 * the call that answered.
 */
final class ProviderWatch extends ForwardingModel {
    private volatile ModelException lastFailure;

    ProviderWatch(Model model) {
        super(model);
    }

    @Override
    public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
        try {
            ModelResponse response = super.call(request, context);
            lastFailure = null;
            return response;
        } catch (ModelDeadlineException e) {
            throw e; // the run's time ran out: a budget stop, not the provider's failure
        } catch (ModelException e) {
            lastFailure = e;
            throw e;
        }
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
}
