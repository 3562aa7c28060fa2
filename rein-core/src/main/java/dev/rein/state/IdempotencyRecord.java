package dev.rein.state;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.tool.ToolResult;
import java.time.Instant;
import java.util.Objects;

/**
 * The durable record of one side-effecting call, keyed by its idempotency key. {@code INTENT} is
 * written before the handler runs, {@code COMPLETED} (with the result) after; a call found
 * completed is never executed again, a call found in {@code INTENT} was in flight when its process
 * stopped and is sent again with the same key.
 *
 * @param deliveries how many times the call was handed to its handler
 */
public record IdempotencyRecord(String key, String runId, int step, String callId, String tool, String actionHash,
                                JsonNode arguments, Status status, ToolResult result, int deliveries,
                                Instant createdAt, Instant updatedAt) {
    /** Where a side-effecting call stands. */
    public enum Status { INTENT, COMPLETED }

    public IdempotencyRecord {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(status, "status");
    }

    public IdempotencyRecord completed(ToolResult outcome, Instant now) {
        return new IdempotencyRecord(key, runId, step, callId, tool, actionHash, arguments, Status.COMPLETED, outcome,
                deliveries, createdAt, now);
    }
}
