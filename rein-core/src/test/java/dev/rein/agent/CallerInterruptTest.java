package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A virtual caller's interrupt reaches the call running on its thread (the loop runs there): a tool that aborts on
 * interrupt by returning, and sets the interrupt again as Tool.abortsOnInterrupt asks, lets it cancel the run. Before:
 * only a wait that saw the interrupt ended the run, so with a model that answers without waiting the run went on to
 * SUCCEEDED (the caller's interrupt set again after it).
 */
class CallerInterruptTest {
    @Test
    void aVirtualCallersInterruptThatAnInlineToolEndsOnAndSetsAgainCancelsTheRun() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        Tool wait = Tool.builder("wait").description("Waits.").abortsOnInterrupt(true)
                .handler((args, ctx) -> {
                    entered.countDown();
                    try {
                        Thread.sleep(20_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt(); // the interrupt is not the handler's: it says so again
                        return "stopped waiting";
                    }
                    return "waited";
                }).build();
        // a model whose call runs on the run's thread and answers at once, as an in-memory one does: no wait of its own
        // sees an interrupt, so nothing but the loop can
        ScriptedModel script = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("wait", "{}")), ScriptedModel.text("went on"));
        dev.rein.model.Model inline = new dev.rein.model.Model() {
            @Override
            public dev.rein.model.ModelResponse call(dev.rein.model.ModelRequest request, dev.rein.model.ModelCallContext context)
                    throws dev.rein.model.ModelException, InterruptedException {
                return script.call(request, context);
            }

            @Override
            public boolean abortsOnInterrupt() {
                return true;
            }
        };
        Agent agent = Agent.builder().model(inline)
                .modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES).tools(wait)
                .budget(Budget.builder().maxDuration(Duration.ofSeconds(60)).build()).build();
        AtomicReference<RunResult> result = new AtomicReference<>();
        AtomicBoolean interruptedAfter = new AtomicBoolean();
        Thread caller = Thread.ofVirtual().start(() -> {
            result.set(agent.run("go"));
            interruptedAfter.set(Thread.currentThread().isInterrupted());
        });
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
        caller.interrupt();
        assertThat(caller.join(Duration.ofSeconds(30))).isTrue();

        assertThat(result.get().status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(interruptedAfter.get()).isTrue();
    }

    /**
     * A cancel of the outer run while a tool on its thread runs another agent there: the inner run, whose loop took the
     * thread, ends CANCELLED too, gives the thread back with its name, and the outer run ends CANCELLED (probe).
     */
    @Test
    void cancellingARunWhileAnInnerAgentRunsOnItsThreadCancelsBoth() throws Exception {
        CountDownLatch innerCalling = new CountDownLatch(1);
        dev.rein.model.Model blocking = new dev.rein.model.Model() {
            @Override
            public dev.rein.model.ModelResponse call(dev.rein.model.ModelRequest request, dev.rein.model.ModelCallContext context)
                    throws InterruptedException {
                innerCalling.countDown();
                Thread.sleep(60_000);
                throw new AssertionError("not interrupted");
            }

            @Override
            public boolean abortsOnInterrupt() {
                return true;
            }
        };
        Agent inner = Agent.builder().model(blocking).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)
                .budget(Budget.builder().maxDuration(Duration.ofSeconds(60)).build()).build();
        List<Object> seenInTool = new CopyOnWriteArrayList<>();
        Tool delegate = Tool.builder("delegate").description("Asks another agent.").abortsOnInterrupt(true)
                .handler((args, ctx) -> {
                    String before = Thread.currentThread().getName();
                    RunResult innerResult = inner.run("inner goal");
                    seenInTool.add(innerResult.status());
                    seenInTool.add(Thread.currentThread().getName().equals(before));
                    seenInTool.add(Thread.currentThread().isInterrupted());
                    return "inner: " + innerResult.status();
                }).build();
        Agent outer = Agent.builder().model(ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("delegate", "{}")),
                        ScriptedModel.text("went on")))
                .modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES).tools(delegate)
                .budget(Budget.builder().maxDuration(Duration.ofSeconds(60)).build()).build();
        RunHandle handle = outer.start("go");
        assertThat(innerCalling.await(30, TimeUnit.SECONDS)).isTrue();
        handle.cancel();
        RunResult result = handle.await(Duration.ofSeconds(30));

        assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(seenInTool).containsExactly(RunStatus.CANCELLED, true, true);
    }
}
