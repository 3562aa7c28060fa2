package dev.rein.examples.expense;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.examples.SuiteRuns.DemoOutput;
import dev.rein.examples.SuiteRuns;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExpenseApprovalTest {
    @Test
    void theDemoSendsBackOneReportAndApprovesTheOtherAfterSignOff() {
        DemoOutput demo = SuiteRuns.demo(ExpenseApproval.NAME);
        assertThat(demo.exitCode()).as(demo.out() + demo.err()).isZero();
        // The send-back needs no approval, so it ran before the pause; only the large approval waited.
        assertThat(demo.out().indexOf("EXP-202 sent back to the employee")).isLessThan(demo.out().indexOf("= WAITING_APPROVAL"));
        assertThat(demo.out()).contains("approve_report [WRITE]").contains("Status: EXP-202 sent_back, EXP-203 approved");
    }

    @Test
    void theSuitePassesOffline() throws Exception {
        SuiteRuns.assertAllPass(new ExpenseApproval().suite());
    }

    @Test
    void thePolicyCheckFindsEachViolation() {
        ExpenseWorld world = new ExpenseWorld();
        assertThat(ExpensePolicy.check(world.report("EXP-201"))).isEmpty();
        assertThat(ExpensePolicy.check(world.report("EXP-202"))).extracting(ExpensePolicy.Violation::rule).containsExactly("R2", "R1");
        assertThat(ExpensePolicy.check(world.report("EXP-203"))).isEmpty();
        assertThat(ExpensePolicy.check(world.report("EXP-204"))).extracting(ExpensePolicy.Violation::rule).isEqualTo(List.of("R3"));
    }
}
