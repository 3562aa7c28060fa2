package dev.rein.reflection;

import dev.rein.ReinException;
import dev.rein.model.Model;
import java.util.Objects;

/**
 * How the loop makes the model reflect on its work. The default is {@link None} (strategy A: the
 * model reflects implicitly when it reads each result). The others, from cheap to expensive:
 * <ul>
 *   <li>{@link Evaluate} (B): after every tool step, a prompt asks the model to judge whether the
 *       result moved it toward the goal before acting again. No extra call, but every step's
 *       answer grows.
 *   <li>{@link Checkpoint} (C): every N steps, or when a phase ends, a prompt asks where the work
 *       stands, which assumptions may be wrong and what the shortest way to finish is.
 *   <li>{@link Critique} (D): before a final answer is accepted, a separate model call (the same
 *       or another model) reviews it against the goal and the evidence; a rejection goes back to
 *       the model as feedback, for at most {@code maxRounds} reviews.
 * </ul>
 * Injected prompts end the tool results message, are marked "[rein]", and are traced as
 * interventions of kind "reflection"; reviews as kind "critic".
 */
public sealed interface Reflection {

    /** A: no extra prompts (the default). */
    record None() implements Reflection {}

    /** B: an evaluation prompt after each tool step. */
    record Evaluate(String prompt) implements Reflection {
        public static final String DEFAULT_PROMPT = "[rein] Before your next action, evaluate the result you just"
                + " received: did it move you toward the goal? If not, what was wrong with the last action, and what"
                + " will you do differently? State this briefly, then continue.";

        public Evaluate {
            prompt = prompt == null || prompt.isBlank() ? DEFAULT_PROMPT : prompt;
        }
    }

    /** C: a checkpoint prompt every {@code everySteps} steps (0: never by count) or when a phase ends. */
    record Checkpoint(int everySteps, PhaseEnd phaseEnd, String prompt) implements Reflection {
        public static final int DEFAULT_EVERY_STEPS = 5;
        public static final String DEFAULT_PROMPT = "[rein] Checkpoint. Stop and check: (1) how far along are you"
                + " toward the original goal? (2) have you relied on an assumption that may be wrong? (3) what is the"
                + " shortest way to finish the rest? Answer briefly, then continue the work.";

        public Checkpoint {
            if (everySteps < 0) {
                throw new ReinException("checkpoint interval cannot be negative, was " + everySteps);
            }
            phaseEnd = phaseEnd == null ? PhaseEnd.NEVER : phaseEnd;
            if (everySteps == 0 && phaseEnd == PhaseEnd.NEVER) {
                throw new ReinException("a checkpoint needs an interval of steps or a phase end, or it never happens");
            }
            prompt = prompt == null || prompt.isBlank() ? DEFAULT_PROMPT : prompt;
        }

        /** The same checkpoint, also when {@code phaseEnd} says a phase ended. */
        public Checkpoint atPhaseEnd(PhaseEnd end) {
            return new Checkpoint(everySteps, end, prompt);
        }

        public Checkpoint withPrompt(String text) {
            return new Checkpoint(everySteps, phaseEnd, text);
        }
    }

    /**
     * D: a critic reviews each proposed final answer. {@code model} null means the agent's own
     * model (a separate call); {@code modelName} null means the agent's model name.
     */
    record Critique(Model model, String modelName, String instructions, int maxRounds, int maxTokens) implements Reflection {
        public static final int DEFAULT_MAX_ROUNDS = 1;
        public static final int DEFAULT_MAX_TOKENS = 2048;

        public Critique {
            if (maxRounds < 1) {
                throw new ReinException("a critic needs at least one round, was " + maxRounds);
            }
            if (maxTokens < 1) {
                throw new ReinException("the critic's maxTokens must be positive, was " + maxTokens);
            }
            if (model != null && (modelName == null || modelName.isBlank())) {
                throw new ReinException("a critic with its own model needs that model's name (for the request and its price)");
            }
            instructions = instructions == null || instructions.isBlank() ? Critic.DEFAULT_INSTRUCTIONS : instructions;
        }

        /** The same critic reviewing at most {@code rounds} answers (default 1). */
        public Critique maxRounds(int rounds) {
            return new Critique(model, modelName, instructions, rounds, maxTokens);
        }

        public Critique withInstructions(String text) {
            return new Critique(model, modelName, text, maxRounds, maxTokens);
        }
    }

    static Reflection none() {
        return new None();
    }

    /** B with the default prompt. */
    static Evaluate evaluateEachStep() {
        return new Evaluate(null);
    }

    /** C every {@code steps} steps, with the default prompt. */
    static Checkpoint checkpoint(int steps) {
        return new Checkpoint(steps, PhaseEnd.NEVER, null);
    }

    /** C at each phase end only. */
    static Checkpoint checkpointAtPhaseEnd(PhaseEnd end) {
        return new Checkpoint(0, Objects.requireNonNull(end, "end"), null);
    }

    /** D using the agent's own model in a separate call. */
    static Critique critic() {
        return new Critique(null, null, null, Critique.DEFAULT_MAX_ROUNDS, Critique.DEFAULT_MAX_TOKENS);
    }

    /** D using another model (e.g. a stronger or a cheaper one). */
    static Critique critic(Model model, String modelName) {
        return new Critique(Objects.requireNonNull(model, "model"), modelName, null, Critique.DEFAULT_MAX_ROUNDS,
                Critique.DEFAULT_MAX_TOKENS);
    }
}
