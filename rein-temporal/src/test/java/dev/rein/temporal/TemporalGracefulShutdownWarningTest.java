package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.testkit.RecordingListener;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerOptions;
import org.junit.jupiter.api.Test;

/**
 * After a graceful WorkerFactory.shutdown the SDK refuses an activity's heartbeats unless the worker's options allow
 * them, so a call still running past the attempt timeout is taken for lost and made again on another worker: a worker
 * whose options lack WorkerOptions.Builder.setAllowActivityHeartbeatDuringShutdown(true) is warned of once, when the
 * agent's activities are registered (before: nothing was said).
 */
class TemporalGracefulShutdownWarningTest {
    private static Agent agent() {
        return Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
    }

    @Test
    void aWorkerWithoutHeartbeatsDuringShutdownIsWarnedOfNamingTheOption() {
        try (TemporalTestServer server = new TemporalTestServer()) {
            Worker worker = server.env.newWorker("キュー-default");
            assertThat(TemporalAgents.heartbeatWarning(worker)).contains("キュー-default")
                    .contains("WorkerOptions.Builder.setAllowActivityHeartbeatDuringShutdown(true)")
                    .contains("WorkerFactory.shutdown").contains("made again on another worker");
            TemporalAgents.activities(worker, agent()); // registers, warning in the log (a probe that it still does)
        }
    }

    @Test
    void aWorkerThatAllowsHeartbeatsDuringShutdownIsNotWarnedOf() {
        try (TemporalTestServer server = new TemporalTestServer()) {
            Worker worker = server.env.newWorker("allowed", WorkerOptions.newBuilder()
                    .setAllowActivityHeartbeatDuringShutdown(true).build());
            assertThat(TemporalAgents.heartbeatWarning(worker)).isNull();
        }
    }
}
