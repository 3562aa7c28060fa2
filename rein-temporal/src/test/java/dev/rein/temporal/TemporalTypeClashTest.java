package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;
import io.temporal.worker.Worker;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The application's own workflow or activity type named like one of Rein's (ReinAgentRun, Rein* activities) on the
 * worker the agent is registered on: refused before anything of the agent is registered, naming the type and what to do.
 */
class TemporalTypeClashTest {
    /** An application activity whose name is one of Rein's (the last Rein registers, so the others would go first). */
    @ActivityInterface
    public interface Shipping {
        @ActivityMethod(name = "ReinStopForBudget")
        String ship(String order);
    }

    public static final class ShippingImpl implements Shipping {
        @Override
        public String ship(String order) {
            return "shipped " + order;
        }
    }

    /** An application workflow whose type is Rein's run workflow's. */
    @WorkflowInterface
    public interface Fulfilment {
        @WorkflowMethod(name = "ReinAgentRun")
        String fulfil(String order);
    }

    public static final class FulfilmentImpl implements Fulfilment {
        @Override
        public String fulfil(String order) {
            return order;
        }
    }

    private static Agent agent() {
        return Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
    }

    /**
     * An application activity named like one of Rein's is refused with a ReinException naming it and saying to rename it
     * or give it another worker, and nothing of the agent is registered: the workflow is still free to register (failed
     * before: Temporal's TypeAlreadyRegisteredException in Rein's "already runs an agent" words, with the workflow and
     * some of the activities registered, so the worker could take the agent no more).
     */
    @Test
    void anApplicationActivityNamedLikeOneOfReinsIsRefusedWithNothingRegistered() {
        try (TemporalTestServer server = new TemporalTestServer()) {
            Worker worker = server.env.newWorker(TemporalTestServer.QUEUE);
            worker.registerActivitiesImplementations(new ShippingImpl());

            assertThatThrownBy(() -> TemporalAgents.worker(worker, agent())).isInstanceOf(ReinException.class)
                    .hasMessageContaining("'ReinStopForBudget'").hasMessageContaining("activity type")
                    .hasMessageContaining("rename").hasMessageContaining("nothing of the agent was registered");
            assertThatThrownBy(() -> TemporalAgents.activities(worker, agent())).isInstanceOf(ReinException.class)
                    .hasMessageContaining("'ReinStopForBudget'");
            TemporalAgents.workflows(worker); // the workflow was not registered by the refused worker(...)
        }
    }

    /**
     * An application workflow whose type is ReinAgentRun is refused naming it, and the agent's activities are not
     * registered: they still register alone, and a run goes on the queue's other worker (failed before: Temporal's
     * TypeAlreadyRegisteredException worded as "already runs an agent").
     */
    @Test
    void anApplicationWorkflowNamedLikeReinsIsRefusedWithNothingRegistered() throws Exception {
        Agent agent = agent();
        try (TemporalTestServer server = new TemporalTestServer()) {
            Worker worker = server.env.newWorker(TemporalTestServer.QUEUE);
            worker.registerWorkflowImplementationTypes(FulfilmentImpl.class);

            assertThatThrownBy(() -> TemporalAgents.worker(worker, agent)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("'ReinAgentRun'").hasMessageContaining("workflow type")
                    .hasMessageContaining("rename").hasMessageContaining("nothing of the agent was registered");
            assertThatThrownBy(() -> TemporalAgents.workflows(worker)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("'ReinAgentRun'");
            TemporalAgents.activities(worker, agent); // nothing of the agent was registered: its activities still are

            Worker decider = server.env.newWorker("rein-clash-workflows");
            TemporalAgents.worker(decider, agent);
            server.env.start();
            RunResult result = TemporalAgents.client(server.client(), "rein-clash-workflows", agent)
                    .start("A-1 はどこ?", "run-after-clash").result(Duration.ofSeconds(60));
            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        }
    }
}
