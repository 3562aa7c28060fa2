package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.temporal.internal.AgentWorkflow;
import dev.rein.temporal.internal.ApprovalSignal;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolInterceptor;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.common.WorkflowExecutionHistory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Histories kept in the sources that go through the workflow's {@code Workflow.getVersion} branches
 * {@code reads-cancelled} (a step's reads where one fails for good and the others are cancelled) and
 * {@code pause-continue-as-new} (a pause that continued as new, and the execution it continued in): a change to the
 * workflow code that breaks the replay of such runs fails here.
 *
 * <p>To record them again with the current code (only when a change adds a new version, keeping the old files):
 * {@code ./test -o -pl rein-temporal -Dtest=RecordedBranchHistoriesTest -Drein.recordHistories=src/test/resources/histories}.
 */
class RecordedBranchHistoriesTest {
    static final String READS_CANCELLED = "reads-cancelled-v2.json";
    static final String PAUSE_CONTINUED = "pause-continue-as-new-v2.json";
    static final String PAUSE_CONTINUED_NEXT = "pause-continue-as-new-v2-next.json";

    @Test
    void aStepWhoseReadWasCancelledWhenAnotherFailedForGoodStillReplays() throws Exception {
        WorkflowExecutionHistory history = recorded(READS_CANCELLED);
        assertThat(versionMarkers(history)).as("the history goes through the reads-cancelled branch")
                .contains("reads-cancelled");
        assertThat(history.getLastEvent().hasWorkflowExecutionCompletedEventAttributes()).isTrue();
        DeterminismTest.replay(history);
    }

    @Test
    void aPauseThatContinuedAsNewStillReplays() throws Exception {
        WorkflowExecutionHistory history = recorded(PAUSE_CONTINUED);
        assertThat(versionMarkers(history)).as("the history goes through the pause-continue-as-new branch")
                .contains("pause-continue-as-new");
        assertThat(history.getLastEvent().hasWorkflowExecutionContinuedAsNewEventAttributes()).isTrue();
        DeterminismTest.replay(history);
    }

    @Test
    void theExecutionAPauseContinuedInStillReplays() throws Exception {
        WorkflowExecutionHistory history = recorded(PAUSE_CONTINUED_NEXT);
        assertThat(history.getEvents().get(0).getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId())
                .as("an execution continued from a pause").isNotEmpty();
        assertThat(history.getLastEvent().hasWorkflowExecutionCompletedEventAttributes()).isTrue();
        DeterminismTest.replay(history);
    }

    /** Records the three histories with the current code into the folder the property names (see the class doc). */
    @Test
    void recordWhenAsked() throws Exception {
        String folder = System.getProperty("rein.recordHistories");
        if (folder == null || folder.isBlank()) {
            return;
        }
        Path into = Path.of(folder);
        Files.createDirectories(into);
        Files.writeString(into.resolve(READS_CANCELLED), readsCancelled().toJson(true));
        List<WorkflowExecutionHistory> pause = pauseContinued();
        Files.writeString(into.resolve(PAUSE_CONTINUED), pause.get(0).toJson(true));
        Files.writeString(into.resolve(PAUSE_CONTINUED_NEXT), pause.get(1).toJson(true));
    }

    /** As TemporalParallelReadsTest's: one read breaks the interceptor chain's contract while a slow one runs. */
    private static WorkflowExecutionHistory readsCancelled() {
        Tool slow = Tool.builder("slow_lookup").description("Looks up very slowly")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}}}")
                .risk(Risk.READ).timeout(Duration.ofMinutes(5)).handler((args, ctx) -> {
                    Thread.sleep(90_000);
                    return "注文は配達済み";
                }).build();
        ToolInterceptor broken = (invocation, chain) ->
                invocation.call().name().equals("lookup_order") ? null : chain.proceed(invocation);
        ScriptedModel model = ScriptedModel.of(
                ScriptedModel.toolCalls(ScriptedModel.call("slow_lookup", "{\"id\":\"A-2\"}"),
                        ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}")),
                ScriptedModel.text("never asked"));
        Agent agent = Orders.agent(model, new RecordingListener(), Orders.lookup(), slow).toolInterceptor(broken).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).withAttemptTimeout(Duration.ofSeconds(1))
                    .start("A-1 と A-2 は?", "run-reads-cancelled").result();
            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            return server.client().fetchHistory("run-reads-cancelled");
        }
    }

    /** As TemporalContinueAsNewTest's: refused signals make a pause's history long; it continues as new, then is approved. */
    private static List<WorkflowExecutionHistory> pauseContinued() throws InterruptedException {
        Orders.Ledger ledger = new Orders.Ledger();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(), Orders.lookup(),
                Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).withHistoryLimit(80).start("A-1 を返金して", "run-pause-continued");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            AgentWorkflow stub = server.client().newWorkflowStub(AgentWorkflow.class, "run-pause-continued");
            for (int i = 0; i < 60; i++) {
                stub.decide(ApprovalSignal.approve(String.format("%064x", i), "mallory"));
            }
            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (server.client().fetchHistory("run-pause-continued").getEvents().get(0)
                    .getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId().isEmpty()
                    && System.nanoTime() < until) {
                Thread.sleep(100);
            }
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            run.approve(run.pendingApprovals().get(0).actionHash(), "alice");
            assertThat(run.result().status()).isEqualTo(RunStatus.SUCCEEDED);
            var info = server.client().newUntypedWorkflowStub("run-pause-continued").describe().getRawDescription()
                    .getWorkflowExecutionInfo();
            return List.of(server.client().fetchHistory("run-pause-continued", info.getFirstRunId()),
                    server.client().fetchHistory("run-pause-continued", info.getExecution().getRunId()));
        }
    }

    private static WorkflowExecutionHistory recorded(String name) throws IOException {
        try (var in = RecordedBranchHistoriesTest.class.getResourceAsStream("/histories/" + name)) {
            assertThat(in).as("the recorded history resource %s", name).isNotNull();
            return WorkflowExecutionHistory.fromJson(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /** The change ids of the history's version markers. */
    private static List<String> versionMarkers(WorkflowExecutionHistory history) {
        return history.getEvents().stream().filter(HistoryEvent::hasMarkerRecordedEventAttributes)
                .map(e -> e.getMarkerRecordedEventAttributes())
                .filter(m -> m.getMarkerName().equals("Version") && m.containsDetails("changeId"))
                .map(m -> m.getDetailsOrThrow("changeId").getPayloads(0).getData().toStringUtf8().replace("\"", ""))
                .toList();
    }
}
