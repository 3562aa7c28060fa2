package dev.rein.openai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.Budget;
import dev.rein.run.RunStatus;
import dev.rein.testkit.Interrupting;
import dev.rein.testkit.openai.ChatReply;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The model says it aborts on interrupt, so the runtime runs its calls on the run's own thread and
 * enforces the deadline by interrupting it: that must end a call whose response is late, promptly.
 */
class InterruptOnCallerThreadTest extends FakeChat {

    @Test
    void declaresThatAnInterruptAbortsTheCall() {
        assertThat(model.abortsOnInterrupt()).isTrue();
    }

    @Test
    void anInterruptedCallWaitingForADelayedResponseReturnsPromptly() throws Exception {
        server.enqueue(new ChatReply.Delayed(Duration.ofSeconds(60), ChatReply.text("too late")));
        Throwable thrown = Interrupting.interruptOnceReached(() -> call(request("x")), server::takeRequest, Duration.ofSeconds(10));
        assertThat(thrown).isInstanceOf(InterruptedException.class);
    }

    @Test
    void theRunsDeadlineEndsACallWhoseResponseIsLate() {
        server.enqueue(new ChatReply.Delayed(Duration.ofSeconds(60), ChatReply.text("too late")));
        RunResult result = Agent.builder().model(model)
                .budget(Budget.builder().maxDuration(Duration.ofMillis(800)).build()).build().run("x");
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("deadline");
    }
}
