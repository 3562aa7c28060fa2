package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.budget.ModelPrice;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelResponse;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.retry.RetryPolicy;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FallbackStage;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.JsonlTraceListener;
import dev.rein.trace.TraceEvent;
import java.nio.file.Path;
import java.time.Duration;
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

    /** A typed answer: the request carries an output schema, which the moved-on attempt's comparison must not blame. */
    record Greeting(String text) {}

    @Test
    void aTypedAgentsStageMovingToAnotherModelIsToldAsTheModelNotTheSchema(@TempDir Path dir) {
        Path file = dir.resolve("run.jsonl");
        RunResult run = agent(ScriptedModel.of(down("primary down"), ScriptedModel.text("{\"text\":\"Hi.\"}")),
                FallbackStage.toModel("backup")).outputType(Greeting.class).listener(JsonlTraceListener.to(file)).build()
                .run("say hi");
        assertThat(run.status()).as(run.message()).isEqualTo(RunStatus.SUCCEEDED);

        ReplayReport report = Replay.from(file).replay(agent(ScriptedModel.of(), FallbackStage.toModel("other"))
                .price("other", BACKUP).outputType(Greeting.class).build());

        assertThat(report.firstDivergence()).as(report.toString()).isPresent();
        // before, the attempt's request was compared as {"model": ...} only, so its missing output schema was blamed
        assertThat(report.firstDivergence().get().description()).contains("backup").contains("other")
                .doesNotContain("output schema").doesNotContain("typed answer");
    }

    @Test
    void aReplayWhoseStagesNoLongerMoveOnDivergesAtThatCall(@TempDir Path dir) {
        Path file = dir.resolve("run.jsonl");
        agent(ScriptedModel.of(down("primary down"), ScriptedModel.text("Hi.")), FallbackStage.toModel("backup"))
                .listener(JsonlTraceListener.to(file)).build().run("say hi");

        // a stage that makes other attempts (retries()) but no longer moves on from this failure; a pass-through stage
        // (retries() false) could not move on at all, and is answered as an agent without stages
        ModelInterceptor passOn = new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                return chain.proceed(call);
            }

            @Override
            public boolean retries() {
                return true;
            }
        };
        ReplayReport report = Replay.from(file).replay(Agent.builder().model(ScriptedModel.of())
                .price(ScriptedModel.DEFAULT_NAME, PRIMARY).budget(Budget.builder().maxCostUsd("100").build())
                .modelInterceptor(passOn).build());

        assertThat(report.firstDivergence()).as(report.toString()).isPresent();
        assertThat(report.firstDivergence().get().description()).isEqualTo("step 1: the run's model-call stages now end the"
                + " step call of step 1 after 1 attempt, where the recorded run's moved on from attempt 1's failure (on '"
                + ScriptedModel.DEFAULT_NAME + "') to 'backup'"
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

    private static Agent.Builder agent(ScriptedModel model, ModelInterceptor stage) {
        Agent.Builder builder = Agent.builder().model(model).price(ScriptedModel.DEFAULT_NAME, PRIMARY).price("backup", BACKUP)
                .retryPolicy(new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(2), 0))
                .budget(Budget.builder().maxCostUsd("100").build());
        return stage == null ? builder : builder.modelInterceptor(stage);
    }

    /** A fallback whose backup has a smaller output limit: it lowers max_tokens as it moves on. */
    private static ModelInterceptor smallerBackup() {
        return new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                try {
                    return chain.proceed(call);
                } catch (ModelException e) {
                    return chain.proceed(call.withRequest(call.request().withModel("backup").toBuilder().maxTokens(1000).build()));
                }
            }

            @Override
            public boolean retries() {
                return true;
            }
        };
    }

    @Test
    void aStageThatChangesMoreThanTheModelForItsBackupReplaysWithoutADivergence(@TempDir Path dir) {
        Path file = dir.resolve("run.jsonl");
        RunResult run = agent(ScriptedModel.of(down("primary down"), ScriptedModel.text("Hi.")), smallerBackup())
                .listener(JsonlTraceListener.to(file)).build().run("say hi");
        assertThat(run.status()).as(run.message()).isEqualTo(RunStatus.SUCCEEDED);

        ReplayReport report = Replay.from(file).replay(agent(ScriptedModel.of(), smallerBackup()).build());

        // before: the backup's request was compared with the first one with its model swapped ("recorded 8192")
        assertThat(report.firstDivergence()).as(report.toString()).isEmpty();
        assertThat(report.reproduced()).as(report.toString()).isTrue();
    }

    /** A fallback that moves on only from a failure the provider calls transient (retryable), as many do. */
    private static ModelInterceptor transientOnly() {
        return new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                try {
                    return chain.proceed(call);
                } catch (ModelException e) {
                    if (!e.retryable()) {
                        throw e;
                    }
                    return chain.proceed(call.withRequest(call.request().withModel("backup")));
                }
            }

            @Override
            public boolean retries() {
                return true;
            }
        };
    }

    @Test
    void aStageMovingOnOnlyFromTransientFailuresMovesOnInTheReplayToo(@TempDir Path dir) {
        ScriptedModel.Turn busy = ScriptedModel.fail(new ModelException(ModelException.Kind.OVERLOADED, 529, "busy", true, null,
                null, null, null));
        Path file = dir.resolve("run.jsonl");
        RunResult run = agent(ScriptedModel.of(busy, busy, busy, ScriptedModel.text("Hi.")), transientOnly())
                .listener(JsonlTraceListener.to(file)).build().run("say hi");
        assertThat(run.status()).as(run.message()).isEqualTo(RunStatus.SUCCEEDED);

        RecordingListener replayed = new RecordingListener();
        ReplayReport report = Replay.from(file).replay(agent(ScriptedModel.of(), transientOnly()).listener(replayed).build());

        // before: the replayed failure was not retryable, so the stage ended the call with it
        assertThat(report.firstDivergence()).as(report.toString()).isEmpty();
        assertThat(report.reproduced()).as(report.toString()).isTrue();
        assertThat(report.result().costUsd()).isEqualByComparingTo(run.costUsd());
        // handed back as given up: the retry stage below did not retry it again (the run's retries are in the failure)
        assertThat(replayed.events(TraceEvent.ModelRetry.class)).isEmpty();
        assertThat(replayed.events(TraceEvent.ModelFallback.class)).singleElement()
                .satisfies(f -> assertThat(f.retryable()).isTrue());
    }

    @Test
    void anOlderTracesFallbackWithoutRetryableIsAsRetryableAsItsKindUsuallyIs(@TempDir Path dir) throws Exception {
        ScriptedModel.Turn busy = ScriptedModel.fail(new ModelException(ModelException.Kind.OVERLOADED, 529, "busy", true, null,
                null, null, null));
        Path file = dir.resolve("run.jsonl");
        RunResult run = agent(ScriptedModel.of(busy, busy, busy, ScriptedModel.text("Hi.")), transientOnly())
                .listener(JsonlTraceListener.to(file)).build().run("say hi");
        assertThat(run.status()).as(run.message()).isEqualTo(RunStatus.SUCCEEDED);
        // as a trace written before model_fallback recorded `retryable` has it
        java.util.List<String> lines = new java.util.ArrayList<>();
        for (String line : java.nio.file.Files.readAllLines(file)) {
            if (line.contains("\"model_fallback\"")) {
                com.fasterxml.jackson.databind.node.ObjectNode event = (com.fasterxml.jackson.databind.node.ObjectNode)
                        dev.rein.json.Json.mapper().readTree(line);
                assertThat(event.remove("retryable")).as(line).isNotNull();
                line = dev.rein.json.Json.mapper().writeValueAsString(event);
            }
            lines.add(line);
        }
        java.nio.file.Files.write(file, lines);

        RecordingListener replayed = new RecordingListener();
        ReplayReport report = Replay.from(file).replay(agent(ScriptedModel.of(), transientOnly()).listener(replayed).build());

        // OVERLOADED is retryable by default: the transient-only stage moves on, as in the run
        assertThat(report.reproduced()).as(report.toString()).isTrue();
        assertThat(report.result().costUsd()).isEqualByComparingTo(run.costUsd());
        assertThat(replayed.events(TraceEvent.ModelFallback.class)).singleElement()
                .satisfies(f -> assertThat(f.retryable()).isTrue());
    }

    @Test
    void aFallbackRecordingReplayedWithOnlyAPassThroughStageIsAnsweredWithTheCallsOutcome(@TempDir Path dir) {
        Path file = dir.resolve("run.jsonl");
        RunResult run = agent(ScriptedModel.of(down("primary down"), ScriptedModel.text("Hi.")), FallbackStage.toModel("backup"))
                .listener(JsonlTraceListener.to(file)).build().run("say hi");
        ModelInterceptor passThrough = (call, chain) -> chain.proceed(call); // retries() false: it never moves on

        ReplayReport report = Replay.from(file).replay(agent(ScriptedModel.of(), passThrough).build());

        // as without stages: before, the first attempt's failure ended the replayed run
        assertThat(report.result().status()).as(report.toString()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(report.result().message()).isEqualTo(run.message());
    }

    @Test
    void aStageThatEndsTheCallEarlierSaysWhoseFailureTheRecordedOneMovedOnFrom(@TempDir Path dir) {
        Path file = dir.resolve("run.jsonl");
        FallbackStage twoBackups = FallbackStage.of(c -> c.withRequest(c.request().withModel("backup")),
                c -> c.withRequest(c.request().withModel("third")));
        agent(ScriptedModel.of(down("primary down"), down("backup down"), ScriptedModel.text("Hi.")), twoBackups)
                .price("third", BACKUP).listener(JsonlTraceListener.to(file)).build().run("say hi");

        ReplayReport report = Replay.from(file).replay(agent(ScriptedModel.of(), FallbackStage.toModel("backup"))
                .price("third", BACKUP).build());

        assertThat(report.firstDivergence().orElseThrow().description()).isEqualTo("step 1: the run's model-call stages now"
                + " end the step call of step 1 after 2 attempts, where the recorded run's moved on from attempt 2's failure"
                + " (on 'backup') to 'third' (3 attempts)");
    }

    @Test
    void stopAtDivergenceStopsWhereACallEndedWithFewerAttemptsThanRecorded(@TempDir Path dir) {
        dev.rein.tool.Tool search = dev.rein.tool.Tool.builder("search").description("Searches.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}")
                .handler((args, ctx) -> "found").build();
        Path file = dir.resolve("run.jsonl");
        RunResult run = agent(ScriptedModel.of(down("primary down"), ScriptedModel.toolCalls(ScriptedModel.call("search",
                "{\"q\":\"a\"}")), ScriptedModel.text("done")), FallbackStage.toModel("backup")).tools(search)
                .listener(JsonlTraceListener.to(file)).build().run("go");
        assertThat(run.status()).as(run.message()).isEqualTo(RunStatus.SUCCEEDED);
        // makes other attempts, but now answers a failure itself with a tool call: step 1 ends after 1 attempt of 2
        ModelInterceptor answersItself = new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                try {
                    return chain.proceed(call);
                } catch (ModelException e) {
                    return new ModelResponse("own", call.request().model(), java.util.List.of(new dev.rein.model.ToolUseBlock(
                            "own_1", "search", dev.rein.json.Json.parse("{\"q\":\"a\"}"))), dev.rein.model.StopReason.TOOL_USE,
                            null, dev.rein.model.Usage.of(0, 0, 0, 0));
                }
            }

            @Override
            public boolean retries() {
                return true;
            }
        };

        ReplayReport report = Replay.from(file).stopAtDivergence(true).replay(agent(ScriptedModel.of(), answersItself)
                .tools(search).build());

        assertThat(report.firstDivergence().orElseThrow().description()).contains("after 1 attempt");
        // before: the divergence was found as step 2's call began, but the replay went on to the end
        assertThat(report.result().status()).as(report.toString()).isEqualTo(RunStatus.CANCELLED);
    }
}
