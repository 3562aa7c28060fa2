package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.run.RunStatus;
import dev.rein.state.ForwardingRunStore;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunSnapshot;
import dev.rein.state.StoreException;
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
 * A tool declared abortsOnInterrupt runs on the run's thread; one that ends on an interrupt by returning sets it again,
 * as Tool.abortsOnInterrupt asks. That interrupt ends the call as a thrown one does: the run is cancelled there, and
 * nothing after the call (the step's checkpoint, the end's save) runs under it. A store that talks to its database over
 * a socket (the PostgreSQL store) cannot save under it on a virtual thread: the JDK closes the socket ("Closed by
 * interrupt"). Before: the checkpoint after the call ran with the interrupt still set, failed, and the run ended FAILED
 * store_error, not CANCELLED, on a virtual caller's thread and through RunHandle.cancel alike.
 */
class InterruptLeftSetByAToolTest {
    @Test
    void aVirtualCallersInterruptThatAToolSetsAgainCancelsTheRunWithNoSaveUnderIt() throws Exception {
        Fixture fixture = new Fixture();
        AtomicReference<RunResult> result = new AtomicReference<>();
        AtomicBoolean interruptedAfter = new AtomicBoolean();
        Thread caller = Thread.ofVirtual().start(() -> {
            result.set(fixture.agent.run("go"));
            interruptedAfter.set(Thread.currentThread().isInterrupted());
        });
        assertThat(fixture.entered.await(30, TimeUnit.SECONDS)).isTrue();
        caller.interrupt();
        assertThat(caller.join(Duration.ofSeconds(30))).isTrue();

        assertThat(result.get().status()).as(result.get().message()).isEqualTo(RunStatus.CANCELLED);
        assertThat(fixture.savesUnderAnInterrupt).isEmpty();
        assertThat(fixture.kept.load(result.get().runId()).orElseThrow().status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(interruptedAfter.get()).isTrue(); // the caller's own interrupt, given back
    }

    @Test
    void aCancelThatAToolEndsOnAndSetsAgainCancelsTheRunWithNoSaveUnderIt() throws Exception {
        Fixture fixture = new Fixture();
        RunHandle handle = fixture.agent.start("go");
        assertThat(fixture.entered.await(30, TimeUnit.SECONDS)).isTrue();
        handle.cancel();
        RunResult result = handle.await(Duration.ofSeconds(30));

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.CANCELLED);
        assertThat(fixture.savesUnderAnInterrupt).isEmpty();
        assertThat(fixture.kept.load(result.runId()).orElseThrow().status()).isEqualTo(RunStatus.CANCELLED);
    }

    /**
     * The caller's interrupt that comes as a model's response is in hand (the model returns it with the interrupt set)
     * cancels the run too, but the response was paid for: its usage is counted in the run's cost, as a response that
     * came a moment before the interrupt is. Only a tool call ends on such an interrupt as if thrown.
     */
    @Test
    void anInterruptThatComesWithAModelsResponseCancelsTheRunAndTheResponseIsStillCounted() throws Exception {
        ScriptedModel script = ScriptedModel.of(ScriptedModel.text("答えです"));
        Model interruptedAsItAnswers = new Model() {
            @Override
            public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
                ModelResponse response = script.call(request, context);
                Thread.currentThread().interrupt(); // the caller's interrupt, just as the response came
                return response;
            }

            @Override
            public boolean abortsOnInterrupt() {
                return true;
            }
        };
        Agent agent = Agent.builder().model(interruptedAsItAnswers).modelName(ScriptedModel.DEFAULT_NAME)
                .prices(ScriptedModel.PRICES).budget(Budget.builder().maxDuration(Duration.ofSeconds(60)).build()).build();
        AtomicReference<RunResult> result = new AtomicReference<>();
        Thread caller = Thread.ofVirtual().start(() -> result.set(agent.run("質問")));
        assertThat(caller.join(Duration.ofSeconds(30))).isTrue();

        assertThat(result.get().status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(result.get().usage().inputTokens()).as("the response's usage").isPositive();
        assertThat(result.get().costUsd()).isPositive();
    }

    /** An agent whose one tool waits until interrupted, then returns and sets the interrupt again. */
    private static final class Fixture {
        final CountDownLatch entered = new CountDownLatch(1);
        final List<String> savesUnderAnInterrupt = new CopyOnWriteArrayList<>();
        final InMemoryRunStore kept = new InMemoryRunStore();
        final Agent agent;

        Fixture() {
            Tool wait = Tool.builder("wait").description("Waits.").abortsOnInterrupt(true)
                    .handler((args, ctx) -> {
                        entered.countDown();
                        try {
                            Thread.sleep(20_000);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt(); // not the handler's: it says so again
                            return "stopped waiting";
                        }
                        return "waited";
                    }).build();
            ScriptedModel script = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("wait", "{}")),
                    ScriptedModel.text("went on"));
            // answers on the run's thread at once, as an in-memory model does: no wait of its own sees an interrupt
            Model inline = new Model() {
                @Override
                public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
                    return script.call(request, context);
                }

                @Override
                public boolean abortsOnInterrupt() {
                    return true;
                }
            };
            agent = Agent.builder().model(inline).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)
                    .tools(wait).store(new SocketLikeStore())
                    .budget(Budget.builder().maxDuration(Duration.ofSeconds(60)).build()).build();
        }

        /** Fails a save made with the thread's interrupt set, as a store's socket on a virtual thread does. */
        private final class SocketLikeStore extends ForwardingRunStore {
            SocketLikeStore() {
                super(kept);
            }

            @Override
            public void save(RunSnapshot snapshot) {
                if (Thread.currentThread().isInterrupted()) {
                    savesUnderAnInterrupt.add(snapshot.status().toString());
                    throw new StoreException("java.net.SocketException: Closed by interrupt");
                }
                super.save(snapshot);
            }
        }
    }
}
