package dev.rein.temporal.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.rein.agent.RunResult;
import dev.rein.context.OutputStore;
import dev.rein.json.Json;
import dev.rein.state.RunSnapshot;
import dev.rein.state.SnapshotCodec;
import dev.rein.tool.ToolResult;
import io.temporal.failure.ApplicationFailure;

/**
 * Snapshots and tool results kept out of the workflow's payloads, in an {@link OutputStore} by
 * their SHA-256. Content-addressed, so a retried activity stores the same thing under the same
 * hash. Every worker of a task queue must share the store.
 */
final class Blobs {
    /** The failure type of a reference no store entry answers (a worker with its own store). */
    static final String MISSING = "run_store_missing_entry";

    private final OutputStore store;

    Blobs(OutputStore store) {
        this.store = store;
    }

    String put(RunSnapshot snapshot) {
        return store.put(SnapshotCodec.write(snapshot));
    }

    RunSnapshot snapshot(String hash) {
        return SnapshotCodec.readSnapshot(get(hash, "run snapshot"));
    }

    String put(ToolResult result) {
        return store.put(Json.write(result));
    }

    ToolResult result(String hash) {
        return read(get(hash, "tool result"), ToolResult.class, "tool result", hash);
    }

    String put(RunResult result) {
        return store.put(Json.write(result));
    }

    /** A stored result, if the store has it (a client may ask a store that is not the workers'). */
    java.util.Optional<RunResult> findResult(String hash) {
        return store.get(hash).map(json -> read(json, RunResult.class, "run result", hash));
    }

    private static <T> T read(String json, Class<T> type, String what, String hash) {
        try {
            return Json.storedMapper().readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the stored " + what + " " + hash + " cannot be read: " + e.getOriginalMessage(), e);
        }
    }

    private String get(String hash, String what) {
        return store.get(hash).orElseThrow(() -> ApplicationFailure.newNonRetryableFailure("the " + what + " " + hash
                + " is not in this worker's run store (" + store.location(hash) + "). Every worker of a task queue must"
                + " share one store: pass the same shared OutputStore to TemporalAgents.worker on each of them.", MISSING));
    }
}
