package dev.rein.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.approval.ApprovalRequest;
import dev.rein.json.Json;
import dev.rein.model.Usage;
import dev.rein.state.RunSummary;
import dev.rein.state.RunView;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code --json} forms of stored runs ({@code rein runs}, {@code rein show}) and of the actions
 * a paused run waits for ({@code pending_actions}, also in {@code rein run --json}); the schema
 * is documented in docs/cli.md.
 */
final class StoredRunJson {
    private StoredRunJson() {}

    /** {@code rein runs --json}: {@code {"runs": [summary, ...]}}, newest first. */
    static ObjectNode runs(List<RunSummary> runs) {
        ObjectNode json = Json.object();
        ArrayNode list = json.putArray("runs");
        runs.forEach(run -> list.add(summary(run)));
        return json;
    }

    static ObjectNode summary(RunSummary run) {
        ObjectNode json = Json.object();
        json.put("run_id", run.runId());
        json.put("status", run.status().name());
        json.put("reason", run.reason());
        json.put("goal", run.goal());
        json.put("model", run.model());
        json.put("steps", run.steps());
        json.put("cost_usd", run.costUsd().stripTrailingZeros());
        json.put("pending_approvals", run.pendingApprovals());
        json.put("created_at", instant(run.createdAt()));
        json.put("updated_at", instant(run.updatedAt()));
        return json;
    }

    /**
     * In milliseconds, the precision of the store's run list: a run read back whole (for 'show')
     * carries nanoseconds, and 'runs --json' and 'show --json' must give one run the same times.
     */
    private static String instant(Instant at) {
        return at == null ? null : at.truncatedTo(ChronoUnit.MILLIS).toString();
    }

    /**
     * {@code rein show --json}: the summary fields with the run's {@code usage} after {@code steps} (as in {@code rein
     * run --json}), then message, answer, pending actions, handoff, trace lines and replies.
     */
    static ObjectNode show(RunView view) {
        ObjectNode json = Json.object();
        // the usage of every model call so far, summary call included: the snapshot keeps it as the budget used
        Usage usage = view.state() == null ? Usage.ZERO : view.state().budget().usage();
        summary(view.summary()).properties().forEach(field -> {
            json.set(field.getKey(), field.getValue());
            if (field.getKey().equals("steps")) {
                json.set("usage", ResultJson.usage(usage));
            }
        });
        json.put("message", view.message());
        json.put("answer", view.answer());
        json.set("pending_actions", pendingActions(view.pendingApprovals()));
        json.set("handoff", view.handoff().<com.fasterxml.jackson.databind.JsonNode>map(h -> Json.mapper().valueToTree(h))
                .orElse(Json.mapper().nullNode()));
        ArrayNode trace = json.putArray("trace");
        view.trace().forEach(trace::add);
        ArrayNode replies = json.putArray("replies");
        view.replies().forEach(r -> replies.addObject().put("turn", r.turn()).put("text", r.text()));
        return json;
    }

    /**
     * The distinct actions waiting for a decision, in call order: what {@code rein approve --action}
     * needs. Identical calls of one response share one hash and are one decision, so one entry.
     */
    static ArrayNode pendingActions(List<ApprovalRequest> pending) {
        Map<String, ApprovalRequest> byHash = new LinkedHashMap<>();
        pending.forEach(r -> byHash.putIfAbsent(r.actionHash(), r));
        ArrayNode list = Json.mapper().createArrayNode();
        for (ApprovalRequest r : byHash.values()) {
            ObjectNode action = list.addObject();
            action.put("action_hash", r.actionHash());
            action.put("tool", r.tool());
            action.set("arguments", r.arguments().deepCopy());
            action.put("risk", r.risk().name());
            action.put("call_id", r.callId());
            action.put("step", r.step());
        }
        return list;
    }
}
