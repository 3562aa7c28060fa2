package dev.rein;

/**
 * A setting of the agent that cannot work: a money limit with a model that has no price. Found by
 * {@code Agent.Builder.build()} (the agent's own model, a critic's), it is thrown there, before any
 * run. Found only once the run needed it (a model a model-call stage chose, such as a fallback) and
 * thrown by Rein inside a run, it ends the run {@code FAILED} with reason {@code configuration_error}
 * ({@link dev.rein.run.Reason#CONFIGURATION_ERROR}) and this message, which says what to change. A
 * model-call stage of the application may throw it for a setup mistake of its own that it finds
 * during a call, with the same effect. An agent whose output schema differs from a typed run's stored one
 * is refused with it when it resumes the run (a durable engine's worker: at the run's next activity, which
 * ends the run {@code configuration_error}).
 */
public class ConfigurationException extends ReinException {
    public ConfigurationException(String message) {
        super(message);
    }
}
