package dev.rein.state;

import java.util.List;

/**
 * What a person needs to take over a run that stopped short of its goal: why, the question for
 * them (for {@code needs_user_input}), the confirmed facts, the model's unconfirmed hypotheses,
 * open questions and the actions already attempted.
 */
public record Handoff(String reason, String question, String summary, List<Fact> facts, List<String> hypotheses,
                      List<String> openQuestions, List<AttemptedAction> attemptedActions) {
    public Handoff {
        facts = List.copyOf(facts);
        hypotheses = List.copyOf(hypotheses);
        openQuestions = List.copyOf(openQuestions);
        attemptedActions = List.copyOf(attemptedActions);
    }

    public static Handoff of(String reason, String question, String summary, AgentState state) {
        return new Handoff(reason, question == null ? "" : question, summary == null ? "" : summary, state.facts(),
                state.hypotheses(), state.openQuestions(), state.attemptedActions());
    }

    /** A plain-text rendering for terminals. */
    public String describe() {
        StringBuilder sb = new StringBuilder("Handoff (").append(reason).append(")\n");
        if (!question.isBlank()) {
            sb.append("  Question: ").append(question).append('\n');
        }
        if (!summary.isBlank()) {
            sb.append("  Summary: ").append(summary).append('\n');
        }
        sb.append("  Confirmed facts:").append(facts.isEmpty() ? " (none)" : "").append('\n');
        for (Fact f : facts) {
            sb.append("    - ").append(oneLine(f.text())).append("  [").append(f.source()).append(", ").append(f.observedAt()).append("]\n");
        }
        list(sb, "Hypotheses (unconfirmed)", hypotheses);
        list(sb, "Open questions", openQuestions);
        sb.append("  Attempted actions:").append(attemptedActions.isEmpty() ? " (none)" : "").append('\n');
        for (AttemptedAction a : attemptedActions) {
            sb.append("    - step ").append(a.step()).append(' ').append(a.tool()).append(" -> ").append(a.outcome()).append('\n');
        }
        return sb.toString();
    }

    private static void list(StringBuilder sb, String title, List<String> items) {
        sb.append("  ").append(title).append(':').append(items.isEmpty() ? " (none)" : "").append('\n');
        items.forEach(i -> sb.append("    - ").append(oneLine(i)).append('\n'));
    }

    private static String oneLine(String text) {
        String flat = text.replace('\n', ' ').strip();
        return flat.length() > 200 ? flat.substring(0, 200) + "..." : flat;
    }
}
