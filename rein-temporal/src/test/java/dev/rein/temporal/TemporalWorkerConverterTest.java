package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.trace.TraceEvent;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.worker.WorkerFactory;
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

    /**
     * A worker of the agent's activities whose factory's client lacks Rein's converter (the workflow's worker has it):
     * the run ends FAILED at its first activity saying what to set on that worker's client, where the activity failed
     * and was retried until the run's deadline (the result's wait timed out with nothing said).
     */
    @Test
    void aRunWhoseActivityWorkerLacksReinsConverterEndsFailedSayingWhatToSetOnIt() throws Exception {
        RecordingListener trace = new RecordingListener();
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), trace, Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgents.workflows(server.env.newWorker(TemporalTestServer.QUEUE));
            WorkerFactory other = WorkerFactory.newInstance(WorkflowClient.newInstance(server.env.getWorkflowServiceStubs(),
                    WorkflowClientOptions.newBuilder().setNamespace(server.env.getNamespace()).build()));
            TemporalAgents.activities(other.newWorker(TemporalTestServer.QUEUE), agent);
            server.env.start();
            other.start();
            try {
                TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent).start("A-1 はどこ?",
                        "run-bad-activities");

                RunResult result = run.result(Duration.ofSeconds(20));

                assertThat(result.status()).isEqualTo(RunStatus.FAILED);
                assertThat(result.reason()).isEqualTo("internal_error");
                assertThat(result.message()).contains("data converter").contains("TemporalAgents.clientOptions()")
                        .contains("'" + TemporalTestServer.QUEUE + "'");
                assertThat(trace.events(TraceEvent.RunStarted.class)).isEmpty();
            } finally {
                other.shutdownNow();
            }
        }
    }
}
