package dev.rein.temporal;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rein.agent.Agent;
import dev.rein.json.Json;
import dev.rein.temporal.internal.AgentActivitiesImpl;
import dev.rein.temporal.internal.AgentWorkflowImpl;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.common.converter.JacksonJsonPayloadConverter;
import io.temporal.worker.Worker;

/**
 * Runs an {@link Agent} on Temporal: the same agent definition (tools, policies, listeners) as a
 * local run. A worker registers it with {@link #worker}; a client starts runs with
 * {@link #client}. Both sides need {@link #dataConverter()} on their {@link WorkflowClient}
 * ({@link #clientOptions()} sets it).
 */
public final class TemporalAgents {
    private TemporalAgents() {}

    /** Rein's own JSON form for runs, messages and results (Unicode intact), for every payload. */
    public static DataConverter dataConverter() {
        ObjectMapper mapper = Json.storedMapper().copy().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        return DefaultDataConverter.newDefaultInstance().withPayloadConverterOverrides(new JacksonJsonPayloadConverter(mapper));
    }

    /** Client options with Rein's data converter; add the namespace and the rest as needed. */
    public static WorkflowClientOptions.Builder clientOptions() {
        return WorkflowClientOptions.newBuilder().setDataConverter(dataConverter());
    }

    /**
     * Registers the agent's workflow and activities on {@code worker}. Every worker of a task
     * queue must register the same agent definition; start the worker factory afterwards.
     */
    public static void worker(Worker worker, Agent agent) {
        workflows(worker);
        activities(worker, agent);
    }

    /** Registers only the run workflow (workers that decide, and never call a model or a tool). */
    public static void workflows(Worker worker) {
        worker.registerWorkflowImplementationTypes(AgentWorkflowImpl.class);
    }

    /** Registers only the agent's activities (workers that call models and tools). */
    public static void activities(Worker worker, Agent agent) {
        worker.registerActivitiesImplementations(new AgentActivitiesImpl(agent));
    }

    /** Starts and follows runs of {@code agent} on {@code taskQueue}. */
    public static TemporalAgentClient client(WorkflowClient client, String taskQueue, Agent agent) {
        return new TemporalAgentClient(client, taskQueue, agent);
    }
}
