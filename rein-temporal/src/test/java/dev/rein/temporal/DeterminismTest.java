package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.budget.BudgetMeter;
import dev.rein.internal.loop.Step;
import dev.rein.run.RunStatus;
import dev.rein.temporal.internal.AgentWorkflowImpl;
import dev.rein.testkit.RecordingListener;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/** The workflow code replays its own histories, and reads no wall clock, starts no thread, draws no randomness. */
class DeterminismTest {
    /** What workflow code must not call: Temporal's Workflow API has the deterministic forms. */
    static final List<String> FORBIDDEN = List.of(
            "java/lang/System.currentTimeMillis", "java/lang/System.nanoTime", "java/time/Instant.now",
            "java/time/Clock.system", "java/time/LocalDateTime.now", "java/time/LocalDate.now", "java/time/ZonedDateTime.now",
            "java/time/OffsetDateTime.now", "java/lang/Thread.start", "java/lang/Thread.\"<init>\"", "java/lang/Thread.ofVirtual",
            "java/lang/Thread.ofPlatform", "java/lang/Thread.sleep", "java/lang/Thread.startVirtualThread",
            "java/util/concurrent/Executors", "java/util/concurrent/CompletableFuture.supplyAsync",
            "java/util/concurrent/CompletableFuture.runAsync", "java/util/UUID.randomUUID", "java/lang/Math.random",
            "java/util/Random.\"<init>\"", "java/util/concurrent/ThreadLocalRandom");

    /**
     * The code that runs inside the workflow: the workflow, its clock, its tool steps and payloads (with the calls of a
     * response and the run's input, records of their own), the step function
     * (Step.decide and the package-private decision classes it delegates to), the budget meter and its price table, and
     * what a decision signal runs (the signal, the approval state it decides, the action hash).
     */
    static final List<Class<?>> WORKFLOW_CODE = List.of(AgentWorkflowImpl.class, Step.class, BudgetMeter.class,
            classNamed("dev.rein.internal.loop.ActDecisions"), classNamed("dev.rein.internal.loop.AnswerDecisions"),
            classNamed("dev.rein.internal.loop.BudgetDecisions"), classNamed("dev.rein.internal.loop.ContextDecisions"),
            classNamed("dev.rein.temporal.internal.WorkflowClock"), classNamed("dev.rein.temporal.internal.ToolSteps"),
            classNamed("dev.rein.temporal.internal.Payloads"), classNamed("dev.rein.temporal.internal.Payloads$RunRef"),
            classNamed("dev.rein.temporal.internal.Payloads$Turn"), classNamed("dev.rein.temporal.internal.Payloads$Edit"),
            classNamed("dev.rein.temporal.internal.Payloads$Carried"), classNamed("dev.rein.temporal.internal.WorkerConverter"),
            classNamed("dev.rein.temporal.internal.ToolUses"), classNamed("dev.rein.temporal.internal.RunInput"),
            dev.rein.budget.PriceTable.class, dev.rein.temporal.internal.ApprovalSignal.class,
            dev.rein.approval.ApprovalState.class, dev.rein.approval.ActionHash.class);

    @Test
    void theWorkflowCodeReadsNoWallClockAndStartsNoThread() {
        for (Class<?> type : withNested(WORKFLOW_CODE)) {
            assertThat(forbiddenCalls(type)).as("forbidden calls in %s", type.getName()).isEmpty();
        }
    }

    /**
     * The classes and every class nested in them (javap shows one class file: Step's records and commands, the payload
     * records, are classes of their own), with the run's next step as the workflow reads it (DrivenRun.Next).
     */
    static List<Class<?>> withNested(List<Class<?>> types) {
        List<Class<?>> all = new ArrayList<>();
        java.util.ArrayDeque<Class<?>> left = new java.util.ArrayDeque<>(types);
        left.add(dev.rein.agent.DrivenRun.Next.class);
        while (!left.isEmpty()) {
            Class<?> type = left.poll();
            if (!all.contains(type)) {
                all.add(type);
                left.addAll(List.of(type.getDeclaredClasses()));
            }
        }
        return all;
    }

    /**
     * The top-level records the workflow builds as activity arguments or as its continued input (ToolUses, the calls
     * of a response carried over a pause or a continue-as-new; RunInput) are workflow code as the payload records are.
     */
    @Test
    void theCheckCoversThePayloadRecordsTheWorkflowBuilds() {
        assertThat(withNested(WORKFLOW_CODE)).contains(classNamed("dev.rein.temporal.internal.ToolUses"),
                classNamed("dev.rein.temporal.internal.RunInput"));
    }

    @Test
    void theCheckCoversTheNestedClassesOfTheWorkflowCode() {
        assertThat(withNested(WORKFLOW_CODE)).contains(Step.State.class, Step.Decision.class, Step.Command.RunTools.class,
                classNamed("dev.rein.temporal.internal.Payloads$Carried"), dev.rein.agent.DrivenRun.Next.class);
    }

    @Test
    void theCheckFindsAWallClockReadAndAThread() {
        assertThat(forbiddenCalls(Offender.class)).anySatisfy(c -> assertThat(c).contains("System.currentTimeMillis"))
                .anySatisfy(c -> assertThat(c).contains("Thread.ofVirtual"));
    }

    @Test
    void aRecordedHistoryReplaysWithoutNonDeterminism() throws Exception {
        Orders.Ledger ledger = new Orders.Ledger();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(),
                Orders.lookup(), Orders.refund(ledger, key -> {})));
        WorkflowExecutionHistory history;
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-replay");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            server.env.sleep(java.time.Duration.ofDays(1));
            run.approve(run.pendingApprovals().get(0).actionHash(), "alice");
            assertThat(run.result().status()).isEqualTo(RunStatus.SUCCEEDED);
            history = server.client().fetchHistory("run-replay");
        }
        Path recorded = Path.of("target", "recorded-history.json");
        Files.writeString(recorded, history.toJson(true));
        replay(WorkflowExecutionHistory.fromJson(Files.readString(recorded)));
    }

    /**
     * A history recorded with this release (a refund approved after a day) and kept in the sources:
     * a change to the workflow code that breaks it needs {@code Workflow.getVersion} (docs/temporal.md).
     */
    @Test
    // v2: snapshots by reference and one activity per tool call; v1 histories need the v1 workers (docs/temporal.md)
    void theHistoryRecordedWithThisReleaseStillReplays() throws Exception {
        try (var in = DeterminismTest.class.getResourceAsStream("/histories/refund-approval-v2.json")) {
            assertThat(in).as("the recorded history resource").isNotNull();
            replay(WorkflowExecutionHistory.fromJson(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)));
        }
    }

    /** Replays {@code history} as a worker runs it, the worker with {@code interceptors} (a test that looks on). */
    static void replay(WorkflowExecutionHistory history, io.temporal.common.interceptors.WorkerInterceptor... interceptors)
            throws Exception {
        try (TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
                .setWorkflowClientOptions(TemporalAgents.clientOptions().build())
                .setWorkerFactoryOptions(io.temporal.worker.WorkerFactoryOptions.newBuilder()
                        .setWorkerInterceptors(interceptors).build()).build())) {
            // the SDK's deadlock detector (1 s without a yield) is no determinism check: on a loaded machine a replay's
            // first task (a continued execution's carried state read) can take longer, and failed as a "deadlock"
            Worker worker = env.newWorker("replay", io.temporal.worker.WorkerOptions.newBuilder()
                    .setDefaultDeadlockDetectionTimeout(30_000).build());
            // registered as a worker registers it (the workflow made from the run's input, a continued run's state
            // restored before any signal): by type, a signal delivered with a continued execution's start was refused
            // in the replay though the worker heard it, so the replay checked other code than the workers run
            TemporalAgents.workflows(worker);
            WorkflowReplayer.replayWorkflowExecution(history, worker);
        }
    }

    static List<String> forbiddenCalls(Class<?> type) {
        ToolProvider javap = ToolProvider.findFirst("javap").orElseThrow(() -> new AssertionError("this JDK has no javap"));
        StringWriter out = new StringWriter();
        String where = type.getProtectionDomain().getCodeSource().getLocation().getPath();
        int rc = javap.run(new PrintWriter(out), new PrintWriter(out), "-c", "-p", "-cp", where, type.getName());
        assertThat(rc).as("javap %s: %s", type.getName(), out).isZero();
        List<String> found = new ArrayList<>();
        for (String line : out.toString().split("\n")) {
            for (String call : FORBIDDEN) {
                if ((line.contains("invoke") || line.contains("new")) && line.contains(call)) {
                    found.add(line.strip());
                }
            }
        }
        return found;
    }

    private static Class<?> classNamed(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new AssertionError(e);
        }
    }

    /** A class that breaks both rules, to show the check would catch them. */
    static final class Offender {
        long now() {
            Thread.ofVirtual().start(() -> {});
            return System.currentTimeMillis();
        }
    }

}
