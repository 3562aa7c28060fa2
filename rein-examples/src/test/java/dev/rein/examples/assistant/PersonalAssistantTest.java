package dev.rein.examples.assistant;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.examples.SuiteRuns.DemoOutput;
import dev.rein.examples.SuiteRuns;
import org.junit.jupiter.api.Test;

class PersonalAssistantTest {
    @Test
    void theDemoDraftsThenSendsOnlyAfterTheUserReadTheDraft() {
        DemoOutput demo = SuiteRuns.demo(PersonalAssistant.NAME);
        assertThat(demo.exitCode()).as(demo.out() + demo.err()).isZero();
        assertThat(demo.out()).contains("Draft D-1 saved")
                .contains("send_email [IRREVERSIBLE]")
                .contains("| Subject: Re: Q2計画の打ち合わせ")
                .contains("3月3日(火) 13:00-13:30")
                .contains("Sent: [D-1 to hanako.sato@acme.example]");
        assertThat(demo.out().indexOf("demo-approver approves")).isLessThan(demo.out().indexOf("Sent D-1 to"));
    }

    @Test
    void theSuitePassesOffline() throws Exception {
        SuiteRuns.assertAllPass(new PersonalAssistant().suite());
    }
}
