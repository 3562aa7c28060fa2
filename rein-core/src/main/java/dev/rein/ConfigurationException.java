package dev.rein;

/**
 * A setting of the agent that cannot work, found only once the run needed it: a money limit with a
 * model a model-call stage chose (a fallback) that has no price. Thrown by Rein inside a run, it ends
 * the run {@code FAILED} with reason {@code configuration_error} ({@link dev.rein.run.Reason#CONFIGURATION_ERROR})
 * and this message, which says what to change (the same mistake found by {@code Agent.Builder.build()}
 * is refused there, before any run). A model-call stage of the application may throw it for a setup
 * mistake of its own that it finds during a call, with the same effect.
 */
public class ConfigurationException extends ReinException {
    public ConfigurationException(String message) {
        super(message);
    }
}
