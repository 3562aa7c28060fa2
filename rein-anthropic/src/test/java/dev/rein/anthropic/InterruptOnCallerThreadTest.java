package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.Budget;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FakeReply;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The model says it aborts on interrupt, so the runtime runs its calls on the run's own thread and
 * enforces the deadline by interrupting it: that must end a call whose response is late, promptly,
 * and close its exchange.
 */
class InterruptOnCallerThreadTest extends FakeApi {

    @Test
    void declaresThatAnInterruptAbortsTheCall() {
        assertThat(model.abortsOnInterrupt()).isTrue();
    }

    @Test
    void anInterruptedCallWaitingForADelayedResponseReturnsPromptlyAndClosesTheExchange() throws Exception {
        server.enqueue(FakeReply.delayed(Duration.ofSeconds(60), FakeReply.text("too late")));
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread caller = Thread.ofVirtual().start(() -> {
            try {
                call(request("hi"));
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        });
        server.takeRequest();
        caller.interrupt();
        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        assertThat(model.transport().openExchanges()).isZero();
    }

    @Test
    void theRunsDeadlineEndsACallWhoseResponseIsLate() {
        server.enqueue(FakeReply.delayed(Duration.ofSeconds(60), FakeReply.text("too late")));
        RunResult result = Agent.builder().model(model)
                .budget(Budget.builder().maxDuration(Duration.ofMillis(800)).build()).build().run("hi");
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("deadline");
        assertThat(model.transport().openExchanges()).isZero();
    }
}
