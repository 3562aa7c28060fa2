package dev.rein.temporal;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.time.Duration;

/** The in-process Temporal test server with Rein's data converter, and one worker for an agent. */
final class TemporalTestServer implements AutoCloseable {
    static final String QUEUE = "rein-test";
    final TestWorkflowEnvironment env;

    TemporalTestServer() {
        this(true);
    }

    /**
     * @param timeSkipping whether the server skips time while the test waits on a result; off for a test that asks
     *     for a waiting run's result, where a skip could pass the deadline of an activity still running on a busy machine
     */
    TemporalTestServer(boolean timeSkipping) {
        this(timeSkipping, new io.temporal.common.interceptors.WorkerInterceptor[0]);
    }

    /** @param interceptors for the workers made from {@link #env}: a test that waits on what a workflow does */
    TemporalTestServer(boolean timeSkipping, io.temporal.common.interceptors.WorkerInterceptor... interceptors) {
        env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
                .setWorkflowClientOptions(TemporalAgents.clientOptions().build()).setUseTimeskipping(timeSkipping)
                .setWorkerFactoryOptions(io.temporal.worker.WorkerFactoryOptions.newBuilder()
                        .setWorkerInterceptors(interceptors).build()).build());
    }

    TemporalAgentClient start(Agent agent) {
        Worker worker = env.newWorker(QUEUE);
        TemporalAgents.worker(worker, agent);
        env.start();
        return TemporalAgents.client(client(), QUEUE, agent);
    }

    /**
     * The run's result once it stopped running, polled every 100 ms for at most {@code limit}: waiting on
     * the result would let the test server skip time past a call's or the run's deadline at once.
     */
    static RunResult resultPolled(TemporalRun run, Duration limit) {
        long until = System.nanoTime() + limit.toNanos();
        while (run.status() == RunStatus.RUNNING && System.nanoTime() < until) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
        return run.result();
    }

    WorkflowClient client() {
        return env.getWorkflowClient();
    }

    @Override
    public void close() {
        env.close();
    }
}
