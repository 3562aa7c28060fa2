package dev.rein.model;

import dev.rein.ReinException;

/**
 * One model call on its way through the model-call chain: the model to call, the request, why the
 * run makes it ({@code step}, {@code final_summary}, {@code compaction}, {@code critic},
 * {@code count_tokens}) and the per-call context (deadline, stream observer).
 */
public record ModelCall(Model model, ModelRequest request, String purpose, ModelCallContext context) {
    /** @throws ReinException when a part is null (a stage's {@link #withRequest} or {@link #withModel} given null) */
    public ModelCall {
        if (model == null) {
            throw new ReinException("a model call was given no model (null): give the model to call (withModel(model) in a"
                    + " stage), or leave the call's own");
        }
        if (request == null) {
            throw new ReinException("a model call was given no request (null): give the request to send (withRequest(request)"
                    + " in a stage, e.g. call.request().withModel(name)), or leave the call's own");
        }
        if (purpose == null) {
            throw new ReinException("a model call was given no purpose (null): give why it is made, e.g. \"step\"");
        }
        if (context == null) {
            throw new ReinException("a model call was given no context (null): give one, e.g. ModelCallContext.until(deadline)");
        }
    }

    /** The same call with another request (a fallback model, an extra option). */
    public ModelCall withRequest(ModelRequest newRequest) {
        return new ModelCall(model, newRequest, purpose, context);
    }

    /** The same call to another model (a fallback provider). */
    public ModelCall withModel(Model newModel) {
        return new ModelCall(newModel, request, purpose, context);
    }
}
