package dev.rein.cli;

import dev.rein.internal.text.Counts;
import dev.rein.json.Json;
import dev.rein.model.Usage;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
import java.math.BigDecimal;
import dev.rein.model.ToolUseBlock;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Map;

/**
 * The human view of a run, on stderr: each step, the tool calls with their arguments, their
 * results (shortened, saying how much was cut), interventions and the cost so far. The answer
 * itself is not shown here; the command prints it on stdout when the run ends.
 */
final class LiveView implements RunListener {
    /** Results and model text are cut here: the view is for following a run; the trace keeps everything. */
    static final int MAX_RESULT = 160;
    static final int MAX_ARGUMENTS = 200;

    private final StatusLine line;
    private volatile int step;
    /**
     * "#n/m" of each call of the latest response, by call id: results arrive in completion order,
     * so with several calls each result names the call it answers.
     */
    private final Map<String, String> callLabels = new ConcurrentHashMap<>();

    LiveView(StatusLine line) {
        this.line = line;
    }

    @Override
    public void onEvent(TraceEvent event) {
        switch (event) {
            case TraceEvent.RunStarted e -> line.print("run " + e.runId() + " · model " + e.model() + " · tools: "
                    + (e.tools().isEmpty() ? "none" : String.join(", ", e.tools())) + " · limits: " + limits(e.limits()));
            case TraceEvent.ModelRequested e -> {
                step = e.step();
                line.waitingFor(label(e.step()) + ("step".equals(e.purpose()) ? "the model is thinking"
                        : "final_summary".equals(e.purpose()) ? "asking the model for a summary" : "model call: " + e.purpose()));
            }
            case TraceEvent.ModelResponded e -> {
                line.idle();
                numberCalls(e.response().toolUses());
                String text = e.response().text();
                if (!e.response().toolUses().isEmpty() && !text.isBlank()) {
                    line.print(label(e.step()) + "model: " + Text.shorten(text, MAX_RESULT));
                }
                line.print(label(e.step()) + "model replied (" + stopReason(e.response())
                        + ", " + Text.millis(e.durationMillis()) + ") · " + tokens(e.usage()) + " · cost so far " + Text.usd(e.totalCostUsd()));
            }
            case TraceEvent.ModelRetry e -> line.print(label(e.step()) + "! " + failedCall(e.errorKind(), e.httpStatus(),
                    e.requestId(), e.message()) + "; retry " + e.attempt() + " in " + Text.millis(e.delayMillis()));
            case TraceEvent.ModelFallback e -> { } // not shown live yet (the trace and rein show have it)
            case TraceEvent.TokensCounted e -> { }
            case TraceEvent.UsageEstimated e -> line.print(label(e.step()) + "! usage estimated: " + e.message());
            case TraceEvent.ModelFailed e -> {
                line.idle();
                line.print(label(e.step()) + "✗ " + failedCall(e.errorKind(), e.httpStatus(), e.requestId(), e.message()));
            }
            case TraceEvent.ToolCalled e -> line.print(label(e.step()) + "→ " + call(e.callId(), e.tool()) + " "
                    + Text.shorten(Json.write(e.arguments()), MAX_ARGUMENTS));
            case TraceEvent.ToolCompleted e -> line.print(label(e.step()) + "← " + call(e.callId(), e.tool())
                    + (e.isError() ? " error (" + e.errorClass() + ")" : " ok") + " in " + Text.millis(e.durationMillis())
                    + ": " + Text.shorten(e.content(), MAX_RESULT)
                    // the part for the person (MCP audience ["user"]): the model got only a note, the person reads it here
                    + (e.userContent() == null ? "" : " · for you: " + Text.shorten(e.userContent(), MAX_RESULT)));
            case TraceEvent.Intervention e -> line.print(label(e.step()) + "! " + e.kind() + ": " + Text.shorten(e.message(), MAX_RESULT));
            case TraceEvent.StallDetected e -> line.print(label(e.step()) + "! stall (" + e.detector() + ", " + e.action() + "): "
                    + Text.shorten(e.message(), MAX_RESULT));
            case TraceEvent.OutputTruncated e -> line.print(label(e.step()) + "! " + Text.visible(e.tool())
                    + (e.part() == null ? " output cut for the model: " : " output for you cut: ")
                    + e.shownChars() + " of " + Counts.of(e.totalChars(), "char") + " shown"
                    + (e.stored() ? ", full output stored (sha256 " + e.sha256().substring(0, Math.min(12, e.sha256().length())) + ")" : ""));
            case TraceEvent.ContextEdited e -> line.print(label(e.step()) + "! context " + e.edit().replace('_', ' ') + ": about "
                    + e.tokensBefore() + " → " + e.tokensAfter() + " tokens");
            case TraceEvent.TurnStarted e -> line.print("run " + e.runId() + " continues, turn " + e.turn() + ": "
                    + Text.shortenVisible(e.text(), MAX_RESULT));
            case TraceEvent.RunResumed e -> line.print("run " + e.runId() + " resumed from " + e.from() + " at step " + e.step()
                    + " · " + Text.millis(e.activeMillis()) + " of running time used before");
            case TraceEvent.ToolRetry e -> line.print(label(e.step()) + "! " + call(e.callId(), e.tool()) + " failed (" + e.errorClass() + "): "
                    + Text.shorten(e.message(), MAX_RESULT) + "; retry " + e.attempt() + " in " + Text.millis(e.delayMillis()));
            case TraceEvent.ApprovalRequested e -> line.print(label(e.step()) + "⏸ " + call(e.callId(), e.tool()) + " (" + e.risk()
                    + ") waits for approval · action " + e.actionHash().substring(0, Math.min(12, e.actionHash().length())));
            case TraceEvent.ApprovalDecided e -> line.print(label(e.step()) + "✓ " + e.decision() + " " + Text.visible(e.tool())
                    + (e.decidedBy() == null ? "" : " by " + Text.visible(e.decidedBy()))
                    + (e.reason() == null ? "" : ": " + Text.shorten(e.reason(), MAX_RESULT)));
            case TraceEvent.Audit e -> {
                if (!e.kind().equals("approval_requested")) {
                    line.print(label(e.step()) + "! audit " + e.kind() + ": " + Text.shorten(e.detail(), MAX_RESULT));
                }
            }
            case TraceEvent.StateChanged e -> { }
            case TraceEvent.RunFinished e -> line.idle();
        }
    }

    @Override
    public void onTextDelta(String text) {
        line.waitingFor(label(step) + "the model is writing");
    }

    @Override
    public void onThinkingDelta(String thinking) {
        line.waitingFor(label(step) + "the model is thinking");
    }

    @Override
    public void onToolUseStart(String id, String name) {
        line.waitingFor(label(step) + "the model is preparing a call to " + name);
    }

    @Override
    public void close() {
        line.idle();
    }

    private void numberCalls(List<ToolUseBlock> calls) {
        callLabels.clear();
        if (calls.size() > 1) {
            for (int i = 0; i < calls.size(); i++) {
                callLabels.put(calls.get(i).id(), " #" + (i + 1) + "/" + calls.size());
            }
        }
    }

    /** The tool's name (made visible: it comes from the model), numbered when the response made several calls. */
    private String call(String callId, String tool) {
        return Text.visible(tool) + (callId == null ? "" : callLabels.getOrDefault(callId, ""));
    }

    /**
     * "model call failed (KIND STATUS, request-id X): MESSAGE", for a retried and a failed call alike;
     * the request id is what a person quotes to the provider's support.
     */
    private static String failedCall(String errorKind, int httpStatus, String requestId, String message) {
        return "model call failed (" + errorKind + (httpStatus > 0 ? " " + httpStatus : "")
                + (requestId == null || requestId.isBlank() ? "" : ", request-id " + Text.visible(requestId)) + "): "
                + Text.shorten(message, MAX_RESULT);
    }

    private static String label(int step) {
        return "step " + step + "  ";
    }

    private static String tokens(Usage usage) {
        StringBuilder sb = new StringBuilder(usage.estimated() ? "estimated tokens in " : "tokens in ").append(usage.inputTokens()).append(" / out ").append(usage.outputTokens());
        if (usage.reasoningOutputTokens() > 0) { // a part of the output: why a short answer cost much
            sb.append(" (reasoning ").append(usage.reasoningOutputTokens()).append(')');
        }
        if (usage.cacheReadInputTokens() > 0 || usage.cacheWriteInputTokens() > 0) {
            sb.append(" / cache read ").append(usage.cacheReadInputTokens()).append(" / cache write ").append(usage.cacheWriteInputTokens());
        }
        String uses = serverToolUses(usage);
        if (!uses.isEmpty()) {
            sb.append(" / ").append(uses);
        }
        return sb.toString();
    }

    /**
     * "web_search 3, web_fetch 1": tools the provider ran for the model and bills per use on top of
     * the tokens, so a person can see why a call cost more than its tokens; "" when there were none.
     */
    static String serverToolUses(Usage usage) {
        StringBuilder sb = new StringBuilder();
        new java.util.TreeMap<>(usage.serverToolUses()).forEach((tool, count) ->
                sb.append(sb.isEmpty() ? "" : ", ").append(Text.visible(tool)).append(' ').append(count));
        return sb.toString();
    }

    private static String limits(Map<String, Object> limits) {
        Object steps = limits.get("max_steps");
        Object cost = limits.get("max_cost_usd");
        Object seconds = limits.get("max_seconds");
        return (steps instanceof Number n ? Counts.of(n.longValue(), "step") : "no step limit") + ", "
                + (cost instanceof BigDecimal usd ? "USD " + usd.toPlainString() : "no money limit") + ", "
                + (seconds == null ? "no time limit" : seconds + " s");
    }

    /** Rein's stop reason; for one Rein has no value for, the provider's own word beside it ("unknown: eos"). */
    private static String stopReason(dev.rein.model.ModelResponse response) {
        String reason = response.stopReason().name().toLowerCase(Locale.ROOT);
        String sent = response.providerStopReason();
        return response.stopReason() == dev.rein.model.StopReason.UNKNOWN && sent != null && !sent.isBlank()
                ? reason + ": " + Text.visible(sent) : reason;
    }
}
