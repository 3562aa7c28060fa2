package dev.rein.examples.date;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.examples.SuiteRuns.DemoOutput;
import dev.rein.examples.SuiteRuns;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class DateAssistantTest {
    @Test
    void theDemoRefusesTheGuessAndAnswersWithTheComputedDate() {
        DemoOutput demo = SuiteRuns.demo(DateAssistant.NAME);
        assertThat(demo.exitCode()).as(demo.out() + demo.err()).isZero();
        assertThat(demo.out()).contains("Model:   scripted")
                .contains("required fact missing: the date add_days computed")
                .contains("→ add_days")
                .contains("= SUCCEEDED (completed)")
                .contains("2026-06-09 (Tuesday)");
    }

    @Test
    void theSuitePassesOffline() throws Exception {
        SuiteRuns.assertAllPass(new DateAssistant().suite());
    }

    @Test
    void datesAreReadInSeveralNotations() {
        LocalDate june9 = LocalDate.of(2026, 6, 9);
        assertThat(DateFacts.datesIn("on 2026-06-09 (Tuesday)")).containsExactly(june9);
        assertThat(DateFacts.datesIn("２０２６年６月９日です")).containsExactly(june9);
        assertThat(DateFacts.datesIn("June 9th, 2026")).containsExactly(june9);
        assertThat(DateFacts.datesIn("9 June 2026")).containsExactly(june9);
        assertThat(DateFacts.datesIn("2026-02-30 is not a date")).isEmpty();
    }
}
