package dev.rein.budget;

/** The budget layers; each exhausted one names the reason a run stopped. */
public enum BudgetKind {
    STEPS("max_steps"),
    COST("max_cost"),
    DEADLINE("deadline"),
    INPUT_TOKENS("max_input_tokens"),
    OUTPUT_TOKENS("max_output_tokens");

    private final String reason;

    BudgetKind(String reason) {
        this.reason = reason;
    }

    /** The machine-readable stop reason. */
    public String reason() {
        return reason;
    }
}
