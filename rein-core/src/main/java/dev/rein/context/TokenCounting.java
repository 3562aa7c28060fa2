package dev.rein.context;

/** How a context policy measures a request's input tokens. */
public enum TokenCounting {
    /** Only {@link TokenEstimator}: no extra calls. */
    ESTIMATE,
    /**
     * The provider's count ({@code Model.countTokens}, through the model-call chain) once the
     * estimate reaches half of a trigger, so small requests cost no extra call; the estimate when
     * the provider cannot count or the count fails.
     */
    PROVIDER
}
