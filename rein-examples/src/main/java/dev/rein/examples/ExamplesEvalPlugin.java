package dev.rein.examples;

import dev.rein.eval.file.EvalPlugin;
import dev.rein.eval.file.EvalRegistry;
import dev.rein.examples.assistant.PersonalAssistant;
import dev.rein.examples.code.CodeChange;
import dev.rein.examples.date.DateAssistant;
import dev.rein.examples.expense.ExpenseApproval;
import dev.rein.examples.npc.GameNpc;
import dev.rein.examples.orders.OrderInvestigation;
import dev.rein.examples.sql.DataAnalysis;
import dev.rein.examples.web.WebResearch;

/**
 * Makes the examples' worlds available to suite files: with this module on the class path,
 * {@code rein eval} knows the environments {@code date_clock}, {@code orders}, {@code expenses},
 * {@code office}, {@code code_workspace}, {@code sales_db}, {@code local_web} and {@code village},
 * each with the example's agents and checks. Found by {@link java.util.ServiceLoader}.
 */
public final class ExamplesEvalPlugin implements EvalPlugin {
    @Override
    public void register(EvalRegistry.Builder registry) {
        registry.environment(DateAssistant.evalEnvironment())
                .environment(OrderInvestigation.evalEnvironment())
                .environment(ExpenseApproval.evalEnvironment())
                .environment(PersonalAssistant.evalEnvironment())
                .environment(CodeChange.evalEnvironment())
                .environment(DataAnalysis.evalEnvironment())
                .environment(WebResearch.evalEnvironment())
                .environment(GameNpc.evalEnvironment());
    }
}
