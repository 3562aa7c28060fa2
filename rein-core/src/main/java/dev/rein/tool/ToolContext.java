package dev.rein.tool;

import dev.rein.ReinException;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the executor hands a tool handler besides its arguments.
 *
 * @param idempotencyKey stable for this call across retries and resumes; pass it to external
 *                       systems so a repeated delivery is applied once
 * @param deadline       the handler should not work past this instant
 * @param clock          the run's clock: every time a stage or handler reads comes from it
 * @param traceContext   the distributed-tracing context of the call (W3C Trace Context: {@code traceparent},
 *                       {@code tracestate}) for the handler to pass on to the systems it calls, so their side
 *                       joins the run's trace; set by a tracing interceptor (such as rein-otel's), else empty
 * @param risk           the risk the executor applies to this call: the risk of the tool as registered (after a policy
 *                       or {@code toBuilder().risk(...)}), which may differ from what the handler's author declared, so
 *                       that a handler can word what a failure may have done by it ("may have taken effect" for a
 *                       {@code WRITE}); set by the executor before the handler runs. {@link Risk#IRREVERSIBLE}, the most
 *                       cautious, in a context no executor has run a call with (null is taken as that)
 */
public record ToolContext(String runId, int step, String callId, String idempotencyKey, Instant deadline,
                          Principal principal, Secrets secrets, Clock clock, Map<String, String> traceContext, Risk risk) {
    public ToolContext {
        clock = clock == null ? Clock.systemUTC() : clock;
        risk = risk == null ? Risk.IRREVERSIBLE : risk;
        // Each tool call makes contexts (withDeadline): the common untraced one copies nothing.
        traceContext = traceContext == null || traceContext.isEmpty() ? Map.of()
                : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(traceContext));
        String missing = runId == null ? "no run id" : callId == null ? "no call id" : idempotencyKey == null
                ? "no idempotency key" : deadline == null ? "no deadline" : null;
        if (missing != null) {
            throw new ReinException("a tool context was given " + missing + " (null): give the run id, the call id, a key"
                    + " stable across retries of the call (runId:step:index) and the instant the handler must end by"
                    + " (Instant.MAX for none)");
        }
        principal = principal == null ? Principal.ANONYMOUS : principal;
        secrets = secrets == null ? Secrets.NONE : secrets;
    }

    /**
     * A context of risk {@link Risk#IRREVERSIBLE}, which the executor replaces with the tool's before the handler runs; a
     * copy of a context made with it loses the copied one's risk: copy with the {@code with...} methods, or pass
     * {@link #risk()}.
     */
    public ToolContext(String runId, int step, String callId, String idempotencyKey, Instant deadline,
                       Principal principal, Secrets secrets, Clock clock, Map<String, String> traceContext) {
        this(runId, step, callId, idempotencyKey, deadline, principal, secrets, clock, traceContext, null);
    }

    /** A context without trace context. */
    public ToolContext(String runId, int step, String callId, String idempotencyKey, Instant deadline,
                       Principal principal, Secrets secrets, Clock clock) {
        this(runId, step, callId, idempotencyKey, deadline, principal, secrets, clock, Map.of());
    }

    /** A context on the system clock. */
    public ToolContext(String runId, int step, String callId, String idempotencyKey, Instant deadline,
                       Principal principal, Secrets secrets) {
        this(runId, step, callId, idempotencyKey, deadline, principal, secrets, Clock.systemUTC());
    }

    /** The same context with an earlier deadline (the executor narrows it to the call's timeout). */
    public ToolContext withDeadline(Instant newDeadline) {
        return new ToolContext(runId, step, callId, idempotencyKey, newDeadline, principal, secrets, clock, traceContext, risk);
    }

    /** The same context carrying {@code newTraceContext} (header names to values) for the handler to pass on. */
    public ToolContext withTraceContext(Map<String, String> newTraceContext) {
        return new ToolContext(runId, step, callId, idempotencyKey, deadline, principal, secrets, clock, newTraceContext, risk);
    }

    /** The same context for a call run at {@code newRisk} (the executor sets the tool's risk so). */
    public ToolContext withRisk(Risk newRisk) {
        return newRisk == risk ? this
                : new ToolContext(runId, step, callId, idempotencyKey, deadline, principal, secrets, clock, traceContext, newRisk);
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
