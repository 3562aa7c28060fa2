package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.Usage;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FallbackStage;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.JsonlTraceListener;
import dev.rein.trace.TraceEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application's fallback stage moves a call on from a failed attempt to a backup model. The run's trace records
 * that attempt (its model, failure and the usage its server reported) as a model_fallback event, as each retry is a
 * model_retry: without it, the trace said only the backup's answer, as if the primary had never been called.
 */
class ModelFallbackTraceTest {
    private static final Usage REPORTED = Usage.of(1_200, 0, 0, 0);
    private static final dev.rein.budget.ModelPrice BACKUP = dev.rein.budget.ModelPrice.of("1", "0.1", "5");

    private final RecordingListener trace = new RecordingListener();

    private static ScriptedModel.Turn overloaded() {
        return ScriptedModel.fail(new ModelException(ModelException.Kind.OVERLOADED, 529, "Overloaded", false, null,
                "req_1", REPORTED, null));
    }

    private static FallbackStage fallback(boolean rethrowFirst) {
        return rethrowFirst ? FallbackStage.toModel("backup").endingWithFirstFailure() : FallbackStage.toModel("backup");
    }

    private static String type(TraceEvent e) {
        return Json.parse(Json.write(e)).path("type").asText();
    }

    @Test
    void aFailedAttemptAStageMovedOnFromIsAModelFallbackEventWithItsModelFailureAndReportedUsage(@TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("run.jsonl");
        RunResult result = Agent.builder().model(ScriptedModel.of(overloaded(), ScriptedModel.text("Hi."))).listener(trace)
                .listener(JsonlTraceListener.to(file)).price("backup", BACKUP).modelInterceptor(fallback(false)).build()
                .run("say hi");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(trace.events().stream().map(ModelFallbackTraceTest::type)
                .filter(t -> t.startsWith("model_")).toList())
                .containsExactly("model_request", "model_fallback", "model_response");
        assertThat(trace.events(TraceEvent.ModelFallback.class)).singleElement().isEqualTo(new TraceEvent.ModelFallback(
                result.runId(), 1, trace.events(TraceEvent.ModelFallback.class).get(0).time(), ScriptedModel.DEFAULT_NAME,
                "backup", "OVERLOADED", 529, "Overloaded", "req_1", REPORTED, false));
        JsonNode line = Json.parse(Files.readAllLines(file).stream().filter(l -> l.contains("\"model_fallback\""))
                .findFirst().orElseThrow());
        assertThat(line.path("from_model").asText()).isEqualTo(ScriptedModel.DEFAULT_NAME);
        assertThat(line.path("to_model").asText()).isEqualTo("backup");
        assertThat(line.path("error_kind").asText()).isEqualTo("OVERLOADED");
        assertThat(line.path("http_status").asInt()).isEqualTo(529);
        assertThat(line.path("retryable").isBoolean()).isTrue(); // written, even when false
        assertThat(line.path("request_id").asText()).isEqualTo("req_1");
        assertThat(line.path("reported_usage").path("input_tokens").asLong()).isEqualTo(1_200);
        // the usage of a failed attempt is reported, not charged, as a retry's
        assertThat(result.usage().totalInputTokens()).isEqualTo(ScriptedModel.DEFAULT_USAGE.totalInputTokens());

        // a replay answers the call with its recorded response and reads past the event
        ReplayReport report = Replay.from(file).replay(Agent.builder().model(ScriptedModel.of())
                .price("backup", BACKUP).modelInterceptor(fallback(false)).build());
        assertThat(report.reproduced()).as(report.toString()).isTrue();
    }

    /**
     * The stage ends the call with the primary's failure after the backup failed too: model_failed says the primary's,
     * and the backup's, which no other event says, is a model_fallback to no model.
     */
    @Test
    void aStageThatEndsTheCallWithAnEarlierFailureLeavesTheLastAttemptsFailureAsAFallbackToNoModel() {
        ScriptedModel.Turn backupDown = ScriptedModel.fail(new ModelException(ModelException.Kind.SERVER_ERROR, 500,
                "backup down", false, null, null, null, null));
        RunResult result = Agent.builder().model(ScriptedModel.of(overloaded(), backupDown)).listener(trace)
                .price("backup", BACKUP).modelInterceptor(fallback(true)).build().run("say hi");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(trace.events().stream().map(ModelFallbackTraceTest::type)
                .filter(t -> t.startsWith("model_")).toList())
                .containsExactly("model_request", "model_fallback", "model_fallback", "model_failed");
        List<TraceEvent.ModelFallback> fallbacks = trace.events(TraceEvent.ModelFallback.class);
        assertThat(fallbacks.get(0).fromModel()).isEqualTo(ScriptedModel.DEFAULT_NAME);
        assertThat(fallbacks.get(0).toModel()).isEqualTo("backup");
        assertThat(fallbacks.get(1).fromModel()).isEqualTo("backup");
        assertThat(fallbacks.get(1).toModel()).isNull();
        assertThat(fallbacks.get(1).errorKind()).isEqualTo("SERVER_ERROR");
        assertThat(fallbacks.get(1).message()).isEqualTo("backup down");
        assertThat(trace.events(TraceEvent.ModelFailed.class)).singleElement()
                .satisfies(failed -> assertThat(failed.message()).isEqualTo("Overloaded"));
    }

    /** A call that fails for good with its only attempt's failure is said by model_failed alone, as before. */
    @Test
    void aFailureTheStageEndsTheCallWithIsNoFallback() {
        ModelInterceptor passOn = (call, chain) -> chain.proceed(call);
        Agent.builder().model(ScriptedModel.of(overloaded())).listener(trace).modelInterceptor(passOn).build().run("say hi");

        assertThat(trace.events(TraceEvent.ModelFallback.class)).isEmpty();
        assertThat(trace.events(TraceEvent.ModelFailed.class)).hasSize(1);
    }

    /**
     * Under an engine that retries (rein-temporal: {@link DrivenRun#callModel}), a retryable failure reaches the stage as
     * the engine's retry; a stage that moves on from it is a fallback as locally. Its model_fallback was left out: the
     * trace said model_retry (a retry that never came) and then the backup's answer.
     */
    @Test
    void aFallbackFromAFailureTheEngineWouldRetryIsTracedUnderAnEngineToo() throws Exception {
        ScriptedModel.Turn overloadedRetryable = ScriptedModel.fail(new ModelException(ModelException.Kind.OVERLOADED, 529,
                "Overloaded", true, null, "req_1", REPORTED, null));
        dev.rein.state.InMemoryRunStore store = new dev.rein.state.InMemoryRunStore();
        DrivenRun driven = new DrivenRun(Agent.builder().model(ScriptedModel.of(overloadedRetryable, ScriptedModel.text("Hi.")))
                .listener(trace).price("backup", BACKUP).modelInterceptor(fallback(false)).build(), store);
        DrivenRun.ModelStep step = driven.callModel(driven.begin("run_engine", "say hi"), 1);

        assertThat(step.answerText()).isEqualTo("Hi.");
        assertThat(trace.events().stream().map(ModelFallbackTraceTest::type).filter(t -> t.startsWith("model_")).toList())
                .containsExactly("model_request", "model_retry", "model_fallback", "model_response");
        assertThat(trace.events(TraceEvent.ModelFallback.class)).singleElement()
                .satisfies(f -> assertThat(f.toModel()).isEqualTo("backup"));
    }
}
