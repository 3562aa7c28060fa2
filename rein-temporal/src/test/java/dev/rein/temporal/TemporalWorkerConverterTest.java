package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import io.temporal.client.WorkflowClient;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A worker whose WorkflowClient was built without Rein's data converter (the worker's client is not visible to
 * {@link TemporalAgents#worker}, so it cannot be refused when registered): the run it takes fails at once saying what to
 * set on the workers' client, instead of its first workflow task failing and being retried without end.
 */
class TemporalWorkerConverterTest {
    @Test
    void aRunTakenByAWorkerWithoutReinsConverterFailsAtOnceSayingWhatToSetOnTheWorkers() {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        // the workers' client: Temporal's defaults, Rein's converter forgotten
        try (TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance()) {
            Worker worker = env.newWorker(TemporalTestServer.QUEUE);
            TemporalAgents.worker(worker, agent);
            env.start();
            WorkflowClient starter = WorkflowClient.newInstance(env.getWorkflowServiceStubs(),
                    TemporalAgents.clientOptions().setNamespace(env.getNamespace()).build());
            TemporalRun run = TemporalAgents.client(starter, TemporalTestServer.QUEUE, agent).start("A-1 はどこ?", "run-bad-worker");

            assertThatThrownBy(() -> run.result(Duration.ofSeconds(20))).isInstanceOf(ReinException.class)
                    .hasMessageContaining("run 'run-bad-worker'")
                    .hasMessageContaining("data converter")
                    .hasMessageContaining("TemporalAgents.clientOptions()")
                    .hasMessageContaining("'" + TemporalTestServer.QUEUE + "'");
            assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        }
    }
}
