package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.budget.Budget;
import dev.rein.replay.Divergence;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.run.RunStatus;
import dev.rein.stall.StallPolicy;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Replay.from(trace): a recorded run re-run from its trace, compared request by request. */
class ReplayTest {
    private final AtomicInteger sideEffects = new AtomicInteger();

    private Tool search() {
        return Tool.builder("search").description("Searches.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}")
                .handler((args, ctx) -> "result " + sideEffects.incrementAndGet() + " for " + args.get("q").asText() + " 検索")
                .build();
    }

    private Agent.Builder agent(ScriptedModel model, StallPolicy stall) {
        return Agent.builder().model(model).systemPrompt("You research.").tools(search(), TestTools.echo())
                .stallPolicy(stall).budget(Budget.builder().maxSteps(30).build());
    }

    /** 24 tool steps then the answer: 25 model calls. */
    private static ScriptedModel twentyFiveSteps() {
        List<ScriptedModel.Turn> turns = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            turns.add(toolCalls("looking " + i, call("search", "{\"q\":\"topic " + i + "\"}")));
        }
        turns.add(text("found 24 results"));
        return ScriptedModel.of(turns);
    }

    @Test
    void aReplayOfATwentyFiveStepRunReproducesItExactlyWithoutRunningTools(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        RunResult recorded = agent(twentyFiveSteps(), StallPolicy.defaults()).listener(JsonlTraceListener.to(trace)).build()
                .run("research 24 topics");
        assertThat(recorded.steps()).isEqualTo(25);
        assertThat(sideEffects.get()).isEqualTo(24);

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of(), StallPolicy.defaults()).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.modelCalls()).isEqualTo(25);
        assertThat(report.result().steps()).isEqualTo(25);
        assertThat(report.result().answer()).isEqualTo(recorded.answer());
        assertThat(report.result().history()).isEqualTo(recorded.history());
        assertThat(sideEffects.get()).as("no tool ran again").isEqualTo(24);
    }

    @Test
    void aLowerStallThresholdShowsTheDivergenceAtTheStepWhereTheGuardNowActs(@TempDir Path dir) {
        Path trace = dir.resolve("run.jsonl");
        List<ScriptedModel.Turn> turns = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            turns.add(toolCalls(call("search", "{\"q\":\"topic " + i + "\"}")));
        }
        for (int i = 5; i <= 9; i++) {
            turns.add(toolCalls(call("search", "{\"q\":\"same\"}"))); // steps 5..9 repeat one call
        }
        turns.add(text("done"));
        StallPolicy lenient = StallPolicy.builder().withoutAll().exactRepeat(10, 0).build();
        RunResult recorded = agent(ScriptedModel.of(turns), lenient).listener(JsonlTraceListener.to(trace)).build().run("research");
        assertThat(recorded.status()).isEqualTo(RunStatus.SUCCEEDED);

        StallPolicy strict = StallPolicy.builder().withoutAll().exactRepeat(3, 0).build();
        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of(), strict).build());

        Divergence divergence = report.firstDivergence().orElseThrow();
        assertThat(divergence.step()).isEqualTo(7);
        assertThat(divergence.description()).startsWith("step 7: the stall guard (exact_repeat)").contains("`search`")
                .contains("request of step 8 differs at messages[");
        assertThat(report.reproduced()).isFalse();

        ReplayReport stopped = Replay.from(trace).stopAtDivergence(true).replay(agent(ScriptedModel.of(), strict).build());
        assertThat(stopped.result().status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(stopped.modelCalls()).isEqualTo(8);
    }

    @Test
    void liveReadToolsRunForRealAndBadTracesAreNamed(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        agent(ScriptedModel.of(toolCalls(call("search", "{\"q\":\"x\"}")), text("ok")), StallPolicy.defaults())
                .listener(JsonlTraceListener.to(trace)).build().run("go");
        assertThat(sideEffects.get()).isEqualTo(1);

        ReplayReport live = Replay.from(trace).liveReadTools(true).replay(agent(ScriptedModel.of(), StallPolicy.defaults()).build());
        assertThat(sideEffects.get()).isEqualTo(2);
        assertThat(live.firstDivergence()).as("the live result differs from the recorded one").isPresent();

        Files.writeString(dir.resolve("bad.jsonl"), "{not json\n");
        assertThatThrownBy(() -> Replay.from(dir.resolve("bad.jsonl")).replay(agent(ScriptedModel.of(), StallPolicy.defaults()).build()))
                .isInstanceOf(ReinException.class).hasMessageContaining("line 1 is not JSON");
        assertThatThrownBy(() -> Replay.from(trace).run("run_nope").replay(agent(ScriptedModel.of(), StallPolicy.defaults()).build()))
                .hasMessageContaining("has no run run_nope");
    }
}
