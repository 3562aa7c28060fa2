package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.agent.Agent;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** result(timeout) with no time left, as a local RunHandle.await(timeout) takes it: the result if the run has ended. */
class TemporalResultTimeoutTest {
    @Test
    void aZeroOrNegativeTimeoutAnswersAnEndedRunAndTimesOutAWaitingOne() throws Exception {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        Agent waiting = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(), Orders.lookup(),
                Orders.refund(new Orders.Ledger(), key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgentClient agents = server.start(agent);
            TemporalRun run = agents.start("A-1 と A-2 は?", "run-ended");
            run.result();

            assertThat(run.result(Duration.ZERO).status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(run.result(Duration.ofSeconds(-1)).status()).isEqualTo(RunStatus.SUCCEEDED);
        }
        // no time skipping: result(ZERO) would let the server skip past a step's activity still running under load
        try (TemporalTestServer server = new TemporalTestServer(false)) {
            TemporalRun run = server.start(waiting).start("A-1 を返金して", "run-waiting");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);

            assertThatThrownBy(() -> run.result(Duration.ZERO)).isInstanceOf(TimeoutException.class)
                    .hasMessageContaining("run-waiting");
            assertThatThrownBy(() -> run.result(Duration.ofSeconds(-1))).isInstanceOf(TimeoutException.class);
        }
    }
}
