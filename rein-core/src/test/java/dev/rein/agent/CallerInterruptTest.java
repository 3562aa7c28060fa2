package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A virtual caller's interrupt reaches the call running on its thread (the loop runs there): a tool that aborts on
 * interrupt by returning, and sets the interrupt again as Tool.abortsOnInterrupt asks, lets it cancel the run.
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
        Agent agent = Agent.builder().model(ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("wait", "{}")),
                        ScriptedModel.text("went on")))
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
}
