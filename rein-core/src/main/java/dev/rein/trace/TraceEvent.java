package dev.rein.trace;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.run.RunStatus;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.Usage;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything a run records, enough to reproduce a failure at any step. Each event carries the run
 * id, the step (0 before the first model call) and the time.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = TraceEvent.RunStarted.class, name = "run_started"),
        @JsonSubTypes.Type(value = TraceEvent.ModelRequested.class, name = "model_request"),
        @JsonSubTypes.Type(value = TraceEvent.ModelResponded.class, name = "model_response"),
        @JsonSubTypes.Type(value = TraceEvent.ModelRetry.class, name = "model_retry"),
        @JsonSubTypes.Type(value = TraceEvent.ModelFailed.class, name = "model_failed"),
        @JsonSubTypes.Type(value = TraceEvent.ModelFallback.class, name = "model_fallback"),
        @JsonSubTypes.Type(value = TraceEvent.TokensCounted.class, name = "tokens_counted"),
        @JsonSubTypes.Type(value = TraceEvent.UsageEstimated.class, name = "usage_estimated"),
        @JsonSubTypes.Type(value = TraceEvent.ToolCalled.class, name = "tool_call"),
        @JsonSubTypes.Type(value = TraceEvent.ToolCompleted.class, name = "tool_result"),
        @JsonSubTypes.Type(value = TraceEvent.Intervention.class, name = "intervention"),
        @JsonSubTypes.Type(value = TraceEvent.StallDetected.class, name = "stall_detected"),
        @JsonSubTypes.Type(value = TraceEvent.OutputTruncated.class, name = "output_truncated"),
        @JsonSubTypes.Type(value = TraceEvent.ContextEdited.class, name = "context_edited"),
        @JsonSubTypes.Type(value = TraceEvent.StateChanged.class, name = "state_change"),
        @JsonSubTypes.Type(value = TraceEvent.RunFinished.class, name = "run_finished"),
        @JsonSubTypes.Type(value = TraceEvent.RunResumed.class, name = "run_resumed"),
        @JsonSubTypes.Type(value = TraceEvent.TurnStarted.class, name = "turn_started"),
        @JsonSubTypes.Type(value = TraceEvent.ToolRetry.class, name = "tool_retry"),
        @JsonSubTypes.Type(value = TraceEvent.ApprovalRequested.class, name = "approval_requested"),
        @JsonSubTypes.Type(value = TraceEvent.ApprovalDecided.class, name = "approval_decided"),
        @JsonSubTypes.Type(value = TraceEvent.Audit.class, name = "audit")
})
public sealed interface TraceEvent {
    String runId();

    int step();

    Instant time();

    /** A run began (or resumed). */
    record RunStarted(String runId, int step, Instant time, String goal, String model, List<String> tools,
                      Map<String, Object> limits) implements TraceEvent {}

    /**
     * The exact request sent to the model; {@code purpose} is "step", "final_summary" or a policy's name.
     * {@code provider} is the name the called model gives its provider ({@link dev.rein.provider.ModelDefaults#providerName()}),
     * null when it gives none: for listeners that name the provider as the call begins (OpenTelemetry's
     * {@code chat} span, whose sampler needs it then; a critic's model may be another provider's than the
     * agent's). {@code server} is, likewise, the base URL of the server the called model's calls go to
     * ({@link dev.rein.provider.ModelDefaults#serverUri()}), null when unknown: OpenTelemetry's {@code server.address}
     * and {@code server.port}. Neither is written to the JSONL trace, whose request names the model, so a trace
     * read back has none.
     */
    record ModelRequested(String runId, int step, Instant time, String purpose, ModelRequest request,
                          @JsonIgnore String provider, @JsonIgnore URI server) implements TraceEvent {
        /** Without the provider and server (a listener then learns them from the model when the call reaches it). */
        public ModelRequested(String runId, int step, Instant time, String purpose, ModelRequest request) {
            this(runId, step, time, purpose, request, null, null);
        }

        /** Without the server. */
        public ModelRequested(String runId, int step, Instant time, String purpose, ModelRequest request, String provider) {
            this(runId, step, time, purpose, request, provider, null);
        }
    }

    /**
     * The model's response with the call's usage, its cost and the run's cost so far. {@code pricing} says how the cost
     * departs from what the call was billed, when Rein knows it does: a call served at a service tier ({@link
     * ModelResponse#serviceTier()}) that the model's price has no rates for, charged at the base price; null, and not
     * written, otherwise.
     */
    record ModelResponded(String runId, int step, Instant time, ModelResponse response, Usage usage,
                          BigDecimal costUsd, BigDecimal totalCostUsd, long durationMillis,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String pricing) implements TraceEvent {
        /** A response priced as billed (or with nothing known to depart from it). */
        public ModelResponded(String runId, int step, Instant time, ModelResponse response, Usage usage,
                              BigDecimal costUsd, BigDecimal totalCostUsd, long durationMillis) {
            this(runId, step, time, response, usage, costUsd, totalCostUsd, durationMillis, null);
        }
    }

    /**
     * Said once per run, after the first response whose provider reported no token usage: that
     * call, and any later one without a report, is charged an estimate ({@code usage}, this call's)
     * against the token and money limits, and its usage is marked {@code estimated}.
     */
    record UsageEstimated(String runId, int step, Instant time, String model, Usage usage, String message)
            implements TraceEvent {}

    /**
     * The provider counted a request's input tokens, e.g. for a context policy's trigger. A count that failed has
     * {@code inputTokens} -1 and {@code error} why (the failure's kind, HTTP status and message); the run went on
     * with its own estimate. {@code error} is null, and not written, for a count that succeeded.
     */
    record TokensCounted(String runId, int step, Instant time, String purpose, String model, long inputTokens,
                         long durationMillis, @JsonInclude(JsonInclude.Include.NON_NULL) String error) implements TraceEvent {
        /** A count that succeeded. */
        public TokensCounted(String runId, int step, Instant time, String purpose, String model, long inputTokens,
                             long durationMillis) {
            this(runId, step, time, purpose, model, inputTokens, durationMillis, null);
        }
    }

    /**
     * A failed model call that will be retried after {@code delayMillis}; {@code requestId} is the
     * provider's id of the failed request (what its support asks for), null when it gave none.
     * {@code reportedUsage} is the usage the server reported for the attempt before it failed
     * ({@link dev.rein.model.ModelException#reportedUsage()}): charged to no budget, as a failed call
     * charges nothing; null, and not written, when it reported none (and in traces written before it was recorded).
     */
    record ModelRetry(String runId, int step, Instant time, int attempt, String errorKind, int httpStatus,
                      String message, long delayMillis,
                      @JsonInclude(JsonInclude.Include.NON_NULL) String requestId,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Usage reportedUsage) implements TraceEvent {
        /** Without reported usage (the server reported none). */
        public ModelRetry(String runId, int step, Instant time, int attempt, String errorKind, int httpStatus,
                          String message, long delayMillis, String requestId) {
            this(runId, step, time, attempt, errorKind, httpStatus, message, delayMillis, requestId, null);
        }

        /** Without a request id (the shape before it was recorded). */
        public ModelRetry(String runId, int step, Instant time, int attempt, String errorKind, int httpStatus,
                          String message, long delayMillis) {
            this(runId, step, time, attempt, errorKind, httpStatus, message, delayMillis, null, null);
        }
    }

    /**
     * A model call that failed for good; {@code requestId} is the provider's id of the failed
     * request, null when it gave none. {@code reportedUsage} is the usage the server reported for the
     * last attempt before it failed, as on {@link ModelRetry}: charged to no budget; null, and not
     * written, when it reported none.
     */
    record ModelFailed(String runId, int step, Instant time, String errorKind, int httpStatus, String message,
                       @JsonInclude(JsonInclude.Include.NON_NULL) String requestId,
                       @JsonInclude(JsonInclude.Include.NON_NULL) Usage reportedUsage) implements TraceEvent {
        /** Without reported usage (the server reported none). */
        public ModelFailed(String runId, int step, Instant time, String errorKind, int httpStatus, String message,
                           String requestId) {
            this(runId, step, time, errorKind, httpStatus, message, requestId, null);
        }

        /** Without a request id (the shape before it was recorded). */
        public ModelFailed(String runId, int step, Instant time, String errorKind, int httpStatus, String message) {
            this(runId, step, time, errorKind, httpStatus, message, null, null);
        }
    }

    /**
     * A model-call stage (an application's fallback) moved on from a failed attempt of the call, which the call's
     * {@link ModelFailed}, if any, does not say: the attempt asked for model {@code fromModel} and failed with
     * {@code errorKind}, {@code httpStatus} and {@code message}, as a {@link ModelFailed} says a call's failure.
     * {@code toModel} is the model the stage's next attempt asks for (the same one when the stage tried it again), null,
     * and not written, when the stage made no other attempt (it answered the call itself, or ended it with another
     * failure). {@code requestId} and {@code reportedUsage} as on {@link ModelRetry}: the usage is charged to no budget.
     * {@code retryable} is whether the failure the stage saw was retryable (one the retry stage gave up on is): a
     * replay hands it back so, to a stage that moves on only from transient failures; null (not written) in traces
     * written before it was recorded. Retries of the retry stage stay {@link ModelRetry} events; traces written before
     * this event have none.
     */
    record ModelFallback(String runId, int step, Instant time, String fromModel,
                         @JsonInclude(JsonInclude.Include.NON_NULL) String toModel, String errorKind, int httpStatus,
                         String message, @JsonInclude(JsonInclude.Include.NON_NULL) String requestId,
                         @JsonInclude(JsonInclude.Include.NON_NULL) Usage reportedUsage,
                         @JsonInclude(JsonInclude.Include.NON_NULL) Boolean retryable) implements TraceEvent {
        /** A fallback whose failure's retryability is not known (as in a trace written before it was recorded). */
        public ModelFallback(String runId, int step, Instant time, String fromModel, String toModel, String errorKind,
                             int httpStatus, String message, String requestId, Usage reportedUsage) {
            this(runId, step, time, fromModel, toModel, errorKind, httpStatus, message, requestId, reportedUsage, null);
        }
    }

    /** A tool call about to run, with its validated arguments. */
    record ToolCalled(String runId, int step, Instant time, String callId, String tool, JsonNode arguments)
            implements TraceEvent {}

    /**
     * What a tool call produced, with the error flag and class, its source and duration;
     * {@code reinMessage} when Rein wrote the content (a refusal, a guard's notice) rather than the tool.
     * {@code risk} is the tool's risk (READ, WRITE, IRREVERSIBLE), also for a call refused at
     * validation; null for a tool the agent does not have, and in traces written before it was recorded.
     * {@code userContent} is what the tool returned for the person only (never sent to the model; MCP content for
     * {@code audience: ["user"]}), masked as the content is; null (and left out) when there is none, and in traces
     * written before it was recorded.
     */
    record ToolCompleted(String runId, int step, Instant time, String callId, String tool, String content,
                         boolean isError, String errorClass, String source, long durationMillis, boolean reinMessage,
                         String risk, @JsonInclude(JsonInclude.Include.NON_NULL) String userContent)
            implements TraceEvent {
        /** A result without a part for the person only. */
        public ToolCompleted(String runId, int step, Instant time, String callId, String tool, String content,
                             boolean isError, String errorClass, String source, long durationMillis, boolean reinMessage,
                             String risk) {
            this(runId, step, time, callId, tool, content, isError, errorClass, source, durationMillis, reinMessage, risk, null);
        }

        /** A result without the {@code reinMessage} flag and the risk (false: the content came from the tool). */
        public ToolCompleted(String runId, int step, Instant time, String callId, String tool, String content,
                             boolean isError, String errorClass, String source, long durationMillis) {
            this(runId, step, time, callId, tool, content, isError, errorClass, source, durationMillis, false, null);
        }

        /** A result with the {@code reinMessage} flag, without the risk. */
        public ToolCompleted(String runId, int step, Instant time, String callId, String tool, String content,
                             boolean isError, String errorClass, String source, long durationMillis, boolean reinMessage) {
            this(runId, step, time, callId, tool, content, isError, errorClass, source, durationMillis, reinMessage, null);
        }

        /** A result with the tool's risk, without the {@code reinMessage} flag (false: the content came from the tool). */
        public ToolCompleted(String runId, int step, Instant time, String callId, String tool, String content,
                             boolean isError, String errorClass, String source, long durationMillis, String risk) {
            this(runId, step, time, callId, tool, content, isError, errorClass, source, durationMillis, false, risk);
        }
    }

    /** The runtime stepped in: a guard fired, a prompt was injected, an answer was refused. */
    record Intervention(String runId, int step, Instant time, String kind, String message, Map<String, Object> evidence)
            implements TraceEvent {}

    /**
     * A stall detector fired. {@code action} is "blocked" (the call was not run and the model got
     * {@code message} as its error result), "warned" ({@code message} was added after the step's
     * results) or "stopped" (the run ends FAILED, reason stalled). {@code callId} is null for
     * detections over a whole step; {@code occurrence} counts this detector's findings in the run.
     * {@code risk} is the risk of the call's tool when the guard acted before the call ran (so no
     * result event carries it); null otherwise, for an unknown tool, and in traces written before it was recorded.
     */
    record StallDetected(String runId, int step, Instant time, String detector, String action, String callId,
                         String message, Map<String, Object> evidence, int occurrence, String risk) implements TraceEvent {}

    /**
     * A tool output was longer than the limit: the model got the first {@code shownChars}
     * characters and a notice; the full output is in the output store under {@code sha256}
     * ({@code stored} false when storing failed, with the reason in {@code location}).
     * {@code part} is "user_content" when the cut text was the result's part for the person
     * ({@code user_content} of {@code tool_result}, cut to the same limit); null (left out) for the
     * content the model sees, and in traces written before it was recorded.
     */
    record OutputTruncated(String runId, int step, Instant time, String callId, String tool, int totalChars,
                           int shownChars, String sha256, boolean stored, String location,
                           @JsonInclude(JsonInclude.Include.NON_NULL) String part) implements TraceEvent {
        /** The cut of the content the model sees ({@code part} null). */
        public OutputTruncated(String runId, int step, Instant time, String callId, String tool, int totalChars,
                               int shownChars, String sha256, boolean stored, String location) {
            this(runId, step, time, callId, tool, totalChars, shownChars, sha256, stored, location, null);
        }
    }

    /**
     * A context policy edited the history before a model call: {@code edit} is
     * "clear_tool_results" or "compact"; token counts are estimates unless the provider counted.
     */
    record ContextEdited(String runId, int step, Instant time, String edit, long tokensBefore, long tokensAfter,
                         Map<String, Object> details) implements TraceEvent {}

    /** A run state transition and its reason. */
    record StateChanged(String runId, int step, Instant time, RunStatus from, RunStatus to, String reason)
            implements TraceEvent {}

    /** The run ended (or paused) with this status, reason and answer. */
    record RunFinished(String runId, int step, Instant time, RunStatus status, String reason, String message,
                       String answer, Usage usage, BigDecimal costUsd) implements TraceEvent {}

    /**
     * A paused or interrupted run continues from its stored state; {@code activeMillis} of running
     * time were used before. {@code model} and {@code limits} are those of the resuming agent, as on
     * {@link RunStarted}; both are null in traces written before they were recorded.
     */
    record RunResumed(String runId, int step, Instant time, RunStatus from, long activeMillis, String model,
                      Map<String, Object> limits) implements TraceEvent {}

    /**
     * An ended run continues as turn {@code turn} (2 for the first reply) with the person's {@code text}. {@code model}
     * and {@code limits} are those of the replying agent, which the turn runs under, as on {@link RunStarted}; both are
     * null in traces written before they were recorded.
     */
    record TurnStarted(String runId, int step, Instant time, int turn, String text, String model, Map<String, Object> limits)
            implements TraceEvent {
        /** A turn with no model name or limits recorded. */
        public TurnStarted(String runId, int step, Instant time, int turn, String text) {
            this(runId, step, time, turn, text, null, null);
        }
    }

    /** Attempt {@code attempt} of a tool call failed transiently; it is tried again after {@code delayMillis}. */
    record ToolRetry(String runId, int step, Instant time, String callId, String tool, int attempt, String errorClass,
                     String message, long delayMillis) implements TraceEvent {}

    /** A proposed call waits for a person: the exact arguments, the tool's risk and the hash the decision must name. */
    record ApprovalRequested(String runId, int step, Instant time, String callId, String tool, String risk,
                             JsonNode arguments, String actionHash) implements TraceEvent {}

    /**
     * A person decided on a call: {@code decision} is approve, reject or edit; {@code reason} is the
     * rejection reason; for an edit, {@code arguments} and {@code approvedHash} are the new ones.
     */
    record ApprovalDecided(String runId, int step, Instant time, String callId, String tool, String actionHash,
                           String decision, String reason, JsonNode arguments, String approvedHash, String decidedBy)
            implements TraceEvent {}

    /**
     * A security-relevant fact for the audit log: a refused call, a masked secret, an approval
     * asked for, a side effect replayed from its record instead of repeated.
     */
    record Audit(String runId, int step, Instant time, String kind, String tool, String callId, String user,
                 String tenant, String detail) implements TraceEvent {}
}
