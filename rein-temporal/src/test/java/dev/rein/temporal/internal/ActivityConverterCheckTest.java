package dev.rein.temporal.internal;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.agent.Agent;
import dev.rein.context.OutputStore;
import dev.rein.testkit.ScriptedModel;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.activity.ActivityInfo;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.failure.ApplicationFailure;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;

/** The check of an activity worker's converter, on contexts a worker may hand an activity. */
class ActivityConverterCheckTest {
    private static AgentActivitiesImpl activities() {
        Agent agent = Agent.builder().model(ScriptedModel.of(ScriptedModel.text("done"))).build();
        return new AgentActivitiesImpl(agent, OutputStore.inMemory());
    }

    private static ActivityExecutionContext context(WorkflowClient client) {
        ActivityInfo info = (ActivityInfo) Proxy.newProxyInstance(ActivityInfo.class.getClassLoader(),
                new Class<?>[] {ActivityInfo.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getActivityTaskQueue" -> "orders";
                    default -> null;
                });
        return (ActivityExecutionContext) Proxy.newProxyInstance(ActivityExecutionContext.class.getClassLoader(),
                new Class<?>[] {ActivityExecutionContext.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getWorkflowClient" -> client;
                    case "getInfo" -> info;
                    default -> null;
                });
    }

    /** A context that does not give its worker's client (a test double, say): nothing to check, the activity goes on. */
    @Test
    void aContextWithoutItsWorkersClientIsNotChecked() {
        assertThatCode(() -> activities().requireReinsConverter(context(null))).doesNotThrowAnyException();
    }

    /** Probe: a worker whose client has Temporal's default converter is refused, naming the queue. */
    @Test
    void aWorkerWithTemporalsDefaultConverterIsRefused() {
        WorkflowClient client = (WorkflowClient) Proxy.newProxyInstance(WorkflowClient.class.getClassLoader(),
                new Class<?>[] {WorkflowClient.class}, (proxy, method, args) -> method.getName().equals("getOptions")
                        ? WorkflowClientOptions.newBuilder().validateAndBuildWithDefaults() : null);
        assertThatThrownBy(() -> activities().requireReinsConverter(context(client)))
                .isInstanceOf(ApplicationFailure.class).hasMessageContaining("task queue 'orders'")
                .hasMessageContaining("TemporalAgents.clientOptions()");
    }
}
