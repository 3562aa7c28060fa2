package dev.rein.temporal.internal;

import dev.rein.temporal.TemporalAgents;
import io.temporal.api.common.v1.Payload;
import io.temporal.api.common.v1.Payloads;
import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.EncodedValues;
import io.temporal.failure.ApplicationFailure;
import java.util.Optional;

/**
 * The workflow's first check, on the worker: that the worker's data converter reads the run's input as Rein's does.
 * A worker whose WorkflowClient lacks Rein's converter would otherwise fail its first workflow task, which Temporal
 * retries without end: the run would hang with nothing said to anyone.
 */
public final class WorkerConverter {
    /** The failure type of a run a worker could not read (a workflow failure, so that the run ends at once). */
    public static final String UNREADABLE = "rein_worker_data_converter";

    private WorkerConverter() {}

    /**
     * The run's workflow for {@code input} as the worker's converter reads it.
     *
     * @throws ApplicationFailure (non-retryable, type {@link #UNREADABLE}) when that converter cannot read it as Rein's
     *                            does: the workflow fails at once, saying what to set on the workers' client
     */
    public static AgentWorkflowImpl workflowFor(EncodedValues input, String taskQueue, DataConverter rein) {
        RunInput[] read = new RunInput[1];
        String why = unreadable(input, rein, read);
        if (why != null) {
            throw ApplicationFailure.newNonRetryableFailure("a worker of task queue '" + taskQueue + "' could not read the"
                    + " run's input with its data converter (" + why + "): the WorkflowClient of that worker's WorkerFactory"
                    + " was built without Rein's data converter. Build it with TemporalAgents.clientOptions() (or"
                    + " setDataConverter(TemporalAgents.dataConverter())), as the client that starts runs is, on every worker"
                    + " of the queue (a codec goes around it: new CodecDataConverter(TemporalAgents.dataConverter(), codecs)),"
                    + " and start the run again under a new run id", UNREADABLE);
        }
        return new AgentWorkflowImpl(read[0]);
    }

    /** Why the worker's converter cannot read the run's input as Rein's does, or null; {@code read[0]} is what it read. */
    private static String unreadable(EncodedValues input, DataConverter rein, RunInput[] out) {
        RunInput read;
        try {
            read = input.get(0, RunInput.class);
        } catch (RuntimeException e) {
            return "it failed: " + e.getMessage();
        }
        out[0] = read;
        if (read == null || read.goal() == null || read.budget() == null || read.attempt() == null) {
            return "it read a run's input without its goal, budget or timeouts";
        }
        Optional<Payloads> raw = input.toPayloads();
        if (raw.isEmpty() || raw.get().getPayloadsCount() == 0) {
            return null;
        }
        Payload payload = raw.get().getPayloads(0);
        // a payload a codec encoded (encryption, compression) is read through the worker's own codec, checked above
        if (!payload.getMetadataOrDefault("encoding", com.google.protobuf.ByteString.EMPTY).toStringUtf8().equals("json/plain")) {
            return null;
        }
        try {
            return read.equals(rein.fromPayload(payload, RunInput.class, RunInput.class)) ? null
                    : "it read a run's input otherwise than Rein's converter does";
        } catch (RuntimeException e) {
            return null; // Rein's converter cannot read it either: the client's converter was checked when it was made
        }
    }

    /**
     * Why Rein's workers could not read a run's input written by {@code converter} (it writes JSON they read otherwise),
     * or null. A payload a codec encoded (encryption, compression) is not judged: the workers decode it with theirs.
     */
    public static String unreadable(DataConverter converter) {
        RunInput sample = new RunInput("入力の確認 ✓", "model", dev.rein.budget.Budget.builder().maxSteps(3)
                .maxDuration(java.time.Duration.ofMinutes(5)).build(), java.util.Map.of(), 1024, 2, 2,
                java.time.Duration.ofMinutes(5), 2, java.time.Duration.ofSeconds(1), java.time.Duration.ofSeconds(30));
        Payload payload;
        try {
            payload = converter.toPayload(sample).orElse(null);
        } catch (RuntimeException e) {
            return "it cannot write a run's input: " + e.getMessage();
        }
        if (payload == null) {
            return "it writes nothing for a run's input";
        }
        String encoding = payload.getMetadataOrDefault("encoding", com.google.protobuf.ByteString.EMPTY).toStringUtf8();
        if (!encoding.equals("json/plain")) {
            return null;
        }
        try {
            RunInput read = TemporalAgents.dataConverter().fromPayload(payload, RunInput.class, RunInput.class);
            return sample.equals(read) ? null : "it writes a run's input in a JSON form the workers read otherwise";
        } catch (RuntimeException e) {
            return "it writes a run's input in a JSON form the workers cannot read";
        }
    }

    /**
     * What to say of a worker of the agent's activities whose own client's converter is not Rein's, or null when it is:
     * that worker would read the activities' inputs and write their results in another JSON form (its fields left
     * empty, the workflow unable to read its results). Checked by each activity on its worker.
     */
    public static String activityWorkerProblem(DataConverter converter, String taskQueue) {
        String why = converter == io.temporal.common.converter.DefaultDataConverter.STANDARD_INSTANCE
                ? "it uses Temporal's default data converter" : unreadable(converter);
        return why == null ? null : "a worker of task queue '" + taskQueue + "' runs the agent's activities with a"
                + " WorkflowClient whose data converter is not Rein's (" + why + "), so it cannot read the run's activity"
                + " inputs nor write results the run can read. Build the client of that worker's WorkerFactory with"
                + " TemporalAgents.clientOptions() (or setDataConverter(TemporalAgents.dataConverter())), on every worker of the"
                + " queue (a codec goes around it: new CodecDataConverter(TemporalAgents.dataConverter(), codecs)), and start"
                + " the run again under a new run id";
    }
}
