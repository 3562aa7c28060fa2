package dev.rein.tool;

import java.time.Clock;
import java.time.Instant;
import java.util.Objects;

/**
 * What the executor hands a tool handler besides its arguments.
 *
 * @param idempotencyKey stable for this call across retries and resumes; pass it to external
 *                       systems so a repeated delivery is applied once
 * @param deadline       the handler should not work past this instant
 * @param clock          the run's clock: every time a stage or handler reads comes from it
 */
public record ToolContext(String runId, int step, String callId, String idempotencyKey, Instant deadline,
                          Principal principal, Secrets secrets, Clock clock) {
    public ToolContext {
        clock = clock == null ? Clock.systemUTC() : clock;
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(callId, "callId");
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        Objects.requireNonNull(deadline, "deadline");
        principal = principal == null ? Principal.ANONYMOUS : principal;
        secrets = secrets == null ? Secrets.NONE : secrets;
    }

    /** A context on the system clock. */
    public ToolContext(String runId, int step, String callId, String idempotencyKey, Instant deadline,
                       Principal principal, Secrets secrets) {
        this(runId, step, callId, idempotencyKey, deadline, principal, secrets, Clock.systemUTC());
    }

    /** The same context with an earlier deadline (the executor narrows it to the call's timeout). */
    public ToolContext withDeadline(Instant newDeadline) {
        return new ToolContext(runId, step, callId, idempotencyKey, newDeadline, principal, secrets, clock);
    }

    /** A context for calling a tool outside a run (tests, scripts), as the anonymous principal. */
    public static ToolContext standalone(String callId) {
        return standalone(callId, Principal.ANONYMOUS);
    }

    /** A context for calling a tool outside a run on behalf of {@code principal} (whose scopes the executor checks). */
    public static ToolContext standalone(String callId, Principal principal) {
        Clock clock = Clock.systemUTC();
        return new ToolContext("standalone", 0, callId, "standalone-" + callId, clock.instant().plusSeconds(300),
                principal, Secrets.NONE, clock);
    }
}
