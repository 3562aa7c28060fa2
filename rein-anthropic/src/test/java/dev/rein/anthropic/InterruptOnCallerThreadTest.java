package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.Budget;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FakeReply;
import dev.rein.testkit.Interrupting;
import java.time.Duration;
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
        Throwable thrown = Interrupting.interruptOnceReached(() -> call(request("hi")), server::takeRequest, Duration.ofSeconds(10));
        assertThat(thrown).isInstanceOf(InterruptedException.class);
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
