package dev.rein.eval.file;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.ReinException;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.ModelException;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.testkit.ScriptedModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** Turns the scripted-model turns of a suite file into {@link ScriptedModel.Turn}s. */
final class ScriptTurns {
    private ScriptTurns() {}

    static List<ScriptedModel.Turn> of(List<SuiteSpec.TurnSpec> specs, String where) {
        if (specs == null || specs.isEmpty()) {
            throw new ReinException(where + " is empty: a script needs at least one turn");
        }
        List<ScriptedModel.Turn> turns = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            turns.add(turn(specs.get(i), where + "[" + i + "]"));
        }
        return turns;
    }

    /** True when some turn calls the finish tool (the agent must then offer it). */
    static boolean usesFinish(List<SuiteSpec.TurnSpec> specs) {
        return specs != null && specs.stream().anyMatch(t -> t != null && (t.finish() != null
                || t.toolCalls() != null && t.toolCalls().stream().anyMatch(c -> "finish".equals(c.name()))));
    }

    private static ScriptedModel.Turn turn(SuiteSpec.TurnSpec spec, String where) {
        if (spec == null) {
            throw new ReinException(where + " is empty: give text, tool_calls, finish or error");
        }
        int kinds = (spec.toolCalls() != null ? 1 : 0) + (spec.finish() != null ? 1 : 0) + (spec.error() != null ? 1 : 0);
        if (kinds > 1 || kinds == 0 && spec.text() == null || spec.error() != null && spec.text() != null) {
            throw new ReinException(where + " must be text, tool_calls, finish or error; text may go with tool_calls or"
                    + " finish, the others exclude each other");
        }
        ScriptedModel.Turn turn = spec.error() != null ? ScriptedModel.fail(error(spec.error(), where)) : reply(spec, where);
        if (spec.delayMs() != null && spec.delayMs() < 0) {
            throw new ReinException(where + ".delay_ms is " + spec.delayMs() + ": give the delay before the reply in"
                    + " milliseconds, 0 or more");
        }
        if (spec.delayMs() != null && spec.delayMs() > 0) {
            turn = ScriptedModel.delayed(Duration.ofMillis(spec.delayMs()), turn);
        }
        return turn;
    }

    private static ScriptedModel.Turn reply(SuiteSpec.TurnSpec spec, String where) {
        Usage usage = usage(spec.usage(), where);
        List<CallBlock> calls = calls(spec, where);
        StopReason stop = spec.stopReason() != null ? stopReason(spec.stopReason(), where)
                : calls.isEmpty() ? StopReason.END_TURN : StopReason.TOOL_USE;
        String text = spec.text() == null ? "" : spec.text();
        return (request, number) -> {
            List<ContentBlock> blocks = new ArrayList<>();
            if (!text.isEmpty()) {
                blocks.add(new TextBlock(text));
            }
            for (int i = 0; i < calls.size(); i++) {
                blocks.add(new ToolUseBlock("toolu_" + number + "_" + (i + 1), calls.get(i).name(), calls.get(i).input().deepCopy()));
            }
            return new ModelResponse("msg_scripted_" + number, request.model(), blocks, stop, null, usage);
        };
    }

    private record CallBlock(String name, ObjectNode input) {}

    private static List<CallBlock> calls(SuiteSpec.TurnSpec spec, String where) {
        List<CallBlock> calls = new ArrayList<>();
        if (spec.finish() != null) {
            String status = spec.finish().status();
            // the shorthand is a call the finish tool takes: another status would be refused in every trial
            if (status != null && !List.of("completed", "failed", "needs_user_input").contains(status)) {
                throw new ReinException(where + ".finish.status '" + status + "' is not a status of the finish tool; use"
                        + " completed, failed or needs_user_input (to script a call the tool refuses, give it as"
                        + " tool_calls: [{name: finish, input: {...}}])");
            }
            ObjectNode input = Json.object();
            input.put("status", spec.finish().status() == null ? "completed" : spec.finish().status());
            input.put("summary", spec.finish().summary() == null ? "" : spec.finish().summary());
            input.put("result", spec.finish().result() == null ? "" : spec.finish().result());
            calls.add(new CallBlock("finish", input));
        }
        if (spec.toolCalls() != null) {
            if (spec.toolCalls().isEmpty()) {
                throw new ReinException(where + ".tool_calls is empty");
            }
            for (int i = 0; i < spec.toolCalls().size(); i++) {
                SuiteSpec.CallSpec call = spec.toolCalls().get(i);
                if (call == null || call.name() == null || call.name().isBlank()) {
                    throw new ReinException(where + ".tool_calls[" + i + "] needs a name");
                }
                if (call.input() != null && !(call.input() instanceof ObjectNode)) {
                    throw new ReinException(where + ".tool_calls[" + i + "].input must be an object");
                }
                calls.add(new CallBlock(call.name(), call.input() == null ? Json.object() : (ObjectNode) call.input()));
            }
        }
        return calls;
    }

    private static Usage usage(SuiteSpec.UsageSpec spec, String where) {
        if (spec == null) {
            return ScriptedModel.DEFAULT_USAGE;
        }
        try {
            return Usage.of(orZero(spec.inputTokens()), orZero(spec.outputTokens()), orZero(spec.cacheReadInputTokens()),
                    orZero(spec.cacheWriteInputTokens()));
        } catch (IllegalArgumentException e) {
            throw new ReinException(where + ".usage: " + e.getMessage());
        }
    }

    private static long orZero(Long value) {
        return value == null ? 0 : value;
    }

    private static StopReason stopReason(String text, String where) {
        StopReason reason = StopReason.ofTraceName(text.toLowerCase(Locale.ROOT));
        if (reason == StopReason.UNKNOWN && !"unknown".equalsIgnoreCase(text)) {
            throw new ReinException(where + ".stop_reason '" + text + "' is not a stop reason (end_turn, tool_use, max_tokens, refusal, ...)");
        }
        return reason;
    }

    private static ModelException error(SuiteSpec.ErrorSpec spec, String where) {
        ModelException.Kind kind;
        try {
            kind = ModelException.Kind.valueOf((spec.kind() == null ? "other" : spec.kind()).toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ReinException(where + ".error.kind '" + spec.kind() + "' is unknown; use one of "
                    + Arrays.stream(ModelException.Kind.values()).map(k -> k.name().toLowerCase(Locale.ROOT)).toList());
        }
        boolean retryable = spec.retryable() != null ? spec.retryable() : kind.retryableByDefault();
        return new ModelException(kind, spec.httpStatus() == null ? 0 : spec.httpStatus(),
                spec.message() == null ? "scripted " + kind.name().toLowerCase(Locale.ROOT) + " error" : spec.message(),
                retryable, null, null, null);
    }
}
