package dev.rein.temporal;

import dev.rein.agent.Agent;
import io.temporal.client.WorkflowClient;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;

/** The in-process Temporal test server with Rein's data converter, and one worker for an agent. */
final class TemporalTestServer implements AutoCloseable {
    static final String QUEUE = "rein-test";
    final TestWorkflowEnvironment env;

    TemporalTestServer() {
        env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
                .setWorkflowClientOptions(TemporalAgents.clientOptions().build()).build());
    }

    TemporalAgentClient start(Agent agent) {
        Worker worker = env.newWorker(QUEUE);
        TemporalAgents.worker(worker, agent);
        env.start();
        return TemporalAgents.client(client(), QUEUE, agent);
    }

    WorkflowClient client() {
        return env.getWorkflowClient();
    }

    @Override
    public void close() {
        env.close();
    }
}
