package dev.rein.state;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.approval.ActionHash;
import dev.rein.tool.ErrorClass;
import dev.rein.tool.ToolResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * What the run knows, apart from the chat history: the goal, confirmed facts (each with its
 * source), the model's hypotheses (never mixed with facts), open questions, the actions attempted
 * and the budget used. Immutable and serialisable; the loop replaces it after each observation.
 */
public record AgentState(String goal, List<Fact> facts, List<String> hypotheses, List<String> openQuestions,
                         List<AttemptedAction> attemptedActions, BudgetUsage budget) {
    /** Facts keep at most this many characters of an observation. */
    public static final int MAX_FACT_CHARS = 2_000;

    public AgentState {
        Objects.requireNonNull(goal, "goal");
        facts = facts == null ? List.of() : List.copyOf(facts);
        hypotheses = hypotheses == null ? List.of() : List.copyOf(hypotheses);
        openQuestions = openQuestions == null ? List.of() : List.copyOf(openQuestions);
        attemptedActions = attemptedActions == null ? List.of() : List.copyOf(attemptedActions);
        budget = budget == null ? BudgetUsage.NONE : budget;
    }

    public static AgentState of(String goal) {
        return new AgentState(goal, List.of(), List.of(), List.of(), List.of(), BudgetUsage.NONE);
    }

    /**
     * The state after one call's observation: the attempt is recorded, and a successful result
     * with a source becomes a fact. Errors and results without a source never become facts.
     */
    public AgentState observe(int step, JsonNode arguments, ToolResult result) {
        List<AttemptedAction> attempts = appended(attemptedActions, new AttemptedAction(step, result.callId(), result.toolName(),
                ActionHash.of(result.toolName(), arguments), result.errorClass().name(), result.isError()), AttemptedAction[]::new);
        List<Fact> newFacts = facts;
        if (!result.isError() && result.errorClass() == ErrorClass.NONE && result.source() != null && !result.source().isBlank()) {
            newFacts = appended(facts, new Fact(shorten(result.content()), result.source(), result.observedAt(), result.toolName(),
                    result.callId()), Fact[]::new);
        }
        return new AgentState(goal, newFacts, hypotheses, openQuestions, attempts, budget);
    }

    /**
     * {@code list} and {@code item} as an immutable list, which the constructor keeps as it is: the
     * elements are copied twice (into the array, into the list) instead of three or four times
     * through an {@code ArrayList} that grows. This runs for every tool result, on lists that grow
     * with the run.
     */
    private static <T> List<T> appended(List<T> list, T item, IntFunction<T[]> arrays) {
        T[] all = list.toArray(arrays.apply(list.size() + 1));
        all[list.size()] = item;
        return List.of(all);
    }

    public AgentState withHypotheses(List<String> more) {
        List<String> all = new ArrayList<>(hypotheses);
        all.addAll(more);
        return new AgentState(goal, facts, all, openQuestions, attemptedActions, budget);
    }

    public AgentState withOpenQuestions(List<String> more) {
        List<String> all = new ArrayList<>(openQuestions);
        all.addAll(more);
        return new AgentState(goal, facts, hypotheses, all, attemptedActions, budget);
    }

    public AgentState withBudget(BudgetUsage usage) {
        return new AgentState(goal, facts, hypotheses, openQuestions, attemptedActions, usage);
    }

    private static String shorten(String text) {
        if (text.length() <= MAX_FACT_CHARS) {
            return text;
        }
        return text.substring(0, MAX_FACT_CHARS) + " [... " + (text.length() - MAX_FACT_CHARS) + " more characters in the history]";
    }
}
