package dev.rein.temporal;

import dev.rein.temporal.internal.AgentWorkflow;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.context.OutputStore;
import dev.rein.json.Json;
import dev.rein.temporal.internal.AgentActivitiesImpl;
import dev.rein.temporal.internal.WorkerConverter;
import dev.rein.temporal.internal.WorkerTypes;
import io.temporal.worker.WorkflowImplementationOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.common.converter.JacksonJsonPayloadConverter;
import io.temporal.worker.TypeAlreadyRegisteredException;
import io.temporal.worker.Worker;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Runs an {@link Agent} on Temporal: the same agent definition (tools, policies, listeners) as a
 * local run. A worker registers it with {@link #worker}; a client starts runs with
 * {@link #client}. Both sides need {@link #dataConverter()} on their {@link WorkflowClient}
 * ({@link #clientOptions()} sets it).
 */
public final class TemporalAgents {
    private static final OutputStore IN_PROCESS = OutputStore.inMemory();
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(TemporalAgents.class);
    /**
     * What Rein registered on each worker (the Worker does not say), so that a registration is refused before anything
     * of it is registered; weak, so that a worker given up is forgotten. Guarded by itself.
     */
    private static final Map<Worker, Set<Part>> REGISTERED = new WeakHashMap<>();

    /** The two parts of an agent on a worker. */
    private enum Part { WORKFLOW, ACTIVITIES }

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
     * Registers the agent's workflow and activities on {@code worker}, keeping run snapshots and
     * tool results in {@code runStore} (by hash, out of the workflow's payloads). Every worker of a
     * task queue must register the same agent definition and share one run store (a directory on a
     * shared volume, or an {@link OutputStore} over a database or object store); start the worker
     * factory afterwards. A refused registration registers nothing: the worker is as it was.
     *
     * @throws ReinException when {@code worker}, {@code agent} or {@code runStore} is null, or the worker already runs an
     *                       agent's activities or has the run workflow, or has a workflow or activity type of the
     *                       application named like one of Rein's, or runs local activities only, or its factory
     *                       has started, or its task queue's name is longer than Temporal takes (1,000 bytes of UTF-8)
     */
    public static void worker(Worker worker, Agent agent, OutputStore runStore) {
        requireWorker(worker);
        requireAgentAndStore(agent, runStore);
        synchronized (REGISTERED) {
            // everything that can be refused is checked before anything is registered: Temporal cannot take a
            // registration back, and a worker left with the workflow but not the activities could take neither again
            refuseUnlessFree(worker, EnumSet.allOf(Part.class));
            registerWorkflow(worker);
            registerActivities(worker, agent, runStore);
        }
    }

    /**
     * As {@link #worker(Worker, Agent, OutputStore)} with {@link #inProcessStore()}: for workers
     * that all live in this one process (tests, a single-process deployment).
     */
    public static void worker(Worker worker, Agent agent) {
        worker(worker, agent, IN_PROCESS);
    }

    /**
     * Registers only the run workflow (workers that decide, and never call a model or a tool).
     *
     * @throws ReinException when {@code worker} is null, or it already has the workflow (a worker registers it once) or
     *                       a workflow type of the application named like it, or its factory has started, or its
     *                       task queue's name is longer than Temporal takes (1,000 bytes of UTF-8)
     */
    public static void workflows(Worker worker) {
        requireWorker(worker);
        synchronized (REGISTERED) {
            refuseUnlessFree(worker, EnumSet.of(Part.WORKFLOW));
            registerWorkflow(worker);
        }
    }

    private static void registerWorkflow(Worker worker) {
        try {
            // through a factory that checks the worker's data converter on the run's input first: the worker's client
            // is not visible here, and a worker without Rein's converter would fail the run's first workflow task
            // again and again, the run hanging with nothing said
            String queue = worker.getTaskQueue();
            DataConverter rein = dataConverter();
            worker.registerWorkflowImplementationFactory(AgentWorkflow.class,
                    input -> WorkerConverter.workflowFor(input, queue, rein), WorkflowImplementationOptions.getDefaultInstance());
        } catch (TypeAlreadyRegisteredException e) {
            // the worker's types could not be read beforehand: a workflow of the same name registered around Rein
            throw clash(worker, "workflow", e.getRegisteredTypeName(), e);
        }
        REGISTERED.computeIfAbsent(worker, w -> EnumSet.noneOf(Part.class)).add(Part.WORKFLOW);
    }

    /**
     * Registers only the agent's activities (workers that call models and tools), with a shared run store.
     *
     * @throws ReinException when the worker already runs an agent's activities (a worker runs one agent), or has an
     *                       activity type of the application named like one of Rein's, or runs local activities only, or its factory has started, or {@code worker}, {@code agent} or
     *                       {@code runStore} is null, or the worker's task queue's name is longer than Temporal takes
     *                       (1,000 bytes of UTF-8)
     */
    public static void activities(Worker worker, Agent agent, OutputStore runStore) {
        requireWorker(worker);
        requireAgentAndStore(agent, runStore);
        synchronized (REGISTERED) {
            refuseUnlessFree(worker, EnumSet.of(Part.ACTIVITIES));
            registerActivities(worker, agent, runStore);
        }
    }

    private static void registerActivities(Worker worker, Agent agent, OutputStore runStore) {
        try {
            worker.registerActivitiesImplementations(new AgentActivitiesImpl(agent, runStore));
        } catch (TypeAlreadyRegisteredException e) {
            // the worker's types could not be read beforehand: an activity of the same name registered around Rein
            throw clash(worker, "activity", e.getRegisteredTypeName(), e);
        }
        REGISTERED.computeIfAbsent(worker, w -> EnumSet.noneOf(Part.class)).add(Part.ACTIVITIES);
        String warning = heartbeatWarning(worker);
        if (warning != null) {
            LOG.warn(warning); // once: a worker runs one agent's activities
        }
    }

    /**
     * What a worker whose options refuse heartbeats during a graceful shutdown risks (Temporal's default), or null when
     * they allow them: after {@code WorkerFactory.shutdown} the SDK refuses each heartbeat, so a call that goes on past the
     * attempt timeout is taken for lost and made again elsewhere, a tool's effect perhaps twice.
     */
    static String heartbeatWarning(Worker worker) {
        if (worker.getWorkerOptions().getAllowActivityHeartbeatDuringShutdown()) {
            return null;
        }
        return "the worker of task queue '" + worker.getTaskQueue() + "' runs the agent's activities without"
                + " WorkerOptions.Builder.setAllowActivityHeartbeatDuringShutdown(true): once WorkerFactory.shutdown()"
                + " begins, Temporal's SDK refuses the heartbeats of its model and tool calls, and a call still running"
                + " past the attempt timeout (TemporalAgentClient.withAttemptTimeout) is taken for lost and made again on"
                + " another worker (a tool's effect perhaps twice); set the option on the worker's options (see"
                + " docs/temporal.md), or stop workers with shutdownNow(), whose interrupted calls are made again at once";
    }

    /**
     * Refuses a registration of {@code wanted} on {@code worker} when any of it would be refused: the worker has started,
     * runs local activities only (for the activities), or already has one of those parts.
     */
    private static void refuseUnlessFree(Worker worker, Set<Part> wanted) {
        if (hasStarted(worker)) {
            throw new ReinException("this worker (task queue '" + worker.getTaskQueue() + "') has started (its"
                    + " WorkerFactory was started), and Temporal takes no registration after that: register the agent"
                    + " (TemporalAgents.worker, workflows or activities) before factory.start()");
        }
        if (wanted.contains(Part.ACTIVITIES) && worker.getWorkerOptions().isLocalActivityWorkerOnly()) {
            // Temporal takes the registration as local activities, and no run would ever get Rein's (regular) ones
            throw new ReinException("this worker (task queue '" + worker.getTaskQueue() + "') runs local activities"
                    + " only (WorkerOptions.setLocalActivityWorkerOnly(true)), and the agent's activities are regular"
                    + " ones it never polls for, so every run would wait until its deadline: register the agent on a"
                    + " worker made without that option");
        }
        Set<Part> has = REGISTERED.getOrDefault(worker, EnumSet.noneOf(Part.class));
        if (wanted.contains(Part.ACTIVITIES) && has.contains(Part.ACTIVITIES)) {
            throw oneAgentPerWorker(worker);
        }
        if (wanted.contains(Part.WORKFLOW) && has.contains(Part.WORKFLOW)) {
            throw new ReinException("this worker (task queue '" + worker.getTaskQueue() + "') already has Rein's run"
                    + " workflow, and a worker registers it once" + (wanted.contains(Part.ACTIVITIES)
                    ? ": add the agent's activities alone with TemporalAgents.activities(worker, agent, runStore)"
                    : ""));
        }
        refuseClashes(worker, wanted);
    }

    /**
     * Refuses a registration when the application already registered a type of the same name on {@code worker} (Rein's
     * names are fixed): Temporal would register the agent's types up to that name and then throw, leaving the worker
     * with part of the agent.
     */
    private static void refuseClashes(Worker worker, Set<Part> wanted) {
        WorkerTypes.Registered has = WorkerTypes.registered(worker);
        if (has == null) {
            return; // the SDK's types could not be read: a clash is said by Temporal's exception, caught below
        }
        if (wanted.contains(Part.WORKFLOW) && has.workflows().contains(WorkerTypes.workflowType())) {
            throw clash(worker, "workflow", WorkerTypes.workflowType(), null);
        }
        if (wanted.contains(Part.ACTIVITIES)) {
            for (String type : WorkerTypes.activityTypes()) {
                if (has.activities().contains(type)) {
                    throw clash(worker, "activity", type, null);
                }
            }
        }
    }

    /** The application's own type named like one of Rein's, which Rein's fixed names need on this worker. */
    private static ReinException clash(Worker worker, String kind, String type, TypeAlreadyRegisteredException cause) {
        return new ReinException("this worker (task queue '" + worker.getTaskQueue() + "') already has a " + kind
                + " type named '" + type + "', registered outside Rein, and the agent needs that name (Rein's types are"
                + " the workflow " + WorkerTypes.workflowType() + " and the activities "
                + String.join(", ", WorkerTypes.activityTypes()) + "): rename your " + kind + " type ("
                + (kind.equals("workflow") ? "@WorkflowMethod(name = ...)" : "@ActivityMethod(name = ...) or"
                + " @ActivityInterface(namePrefix = ...)") + "), or register it on a worker of another task queue; "
                + (cause == null || kind.equals("workflow") ? "nothing of the agent was registered"
                : "Temporal kept the agent's types it registered before that name (it takes none back): register the"
                + " agent on a new worker"), cause);
    }

    /**
     * Whether the worker's factory has started it. The Worker does not say, but it refuses activities once started
     * (Temporal's own check), and registering none asks that check alone. The workflow factory Rein registers is not
     * checked by Temporal: on a worker started without a workflow it would be taken, and never polled for.
     */
    private static boolean hasStarted(Worker worker) {
        try {
            worker.registerActivitiesImplementations();
            return false;
        } catch (IllegalStateException e) {
            return true;
        }
    }

    /**
     * A null worker (a field not yet set) was a NullPointerException from inside the registration. A worker whose task
     * queue's name is longer than Temporal takes would poll in vain: the server refuses each of its polls (a bare
     * INVALID_ARGUMENT the SDK logs and retries), and no run could be started on that queue either.
     */
    private static void requireWorker(Worker worker) {
        if (worker == null) {
            throw new ReinException("the worker is null: pass the Worker of this agent's task queue"
                    + " (WorkerFactory.newWorker(taskQueue))");
        }
        requireQueueName(worker.getTaskQueue());
    }

    /**
     * Refuses a task queue name longer than Temporal takes ({@code limit.maxIDLength}, which covers task queues; it
     * counts bytes): the same check for the workers' queue and the client's.
     */
    private static void requireQueueName(String taskQueue) {
        int queueBytes = taskQueue.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (queueBytes > TemporalAgentClient.LONGEST_ID_BYTES) {
            throw new ReinException("the task queue's name is " + TemporalAgentClient.count(queueBytes)
                    + " bytes of UTF-8, and Temporal takes a task queue name of at most "
                    + TemporalAgentClient.count(TemporalAgentClient.LONGEST_ID_BYTES)
                    + " bytes by default (limit.maxIDLength): give the workers' queue a shorter name, in"
                    + " WorkerFactory.newWorker and in TemporalAgents.client");
        }
    }

    /**
     * A null agent or run store (a field not yet set, a factory that answered null) was a bare NullPointerException
     * naming the parameter, or one from deep in the activities: this says what to pass.
     */
    private static void requireAgentAndStore(Agent agent, OutputStore runStore) {
        if (agent == null) {
            throw new ReinException("the agent is null: pass the Agent this task queue runs (Agent.builder()...build()),"
                    + " the same definition on every worker and client of the queue");
        }
        if (runStore == null) {
            throw new ReinException("the run store is null: pass the OutputStore every worker of this task queue shares"
                    + " (OutputStore.directory(path) on a shared volume), or use the overload without one for workers that"
                    + " all live in this process (TemporalAgents.inProcessStore())");
        }
    }

    /** The workflow and activity names are fixed, so one worker (and its task queue) can hold only one agent. */
    private static ReinException oneAgentPerWorker(Worker worker) {
        return new ReinException("this worker (task queue '" + worker.getTaskQueue() + "') already runs an agent, and a"
                + " worker runs one: give each agent a task queue of its own (factory.newWorker(\"another-queue\")) and"
                + " start its runs with TemporalAgents.client on that queue");
    }

    /** As {@link #activities(Worker, Agent, OutputStore)} with {@link #inProcessStore()}. */
    public static void activities(Worker worker, Agent agent) {
        activities(worker, agent, IN_PROCESS);
    }

    /**
     * The run store the overloads without one use: this process's memory, shared by the workers
     * of this process only, and lost when it ends (runs in flight then fail on the next activity).
     */
    public static OutputStore inProcessStore() {
        return IN_PROCESS;
    }

    /**
     * Starts and follows runs of {@code agent} on {@code taskQueue}; results are read back with
     * their history from {@code runStore}, the workers' run store.
     *
     * @throws ReinException when {@code client}'s data converter writes JSON Rein's workers cannot read (Temporal's
     *                       default one, say) instead of {@link #dataConverter()} (a codec around it is fine), or
     *                       {@code taskQueue} is empty or null or longer than Temporal takes (1,000 bytes of UTF-8), or {@code client}, {@code agent} or {@code runStore} is null
     */
    public static TemporalAgentClient client(WorkflowClient client, String taskQueue, Agent agent, OutputStore runStore) {
        if (taskQueue == null || taskQueue.isBlank()) {
            // Temporal refuses it only at the first start, with an error that names neither the queue nor what to set (and
            // a null one, an unset configuration value, was a bare NullPointerException naming the parameter)
            throw new ReinException("the task queue is empty: give the workers' queue (the name passed to"
                    + " WorkerFactory.newWorker for the workers that run this agent)");
        }
        // Temporal refuses such a name at each start (limit.maxIDLength), with a bare INVALID_ARGUMENT
        requireQueueName(taskQueue);
        requireAgentAndStore(agent, runStore);
        // Temporal's own converter writes the run's input in a form Rein's workers cannot read: the run would start
        // and then hang on its first workflow task, with nothing said to the caller
        if (client == null) {
            throw new ReinException("the WorkflowClient is null: pass the client of your Temporal service, built with"
                    + " TemporalAgents.clientOptions() as the workers' client is");
        }
        DataConverter converter = client.getOptions().getDataConverter();
        if (converter == DefaultDataConverter.STANDARD_INSTANCE) {
            throw new ReinException("this WorkflowClient uses Temporal's default data converter, so Rein's workers could not"
                    + " read the runs it starts: build it with TemporalAgents.clientOptions() (or"
                    + " setDataConverter(TemporalAgents.dataConverter())), the same as the workers' client");
        }
        String unreadable = WorkerConverter.unreadable(converter);
        if (unreadable != null) {
            throw new ReinException("this WorkflowClient's data converter is not Rein's (" + unreadable + "), so Rein's"
                    + " workers could not read the runs it starts: build it with TemporalAgents.clientOptions() (or"
                    + " setDataConverter(TemporalAgents.dataConverter())), the same as the workers' client; a codec"
                    + " (encryption, compression) goes around it: new CodecDataConverter(TemporalAgents.dataConverter(), codecs)");
        }
        return new TemporalAgentClient(client, taskQueue, agent, runStore);
    }

    /** As {@link #client(WorkflowClient, String, Agent, OutputStore)} with {@link #inProcessStore()}. */
    public static TemporalAgentClient client(WorkflowClient client, String taskQueue, Agent agent) {
        return client(client, taskQueue, agent, IN_PROCESS);
    }
}
