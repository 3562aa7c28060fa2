package dev.rein.temporal;

import dev.rein.temporal.internal.RunInput;
import dev.rein.temporal.internal.AgentWorkflow;
import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.agent.AgentConfig;
import dev.rein.agent.DrivenRun;
import dev.rein.budget.ModelPrice;
import dev.rein.context.OutputStore;
import dev.rein.retry.RetryPolicy;
import dev.rein.security.TraceRedactor;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowServiceException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/** Starts runs of one agent as workflows and attaches to running ones. Immutable. */
public final class TemporalAgentClient {
    /**
     * How long a worker running an activity may go without a heartbeat before Temporal takes it for dead and retries
     * the activity on another worker (a live worker heartbeats, so a long call runs until the run's deadline).
     */
    public static final Duration DEFAULT_ATTEMPT_TIMEOUT = Duration.ofMinutes(5);
    /** The shortest attempt timeout {@link #withAttemptTimeout} takes: a worker must heartbeat within it, a few times. */
    public static final Duration SHORTEST_ATTEMPT_TIMEOUT = Duration.ofSeconds(1);
    /**
     * The workflow history's length (events) from which a run continues as new before its next step: under the 10,240
     * events at which Temporal warns, far under the 51,200 at which it terminates the workflow.
     */
    public static final int DEFAULT_HISTORY_LIMIT = 10_000;
    /**
     * How long a model call may wait for a worker to take it up (Temporal's schedule-to-start timeout, on each attempt)
     * before the run ends FAILED with {@code internal_error}: 365 days, the most any activity of a run without a time
     * limit may take. A run with a nearer deadline ends at the deadline first. The run's end then waits for a worker to
     * trace it no longer than the attempt timeout ({@link #DEFAULT_ATTEMPT_TIMEOUT} by default) before the run's result
     * comes untraced, so the result comes up to that much after the start timeout.
     */
    public static final Duration DEFAULT_MODEL_CALL_START_TIMEOUT = Duration.ofDays(365);
    /** The longest history limit {@link #withHistoryLimit} takes: room for a step's events under Temporal's 51,200. */
    public static final int LONGEST_HISTORY_LIMIT = 40_000;

    /**
     * The longest identifier Temporal takes by default, in bytes of UTF-8 ({@code limit.maxIDLength}; it counts bytes):
     * a run id, which is the workflow id ({@link #start(String, String)}, {@link #attach}), and a task queue's name
     * ({@link TemporalAgents#client}, {@link TemporalAgents#worker}) are refused over it. It is the value of
     * rein-core's limit on every new run id, which was set to Temporal's default so that any run id Rein takes fits.
     */
    public static final int LONGEST_ID_BYTES = dev.rein.internal.text.RunIds.LONGEST_BYTES;
    /**
     * The largest run input {@link #start(String, String)} sends, in bytes as the client's data converter writes it:
     * Temporal refuses a payload over 2 MB by default ({@code limit.blobSize.error}, Temporal Cloud's limit too). The
     * goal is most of it, and goes to the run's first activity as a payload of its own again.
     */
    public static final int LARGEST_INPUT_BYTES = 2 * 1024 * 1024;

    private final WorkflowClient client;
    private final String taskQueue;
    private final Agent agent;
    private final Duration attempt;
    private final OutputStore runStore;
    private final int historyLimit;
    private final Duration callStartTimeout;

    TemporalAgentClient(WorkflowClient client, String taskQueue, Agent agent, OutputStore runStore) {
        this(client, taskQueue, agent, DEFAULT_ATTEMPT_TIMEOUT, runStore, DEFAULT_HISTORY_LIMIT, DEFAULT_MODEL_CALL_START_TIMEOUT);
    }

    private TemporalAgentClient(WorkflowClient client, String taskQueue, Agent agent, Duration attempt, OutputStore runStore,
                                int historyLimit, Duration callStartTimeout) {
        this.client = Objects.requireNonNull(client, "client");
        this.taskQueue = Objects.requireNonNull(taskQueue, "taskQueue");
        this.agent = Objects.requireNonNull(agent, "agent");
        this.attempt = attempt;
        this.runStore = Objects.requireNonNull(runStore, "runStore");
        this.historyLimit = historyLimit;
        this.callStartTimeout = callStartTimeout;
    }

    /**
     * A client whose runs take a worker silent for {@code timeout} (no heartbeat) for dead and retry its activity elsewhere.
     * A timeout over 365 days counts as 365 days (Temporal sets none past 10,000 years), as each activity of a run
     * without a time limit may take 365 days.
     *
     * @throws IllegalArgumentException when {@code timeout} is null or shorter than {@link #SHORTEST_ATTEMPT_TIMEOUT}
     */
    public TemporalAgentClient withAttemptTimeout(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the attempt timeout must be positive, got " + timeout);
        }
        if (timeout.compareTo(SHORTEST_ATTEMPT_TIMEOUT) < 0) {
            // a live worker's heartbeats (a third of the timeout apart, at least 100 ms, throttled by the SDK) would come
            // too late: its calls would be taken for a dead worker's and made again, a tool's effect delivered twice
            throw new IllegalArgumentException("the attempt timeout must be at least 1 second, got " + timeout + ": a"
                    + " worker heartbeats a few times per attempt timeout, and with a shorter one a live worker's model and"
                    + " tool calls would be taken for a dead worker's and made again; set 1 second or more (the default"
                    + " is " + DEFAULT_ATTEMPT_TIMEOUT.toMinutes() + " minutes)");
        }
        return new TemporalAgentClient(client, taskQueue, agent, timeout, runStore, historyLimit, callStartTimeout);
    }

    /**
     * A client whose runs end FAILED with {@code internal_error} when a model call waits {@code timeout} for a worker to
     * take it up (Temporal's schedule-to-start timeout: no worker with the agent's activities polls the task queue, or
     * all of them were busy or stopped that long), each attempt counted on its own (after a retry's delay, after a lost
     * worker); the message names the queue and says to check that a worker of it runs with the agent registered. The
     * default is {@link #DEFAULT_MODEL_CALL_START_TIMEOUT}; a timeout over 365 days counts as 365 days (Temporal sets
     * none past 10,000 years). In a run whose deadline comes first, the run ends at its deadline as before. Give your
     * workers time to come back after a deployment: a call waiting longer ends the run. The run's end is traced by a
     * worker that takes it up within this timeout again, at most the attempt timeout ({@link #withAttemptTimeout}) and
     * in a run with a time limit at most until its deadline and a grace of 10 seconds; when none does, the result comes
     * untraced after that wait, so up to the attempt timeout after {@code timeout}.
     *
     * @throws IllegalArgumentException when {@code timeout} is null, zero or negative
     */
    public TemporalAgentClient withModelCallStartTimeout(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the model call's start timeout must be positive, got " + timeout
                    + ": it is how long a model call may wait for a worker to take it up before the run ends (the default"
                    + " is " + DEFAULT_MODEL_CALL_START_TIMEOUT.toDays() + " days)");
        }
        return new TemporalAgentClient(client, taskQueue, agent, attempt, runStore, historyLimit, timeout);
    }

    /**
     * A client whose runs continue as new once their workflow history reaches {@code events} (checked before each
     * step; also when Temporal suggests it, or the history reaches 10 MB): the run keeps its id, counters, pending
     * approvals and refused decisions, and goes on in a fresh history. An execution continues only once it has done
     * something (a step; in a pause, a signal), so even a limit of 1 goes on, a step per execution. The default is
     * {@link #DEFAULT_HISTORY_LIMIT}.
     *
     * @throws IllegalArgumentException when {@code events} is not positive or over {@link #LONGEST_HISTORY_LIMIT}
     */
    public TemporalAgentClient withHistoryLimit(int events) {
        if (events <= 0 || events > LONGEST_HISTORY_LIMIT) {
            throw new IllegalArgumentException("the history limit must be from 1 to " + String.format(java.util.Locale.ROOT, "%,d", LONGEST_HISTORY_LIMIT)
                    + " events, got " + events + ": Temporal terminates a workflow whose history reaches 51,200 events, and a"
                    + " run continues as new only between steps, so a step's events must still fit (the default is "
                    + String.format(java.util.Locale.ROOT, "%,d", DEFAULT_HISTORY_LIMIT) + ")");
        }
        return new TemporalAgentClient(client, taskQueue, agent, attempt, runStore, events, callStartTimeout);
    }

    /** Starts a run with a new id. */
    public TemporalRun start(String goal) {
        return start(goal, "rein-" + UUID.randomUUID());
    }

    /**
     * Starts a run whose workflow id (and run id) is {@code runId}.
     *
     * @throws ReinException when the goal or the run id is empty, the run id holds a control character (a line break,
     *                       an escape, DEL, a C1 control, U+2028 or U+2029) or half a surrogate pair (as every run id of
     *                       Rein's), or is over {@link #LONGEST_ID_BYTES} bytes of UTF-8, or the run's input (the goal) over {@link #LARGEST_INPUT_BYTES}, or a run with that
     *                       id is running or has ended (a run id is used once: the idempotency keys of its tool calls
     *                       are made from it), or Temporal refuses the start (said with what to do); no workflow is
     *                       started. Also when the calling thread is interrupted while Temporal is asked (its interrupt
     *                       is kept): the request may have reached Temporal, so the run may or may not have started, and
     *                       a start under the same id tells (it starts the run, or is refused as the id's run)
     */
    public TemporalRun start(String goal, String runId) {
        if (goal == null || goal.isBlank()) {
            throw new ReinException("the goal is empty: say what the agent should do");
        }
        if (runId == null || runId.isBlank()) {
            throw new ReinException("the run id is empty: give the workflow id the run should have, or use start(goal) for a new one");
        }
        String problem = dev.rein.internal.text.RunIds.problem(runId);
        if (problem != null) {
            // the run's first activity would refuse it (rein-core's rule): a workflow started only to fail
            throw new ReinException("the run id '" + dev.rein.internal.text.RunIds.shown(runId) + "' cannot be a run's id: "
                    + problem + ": give an id of whole characters and no control characters, or start(goal) for a new"
                    + " one; nothing was started");
        }
        int idBytes = runId.getBytes(StandardCharsets.UTF_8).length;
        if (idBytes > LONGEST_ID_BYTES) {
            throw new ReinException("the run id is " + count(idBytes) + " bytes of UTF-8 (" + count(runId.length())
                    + " characters), and Temporal takes a workflow id (the run id) of at most " + count(LONGEST_ID_BYTES)
                    + " bytes by default (limit.maxIDLength): give a shorter run id, or start(goal) for a new one; nothing"
                    + " was started");
        }
        RunInput input = input(goal);
        long inputBytes = payloadBytes(client, input);
        if (inputBytes > LARGEST_INPUT_BYTES) {
            throw new ReinException("the goal is too large to start a run on Temporal: with it the run's input is "
                    + count(inputBytes) + " bytes (the goal " + count(goal.length()) + " characters, "
                    + count(goal.getBytes(StandardCharsets.UTF_8).length) + " bytes of UTF-8), and Temporal refuses a payload"
                    + " over 2 MB (" + count(LARGEST_INPUT_BYTES) + " bytes) by default (limit.blobSize.error): keep the"
                    + " large text out of the goal (put it where the agent's tools can read it, a file or a store, and name"
                    + " it in the goal); nothing was started");
        }
        // a call's idempotency key is runId:step:index, so a second run under the id of one that ended would present
        // that run's keys: an idempotent tool would answer its calls with the old run's effects and apply nothing
        AgentWorkflow workflow = client.newWorkflowStub(AgentWorkflow.class, WorkflowOptions.newBuilder()
                .setTaskQueue(taskQueue).setWorkflowId(runId)
                .setWorkflowIdReusePolicy(WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE).build());
        try {
            WorkflowClient.start(workflow::run, input);
        } catch (WorkflowServiceException e) {
            throw notStarted(runId, e);
        } catch (WorkflowExecutionAlreadyStarted e) {
            if (running(runId)) {
                throw new ReinException("a run with id '" + runId + "' is already running on Temporal: attach(\"" + runId
                        + "\") to follow it, or start this goal with another run id", e);
            }
            throw new ReinException("a run with id '" + runId + "' already ran on Temporal and has ended: a run id is used"
                    + " once, since its tool calls' idempotency keys are made from it (runId:step:index) and a new run"
                    + " under it would repeat the old run's keys, so idempotent tools would not apply its effects. Start"
                    + " this goal with another run id (or start(goal) for a new one), or attach(\"" + runId
                    + "\") to read the old run's result", e);
        }
        return attach(runId);
    }

    /**
     * Temporal's refusal of the start (a limit of the server's, a namespace it lacks, a service it cannot reach) in words
     * that say what was refused and what to do, where its WorkflowServiceException named only the workflow.
     */
    private ReinException notStarted(String runId, WorkflowServiceException e) {
        if (interrupted(e)) {
            // the request may have reached the service before gRPC cancelled the call: a start under the same id tells
            return interruptedCall("the start of run '" + runId + "' on task queue '" + taskQueue + "'", "the run may or"
                    + " may not have been started: start it again with the same run id (start(goal, \"" + runId + "\")),"
                    + " which starts it, or, if the first start reached Temporal, is refused saying a run with this id is"
                    + " running or has ended (attach(\"" + runId + "\") then follows it), so it cannot run twice", e);
        }
        return refused(client, "Temporal did not start run '" + runId + "' on task queue '" + taskQueue + "'",
                "the server refused the run's id or input: check them against the server's limits (limit.maxIDLength,"
                        + " limit.blobSize.error; the defaults are " + count(LONGEST_ID_BYTES) + " bytes and 2 MB), and"
                        + " give a shorter run id or a smaller goal",
                "give a smaller goal", "start the run again", "nothing was started", e);
    }

    /**
     * A call Temporal's service refused (a start, a signal, a query, a cancel) as a ReinException: {@code refused} says
     * what was not done, then Temporal's gRPC status and what to do for it. A caller gets Rein's words, not the SDK's
     * WorkflowServiceException, which names only the workflow.
     *
     * @param invalid  what to do when the server refused the call's content (INVALID_ARGUMENT)
     * @param smaller  what to make smaller when the request was too large (RESOURCE_EXHAUSTED)
     * @param again    what to do again once the service answers
     * @param nothing  what was therefore not done ("nothing was started")
     */
    static ReinException refused(WorkflowClient client, String refused, String invalid, String smaller, String again,
                                 String nothing, WorkflowServiceException e) {
        Throwable cause = e.getCause();
        io.grpc.Status status = cause instanceof io.grpc.StatusRuntimeException grpc ? grpc.getStatus() : null;
        String said = status == null ? String.valueOf(cause == null ? e.getMessage() : cause.getMessage())
                : status.getCode() + (status.getDescription() == null ? "" : ": " + status.getDescription());
        String namespace = client.getOptions().getNamespace();
        String todo = status == null ? "check the Temporal service and the client's options"
                : switch (status.getCode()) {
                    case INVALID_ARGUMENT -> invalid;
                    case RESOURCE_EXHAUSTED -> "the request was too large (a gRPC message takes 4 MB by default) or the"
                            + " namespace is over its rate limit: " + smaller + ", or " + again + " later";
                    case NOT_FOUND -> "the client's namespace ('" + namespace + "') does not exist on this service: create"
                            + " it, or build the client with the workers' namespace";
                    case UNAVAILABLE, DEADLINE_EXCEEDED -> "the Temporal service could not be reached in time: check that it"
                            + " runs and that the client's target is right, then " + again;
                    case PERMISSION_DENIED, UNAUTHENTICATED -> "the client may not do this in namespace '" + namespace
                            + "': check its credentials";
                    default -> "check the Temporal service, then " + again;
                };
        return new ReinException(refused + " (" + said + "): " + todo + "; " + nothing, e);
    }

    /**
     * Whether the calling thread's interrupt ended a call to Temporal's service: gRPC cancels a blocking call whose
     * thread is interrupted, and Temporal reports that as the service's failure ("The gRPC request was cancelled"). The
     * thread's interrupt is set, or an interrupt caused the failure.
     */
    static boolean interrupted(Throwable e) {
        return Thread.currentThread().isInterrupted() || dev.rein.temporal.internal.Interrupts.caused(e);
    }

    /**
     * A call that changes a run (a start, a decision, a cancel) ended by the calling thread's interrupt, whose interrupt
     * is kept. The request may have reached the service before gRPC cancelled the call, so {@code outcome} says that it
     * may or may not have taken effect and how to tell.
     */
    static ReinException interruptedCall(String call, String outcome, WorkflowServiceException e) {
        Thread.currentThread().interrupt();
        return new ReinException(call + " was interrupted while Temporal was asked to take it (the calling thread's"
                + " interrupt, which it keeps): " + outcome, e);
    }

    /**
     * The size of {@code value} as a payload written by {@code client}'s converter (and codec), which Temporal measures
     * against its payload limit; 0 when it cannot be told here (the call reports a converter's failure itself).
     */
    static long payloadBytes(WorkflowClient client, Object value) {
        try {
            return client.getOptions().getDataConverter().toPayloads(value).map(p -> (long) p.getSerializedSize()).orElse(0L);
        } catch (RuntimeException e) {
            return 0;
        }
    }

    static String count(long n) {
        return String.format(java.util.Locale.ROOT, "%,d", n);
    }

    private boolean running(String runId) {
        try {
            return client.newUntypedWorkflowStub(runId).describe().getStatus()
                    == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;
        } catch (RuntimeException e) {
            return true; // Temporal said the id is taken; without more, the likelier case
        }
    }

    /**
     * A handle on a run started earlier (by any process).
     *
     * @throws ReinException when the run id is empty, holds a control character or half a surrogate pair (start
     *                       refuses those), or is longer than {@link #LONGEST_ID_BYTES} bytes of UTF-8 (an id
     *                       Temporal does not know is said at the handle's first call)
     */
    public TemporalRun attach(String runId) {
        if (runId == null || runId.isBlank()) {
            // Temporal would say it only at each call, as an IllegalArgumentException or a bare NullPointerException
            throw new ReinException("the run id is empty: give the id of the run to follow (the workflow id start"
                    + " returned, TemporalRun.runId())");
        }
        String problem = dev.rein.internal.text.RunIds.problem(runId);
        if (problem != null) {
            // start refuses such an id, so no run has it
            throw new ReinException("no run has the id '" + dev.rein.internal.text.RunIds.shown(runId) + "': " + problem
                    + ", and start refuses such an id; check the id (the workflow id start returned, TemporalRun.runId())");
        }
        int idBytes = runId.getBytes(StandardCharsets.UTF_8).length;
        if (idBytes > LONGEST_ID_BYTES) {
            // start refuses such an id, so no run has it; Temporal would refuse each call with a bare INVALID_ARGUMENT
            throw new ReinException("no run has this id: it is " + count(idBytes)
                    + " bytes of UTF-8, over the " + count(LONGEST_ID_BYTES) + " a run id (the workflow id) may have;"
                    + " check the id (the workflow id start returned, TemporalRun.runId())");
        }
        return new TemporalRun(client, runId, runStore, agent, taskQueue);
    }

    private RunInput input(String goal) {
        AgentConfig c = agent.config();
        Map<String, ModelPrice> prices = c.prices().entries();
        // the workflow rebuilds its table from these rows alone, which lose find's reading of a gateway's name
        // (openai/gpt-5 at OpenAI's gpt-5): the model's own price is sent under its name, as find gives it here
        ModelPrice own = c.prices().find(c.modelName()).orElse(null);
        if (own != null && !prices.containsKey(c.modelName())) {
            prices = new java.util.LinkedHashMap<>(prices);
            prices.put(c.modelName(), own);
        }
        RetryPolicy retry = c.retryPolicy();
        // the input stays in the workflow history (the run's record on Temporal), so a known secret is masked before it
        // is sent, as the local run masks the goal before it keeps or shows it
        String masked = new TraceRedactor(c.secrets()::known).redact(goal);
        return new RunInput(masked, c.modelName(), c.budget(), prices, c.maxTokens(), c.maxVerificationFailures(),
                DrivenRun.MAX_EMPTY_NUDGES, attempt, retry.maxRetries(), retry.initialDelay(), retry.maxDelay(), historyLimit,
                callStartTimeout, null);
    }
}
