package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.Budget;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.JsonlTraceListener;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run on Temporal writes its JSONL trace through the run's listeners, as a local run does; that trace replays
 * with {@link Replay} on a local agent, request by request, without divergence.
 */
class TemporalTraceReplayTest {
    @Test
    void aTraceRecordedOnTemporalReplaysLocallyWithoutDivergence(@TempDir Path dir) {
        Path trace = dir.resolve("temporal.jsonl");
        Agent recording = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup())
                .listener(JsonlTraceListener.to(trace)).build();
        RunResult recorded;
        try (TemporalTestServer server = new TemporalTestServer()) {
            recorded = server.start(recording).start("A-1 と A-2 の状況は?", "run-traced").result();
        }
        assertThat(recorded.status()).isEqualTo(RunStatus.SUCCEEDED);

        ReplayReport report = Replay.from(trace).replay(Orders.agent(ScriptedModel.of(), new RecordingListener(),
                Orders.lookup()).build());

        assertThat(report.firstDivergence()).as("%s", report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.runId()).isEqualTo("run-traced");
        assertThat(report.modelCalls()).isEqualTo(2);
        assertThat(report.result().answer()).isEqualTo(recorded.answer());
        assertThat(report.result().steps()).isEqualTo(recorded.steps());
    }

    /**
     * A fallback stage on Temporal moves on at the primary's first retryable failure (the engine, not a loop below the
     * stage, retries): the trace has model_retry, then model_fallback, then the backup's answer. Replayed locally with
     * the same stage, the first attempt gets the primary's recorded failure and the backup's answer is priced at the
     * backup, as on Temporal.
     */
    @Test
    void aFallbackRecordedOnTemporalReplaysLocallyPricedAtTheBackup(@TempDir Path dir) {
        Path trace = dir.resolve("fallback.jsonl");
        dev.rein.budget.ModelPrice backup = dev.rein.budget.ModelPrice.of("100", "10", "500");
        Budget money = Budget.builder().maxCostUsd("100").maxDuration(Duration.ofMinutes(10)).build();
        ScriptedModel model = ScriptedModel.of(ScriptedModel.fail(new dev.rein.model.ModelException(
                dev.rein.model.ModelException.Kind.OVERLOADED, 529, "Overloaded", true, null, null, null, null)),
                ScriptedModel.text("A-1 is delivered"));
        Agent recording = Orders.agent(model, new RecordingListener()).prices(ScriptedModel.PRICES).price("backup", backup)
                .budget(money).modelInterceptor(dev.rein.testkit.FallbackStage.toModel("backup"))
                .listener(JsonlTraceListener.to(trace)).build();
        RunResult recorded;
        try (TemporalTestServer server = new TemporalTestServer()) {
            recorded = server.start(recording).start("A-1?", "run-fallback-traced").result();
        }
        assertThat(recorded.status()).as(recorded.message()).isEqualTo(RunStatus.SUCCEEDED);

        ReplayReport report = Replay.from(trace).replay(Orders.agent(ScriptedModel.of(), new RecordingListener())
                .prices(ScriptedModel.PRICES).price("backup", backup).budget(money)
                .modelInterceptor(dev.rein.testkit.FallbackStage.toModel("backup")).build());

        assertThat(report.firstDivergence()).as("%s", report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.result().costUsd()).isEqualByComparingTo(recorded.costUsd());
    }

    @Test
    void aBudgetStopRecordedOnTemporalReplaysToTheSameEndingAndAChangedGuardDiverges(@TempDir Path dir) {
        Path trace = dir.resolve("budget.jsonl");
        Budget oneStep = Budget.builder().maxSteps(1).maxDuration(Duration.ofMinutes(10)).build();
        ScriptedModel looping = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}")),
                ScriptedModel.text("summary: A-1 is delivered"));
        Agent recording = Orders.agent(looping, new RecordingListener(), Orders.lookup()).budget(oneStep)
                .listener(JsonlTraceListener.to(trace)).build();
        RunResult recorded;
        try (TemporalTestServer server = new TemporalTestServer()) {
            recorded = server.start(recording).start("A-1?", "run-budget-traced").result();
        }
        assertThat(recorded.status()).isEqualTo(RunStatus.STOPPED_BUDGET);

        ReplayReport same = Replay.from(trace).replay(Orders.agent(ScriptedModel.of(), new RecordingListener(), Orders.lookup())
                .budget(oneStep).build());
        assertThat(same.firstDivergence()).as("%s", same.firstDivergence()).isEmpty();
        assertThat(same.reproduced()).isTrue();
        assertThat(same.result().answer()).isEqualTo("summary: A-1 is delivered");

        // The replay is still a comparison: a different system prompt shows up at the first request.
        ReplayReport changed = Replay.from(trace).replay(Orders.agent(ScriptedModel.of(), new RecordingListener(), Orders.lookup())
                .budget(oneStep).systemPrompt("Answer in one word.").build());
        assertThat(changed.firstDivergence()).hasValueSatisfying(d -> assertThat(d.description()).startsWith("step 1: the step request differs at system"));
    }

    @Test
    void aRunThatWaitedForApprovalOnTemporalReplaysWithoutRunningTheSideEffectAgain(@TempDir Path dir) {
        Path trace = dir.resolve("approval.jsonl");
        Orders.Ledger ledger = new Orders.Ledger();
        Agent recording = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(),
                Orders.refund(ledger, key -> { })).listener(JsonlTraceListener.to(trace)));
        RunResult recorded;
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(recording).start("A-1 を返金して", "run-approval-traced");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            run.approve(run.pendingApprovals().get(0).actionHash(), "alice");
            recorded = run.result();
        }
        assertThat(recorded.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(ledger.charges).hasSize(1);

        ReplayReport report = Replay.from(trace).replay(Orders.withApproval(Orders.agent(ScriptedModel.of(),
                new RecordingListener(), Orders.refund(ledger, key -> { }))));

        assertThat(report.firstDivergence()).as("%s", report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.result().answer()).isEqualTo("A-1 refunded.");
        assertThat(ledger.charges).as("the refund is answered from the trace").hasSize(1);
        assertThat(ledger.keysSeen).hasSize(1);
    }

    /**
     * A resume that failed on the worker with something other than a ConfigurationException (the application's listener
     * factory threw) ended the run FAILED internal_error from its pause, its decision not applied, as a refused resume
     * ends it configuration_error. Its replay was not told it apart: it applied the recorded decision, resumed, and
     * diverged at a step call the recording does not have. It now stops at the pause and says the recorded run was
     * refused or failed at its resume (a configuration_error's is "refused").
     */
    @Test
    void aRunWhoseResumeFailedOnTemporalReplaysToItsPauseAndTheReportSaysSo(@TempDir Path dir) {
        Path trace = dir.resolve("resume-failed.jsonl");
        Orders.Ledger ledger = new Orders.Ledger();
        java.util.concurrent.atomic.AtomicReference<RuntimeException> armed = new java.util.concurrent.atomic.AtomicReference<>();
        dev.rein.trace.RunListenerFactory failingOnce = id -> {
            RuntimeException thrown = armed.getAndSet(null);
            if (thrown != null) {
                throw thrown;
            }
            return null;
        };
        Agent recording = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(),
                Orders.refund(ledger, key -> { })).listener(JsonlTraceListener.to(trace))).withListener(failingOnce);
        RunResult recorded;
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(recording).start("A-1 を返金して", "run-resume-failed-traced");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            armed.set(new IllegalStateException("the exporter lost its connection"));
            run.approve(run.pendingApprovals().get(0).actionHash(), "alice");
            recorded = run.result();
        }
        assertThat(recorded.reason()).isEqualTo(dev.rein.run.Reasons.INTERNAL_ERROR);
        assertThat(ledger.charges).isEmpty();

        ReplayReport report = Replay.from(trace).replay(Orders.withApproval(Orders.agent(ScriptedModel.of(),
                new RecordingListener(), Orders.refund(ledger, key -> { }))));

        assertThat(report.modelCalls()).isEqualTo(1);
        assertThat(report.result().status()).as("stopped at the pause, as the recorded run did").isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(report.recordedReason()).isEqualTo("internal_error");
        assertThat(report.firstDivergence().orElseThrow().description())
                .startsWith("step 1: the recorded run was refused or failed at its resume from this pause and ended FAILED/internal_error")
                .contains("the exporter lost its connection").doesNotContain("the recording does not have");
        assertThat(ledger.charges).isEmpty();
    }
}
