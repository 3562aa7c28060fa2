package dev.rein.state;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.approval.ActionHash;
import dev.rein.internal.collect.GrowingList;
import dev.rein.tool.ErrorClass;
import dev.rein.tool.ToolResult;
import java.util.List;
import java.util.Objects;

/**
 * What the run knows, apart from the chat history: the goal, confirmed facts (each with its
 * source), the model's hypotheses (never mixed with facts), open questions, the actions attempted
 * and the budget used. Immutable and serialisable; the loop replaces it after each observation.
 */
public record AgentState(String goal, List<Fact> facts, List<String> hypotheses, List<String> openQuestions,
                         List<AttemptedAction> attemptedActions, BudgetUsage budget) {
    /** Facts keep at most this many characters (Unicode code points) of an observation. */
    public static final int MAX_FACT_CHARS = 2_000;

    public AgentState {
        Objects.requireNonNull(goal, "goal");
        // Lists that grow by one element per observation: kept as they are, not copied each time.
        facts = facts == null ? GrowingList.empty() : GrowingList.of(facts);
        hypotheses = hypotheses == null ? GrowingList.empty() : GrowingList.of(hypotheses);
        openQuestions = openQuestions == null ? GrowingList.empty() : GrowingList.of(openQuestions);
        attemptedActions = attemptedActions == null ? GrowingList.empty() : GrowingList.of(attemptedActions);
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
        List<AttemptedAction> attempts = GrowingList.of(attemptedActions).with(new AttemptedAction(step, result.callId(),
                result.toolName(), ActionHash.of(result.toolName(), arguments), result.errorClass().name(), result.isError()));
        List<Fact> newFacts = facts;
        if (!result.isError() && result.errorClass() == ErrorClass.NONE && result.source() != null && !result.source().isBlank()) {
            newFacts = GrowingList.of(facts).with(new Fact(shorten(result.content()), result.source(), result.observedAt(),
                    result.toolName(), result.callId()));
        }
        return new AgentState(goal, newFacts, hypotheses, openQuestions, attempts, budget);
    }

    public AgentState withHypotheses(List<String> more) {
        return new AgentState(goal, facts, GrowingList.of(hypotheses).withAll(more), openQuestions, attemptedActions, budget);
    }

    public AgentState withOpenQuestions(List<String> more) {
        return new AgentState(goal, facts, hypotheses, GrowingList.of(openQuestions).withAll(more), attemptedActions, budget);
    }

    public AgentState withBudget(BudgetUsage usage) {
        return new AgentState(goal, facts, hypotheses, openQuestions, attemptedActions, usage);
    }

    /** Cut between whole characters (code points): half of a surrogate pair is not text, and no JSON writer takes it. */
    private static String shorten(String text) {
        int characters = text.codePointCount(0, text.length());
        if (characters <= MAX_FACT_CHARS) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, MAX_FACT_CHARS)) + " [... " + (characters - MAX_FACT_CHARS)
                + " more characters in the history]";
    }
}
