package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import io.temporal.client.WorkflowNotFoundException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What Temporal refuses at a workflow's start (its documented defaults: identifiers up to 1,000 bytes of UTF-8,
 * limit.maxIDLength; a payload up to 2 MB, limit.blobSize.error; a gRPC message up to 4 MB) is refused by
 * TemporalAgentClient.start before anything is sent, saying the limit and what to do, where Temporal's
 * WorkflowServiceException came back (or, on the test server, which enforces neither, a run the server could not keep).
 */
class TemporalStartLimitsTest {
    private static Agent agent() {
        return Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
    }

    /** A run id over 1,000 bytes of UTF-8 is refused naming the limit; no workflow starts. */
    @Test
    void aRunIdLongerThanTemporalTakesIsRefusedBeforeTheStart() {
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgentClient client = server.start(agent());
            String id = "注文".repeat(167) + "-x"; // 1,004 bytes of UTF-8, 336 characters

            assertThatThrownBy(() -> client.start("A-1 はどこ?", id)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("1,004 bytes").hasMessageContaining("1,000")
                    .hasMessageContaining("limit.maxIDLength").hasMessageContaining("shorter run id");
            assertThatThrownBy(() -> server.client().newUntypedWorkflowStub(id).describe())
                    .isInstanceOf(WorkflowNotFoundException.class);
        }
    }

    /**
     * attach with such an id says no run has it (start refuses it), where each call of the handle would meet the
     * server's bare INVALID_ARGUMENT (failed before: a handle was made).
     */
    @Test
    void attachingARunIdLongerThanTemporalTakesSaysNoRunHasIt() {
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgentClient client = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent());
            assertThatThrownBy(() -> client.attach("r".repeat(1001))).isInstanceOf(ReinException.class)
                    .hasMessageContaining("no run has this id").hasMessageContaining("1,001 bytes");
        }
    }

    /**
     * A task queue name over 1,000 bytes (limit.maxIDLength covers task queues too) is refused when the client is made,
     * where Temporal would refuse each start with a bare INVALID_ARGUMENT (failed before: the client was made).
     */
    @Test
    void aTaskQueueNameLongerThanTemporalTakesIsRefusedWhenTheClientIsMade() {
        try (TemporalTestServer server = new TemporalTestServer()) {
            assertThatThrownBy(() -> TemporalAgents.client(server.client(), "キ".repeat(334), agent()))
                    .isInstanceOf(ReinException.class).hasMessageContaining("1,002 bytes")
                    .hasMessageContaining("limit.maxIDLength").hasMessageContaining("shorter name");
        }
    }

    /**
     * The same name on the workers' side is refused when the agent is registered, as the client refuses it, where the
     * worker would poll in vain (Temporal refuses each poll) and no run of the queue could start (failed before: the
     * agent was registered).
     */
    @Test
    void aTaskQueueNameLongerThanTemporalTakesIsRefusedWhenTheWorkerRegistersTheAgent() {
        try (TemporalTestServer server = new TemporalTestServer()) {
            String queue = "キ".repeat(334); // 1,002 bytes of UTF-8
            for (java.util.function.Consumer<io.temporal.worker.Worker> registration : java.util.List.<java.util.function.Consumer<io.temporal.worker.Worker>>of(
                    w -> TemporalAgents.worker(w, agent()), TemporalAgents::workflows, w -> TemporalAgents.activities(w, agent()))) {
                io.temporal.worker.Worker worker = server.env.newWorker(queue + registration.hashCode());
                assertThatThrownBy(() -> registration.accept(worker)).isInstanceOf(ReinException.class)
                        .hasMessageContaining("bytes of UTF-8").hasMessageContaining("limit.maxIDLength")
                        .hasMessageContaining("shorter name").hasMessageContaining("WorkerFactory.newWorker");
            }
        }
    }

    /**
     * A run id with a control character (a line break, an escape, DEL, a C1 control, U+2028) is refused by start before
     * any workflow starts, saying which character and where, with the id shown escaped, as rein-core refuses it (failed
     * before: the workflow started and the run failed at its first activity).
     */
    @Test
    void aRunIdWithAControlCharacterIsRefusedBeforeTheStart() {
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgentClient client = server.start(agent());
            for (String id : java.util.List.of("run\n2", "run-\u001b[31m", "run\u007f", "run\u0085", "注文\u2028x")) {
                assertThatThrownBy(() -> client.start("A-1 はどこ?", id)).isInstanceOf(ReinException.class)
                        .hasMessageContaining("control character").hasMessageContaining("nothing was started")
                        .hasMessageNotContaining(id);
                assertThatThrownBy(() -> server.client().newUntypedWorkflowStub(id).describe())
                        .isInstanceOf(WorkflowNotFoundException.class);
            }
            assertThatThrownBy(() -> client.start("A-1 はどこ?", "run\n2")).hasMessageContaining("'run\\x0a2'")
                    .hasMessageContaining("U+000A (a line feed) at index 3");
        }
    }

    /** Half a surrogate pair in a run id (no UTF-8 form) is refused by start too, before any workflow starts. */
    @Test
    void aRunIdWithHalfASurrogatePairIsRefusedBeforeTheStart() {
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgentClient client = server.start(agent());
            String id = "run-\ud83d";
            assertThatThrownBy(() -> client.start("A-1 はどこ?", id)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("UTF-8").hasMessageContaining("nothing was started");
        }
    }

    /** attach with such an id says no run has it, as for an over-long id (failed before: a handle was made). */
    @Test
    void attachingARunIdWithAControlCharacterSaysNoRunHasIt() {
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgentClient client = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent());
            assertThatThrownBy(() -> client.attach("run\r\n2")).isInstanceOf(ReinException.class)
                    .hasMessageContaining("no run has the id").hasMessageContaining("control character")
                    .hasMessageContaining("'run\\x0d\\x0a2'");
        }
    }

    /** A run id of exactly 1,000 bytes is Temporal's to take: the run goes on (probe of the bound). */
    @Test
    void aRunIdOfTheLimitRuns() throws Exception {
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgentClient client = server.start(agent());
            String id = "r".repeat(1000);
            RunResult result = client.start("A-1 はどこ?", id).result(Duration.ofSeconds(60));
            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.runId()).isEqualTo(id);
        }
    }

    /** A goal whose input is over Temporal's 2 MB payload limit is refused naming its size and what to do. */
    @Test
    void aGoalOverTemporalsPayloadLimitIsRefusedBeforeTheStart() {
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgentClient client = server.start(agent());
            String goal = "配達状況を調べて。".repeat(80_000); // 720,000 characters, 2,160,000 bytes of UTF-8

            assertThatThrownBy(() -> client.start(goal, "run-huge-goal")).isInstanceOf(ReinException.class)
                    .hasMessageContaining("2 MB").hasMessageContaining("limit.blobSize.error")
                    .hasMessageContaining("goal");
            assertThatThrownBy(() -> server.client().newUntypedWorkflowStub("run-huge-goal").describe())
                    .isInstanceOf(WorkflowNotFoundException.class);
        }
    }

    /**
     * Any other refusal of the start by Temporal's service (here: no service at the client's target) is a ReinException
     * saying what was refused and what to do (failed before: Temporal's WorkflowServiceException, naming only the
     * workflow).
     */
    @Test
    void aServiceErrorAtTheStartIsSaidWithWhatToDo() {
        io.temporal.serviceclient.WorkflowServiceStubs nowhere = io.temporal.serviceclient.WorkflowServiceStubs.newServiceStubs(
                io.temporal.serviceclient.WorkflowServiceStubsOptions.newBuilder().setTarget("127.0.0.1:1")
                        .setRpcRetryOptions(io.temporal.serviceclient.RpcRetryOptions.newBuilder().setMaximumAttempts(1)
                                .validateBuildWithDefaults()).build());
        try {
            io.temporal.client.WorkflowClient client = io.temporal.client.WorkflowClient.newInstance(nowhere,
                    TemporalAgents.clientOptions().build());
            TemporalAgentClient agents = TemporalAgents.client(client, "orders", agent());

            assertThatThrownBy(() -> agents.start("A-1 はどこ?", "run-no-service")).isInstanceOf(ReinException.class)
                    .hasMessageContaining("Temporal did not start run 'run-no-service' on task queue 'orders'")
                    .hasMessageContaining("UNAVAILABLE").hasMessageContaining("could not be reached")
                    .hasMessageContaining("nothing was started");
        } finally {
            nowhere.shutdownNow();
        }
    }

    /**
     * A workflow started around the client (a raw stub) under an id with a line break ends FAILED configuration_error,
     * saying so in the workflow's terms (before: internal_error, "begin(...) was given run id ...").
     */
    @Test
    void aWorkflowStartedAroundTheClientUnderAnIdNoRunCanHaveEndsAsAConfigurationError() {
        try (TemporalTestServer server = new TemporalTestServer()) {
            server.start(agent());
            dev.rein.temporal.internal.RunInput input = new dev.rein.temporal.internal.RunInput("A-1 はどこ?", dev.rein.testkit.ScriptedModel.DEFAULT_NAME,
                    dev.rein.budget.Budget.defaults(), java.util.Map.of(), 1024, 2, 1, Duration.ofMinutes(1), 2,
                    Duration.ofSeconds(1), Duration.ofSeconds(10));
            io.temporal.client.WorkflowStub stub = server.client().newUntypedWorkflowStub("ReinAgentRun",
                    io.temporal.client.WorkflowOptions.newBuilder().setTaskQueue(TemporalTestServer.QUEUE).setWorkflowId("raw\nid").build());
            stub.start(input);
            RunResult result = stub.getResult(RunResult.class);
            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.reason()).isEqualTo("configuration_error");
            assertThat(result.message()).startsWith("the workflow id 'raw\\x0aid' cannot be a run's id")
                    .contains("TemporalAgentClient.start");
        }
    }
}
