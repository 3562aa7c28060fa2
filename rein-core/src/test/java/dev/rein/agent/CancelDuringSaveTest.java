package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.run.RunStatus;
import dev.rein.state.ForwardingRunStore;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunSnapshot;
import dev.rein.state.RunStore;
import dev.rein.state.StoreException;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A cancel that comes while the run saves its checkpoint: the cancel interrupts the run's thread, and a store that talks
 * to its database over a socket fails on it (on a virtual thread the JDK closes the socket: "Closed by interrupt", the
 * interrupt left set). That failure is the cancel's doing, so the run ends CANCELLED and is stored so, as a cancel a
 * moment earlier or later ends it; before, it ended FAILED store_error, and its end was not saved either (the interrupt
 * still set), leaving it RUNNING in the store.
 */
class CancelDuringSaveTest {
    @Test
    void aCancelThatFailsTheCheckpointsSaveEndsTheRunCancelledAndStoredSo() throws Exception {
        CountDownLatch saving = new CountDownLatch(1);
        InMemoryRunStore kept = new InMemoryRunStore();
        RunStore socketLike = new SlowSocketLikeStore(kept, saving);
        Agent agent = lookingAgent(socketLike);

        RunHandle handle = agent.start("見て");
        assertThat(saving.await(30, TimeUnit.SECONDS)).isTrue();
        handle.cancel();
        RunResult result = handle.await(Duration.ofSeconds(30));

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.CANCELLED);
        assertThat(kept.load(result.runId()).orElseThrow().status()).isEqualTo(RunStatus.CANCELLED);
    }

    @Test
    void aVirtualCallersInterruptThatFailsTheCheckpointsSaveEndsTheRunCancelledAndStoredSo() throws Exception {
        CountDownLatch saving = new CountDownLatch(1);
        InMemoryRunStore kept = new InMemoryRunStore();
        RunStore socketLike = new SlowSocketLikeStore(kept, saving);
        Agent agent = lookingAgent(socketLike);

        AtomicReference<RunResult> result = new AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean interruptedAfter = new java.util.concurrent.atomic.AtomicBoolean();
        Thread caller = Thread.ofVirtual().start(() -> {
            result.set(agent.run("見て"));
            interruptedAfter.set(Thread.currentThread().isInterrupted());
        });
        assertThat(saving.await(30, TimeUnit.SECONDS)).isTrue();
        caller.interrupt();
        assertThat(caller.join(Duration.ofSeconds(30))).isTrue();

        assertThat(result.get().status()).as(result.get().message()).isEqualTo(RunStatus.CANCELLED);
        assertThat(kept.load(result.get().runId()).orElseThrow().status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(interruptedAfter.get()).as("the caller's own interrupt, given back").isTrue();
    }

    /** An agent whose run calls one tool, then answers, keeping its state in {@code store}. */
    private static Agent lookingAgent(RunStore store) {
        Tool look = Tool.builder("look").description("Looks.").handler((args, ctx) -> "見えた").build();
        return Agent.builder().model(ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("look", "{}")),
                        ScriptedModel.text("went on")))
                .modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES).tools(look).store(store)
                .budget(Budget.builder().maxDuration(Duration.ofSeconds(60)).build()).build();
    }

    /**
     * Fails a save made with the thread's interrupt set, as a store's socket on a virtual thread does; the checkpoint
     * after the tool call is a slow database, during which the cancel comes ({@code saving} counts down when it starts).
     */
    private static final class SlowSocketLikeStore extends ForwardingRunStore {
        private final CountDownLatch saving;

        SlowSocketLikeStore(RunStore kept, CountDownLatch saving) {
            super(kept);
            this.saving = saving;
        }

        @Override
        public void save(RunSnapshot snapshot) {
            if (Thread.currentThread().isInterrupted()) {
                throw new StoreException("java.net.SocketException: Closed by interrupt");
            }
            if (snapshot.status() == RunStatus.RUNNING && snapshot.history().size() >= 3) {
                saving.countDown();
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (!Thread.currentThread().isInterrupted() && System.nanoTime() < until) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                }
                if (Thread.currentThread().isInterrupted()) {
                    throw new StoreException("java.net.SocketException: Closed by interrupt"); // the status stays set
                }
            }
            super.save(snapshot);
        }
    }
}
