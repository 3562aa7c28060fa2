package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.budget.ModelPrice;
import dev.rein.model.ModelException;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FallbackStage;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.JsonlTraceListener;
import dev.rein.trace.TraceEvent;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replay of a call an application's fallback stage moved on from a failed attempt: each attempt is answered with the
 * recorded outcome of that attempt (the model_fallback events' failures, then the call's response or failure), so the
 * backup's answer is priced at the backup, as in the run, and a call whose backup failed too replays without a
 * divergence.
 */
class ReplayFallbackTest {
    private static final ModelPrice PRIMARY = ModelPrice.of("3", "0.3", "15");
    private static final ModelPrice BACKUP = ModelPrice.of("100", "10", "500");

    private static ScriptedModel.Turn down(String message) {
        return ScriptedModel.fail(new ModelException(ModelException.Kind.SERVER_ERROR, 500, message, false, null, null, null,
                null));
    }

    private static Agent.Builder agent(ScriptedModel model, FallbackStage stage) {
        return Agent.builder().model(model).price(ScriptedModel.DEFAULT_NAME, PRIMARY).price("backup", BACKUP)
                .budget(Budget.builder().maxCostUsd("100").build()).modelInterceptor(stage);
    }

    @Test
    void theBackupsAnswerIsPricedAtTheBackupAsInTheRun(@TempDir Path dir) {
        Path file = dir.resolve("run.jsonl");
        RunResult run = agent(ScriptedModel.of(down("primary down"), ScriptedModel.text("Hi.")), FallbackStage.toModel("backup"))
                .listener(JsonlTraceListener.to(file)).build().run("say hi");
        assertThat(run.status()).as(run.message()).isEqualTo(RunStatus.SUCCEEDED);

        RecordingListener replayed = new RecordingListener();
        ReplayReport report = Replay.from(file).replay(agent(ScriptedModel.of(), FallbackStage.toModel("backup"))
                .listener(replayed).build());

        assertThat(report.reproduced()).as(report.toString()).isTrue();
        // before, the first attempt was answered with the backup's response and priced at the primary's price
        assertThat(report.result().costUsd()).isEqualByComparingTo(run.costUsd());
        // the replayed stage moves on as the run's did: its trace has the fallback too
        assertThat(replayed.events(TraceEvent.ModelFallback.class)).singleElement()
                .satisfies(f -> assertThat(f.toModel()).isEqualTo("backup"));
    }

    @Test
    void aCallWhoseBackupFailedTooReplaysWithoutADivergence(@TempDir Path dir) {
        Path file = dir.resolve("run.jsonl");
        RunResult run = agent(ScriptedModel.of(down("primary down"), down("backup down")), FallbackStage.toModel("backup"))
                .listener(JsonlTraceListener.to(file)).build().run("say hi");
        assertThat(run.status()).isEqualTo(RunStatus.FAILED);

        ReplayReport report = Replay.from(file).replay(agent(ScriptedModel.of(), FallbackStage.toModel("backup")).build());

        // before: the first attempt got the call's final failure, the stage moved on, and its next attempt asked for a
        // model call the recording does not have
        assertThat(report.firstDivergence()).as(report.toString()).isEmpty();
        assertThat(report.reproduced()).as(report.toString()).isTrue();
        assertThat(report.result().message()).isEqualTo(run.message());
    }

    @Test
    void aStageEndingWithTheFirstFailureReplaysWithoutADivergence(@TempDir Path dir) {
        Path file = dir.resolve("run.jsonl");
        FallbackStage stage = FallbackStage.toModel("backup").endingWithFirstFailure();
        RunResult run = agent(ScriptedModel.of(down("primary down"), down("backup down")), stage)
                .listener(JsonlTraceListener.to(file)).build().run("say hi");
        assertThat(run.status()).isEqualTo(RunStatus.FAILED);

        ReplayReport report = Replay.from(file).replay(agent(ScriptedModel.of(), stage).build());

        assertThat(report.firstDivergence()).as(report.toString()).isEmpty();
        assertThat(report.result().message()).isEqualTo(run.message());
    }

    @Test
    void aReplayWhoseStageNowMovesToAnotherModelDiverges(@TempDir Path dir) {
        Path file = dir.resolve("run.jsonl");
        RunResult run = agent(ScriptedModel.of(down("primary down"), ScriptedModel.text("Hi.")), FallbackStage.toModel("backup"))
                .listener(JsonlTraceListener.to(file)).build().run("say hi");
        assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);

        ReplayReport report = Replay.from(file).replay(agent(ScriptedModel.of(), FallbackStage.toModel("other"))
                .price("other", BACKUP).build());

        assertThat(report.firstDivergence()).as(report.toString()).isPresent();
        assertThat(report.firstDivergence().get().description()).contains("backup").contains("other");
    }

    @Test
    void aReplayWhoseStagesNoLongerMoveOnDivergesAtThatCall(@TempDir Path dir) {
        Path file = dir.resolve("run.jsonl");
        agent(ScriptedModel.of(down("primary down"), ScriptedModel.text("Hi.")), FallbackStage.toModel("backup"))
                .listener(JsonlTraceListener.to(file)).build().run("say hi");

        dev.rein.model.ModelInterceptor passOn = (call, chain) -> chain.proceed(call);
        ReplayReport report = Replay.from(file).replay(Agent.builder().model(ScriptedModel.of())
                .price(ScriptedModel.DEFAULT_NAME, PRIMARY).budget(Budget.builder().maxCostUsd("100").build())
                .modelInterceptor(passOn).build());

        assertThat(report.firstDivergence()).as(report.toString()).isPresent();
        assertThat(report.firstDivergence().get().description()).isEqualTo("step 1: the run's model-call stages now end the"
                + " step call of step 1 after 1 attempt, where the recorded run's moved on from its failure to 'backup'"
                + " (2 attempts)");
    }

    /**
     * An agent with no model-call stage of its own (rein replay's, say) has nothing that could move on: the call is
     * answered with its outcome at its only attempt, as before (priced at that attempt's model).
     */
    @Test
    void anAgentWithoutStagesGetsTheCallsOutcomeAtOnce(@TempDir Path dir) {
        Path file = dir.resolve("run.jsonl");
        agent(ScriptedModel.of(down("primary down"), ScriptedModel.text("Hi.")), FallbackStage.toModel("backup"))
                .listener(JsonlTraceListener.to(file)).build().run("say hi");

        ReplayReport report = Replay.from(file).replay(Agent.builder().model(ScriptedModel.of())
                .price(ScriptedModel.DEFAULT_NAME, PRIMARY).build());

        assertThat(report.reproduced()).as(report.toString()).isTrue();
    }
}
