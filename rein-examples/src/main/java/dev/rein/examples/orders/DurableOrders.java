package dev.rein.examples.orders;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.approval.ApprovalRequest;
import dev.rein.context.OutputStore;
import dev.rein.eval.TrialModel;
import dev.rein.run.RunStatus;
import dev.rein.temporal.TemporalAgents;
import dev.rein.temporal.TemporalRun;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.ToolOutcome;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.WorkerFactory;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The orders agent as a durable run on Temporal's in-process test server, with a crash in the
 * middle: worker one re-ships the order, then dies before it reports completion; worker two picks
 * the run up, delivers the call again with the same idempotency key, and the warehouse system
 * re-ships once. The approval waits two days (skipped time) as a signal.
 *
 * <p>Run, from the repository's folder: {@code ./test -q -pl rein-examples -am -DskipTests && java -cp
 * "rein-examples/target/classes:$(cat rein-examples/target/classpath.txt)" dev.rein.examples.orders.DurableOrders}
 * (see docs/examples.md).
 */
public final class DurableOrders {
    private static final String QUEUE = "orders";

    private DurableOrders() {}

    public static void main(String[] args) throws Exception {
        System.exit(run(System.out) ? 0 : 1);
    }

    /** Runs the scenario; true when the run succeeded with exactly one re-shipment. */
    public static boolean run(PrintStream out) throws Exception {
        OrdersWorld world = new OrdersWorld();
        // one scripted model shared by both workers, so the conversation goes on where it stopped
        ScriptedModel model = ScriptedModel.of(new OrderInvestigation().demoScript());
        TrialModel trial = new TrialModel(model, ScriptedModel.DEFAULT_NAME);
        CountDownLatch reshipped = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        AtomicBoolean crash = new AtomicBoolean(true);
        Agent crashing = OrderInvestigation.agent(world, trial, OrderInvestigation.SUPERVISOR, OrderInvestigation.budget())
                .config().toBuilder().toolInterceptor((invocation, chain) -> {
                    ToolOutcome result = chain.proceed(invocation);
                    // after the effect only: the first delivery is held for approval (deferred) and re-ships nothing
                    if (invocation.call().name().equals(OrdersWorld.RESHIP) && result instanceof ToolOutcome.Done
                            && crash.getAndSet(false)) {
                        reshipped.countDown();
                        never.await(); // the worker dies here: the effect happened, its completion is never reported
                    }
                    return result;
                }).build();
        Agent healthy = OrderInvestigation.agent(world, trial, OrderInvestigation.SUPERVISOR, OrderInvestigation.budget());

        try (TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
                .setWorkflowClientOptions(TemporalAgents.clientOptions().build()).build())) {
            // The workflow worker stays up; the activity worker that calls the tools dies. (The in-process test
            // server keeps a dead worker's workflow tasks on its sticky queue: see TemporalCrashTest.)
            TemporalAgents.workflows(env.newWorker(QUEUE));
            env.start();
            // Every worker keeps run snapshots and tool results in one shared run store (a shared directory or
            // database in production; memory shared by both workers of this one process here).
            OutputStore runStore = OutputStore.inMemory();
            WorkerFactory one = WorkerFactory.newInstance(env.getWorkflowClient());
            TemporalAgents.activities(one.newWorker(QUEUE), crashing, runStore);
            one.start();
            TemporalRun run = TemporalAgents.client(env.getWorkflowClient(), QUEUE, healthy, runStore)
                    .withAttemptTimeout(Duration.ofSeconds(3)).start(OrderInvestigation.RESHIP_GOAL, "orders-a104");
            out.println("started run " + run.runId() + " on worker one");
            approveAfterTwoDays(env, run, out);
            if (!reshipped.await(60, TimeUnit.SECONDS)) {
                out.println("the re-shipment never ran");
                return false;
            }
            out.println("worker one re-shipped and crashed before reporting it; starting worker two");
            one.shutdownNow();
            WorkerFactory two = WorkerFactory.newInstance(env.getWorkflowClient());
            TemporalAgents.activities(two.newWorker(QUEUE), healthy, runStore);
            two.start();
            RunResult result = run.result();
            out.println("status: " + result.status() + "\nanswer: " + result.answer());
            out.println("re-shipments made: " + world.reshipments().size());
            two.shutdownNow();
            return result.status() == RunStatus.SUCCEEDED && world.reshipments().size() == 1;
        } finally {
            never.countDown();
        }
    }

    private static void approveAfterTwoDays(TestWorkflowEnvironment env, TemporalRun run, PrintStream out)
            throws InterruptedException {
        List<ApprovalRequest> pending = List.of();
        for (int i = 0; i < 600 && pending.isEmpty(); i++) {
            Thread.sleep(100);
            pending = run.pendingApprovals();
        }
        if (pending.isEmpty()) {
            throw new IllegalStateException("the run never asked for approval; it is " + run.status());
        }
        ApprovalRequest request = pending.get(0);
        out.println("waiting for approval of " + request.tool() + " " + request.arguments());
        env.sleep(Duration.ofDays(2));
        out.println("two days later, the supervisor approves");
        run.approve(request.actionHash(), "support-lead");
    }
}
