package dev.rein.run;

/**
 * Checks a final answer in code before it is accepted (objective completion: tests pass, a schema
 * validates, required facts are present). A failing verdict goes back to the model, which
 * continues; after the agent's limit of refusals the run ends FAILED, reason
 * {@code verification_failed}. Never returns null: a verifier that returns null or throws ends the
 * run FAILED, reason {@code internal_error}, and the answer is not accepted.
 */
@FunctionalInterface
public interface Verifier {
    Verdict verify(FinalAnswer answer);
}
