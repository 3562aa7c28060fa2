package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Decisions that arrive while the workflow is between activities are kept. */
class TemporalDecisionRaceTest {
    /**
     * The pending action is visible (the query answers it) as soon as the call asked for approval,
     * while the activity that traces the pause still runs: a person who approves then is heard, and
     * the run goes on, instead of the decision being overwritten by that activity's result and the
     * run waiting for it again.
     */
    @Test
    void anApprovalSentWhileThePauseIsBeingTracedIsKept() throws Exception {
        Orders.Ledger ledger = new Orders.Ledger();
        CountDownLatch pausing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        RunListener holdsThePause = new RunListener() {
            @Override
            public void onEvent(TraceEvent event) {
                if (event instanceof TraceEvent.StateChanged changed && changed.to() == RunStatus.WAITING_APPROVAL
                        && pausing.getCount() > 0) {
                    pausing.countDown();
                    try {
                        release.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        };
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(),
                Orders.refund(ledger, key -> {})).listener(runId -> holdsThePause));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-early-approval");
            assertThat(pausing.await(60, TimeUnit.SECONDS)).isTrue();
            assertThat(run.pendingApprovals()).hasSize(1);
            run.approve(run.pendingApprovals().get(0).actionHash(), "alice");
            assertThat(run.refusedDecisions()).isEmpty();
            release.countDown();
            // polled, not awaited: a run left waiting would have the test server skip time until it timed out
            TemporalApprovalTest.awaitStatus(run, RunStatus.SUCCEEDED);
            RunResult result = run.result();

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(ledger.charges).hasSize(1);
        } finally {
            release.countDown();
        }
    }

    /**
     * A cancel that arrives while the run's end is being traced (the answer accepted, ReinEnd running) does not undo
     * that end, as a local cancel after the loop decided its end does not: the run ends SUCCEEDED with one RunFinished,
     * where the workflow cancelled ReinEnd and ended the run again as CANCELLED (a second RunFinished, the answer lost).
     */
    @Test
    void aCancelWhileTheEndIsBeingTracedLeavesTheRunsOwnEnd() throws Exception {
        CountDownLatch ending = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        RunListener holdsTheEnd = new RunListener() {
            @Override
            public void onEvent(TraceEvent event) {
                if (event instanceof TraceEvent.RunFinished && ending.getCount() > 0) {
                    ending.countDown();
                    try {
                        release.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        };
        RecordingListener trace = new RecordingListener();
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), trace, Orders.lookup()).listener(runId -> holdsTheEnd).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1?", "run-cancel-at-end");
            assertThat(ending.await(60, TimeUnit.SECONDS)).isTrue();
            run.cancel();
            Thread.sleep(1_000); // the cancel reaches the workflow while ReinEnd still runs
            release.countDown();
            RunResult result = TemporalTestServer.resultPolled(run, Duration.ofSeconds(60));

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.answer()).isEqualTo("注文 A-1 と A-2 は配達済みです。");
            assertThat(trace.events(TraceEvent.RunFinished.class)).singleElement()
                    .satisfies(f -> assertThat(f.status()).isEqualTo(RunStatus.SUCCEEDED));
        } finally {
            release.countDown();
        }
    }
}
