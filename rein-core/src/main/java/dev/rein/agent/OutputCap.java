package dev.rein.agent;

import dev.rein.budget.BudgetKind;
import dev.rein.budget.BudgetMeter;
import dev.rein.budget.ModelPrice;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A call's max_tokens lowered to the fewest output tokens a limit still leaves: {@code tokens}, the lowered
 * value; {@code money}, whether the money limit decided (else the output token limit); {@code why}, the words
 * of the {@code max_tokens_lowered} intervention after "max_tokens lowered from A to B"; {@code evidence}, its numbers.
 */
record OutputCap(long tokens, boolean money, String why, Map<String, Object> evidence) {

    /**
     * The cap on a call of {@code maxTokens} to a model priced {@code price} (null: not capped by money): an output
     * token limit's tokens left, and the tokens the money left buys at the model's highest output rate (so a call
     * cannot spend a whole max_tokens of output past a money limit); {@code whose} names that model in the words
     * ("the model's", "the critic model's"). Null when no limit leaves fewer than {@code maxTokens}, or a limit is
     * already reached (nothing is left to cap to: the call made then, the summary the budget contract promises,
     * keeps its max_tokens).
     */
    static OutputCap of(BudgetMeter meter, ModelPrice price, int maxTokens, String whose) {
        long tokensLeft = meter.outputTokensLeft().orElse(Long.MAX_VALUE);
        long affordable = meter.outputTokensAffordable(price).orElse(Long.MAX_VALUE);
        boolean money = affordable > 0 && (tokensLeft <= 0 || affordable < tokensLeft);
        long cap = money ? affordable : tokensLeft;
        if (cap <= 0 || cap >= maxTokens) {
            return null;
        }
        Map<String, Object> evidence = new LinkedHashMap<>();
        evidence.put("budget", (money ? BudgetKind.COST : BudgetKind.OUTPUT_TOKENS).reason());
        evidence.put("max_tokens", maxTokens);
        evidence.put("lowered_to", cap);
        String why;
        if (money) {
            String left = meter.moneyLeft().stripTrailingZeros().toPlainString();
            String rate = BudgetMeter.highestOutputPerMTok(price).toPlainString();
            evidence.put("money_left_usd", left);
            evidence.put("output_usd_per_mtok", rate);
            why = "the " + cap + " output tokens the USD " + left + " the money limit leaves buys at USD " + rate
                    + " per million output tokens (" + whose + " highest output rate)";
        } else {
            why = "the " + cap + " output tokens the output token limit leaves";
        }
        return new OutputCap(cap, money, why, evidence);
    }
}
