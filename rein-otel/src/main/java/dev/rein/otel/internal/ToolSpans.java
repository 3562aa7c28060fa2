package dev.rein.otel.internal;

import static dev.rein.otel.GenAiConventions.ERROR_TYPE;
import static dev.rein.otel.GenAiConventions.OPERATION_NAME;
import static dev.rein.otel.GenAiConventions.TOOL_CALL_ARGUMENTS;
import static dev.rein.otel.GenAiConventions.TOOL_CALL_ID;
import static dev.rein.otel.GenAiConventions.TOOL_CALL_RESULT;
import static dev.rein.otel.GenAiConventions.TOOL_NAME;
import static dev.rein.otel.GenAiConventions.TOOL_TYPE;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.model.ToolDefinition;
import dev.rein.model.ToolUseBlock;
import dev.rein.otel.GenAiConventions;
import dev.rein.otel.ReinConventions;
import dev.rein.tool.Tool;
import dev.rein.trace.TraceEvent;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code execute_tool} spans of one run. A span starts when a call passed validation (on the
 * thread that runs it), or is made after the fact for a call refused before that (invalid
 * arguments, unknown tool) or blocked by a stall guard; it ends with the call's result, or when
 * the call pauses for approval. Parallel calls are siblings under the run span.
 */
final class ToolSpans {
    private final RunTelemetry run;
    private final Map<String, Span> open = new ConcurrentHashMap<>();
    /** Each span's tool and start, by call id, for gen_ai.execute_tool.duration when it ends. */
    private final Map<String, Started> started = new ConcurrentHashMap<>();

    private record Started(String tool, Instant at) {}
    /** The calls of the latest model response, by id: their names and arguments for spans made after the fact. */
    private final Map<String, ToolUseBlock> proposed = new ConcurrentHashMap<>();
    /**
     * The descriptions of the tools offered to the model, by name: a call refused before the
     * executor resolves its tool (invalid arguments) or blocked by the stall guard still names a
     * tool whose description is known, which the conventions recommend on its span.
     */
    private final Map<String, String> descriptions = new ConcurrentHashMap<>();
    /** The list {@link #offered} read last: a run offers the same immutable list at every step. */
    private volatile List<ToolDefinition> lastOffered;
    /** The refusal audit of a call that has no span yet, by call id, added to the span its result makes. */
    private final Map<String, Held> refusals = new ConcurrentHashMap<>();

    private record Held(Attributes attributes, Instant time) {}

    /** Decisions announced when a run resumes, added to the call's span once it runs. */
    private final Map<String, TraceEvent.ApprovalDecided> decisions = new ConcurrentHashMap<>();

    ToolSpans(RunTelemetry run) {
        this.run = run;
    }

    Span span(String callId) {
        return open.get(callId);
    }

    /** The tools a model request offers; a later request's definition of a name wins. */
    void offered(List<ToolDefinition> tools) {
        if (tools == lastOffered) {
            return;
        }
        lastOffered = tools;
        tools.forEach(t -> {
            if (t.description() != null && !t.description().isBlank()) {
                descriptions.put(t.name(), t.description());
            }
        });
    }

    void proposed(List<ToolUseBlock> uses) {
        proposed.clear();
        uses.forEach(use -> proposed.put(use.id(), use));
    }

    /** What the executor knows about a validated call's tool: its risk and description. */
    void resolved(String callId, Tool tool) {
        Span span = open.get(callId);
        if (span != null) {
            span.setAttribute(ReinConventions.TOOL_RISK, tool.risk().name().toLowerCase(Locale.ROOT));
            if (tool.definition().description() != null && !tool.definition().description().isBlank()) {
                span.setAttribute(GenAiConventions.TOOL_DESCRIPTION, tool.definition().description());
            }
        }
    }

    void called(TraceEvent.ToolCalled e) {
        Span span = start(e.callId(), e.tool(), e.time(), e.arguments());
        TraceEvent.ApprovalDecided decided = decisions.remove(e.callId());
        if (decided != null) {
            span.addEvent(ReinConventions.EVENT_APPROVAL_DECIDED, RunTelemetry.decisionAttributes(decided), decided.time());
        }
    }

    void completed(TraceEvent.ToolCompleted e) {
        Span span = open.remove(e.callId());
        if (span == null) {
            ToolUseBlock use = proposed.get(e.callId());
            span = start(e.callId(), e.tool(), e.time().minus(Duration.ofMillis(e.durationMillis())), use == null ? null : use.input());
            open.remove(e.callId());
        }
        Held refusal = refusals.remove(e.callId());
        if (refusal != null) {
            span.addEvent(ReinConventions.EVENT_AUDIT, refusal.attributes(), refusal.time());
        }
        if (e.risk() != null) { // known also for a call refused at validation; an unknown tool has none
            span.setAttribute(ReinConventions.TOOL_RISK, e.risk().toLowerCase(Locale.ROOT));
        }
        String outcome = outcome(e.errorClass(), e.isError());
        span.setAttribute(ReinConventions.TOOL_OUTCOME, outcome);
        span.setAttribute(ReinConventions.ERROR_CLASS, e.errorClass());
        if (e.source() != null) {
            span.setAttribute(ReinConventions.TOOL_SOURCE, e.source());
        }
        if ("LIMIT_REACHED".equals(e.errorClass())) {
            span.addEvent(ReinConventions.EVENT_BUDGET_STOP, Attributes.of(ReinConventions.BUDGET, "tool_calls",
                    ReinConventions.MESSAGE, e.content()), e.time());
        }
        if (e.isError()) {
            // A handler's own error result has no error class: the conventions' fallback value.
            span.setAttribute(ERROR_TYPE, "NONE".equals(e.errorClass()) ? "_OTHER" : e.errorClass().toLowerCase(Locale.ROOT));
            // The tool's own words only with the opt-in; without it the description would repeat error.type.
            ErrorStatus.set(span, run.capture() ? e.content() : null);
        } else if (run.capture()) {
            span.setAttribute(TOOL_CALL_RESULT, e.content());
        }
        end(e.callId(), span, e.time(), e.isError() ? ("NONE".equals(e.errorClass()) ? "_OTHER" : e.errorClass().toLowerCase(Locale.ROOT)) : null);
    }

    /** A call the stall guard answered without running it. */
    void blocked(TraceEvent.StallDetected e, Attributes event) {
        ToolUseBlock use = proposed.get(e.callId());
        // A custom detector's evidence may name no tool: the span is then named by the operation alone, not "null"
        Object named = e.evidence() == null ? null : e.evidence().get("tool");
        String tool = use != null ? use.name() : named instanceof String s && !s.isBlank() ? s : null;
        Span span = start(e.callId(), tool, e.time(), use == null ? null : use.input());
        open.remove(e.callId());
        if (e.risk() != null) {
            span.setAttribute(ReinConventions.TOOL_RISK, e.risk().toLowerCase(Locale.ROOT));
        }
        span.addEvent(ReinConventions.EVENT_STALL, event, e.time());
        span.setAttribute(ReinConventions.TOOL_OUTCOME, "blocked");
        span.setAttribute(ReinConventions.ERROR_CLASS, "INTERVENTION");
        span.setAttribute(ERROR_TYPE, "intervention");
        span.setStatus(StatusCode.ERROR, "blocked by the stall guard (" + e.detector() + ")");
        end(e.callId(), span, e.time(), "intervention");
    }

    void approvalRequested(TraceEvent.ApprovalRequested e) {
        Span span = open.remove(e.callId());
        if (span == null) {
            return;
        }
        span.setAttribute(ReinConventions.TOOL_RISK, e.risk().toLowerCase(Locale.ROOT));
        span.addEvent(ReinConventions.EVENT_APPROVAL_REQUESTED,
                Attributes.of(ReinConventions.APPROVAL_ACTION_HASH, e.actionHash()), e.time());
        span.setAttribute(ReinConventions.TOOL_OUTCOME, "awaiting_approval");
        span.setAttribute(ReinConventions.ERROR_CLASS, "AWAITING_APPROVAL");
        started.remove(e.callId()); // paused, not executed: its execution, once approved, is a span of its own
        span.end(e.time());
    }

    void approvalDecided(TraceEvent.ApprovalDecided e) {
        decisions.put(e.callId(), e);
    }

    /**
     * Keeps the refusal audit of a call the latest response proposed until its result makes its span;
     * false for a call not among them (its audit belongs to the run).
     */
    boolean heldForResult(String callId, Attributes attributes, Instant time) {
        if (callId == null || !proposed.containsKey(callId)) {
            return false;
        }
        refusals.put(callId, new Held(attributes, time));
        return true;
    }

    /** Adds an event to the call's open span; false when it has none. */
    boolean event(String callId, String name, Attributes attributes, Instant time) {
        Span span = callId == null ? null : open.get(callId);
        if (span == null) {
            return false;
        }
        span.addEvent(name, attributes, time);
        return true;
    }

    /** Ends what is still open when the run ends (a cancelled call). */
    void endAll(Instant time) {
        open.forEach((callId, span) -> {
            span.setAttribute(ReinConventions.TOOL_OUTCOME, "cancelled");
            span.setAttribute(ERROR_TYPE, "cancelled"); // required whenever the span ends in an error
            span.setStatus(StatusCode.ERROR, "the run ended while the call was in flight");
            end(callId, span, time, "cancelled");
        });
        open.clear();
    }

    /**
     * Ends a call's span and records gen_ai.execute_tool.duration (semconv gen-ai-metrics: recommended,
     * for every tool execution observed, its value the span's duration) with the span's error.type.
     */
    private void end(String callId, Span span, Instant time, String errorType) {
        span.end(time);
        Started call = started.remove(callId);
        if (call != null) {
            run.instruments().toolExecuted(run.context().with(span), call.tool(), errorType,
                    Math.max(0, Duration.between(call.at(), time).toNanos()) / 1e9);
        }
    }

    private Span start(String callId, String tool, Instant time, JsonNode arguments) {
        SpanBuilder b = run.telemetry().tracer.spanBuilder(GenAiConventions.OPERATION_EXECUTE_TOOL + (tool == null ? "" : " " + tool))
                .setParent(run.context())
                .setSpanKind(SpanKind.INTERNAL)
                .setStartTimestamp(time)
                .setAttribute(OPERATION_NAME, GenAiConventions.OPERATION_EXECUTE_TOOL)
                .setAttribute(TOOL_CALL_ID, callId)
                .setAttribute(TOOL_TYPE, GenAiConventions.TOOL_TYPE_FUNCTION)
                .setAttribute(GenAiConventions.CONVERSATION_ID, run.runId());
        if (run.replay()) {
            b.setAttribute(ReinConventions.REPLAY, true);
        }
        if (tool != null) {
            b.setAttribute(TOOL_NAME, tool);
        }
        String description = tool == null ? null : descriptions.get(tool);
        if (description != null) {
            b.setAttribute(GenAiConventions.TOOL_DESCRIPTION, description);
        }
        Span span = b.startSpan();
        if (run.capture() && arguments != null) {
            span.setAttribute(TOOL_CALL_ARGUMENTS, Content.json(arguments));
        }
        open.put(callId, span);
        started.put(callId, new Started(tool, time));
        return span;
    }

    /** The outcome of a result, from its error class. */
    static String outcome(String errorClass, boolean isError) {
        return switch (errorClass) {
            case "NONE" -> isError ? "error" : "success";
            case "AWAITING_APPROVAL" -> "awaiting_approval";
            case "REJECTED" -> "rejected";
            case "INTERVENTION" -> "blocked";
            case "UNKNOWN_TOOL", "INVALID_ARGUMENTS", "PERMISSION_DENIED", "LIMIT_REACHED", "MISSING_SOURCE" -> "refused";
            default -> "error";
        };
    }
}
