package dev.rein.examples.npc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.eval.TrialModel;
import dev.rein.examples.SuiteRuns.DemoOutput;
import dev.rein.examples.SuiteRuns;
import dev.rein.testkit.ScriptedModel;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class GameNpcTest {
    @Test
    void theDemoAsksTheModelOnlyWhenTheTravellerSpeaks() {
        DemoOutput demo = SuiteRuns.demo(GameNpc.NAME);
        assertThat(demo.exitCode()).as(demo.out() + demo.err()).isZero();
        assertThat(demo.out()).contains("10 ticks: 2 model turns (at most 2 steps each")
                .contains("1 answered from the cache, 7 by the state machine alone. Gate open: true.")
                .contains("[cache]").contains("opens the gate and says");
    }

    @Test
    void theSuitePassesOffline() throws Exception {
        SuiteRuns.assertAllPass(new GameNpc().suite());
    }

    @Test
    void anOverrunTurnFallsBackToACannedLine() {
        Village village = new Village();
        ScriptedModel slow = ScriptedModel.of(ScriptedModel.delayed(Duration.ofSeconds(2), ScriptedModel.text("late")));
        NpcBrain brain = new NpcBrain(village, GameNpc.turnAgent(village, new TrialModel(slow, "claude-haiku-4-5"), Duration.ofMillis(300)));
        brain.tick(new GameEvent.TravellerArrives());
        NpcBrain.TickReport report = brain.tick(new GameEvent.TravellerSays("Hello?"));
        assertThat(report.action()).startsWith("falls back (STOPPED_BUDGET, deadline)");
        assertThat(report.latency()).isLessThan(Duration.ofSeconds(2));
        assertThat(village.said()).last().isEqualTo(NpcBrain.FALLBACK);
    }

    @Test
    void theGateRuleIsCodeNotPersuasion() {
        Village village = Village.withTravellerCarrying();
        assertThat(village.openGate()).isFalse();
        village.travellerGets(Village.PASS);
        assertThat(village.openGate()).isTrue();
    }
}
