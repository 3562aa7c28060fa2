package dev.rein.temporal.internal;

import dev.rein.temporal.RunInput;
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
        String why = unreadable(input, rein);
        if (why != null) {
            throw ApplicationFailure.newNonRetryableFailure("a worker of task queue '" + taskQueue + "' could not read the"
                    + " run's input with its data converter (" + why + "): the WorkflowClient of that worker's WorkerFactory"
                    + " was built without Rein's data converter. Build it with TemporalAgents.clientOptions() (or"
                    + " setDataConverter(TemporalAgents.dataConverter())), as the client that starts runs is, on every worker"
                    + " of the queue (a codec goes around it: new CodecDataConverter(TemporalAgents.dataConverter(), codecs)),"
                    + " and start the run again under a new run id", UNREADABLE);
        }
        return new AgentWorkflowImpl();
    }

    private static String unreadable(EncodedValues input, DataConverter rein) {
        RunInput read;
        try {
            read = input.get(0, RunInput.class);
        } catch (RuntimeException e) {
            return "it failed: " + e.getMessage();
        }
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
}
