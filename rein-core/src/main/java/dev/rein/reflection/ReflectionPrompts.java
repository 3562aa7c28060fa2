package dev.rein.reflection;

import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides which reflection prompt (B or C) follows a tool step. Stateless: the decision depends only
 * on the step number and the step's calls, so it is the same after a resume.
 */
public final class ReflectionPrompts {
    /** A prompt to add after the step's results; {@code strategy} and {@code trigger} go to the trace. */
    public record Prompt(String strategy, String trigger, String text) {}

    private final List<Reflection> strategies;
    private final boolean promptsAfterToolSteps;

    public ReflectionPrompts(List<Reflection> strategies) {
        this.strategies = List.copyOf(strategies);
        this.promptsAfterToolSteps = this.strategies.stream().anyMatch(ReflectionPrompts::canPromptAfterToolStep);
    }

    /**
     * Whether {@link #afterToolStep} can return a prompt at all: false when no strategy prompts after a tool step
     * (none, or only {@link Reflection.None} and {@link Reflection.Critique}), so that a caller can skip building
     * its arguments on every step.
     */
    public boolean promptsAfterToolSteps() {
        return promptsAfterToolSteps;
    }

    /** The prompts for the tool step numbered {@code step} (one per triggered strategy, usually none). */
    public List<Prompt> afterToolStep(int step, List<ToolUseBlock> calls, List<ToolResultBlock> results) {
        List<Prompt> prompts = new ArrayList<>();
        for (Reflection strategy : strategies) {
            prompt(strategy, step, calls, results).ifPresent(prompts::add);
        }
        return prompts;
    }

    // An exhaustive switch like prompt(...)'s, so that a new strategy must be placed in both.
    private static boolean canPromptAfterToolStep(Reflection strategy) {
        return switch (strategy) {
            case Reflection.None none -> false;
            case Reflection.Evaluate evaluate -> true;
            case Reflection.Checkpoint checkpoint -> true;
            case Reflection.Critique critique -> false;
        };
    }

    private static Optional<Prompt> prompt(Reflection strategy, int step, List<ToolUseBlock> calls, List<ToolResultBlock> results) {
        return switch (strategy) {
            case Reflection.None none -> Optional.empty();
            case Reflection.Evaluate evaluate -> Optional.of(new Prompt("evaluate", "after_tool_step", evaluate.prompt()));
            case Reflection.Checkpoint checkpoint -> {
                if (checkpoint.phaseEnd().ended(calls, results)) {
                    yield Optional.of(new Prompt("checkpoint", "phase_end", checkpoint.prompt()));
                }
                if (checkpoint.everySteps() > 0 && step % checkpoint.everySteps() == 0) {
                    yield Optional.of(new Prompt("checkpoint", "every_" + checkpoint.everySteps() + "_steps", checkpoint.prompt()));
                }
                yield Optional.empty();
            }
            case Reflection.Critique critique -> Optional.empty();
        };
    }
}
