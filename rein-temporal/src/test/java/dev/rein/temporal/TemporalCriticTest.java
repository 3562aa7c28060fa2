package dev.rein.temporal;

import static dev.rein.temporal.SameAsLocal.assertSameAsLocal;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.temporal.SameAsLocal.Also;
import dev.rein.temporal.SameAsLocal.Ran;
import dev.rein.json.Json;
import dev.rein.model.StopReason;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.reflection.Reflection;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The critic (strategy D) on Temporal reviews as many answers as locally: each review is a ReinVerify activity of its own. */
class TemporalCriticTest {
    /**
     * With the defaults (one round, two refusals) a critic can send an answer back once but cannot fail the run on its
     * own (docs/guards.md): the second answer is accepted without review, on Temporal as locally.
     */
    @Test
    void theCriticReviewsAtMostMaxRoundsAnswersAcrossActivitiesAsLocally() {
        ScriptedModel localModel = rejectingTwice();
        Ran local = SameAsLocal.local(trace -> agent(localModel, trace), "A-1 はいつ届く?");
        assertThat(local.result().status()).isEqualTo(RunStatus.SUCCEEDED);

        ScriptedModel model = rejectingTwice();
        Ran remote = SameAsLocal.onTemporal(trace -> agent(model, trace), "A-1 はいつ届く?", "run-critic");

        assertSameAsLocal(remote, local, Also.INTERVENTIONS);
        assertThat(remote.result().answer()).isEqualTo("明日届きます");
        assertThat(model.remaining()).as("the second review is not asked for").isEqualTo(localModel.remaining()).isEqualTo(1);
    }

    /** An answer, the critic's rejection, a second answer, and a second rejection that only a second round would ask for. */
    private static ScriptedModel rejectingTwice() {
        return ScriptedModel.of(ScriptedModel.text("たぶん明日"), verdict("根拠がない"), ScriptedModel.text("明日届きます"),
                verdict("まだ根拠がない"));
    }

    private static Agent agent(ScriptedModel model, RecordingListener trace) {
        return Agent.builder().model(model).modelName("scripted-model").prices(ScriptedModel.PRICES).listener(trace)
                .reflection(Reflection.critic()).build();
    }

    private static ScriptedModel.Turn verdict(String problem) {
        return ScriptedModel.reply(StopReason.TOOL_USE, Usage.of(500, 50, 0, 0), new ToolUseBlock("toolu_v", "verdict",
                Json.mapper().valueToTree(Map.of("approved", false, "problems", List.of(problem)))));
    }
}
