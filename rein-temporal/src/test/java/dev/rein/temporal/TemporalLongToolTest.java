package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Calls that take longer than one activity attempt, but within what the agent allows, run once. */
class TemporalLongToolTest {
    /**
     * A tool allowed to take longer than one activity attempt (its own timeout says so) runs once:
     * Temporal does not take the attempt for a dead worker and start the call again elsewhere.
     */
    @Test
    void aToolThatTakesLongerThanTheAttemptTimeoutButWithinItsOwnRunsOnce() {
        AtomicInteger calls = new AtomicInteger();
        Tool export = Tool.builder("export").description("Exports the orders")
                .inputSchema("{\"type\":\"object\",\"properties\":{}}").risk(Risk.WRITE).timeout(Duration.ofMinutes(1))
                .handler((args, ctx) -> {
                    calls.incrementAndGet();
                    Thread.sleep(Duration.ofSeconds(6));
                    return "exported";
                }).build();
        ScriptedModel model = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("export", "{}")),
                ScriptedModel.text("done"));
        Agent agent = Orders.agent(model, new RecordingListener(), export).approvalPolicy(dev.rein.approval.ApprovalPolicy.NEVER).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).withAttemptTimeout(Duration.ofSeconds(2)).start("export", "run-long-tool");
            TemporalApprovalTest.awaitStatus(run, RunStatus.SUCCEEDED);
            RunResult result = run.result();

            assertThat(result.answer()).isEqualTo("done");
            assertThat(calls.get()).as("handler invocations").isEqualTo(1);
        }
    }

    /**
     * Cancelling a run while a tool runs interrupts the tool, as a local cancel does: the worker learns of the
     * cancel from its next heartbeat and interrupts the call, instead of letting it run to its own timeout after
     * the run has ended CANCELLED.
     */
    @Test
    void cancellingARunDuringAToolCallInterruptsTheTool() throws Exception {
        interruptedAfter(TemporalRun::cancel, "run-cancel-tool",
                run -> assertThat(run.result().status()).isEqualTo(RunStatus.CANCELLED));
    }

    /** A workflow terminated from outside Rein (the Temporal CLI) while a tool runs: the tool is interrupted too. */
    @Test
    void terminatingAWorkflowDuringAToolCallInterruptsTheTool() throws Exception {
        interruptedAfter(run -> run.stub().terminate("運用者が停止"), "run-terminate-tool",
                run -> assertThat(run.status()).isEqualTo(RunStatus.FAILED));
    }

    /** Runs a tool that sleeps for minutes, does {@code action} once it started, checks the tool is interrupted, then {@code after}. */
    private static void interruptedAfter(java.util.function.Consumer<TemporalRun> action, String runId,
                                         java.util.function.Consumer<TemporalRun> after) throws Exception {
        java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch interrupted = new java.util.concurrent.CountDownLatch(1);
        Tool export = Tool.builder("export").description("Exports the orders")
                .inputSchema("{\"type\":\"object\",\"properties\":{}}").risk(Risk.WRITE).timeout(Duration.ofMinutes(5))
                .handler((args, ctx) -> {
                    started.countDown();
                    try {
                        Thread.sleep(Duration.ofMinutes(2));
                    } catch (InterruptedException e) {
                        interrupted.countDown();
                        throw e;
                    }
                    return "exported";
                }).build();
        ScriptedModel model = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("export", "{}")),
                ScriptedModel.text("done"));
        Agent agent = Orders.agent(model, new RecordingListener(), export).approvalPolicy(dev.rein.approval.ApprovalPolicy.NEVER).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).withAttemptTimeout(Duration.ofSeconds(3)).start("export", runId);
            assertThat(started.await(60, java.util.concurrent.TimeUnit.SECONDS)).as("the tool started").isTrue();
            action.accept(run);

            assertThat(interrupted.await(30, java.util.concurrent.TimeUnit.SECONDS)).as("the tool was interrupted").isTrue();
            after.accept(run);
        }
    }

    /**
     * A model call that takes longer than the attempt timeout (a slow model, a long answer) is made
     * once, as locally: the worker heartbeats while it waits, so Temporal neither starts the same
     * call again elsewhere nor ends the run as if its deadline had passed.
     */
    @Test
    void aModelCallThatTakesLongerThanTheAttemptTimeoutIsMadeOnce() {
        ScriptedModel scripted = ScriptedModel.of(ScriptedModel.text("ゆっくり答えました"));
        AtomicInteger calls = new AtomicInteger();
        dev.rein.model.Model slow = new dev.rein.model.Model() {
            @Override
            public dev.rein.model.ModelResponse call(dev.rein.model.ModelRequest request, dev.rein.model.ModelCallContext context)
                    throws dev.rein.model.ModelException, InterruptedException {
                calls.incrementAndGet();
                Thread.sleep(Duration.ofSeconds(6));
                return scripted.call(request, context);
            }
        };
        Agent agent = Agent.builder().model(slow).modelName("scripted-model").prices(ScriptedModel.PRICES).listener(new RecordingListener())
                .budget(dev.rein.budget.Budget.builder().maxSteps(8).maxDuration(Duration.ofMinutes(10)).build()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).withAttemptTimeout(Duration.ofSeconds(2)).start("急がない", "run-slow-model");
            RunResult result = TemporalTestServer.resultPolled(run, Duration.ofSeconds(90));

            assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.answer()).isEqualTo("ゆっくり答えました");
            assertThat(calls.get()).as("model calls").isEqualTo(1);
        }
    }

    /**
     * The final summary call of a spent budget (made in ReinStopForBudget, not ReinCallModel) may be
     * slow too: it is made once, not cut at each attempt timeout and started again without end.
     */
    @Test
    void aSlowSummaryCallAfterTheBudgetIsSpentIsMadeOnce() {
        ScriptedModel scripted = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}")),
                ScriptedModel.text("summary: A-1 は配達済み"));
        AtomicInteger calls = new AtomicInteger();
        dev.rein.model.Model slowSummary = new dev.rein.model.Model() {
            @Override
            public dev.rein.model.ModelResponse call(dev.rein.model.ModelRequest request, dev.rein.model.ModelCallContext context)
                    throws dev.rein.model.ModelException, InterruptedException {
                if (calls.incrementAndGet() > 1) {
                    Thread.sleep(Duration.ofSeconds(6));
                }
                return scripted.call(request, context);
            }
        };
        Agent agent = Agent.builder().model(slowSummary).modelName("scripted-model").prices(ScriptedModel.PRICES)
                .tools(Orders.lookup()).listener(new RecordingListener())
                .budget(dev.rein.budget.Budget.builder().maxSteps(1).maxDuration(Duration.ofMinutes(10)).build()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).withAttemptTimeout(Duration.ofSeconds(2)).start("A-1?", "run-slow-summary");
            long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (run.status() == RunStatus.RUNNING && System.nanoTime() < until) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
            assertThat(run.status()).as("model calls so far: " + calls.get()).isEqualTo(RunStatus.STOPPED_BUDGET);
            RunResult result = run.result();

            assertThat(result.answer()).isEqualTo("summary: A-1 は配達済み");
            assertThat(calls.get()).as("model calls: the step, then the summary").isEqualTo(2);
        }
    }
}
