package dev.rein.examples.expense;

import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The expense policy, as rules with ids, and the code that checks a report against them. The
 * model reads the rules; the decision tools trust only this check.
 */
final class ExpensePolicy {
    static final String TEXT = """
            R1 Receipts: every item of 3,000 JPY or more needs a receipt.
            R2 Meals: at most 5,000 JPY per attendee.
            R3 Alcohol: drinks with alcohol are not reimbursed.
            R4 Deadline: items must be submitted within 60 days of their date.
            Reports over 50,000 JPY in total are approved only with a manager's sign-off.""";

    /** One broken rule. {@code item} counts from 1. */
    record Violation(String rule, int item, String detail) {}

    private ExpensePolicy() {}

    static List<Violation> check(ExpenseWorld.Report report) {
        List<Violation> found = new ArrayList<>();
        LocalDate submitted = LocalDate.parse(report.submittedOn());
        for (int i = 0; i < report.items().size(); i++) {
            ExpenseWorld.Item item = report.items().get(i);
            int n = i + 1;
            if (item.amountJpy() >= 3_000 && !item.receipt()) {
                found.add(new Violation("R1", n, item.category() + " of " + yen(item.amountJpy()) + " has no receipt"));
            }
            if (item.category().equals("meal") && item.amountJpy() > 5_000 * Math.max(1, item.attendees())) {
                found.add(new Violation("R2", n, "meal of " + yen(item.amountJpy()) + " for " + item.attendees()
                        + " attendee(s) exceeds 5,000 JPY per attendee"));
            }
            String text = item.description().toLowerCase(Locale.ROOT);
            if (text.contains("beer") || text.contains("wine") || text.contains("sake") || text.contains("alcohol")) {
                found.add(new Violation("R3", n, "the item includes alcohol (" + item.description().split("\\.")[0] + ")"));
            }
            if (ChronoUnit.DAYS.between(LocalDate.parse(item.date()), submitted) > 60) {
                found.add(new Violation("R4", n, "submitted more than 60 days after " + item.date()));
            }
        }
        return found;
    }

    static String yen(int amount) {
        return String.format(Locale.ROOT, "%,d JPY", amount);
    }
}
