package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.ModelPrice;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.StopReason;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.reflection.Reflection;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.TraceEvent;
import org.junit.jupiter.api.Test;

/** The critic's verdict as a model may actually write it, not only as the verdict tool's schema says. */
class CriticVerdictShapesTest {
    private final RecordingListener trace = new RecordingListener();

    private static ScriptedModel.Turn verdict(String json) {
        return ScriptedModel.reply(StopReason.TOOL_USE, Usage.of(500, 50, 0, 0),
                new ToolUseBlock("toolu_v", "verdict", Json.parse(json)));
    }

    private RunResult run(ScriptedModel worker, ScriptedModel critic) {
        return Agent.builder().model(worker).listener(trace)
                .price("claude-haiku-4-5", ModelPrice.of("1.00", "0.10", "1.25", "5.00"))
                .reflection(Reflection.critic(critic, "claude-haiku-4-5")).build().run("How far is it?");
    }

    @Test
    void aRejectionWhoseProblemsAreOneTextKeepsThatTextForTheModel() {
        ScriptedModel worker = ScriptedModel.of(text("42"), text("42 km"));
        ScriptedModel critic = ScriptedModel.of(verdict("{\"approved\":false,\"problems\":\"the unit is missing: give km\"}"));

        RunResult result = run(worker, critic);

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        Message feedback = worker.requests().get(1).messages().get(2);
        assertThat(feedback.text()).contains("Reviewer: the unit is missing: give km");
    }

    @Test
    void aReplyWithoutTheVerdictToolIsAcceptedAndSaysWhy() {
        ScriptedModel worker = ScriptedModel.of(text("42"));
        ScriptedModel critic = ScriptedModel.of(text("Looks fine to me."));

        RunResult result = run(worker, critic);

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(trace.events(TraceEvent.Intervention.class)).singleElement()
                .satisfies(e -> assertThat(e.message()).contains("no readable verdict"));
    }

    @Test
    void aCriticCallCutOffByTheRunsDeadlineSaysSoRatherThanThatTheCriticCouldNotBeReached() {
        ScriptedModel worker = ScriptedModel.of(text("42 km"));
        ScriptedModel critic = ScriptedModel.of(ScriptedModel.hang());

        RunResult result = Agent.builder().model(worker).listener(trace)
                .budget(dev.rein.budget.Budget.builder().maxDuration(java.time.Duration.ofMillis(800)).build())
                .price("claude-haiku-4-5", ModelPrice.of("1.00", "0.10", "1.25", "5.00"))
                .reflection(Reflection.critic(critic, "claude-haiku-4-5")).build().run("How far is it?");

        // the verified answer stands, unreviewed, as when the critic is unreachable; the reason is the deadline
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("42 km");
        assertThat(trace.events(TraceEvent.Intervention.class)).filteredOn(e -> e.kind().equals("critic")).singleElement()
                .satisfies(e -> assertThat(e.message()).contains("deadline").doesNotContain("could not be reached"));
    }

    @Test
    void approvedWrittenAsTextIsStillTheCriticsVerdict() {
        ScriptedModel worker = ScriptedModel.of(text("42"), text("42 km"));
        ScriptedModel critic = ScriptedModel.of(verdict("{\"approved\":\"false\",\"problems\":[\"give the unit\"]}"));

        RunResult result = run(worker, critic);

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("42 km");
        assertThat(worker.requests().get(1).messages().get(2).text()).contains("Reviewer: give the unit");
    }
}
