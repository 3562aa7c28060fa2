package dev.rein.examples.expense;

import dev.rein.tool.ErrorClass;
import dev.rein.tool.ToolInterceptor;
import dev.rein.tool.ToolInvocation;
import dev.rein.tool.ToolOutcome;
import dev.rein.tool.ToolResult;
import java.util.List;
import java.util.Locale;

/**
 * Verification before the decision, in code: an executor stage in front of the two decision
 * tools. It runs before the scope check and the approval, so a decision that could not be right
 * never reaches a person. It refuses a decision on a report this run has not checked, an approval
 * of a report with violations, and a send-back that does not name every violated rule.
 */
final class DecisionGuard implements ToolInterceptor {
    private final ExpenseWorld world;

    DecisionGuard(ExpenseWorld world) {
        this.world = world;
    }

    @Override
    public ToolOutcome intercept(ToolInvocation invocation, Chain chain) throws InterruptedException {
        String tool = invocation.tool().name();
        if (!tool.equals(ExpenseTools.APPROVE) && !tool.equals(ExpenseTools.SEND_BACK)) {
            return chain.proceed(invocation);
        }
        String id = ExpenseTools.id(invocation.call().arguments());
        ExpenseWorld.Report report = world.report(id);
        if (report == null) {
            return refuse(invocation, "there is no report '" + id + "'");
        }
        if (!report.status().equals("submitted")) {
            return refuse(invocation, id + " was already decided (" + report.status() + ")");
        }
        if (!world.wasChecked(invocation.context().runId(), id)) {
            return refuse(invocation, "decide only after checking: call check_report for " + id + " first");
        }
        List<ExpensePolicy.Violation> violations = ExpensePolicy.check(report);
        if (tool.equals(ExpenseTools.APPROVE) && !violations.isEmpty()) {
            return refuse(invocation, id + " breaks " + rules(violations) + "; a report with violations is sent back, not approved");
        }
        if (tool.equals(ExpenseTools.SEND_BACK)) {
            if (violations.isEmpty()) {
                return refuse(invocation, id + " has no violations; there is nothing to send back");
            }
            String reasons = invocation.call().arguments().path("reasons").toString().toUpperCase(Locale.ROOT);
            List<String> unnamed = violations.stream().map(ExpensePolicy.Violation::rule).distinct()
                    .filter(rule -> !reasons.contains(rule)).toList();
            if (!unnamed.isEmpty()) {
                return refuse(invocation, "the reasons must name every violated rule; missing: " + String.join(", ", unnamed));
            }
        }
        return chain.proceed(invocation);
    }

    private static ToolOutcome refuse(ToolInvocation invocation, String why) {
        return ToolOutcome.of(ToolResult.error(invocation.call(), ErrorClass.INTERVENTION, "Not done: " + why + ". Nothing was changed."));
    }

    private static String rules(List<ExpensePolicy.Violation> violations) {
        return String.join(", ", violations.stream().map(ExpensePolicy.Violation::rule).distinct().toList());
    }
}
