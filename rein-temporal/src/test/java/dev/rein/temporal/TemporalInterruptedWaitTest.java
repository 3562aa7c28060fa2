package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A caller's thread interrupted while it waits for a run's result. */
class TemporalInterruptedWaitTest {
    /**
     * The wait ends with a ReinException saying it was interrupted, the thread's interrupt kept, and the run goes on.
     * Before, it said Temporal did not answer ("(The gRPC request was cancelled): check the Temporal service and the
     * client's options"), as if the service had failed.
     */
    @Test
    void aWaitInterruptedByItsCallerSaysSoAndKeepsTheInterrupt() throws Exception {
        Agent waiting = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(), Orders.lookup(),
                Orders.refund(new Orders.Ledger(), key -> {})));
        // no time skipping: a waiting result would let the server skip time
        try (TemporalTestServer server = new TemporalTestServer(false)) {
            server.start(waiting).start("A-1 を返金して", "run-interrupted-wait");
            // a client as an application builds it: the test environment's own client locks its time skipping around a
            // wait with a call of its own, which an interrupt fails with gRPC's bare exception
            io.temporal.client.WorkflowClient plain = io.temporal.client.WorkflowClient.newInstance(
                    server.env.getWorkflowServiceStubs(), TemporalAgents.clientOptions().build());
            TemporalRun run = TemporalAgents.client(plain, TemporalTestServer.QUEUE, waiting).attach("run-interrupted-wait");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            // interrupted at several points of the wait: the client's long polls of the history come one after another
            for (long after : new long[] {100, 700, 1500, 3000}) {
                CompletableFuture<Object[]> ended = new CompletableFuture<>();
                CountDownLatch waitingNow = new CountDownLatch(1);
                Thread caller = Thread.ofPlatform().start(() -> {
                    waitingNow.countDown();
                    try {
                        ended.complete(new Object[] {run.result(), Thread.currentThread().isInterrupted()});
                    } catch (RuntimeException e) {
                        ended.complete(new Object[] {e, Thread.currentThread().isInterrupted()});
                    }
                });
                waitingNow.await();
                Thread.sleep(after);
                caller.interrupt();
                Object[] outcome = ended.get(30, TimeUnit.SECONDS);

                assertThat(outcome[0]).as("interrupted after " + after + " ms").isInstanceOf(dev.rein.ReinException.class);
                assertThat(((Exception) outcome[0]).getMessage()).isEqualTo("the wait for the result of run"
                        + " 'run-interrupted-wait' was interrupted (the calling thread's interrupt, which it keeps): the run"
                        + " itself is as it was; ask again");
                assertThat(outcome[1]).as("the thread's interrupt is kept").isEqualTo(true);
            }
            assertThat(run.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        }
    }
}
