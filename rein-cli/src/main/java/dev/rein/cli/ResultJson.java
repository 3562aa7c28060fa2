package dev.rein.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.approval.ApprovalRequest;
import dev.rein.json.Json;
import dev.rein.model.Usage;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.List;

/**
 * The {@code --json} result: exactly these fields, in this order (a contract scripts rely on):
 * {@code run_id, status, reason, answer, steps, usage{input_tokens, output_tokens,
 * cache_creation_input_tokens, cache_read_input_tokens}, cost_usd}. Usage and cost cover every
 * model call of the run, the final summary call included; {@code usage} also has {@code
 * reasoning_output_tokens} (the part of the output tokens a reasoning model spent thinking, as the
 * provider reported it) when there were any, {@code server_tool_uses} (uses of tools the provider ran and billed per use, such as {@code
 * "web_search": 3}) when there were any, and {@code "estimated": true} (and only then) when a provider reported no usage for some call and the
 * counts include Rein's estimate. A run that is {@code WAITING_APPROVAL}
 * also gets {@code pending_actions} (see {@link StoredRunJson#pendingActions}), last.
 */
final class ResultJson {
    private ResultJson() {}

    /**
     * The fields of the object, wherever the run's end comes from: one place writes them, so a run this process ended
     * and a stored one ({@code rein cancel}) cannot drift apart.
     */
    private record Fields(String runId, RunStatus status, String reason, String answer, int steps, Usage usage,
                          BigDecimal costUsd, List<ApprovalRequest> pending) {
        ObjectNode json() {
            ObjectNode json = Json.object();
            json.put("run_id", runId);
            json.put("status", status.name());
            json.put("reason", reason);
            json.put("answer", answer);
            json.put("steps", steps);
            json.set("usage", ResultJson.usage(usage));
            json.put("cost_usd", costUsd == null ? BigDecimal.ZERO : costUsd.stripTrailingZeros());
            if (status == RunStatus.WAITING_APPROVAL) {
                json.set("pending_actions", StoredRunJson.pendingActions(pending));
            }
            return json;
        }
    }

    static ObjectNode of(RunResult result, List<ApprovalRequest> pending) {
        return new Fields(result.runId(), result.status(), result.reason(), result.answer(), result.steps(), result.usage(),
                result.costUsd(), pending).json();
    }

    /**
     * The object of a stored run that ended outside a run of this process ({@code rein cancel}), as {@link #of(RunResult, List)}
     * gives it for a run that ended so: the same fields in the same order.
     */
    static ObjectNode of(dev.rein.state.RunSnapshot run) {
        return new Fields(run.runId(), run.status(), run.reason(), run.answer(), run.steps(), run.usage(), run.costUsd(),
                run.pendingApprovals()).json();
    }

    /**
     * The {@code usage} object: the token counts, then {@code reasoning_output_tokens}, {@code server_tool_uses} and
     * {@code estimated} when there is something to say; also in {@code rein show --json}.
     */
    static ObjectNode usage(Usage usage) {
        ObjectNode tokens = Json.object();
        tokens.put("input_tokens", usage.inputTokens());
        tokens.put("output_tokens", usage.outputTokens());
        tokens.put("cache_creation_input_tokens", usage.cacheWriteInputTokens());
        tokens.put("cache_read_input_tokens", usage.cacheReadInputTokens());
        if (usage.reasoningOutputTokens() > 0) { // the part of output_tokens a reasoning model spent thinking, as the trace names it
            tokens.put("reasoning_output_tokens", usage.reasoningOutputTokens());
        }
        if (!usage.serverToolUses().isEmpty()) { // tools the provider ran and bills per use (web searches), as the trace names them
            ObjectNode uses = tokens.putObject("server_tool_uses");
            new java.util.TreeMap<>(usage.serverToolUses()).forEach(uses::put);
        }
        if (usage.estimated()) { // the provider reported none for some call: these counts are partly Rein's estimate
            tokens.put("estimated", true);
        }
        return tokens;
    }

    /** One line of JSON for {@code result} (no pending actions). */
    static String write(RunResult result) {
        return write(result, List.of());
    }

    /** One line of JSON for {@code result}, with the actions it waits for when it is paused. */
    static String write(RunResult result, List<ApprovalRequest> pending) {
        return line(of(result, pending));
    }

    /** One line of JSON; amounts are written as plain decimal numbers (never 1.5E-7). */
    static String line(JsonNode json) {
        try {
            return Json.mapper().writer().with(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN).writeValueAsString(json);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
