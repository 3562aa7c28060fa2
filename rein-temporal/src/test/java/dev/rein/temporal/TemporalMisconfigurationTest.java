package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.testkit.RecordingListener;
import org.junit.jupiter.api.Test;

/** A run no worker serves, and a run id Temporal does not know, are refused saying what is wrong and what to do. */
class TemporalMisconfigurationTest {
    /**
     * A client that starts runs on a queue no worker polls (a misspelled queue, workers not started):
     * asking the run's status says so and names the queue, where Temporal's own answer, after about a
     * minute, was a bare DEADLINE_EXCEEDED.
     */
    @Test
    void aQueryAboutARunNoWorkerServesSaysSoAndNamesTheQueue() {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            server.start(agent);
            TemporalRun run = TemporalAgents.client(server.client(), "orders-typo", agent).start("A-1?", "run-no-worker");

            assertThatThrownBy(run::status).isInstanceOf(ReinException.class)
                    .hasMessageContaining("no worker answered a query about run 'run-no-worker'")
                    .hasMessageContaining("'orders-typo'").hasMessageContaining("TemporalAgents.worker");
        }
    }

    @Test
    void attachingToARunIdTemporalDoesNotKnowIsRefusedOnTheFirstQuery() {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).attach("run-never-started");

            assertThatThrownBy(run::pendingApprovals).isInstanceOf(ReinException.class)
                    .hasMessageContaining("Temporal has no run with id 'run-never-started'");
        }
    }
}
