package dev.rein.approval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.tool.Risk;
import java.time.Instant;
import java.util.Objects;

/**
 * A call waiting for a person: exactly what would run. A decision must name {@link #actionHash()}.
 *
 * @param index     the call's position among the calls of its model response
 * @param arguments the exact, validated arguments
 */
public record ApprovalRequest(String runId, int step, String callId, int index, String tool, Risk risk,
                              JsonNode arguments, String actionHash, String user, Instant requestedAt) {
    public ApprovalRequest {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(callId, "callId");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(risk, "risk");
        Objects.requireNonNull(arguments, "arguments");
        Objects.requireNonNull(actionHash, "actionHash");
        Objects.requireNonNull(requestedAt, "requestedAt");
    }

    /** One line for people: tool, risk, short hash and the arguments. */
    public String describe() {
        return tool + " [" + risk + "] " + ActionHash.shortForm(actionHash) + " " + dev.rein.json.Json.write(arguments);
    }
}
