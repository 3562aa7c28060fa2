package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.model.ModelException;
import dev.rein.model.Usage;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.retry.RetryPolicy;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.JsonlTraceListener;
import dev.rein.trace.TraceEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A call that failed after its server reported usage: the usage is data on the trace's model_retry and
 * model_failed events (not only words in the message), and still charges no budget.
 */
class FailedCallUsageTest {
    private static final Usage REPORTED = Usage.of(1420, 0, 1000, 300);

    private final RecordingListener trace = new RecordingListener();

    private Agent.Builder agent(ScriptedModel model) {
        return Agent.builder().model(model).listener(trace)
                .retryPolicy(new RetryPolicy(1, Duration.ofMillis(1), Duration.ofMillis(1), 0));
    }

    private static ModelException overloadedAfter(Usage usage) {
        return new ModelException(ModelException.Kind.OVERLOADED, 0, "error event in the response stream (overloaded_error)",
                true, null, "req_1", usage, null);
    }

    @Test
    void aRetriedAttemptsReportedUsageIsOnItsModelRetryEventAndChargesNoBudget() {
        RunResult result = agent(ScriptedModel.of(ScriptedModel.fail(overloadedAfter(REPORTED)), text("fine"))).build().run("go");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(trace.events(TraceEvent.ModelRetry.class)).singleElement()
                .satisfies(retry -> assertThat(retry.reportedUsage()).isEqualTo(REPORTED));
        // the design stays: a failed call charges nothing, so the run's usage is the answered call's alone
        assertThat(result.usage().totalInputTokens()).isEqualTo(ScriptedModel.DEFAULT_USAGE.totalInputTokens());
    }

    @Test
    void aCallThatFailedForGoodHasItsLastAttemptsReportedUsageOnModelFailed() {
        RunResult result = agent(ScriptedModel.of(ScriptedModel.fail(overloadedAfter(Usage.of(10, 2, 0, 0))),
                ScriptedModel.fail(overloadedAfter(REPORTED)), text("never"))).build().run("go");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(trace.events(TraceEvent.ModelFailed.class)).singleElement()
                .satisfies(failed -> assertThat(failed.reportedUsage()).isEqualTo(REPORTED));
        assertThat(result.usage().totalInputTokens()).isZero();
    }

    @Test
    void aFailureWithoutReportedUsageWritesNoReportedUsage(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("run.jsonl");
        agent(ScriptedModel.of(ScriptedModel.fail(new ModelException(ModelException.Kind.INVALID_REQUEST, 400, "bad"))))
                .listener(JsonlTraceListener.to(file)).build().run("go");

        assertThat(trace.events(TraceEvent.ModelFailed.class)).singleElement()
                .satisfies(failed -> assertThat(failed.reportedUsage()).isNull());
        assertThat(Files.readString(file)).contains("model_failed").doesNotContain("reported_usage");
    }

    @Test
    void theJsonlTraceKeepsTheReportedUsageAndAReplayFailsTheCallWithIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("run.jsonl");
        ModelException invalid = new ModelException(ModelException.Kind.SERVER_ERROR, 0, "the response ended with finish_reason"
                + " error", false, null, null, REPORTED, null);
        agent(ScriptedModel.of(ScriptedModel.fail(invalid))).listener(JsonlTraceListener.to(file)).build().run("go");
        String failedLine = Files.readAllLines(file).stream().filter(l -> l.contains("\"model_failed\"")).findFirst().orElseThrow();
        assertThat(Json.parse(failedLine).path("reported_usage").path("input_tokens").asLong()).isEqualTo(1420);
        assertThat(Json.parse(failedLine).path("reported_usage").path("cache_read_input_tokens").asLong()).isEqualTo(1000);

        RecordingListener replayed = new RecordingListener();
        ReplayReport report = Replay.from(file).replay(Agent.builder().model(ScriptedModel.of()).listener(replayed).build());

        assertThat(report.reproduced()).isTrue();
        assertThat(replayed.events(TraceEvent.ModelFailed.class)).singleElement()
                .satisfies(failed -> assertThat(failed.reportedUsage()).isEqualTo(REPORTED));
    }

    @Test
    void aRecordedReportedUsageThatCannotBeReadStopsTheReplaySayingWhere(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("run.jsonl");
        agent(ScriptedModel.of(ScriptedModel.fail(new ModelException(ModelException.Kind.SERVER_ERROR, 0, "failed", false, null,
                null, REPORTED, null)))).listener(JsonlTraceListener.to(file)).build().run("go");
        Files.writeString(file, Files.readString(file).replace("\"input_tokens\":1420", "\"input_tokens\":-5"));

        Throwable refused = org.assertj.core.api.Assertions.catchThrowable(() -> Replay.from(file)
                .replay(Agent.builder().model(ScriptedModel.of()).build()));

        assertThat(refused).isInstanceOf(dev.rein.ReinException.class)
                .hasMessageContaining("model_failed at step 1 whose reported_usage cannot be read back")
                .hasMessageContaining("input_tokens");
    }
}
