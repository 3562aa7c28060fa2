package dev.rein.tool;

import java.time.Instant;
import java.util.Objects;

/**
 * What the executor hands a tool handler besides its arguments.
 *
 * @param idempotencyKey stable for this call across retries and resumes; pass it to external
 *                       systems so a repeated delivery is applied once
 * @param deadline       the handler should not work past this instant
 */
public record ToolContext(String runId, int step, String callId, String idempotencyKey, Instant deadline,
                          Principal principal, Secrets secrets) {
    public ToolContext {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(callId, "callId");
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        Objects.requireNonNull(deadline, "deadline");
        principal = principal == null ? Principal.ANONYMOUS : principal;
        secrets = secrets == null ? Secrets.NONE : secrets;
    }

    /** The same context with an earlier deadline (the executor narrows it to the call's timeout). */
    public ToolContext withDeadline(Instant newDeadline) {
        return new ToolContext(runId, step, callId, idempotencyKey, newDeadline, principal, secrets);
    }

    /** A context for calling a tool outside a run (tests, scripts), as the anonymous principal. */
    public static ToolContext standalone(String callId) {
        return standalone(callId, Principal.ANONYMOUS);
    }

    /** A context for calling a tool outside a run on behalf of {@code principal} (whose scopes the executor checks). */
    public static ToolContext standalone(String callId, Principal principal) {
        return new ToolContext("standalone", 0, callId, "standalone-" + callId, Instant.now().plusSeconds(300),
                principal, Secrets.NONE);
    }
}
