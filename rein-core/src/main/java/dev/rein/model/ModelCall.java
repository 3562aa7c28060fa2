package dev.rein.model;

import java.util.Objects;

/**
 * One model call on its way through the model-call chain: the model to call, the request, why the
 * run makes it ({@code step}, {@code final_summary}, {@code compaction}, {@code critic},
 * {@code count_tokens}) and the per-call context (deadline, stream observer).
 */
public record ModelCall(Model model, ModelRequest request, String purpose, ModelCallContext context) {
    public ModelCall {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(purpose, "purpose");
        Objects.requireNonNull(context, "context");
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
