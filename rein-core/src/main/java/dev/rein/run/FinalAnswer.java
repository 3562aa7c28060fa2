package dev.rein.run;

import dev.rein.model.Message;
import java.util.List;

/**
 * A final answer proposed by the model, presented to verifiers.
 *
 * @param goal    the run's goal
 * @param answer  the answer text (a {@code finish} call's result, or the last response's text)
 * @param finish  the structured finish report when the model called {@code finish}, else null
 * @param history the conversation so far
 */
public record FinalAnswer(String goal, String answer, FinishReport finish, List<Message> history) {}
