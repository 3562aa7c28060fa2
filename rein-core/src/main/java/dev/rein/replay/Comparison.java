package dev.rein.replay;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.RunResult;
import dev.rein.internal.text.Counts;
import dev.rein.json.Json;
import dev.rein.model.ToolUseBlock;
import dev.rein.security.TraceRedactor;
import dev.rein.tool.Secrets;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compares a replay with its recording: collects the replay's guard events (interventions, stall
 * findings), and on the first call that differs (its request, or a call made or left out) says
 * what changed, in words.
 */
final class Comparison {
    /** How a trace writes a masked secret; the name says which secret to mask the rebuilt request with. */
    private static final Pattern MASKED = Pattern.compile("\\[REDACTED:([^\\]\"]+)]");
    /** Where a difference in a message's block is: its message and block index. */
    /** Which tool a difference in the tools offered is in. */
    private static final Pattern TOOL_AT = Pattern.compile("^at tools\\[(\\d+)]");
    private static final Pattern IN_BLOCK = Pattern.compile("^at messages\\[(\\d+)]\\.content\\[(\\d+)]");

    private final Recording recording;
    private final List<JsonNode> guardEvents = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, String> toolOfCall = new HashMap<>();
    /** The calls live READ tools answered for real: call id → how the divergence names the tool and call. */
    private final Map<String, String> liveCalls = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile Secrets secrets = Secrets.NONE;
    private volatile TraceEvent.ModelRequested lastRequest;
    private volatile Divergence divergence;

    Comparison(Recording recording) {
        this.recording = recording;
        for (Recording.Call call : recording.calls()) {
            for (ToolUseBlock use : call.response() == null ? List.<ToolUseBlock>of() : call.response().toolUses()) {
                toolOfCall.put(use.id(), use.name());
            }
        }
    }

    RunListener listener(String runId) {
        return new RunListener() {
            @Override
            public void onEvent(TraceEvent event) {
                if (event instanceof TraceEvent.Intervention || event instanceof TraceEvent.StallDetected) {
                    guardEvents.add(Json.mapper().valueToTree(event));
                } else if (event instanceof TraceEvent.ModelRequested requested) {
                    lastRequest = requested;
                }
            }
        };
    }

    /** The agent's secrets: a rebuilt request is masked with them before it is compared, as its trace was. */
    void secrets(Secrets secrets) {
        this.secrets = Objects.requireNonNull(secrets, "secrets");
    }

    Divergence divergence() {
        return divergence;
    }

    /**
     * {@code now} as the trace would have stored it: every secret the agent knows is masked, and so
     * is every secret the recorded request shows masked that the agent can look up by name (a
     * secret a tool fetched is not known in a replay, where no tool runs).
     */
    JsonNode masked(JsonNode now, JsonNode recorded) {
        Map<String, String> values = new LinkedHashMap<>(secrets.known());
        Matcher names = MASKED.matcher(Json.write(recorded));
        while (names.find()) {
            String name = names.group(1);
            if (!values.containsKey(name)) {
                lookUp(name).ifPresent(value -> values.put(name, value));
            }
        }
        return values.isEmpty() ? now : new TraceRedactor(() -> values).redactValue(now);
    }

    /** A lookup that fails leaves that secret unmasked: the comparison then shows the plain value as a difference. */
    private Optional<String> lookUp(String name) {
        try {
            return secrets.get(name);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * A call of a live READ tool that ran for real ({@code id} as Rein knows it, {@code id#index} for a
     * repeated id): a difference in its result is said to come from that tool.
     */
    void ranLive(String id, String tool, int step) {
        String said = "`" + tool + "` (its call " + id + " of step " + step + ")";
        liveCalls.put(id, said);
        int repeated = id.indexOf('#');
        if (repeated > 0) { // the model, and so the request, knows the call by its own id
            liveCalls.putIfAbsent(id.substring(0, repeated), said);
        }
    }

    /**
     * The request of recorded call {@code index} differs by {@code diff}; {@code now} is the request
     * the replay built (masked), in which a difference in a live READ tool's result is told as that.
     */
    void requestDiffers(int index, String diff, JsonNode now) {
        Recording.Call call = recording.calls().get(index);
        String live = liveResultAt(diff, now);
        if (live != null) {
            String what = "the live READ tool " + live + " now answers otherwise than recorded: it ran for real, on its data"
                    + " as it is now";
            diverge(index, call.step(), call.purpose(), what + ", so the " + call.purpose() + " request differs " + diff,
                    "the " + call.purpose() + " request of step " + call.step() + " differs " + diff, diff);
            return;
        }
        String changed = toolsChanged(diff, call.request(), now);
        if (changed == null) {
            changed = outputSchemaChanged(call.request(), now);
        }
        if (changed != null) {
            diverge(index, call.step(), call.purpose(), changed + ", so the " + call.purpose() + " request differs " + diff,
                    "the " + call.purpose() + " request of step " + call.step() + " differs " + diff, diff);
            return;
        }
        diverge(index, call.step(), call.purpose(), "the " + call.purpose() + " request differs " + diff,
                "the " + call.purpose() + " request of step " + call.step() + " differs " + diff, diff);
    }

    /**
     * A difference in the tools offered ("at tools[...]"), in words, told of the first difference the
     * JSON shows: the tool at that place defined otherwise, another tool there where both runs offer
     * both (another order), or the tools the agent now offers that the recording did not and those it
     * no longer offers. Null when the difference is elsewhere.
     */
    private static String toolsChanged(String diff, JsonNode recorded, JsonNode now) {
        if (!diff.startsWith("at tools") || recorded == null || now == null) {
            return null;
        }
        List<String> before = names(recorded.path("tools"));
        List<String> after = names(now.path("tools"));
        Matcher at = TOOL_AT.matcher(diff);
        if (at.find()) {
            // the place of the first difference decides: a tool added or removed further on is not what differs here
            int index = Integer.parseInt(at.group(1));
            String was = index < before.size() ? before.get(index) : null;
            String is = index < after.size() ? after.get(index) : null;
            if (was != null && was.equals(is) && !was.isEmpty()) {
                return "the tool `" + is + "` is now defined otherwise";
            }
            if (was != null && is != null && after.contains(was) && before.contains(is)) {
                return "the agent offers its tools in another order: `" + is + "` is now where the recorded run had `" + was + "`";
            }
        }
        List<String> added = after.stream().filter(n -> !before.contains(n)).toList();
        List<String> removed = before.stream().filter(n -> !after.contains(n)).toList();
        List<String> said = new ArrayList<>();
        if (!added.isEmpty()) {
            said.add("the agent now offers " + quoted(added) + ", which the recorded run did not have");
        }
        if (!removed.isEmpty()) {
            said.add((said.isEmpty() ? "the agent" : "and") + " no longer offers " + quoted(removed) + ", which the recorded run had");
        }
        return said.isEmpty() ? null : String.join(" ", said);
    }

    /**
     * A change in the typed answer asked for (the request option {@code OutputSchema}, which the
     * system prompt spells out), in words: no type now, a type the recording did not have, another
     * one, or the same one defined otherwise. Null when the option is the same.
     */
    private static String outputSchemaChanged(JsonNode recorded, JsonNode now) {
        if (recorded == null || now == null) {
            return null;
        }
        JsonNode before = recorded.path("options").path("OutputSchema");
        JsonNode after = now.path("options").path("OutputSchema");
        if (before.equals(after)) {
            return null;
        }
        String was = before.path("name").asText("output");
        String is = after.path("name").asText("output");
        if (after.isMissingNode()) {
            return "the agent now asks for no typed answer, where the recorded run's answer had to match the output schema `" + was
                    + "` (outputType / outputSchema)";
        }
        if (before.isMissingNode()) {
            return "the agent now asks for an answer matching the output schema `" + is + "`, which the recorded run did not ask for";
        }
        if (!was.equals(is)) {
            return "the agent now asks for an answer matching the output schema `" + is + "`, where the recorded run's answer had to"
                    + " match `" + was + "`";
        }
        if (!properties(before.path("schema"), "").equals(properties(after.path("schema"), ""))) {
            return "the output schema `" + is + "` is now defined otherwise";
        }
        // The same properties, defined otherwise: maybe the type changed, maybe only what Rein generates for it (a Map's
        // values, an empty record, a JsonNode are written otherwise than before), which the user cannot see in their code.
        return "the output schema `" + is + "` is now defined otherwise, with the same properties: if the type `" + is + "` is"
                + " unchanged, the schema Rein generates for it changed (as after upgrading Rein); replay with the schema the trace"
                + " recorded, .outputSchema(Replay.from(trace).recorded().outputSchema()), as `rein replay` does";
    }

    /** The places of every property a schema names (".a", ".a.b"), at any depth: what a type's components are called. */
    private static java.util.Set<String> properties(JsonNode schema, String at) {
        java.util.Set<String> names = new java.util.TreeSet<>();
        if (schema.isArray()) {
            schema.forEach(s -> names.addAll(properties(s, at)));
        } else if (schema.isObject()) {
            for (var field : schema.properties()) {
                if (field.getKey().equals("properties") && field.getValue().isObject()) {
                    for (var property : field.getValue().properties()) {
                        names.add(at + "." + property.getKey());
                        names.addAll(properties(property.getValue(), at + "." + property.getKey()));
                    }
                } else {
                    names.addAll(properties(field.getValue(), at));
                }
            }
        }
        return names;
    }

    private static List<String> names(JsonNode tools) {
        List<String> names = new ArrayList<>();
        tools.forEach(t -> names.add(t.path("name").asText()));
        return names;
    }

    private static String quoted(List<String> names) {
        return (names.size() == 1 ? "the tool " : "the tools ") + String.join(", ", names.stream().map(n -> "`" + n + "`").toList());
    }

    /** The live READ tool whose result holds the first difference ("at messages[i].content[j]..."), or null. */
    private String liveResultAt(String diff, JsonNode now) {
        if (liveCalls.isEmpty() || now == null) {
            return null;
        }
        Matcher at = IN_BLOCK.matcher(diff);
        if (!at.find()) {
            return null;
        }
        JsonNode block = now.path("messages").path(Integer.parseInt(at.group(1))).path("content").path(Integer.parseInt(at.group(2)));
        return "tool_result".equals(block.path("type").asText()) ? liveCalls.get(block.path("tool_use_id").asText()) : null;
    }

    /**
     * Whether the replay's call at recorded call {@code index} has another purpose than the recorded
     * one (a step call where the recording compacted, say); if so that is the divergence, said as
     * such rather than as a difference deep in the request.
     */
    boolean otherPurpose(int index) {
        TraceEvent.ModelRequested now = lastRequest;
        Recording.Call call = recording.calls().get(index);
        if (now == null || call.purpose().isEmpty() || now.purpose().equals(call.purpose())) {
            return false;
        }
        String what = "a " + now.purpose() + " model call where the recording made its " + call.purpose() + " call of step "
                + call.step();
        diverge(index, now.step(), now.purpose(), "the run now makes " + what, "the run makes " + what, "");
        return true;
    }

    /** The model_request the replayed run traced last (null before its first): a new one begins another logical call. */
    Object lastRequestMark() {
        return lastRequest;
    }

    /**
     * The replayed run's model-call stages made {@code made} attempts of recorded call {@code index} where the recording
     * made {@code recorded} (its {@code model_fallback} events and the call's own outcome): a stage that no longer moves
     * on from a failed attempt, or moves on further.
     */
    void attemptsDiffer(int index, int made, int recorded) {
        Recording.Call call = recording.calls().get(index);
        String what = made < recorded
                ? "end the " + call.purpose() + " call of step " + call.step() + " after " + Counts.of(made, "attempt")
                        + ", where the recorded run's moved on from attempt " + made + "'s failure" + failedOn(call, made - 1)
                        + " to " + movedTo(call, made - 1) + " (" + Counts.of(recorded, "attempt") + ")"
                : "make attempt " + made + " of the " + call.purpose() + " call of step " + call.step()
                        + ", which the recording does not have (it recorded " + Counts.of(recorded, "attempt") + ")";
        String alone = "the run's model-call stages now " + what;
        diverge(index, call.step(), call.purpose(), alone, alone, "");
    }

    /** The model attempt {@code nth} (from 0) of {@code call} failed on, as " (on 'model')"; empty when not recorded. */
    private static String failedOn(Recording.Call call, int nth) {
        JsonNode fallback = nth >= 0 && nth < call.fallbacks().size() ? call.fallbacks().get(nth) : null;
        return fallback == null || !fallback.hasNonNull("from_model") ? "" : " (on '" + fallback.get("from_model").asText() + "')";
    }

    /** The model the recorded stage moved on to after attempt {@code nth} (from 0) of {@code call}, quoted. */
    private static String movedTo(Recording.Call call, int nth) {
        JsonNode fallback = nth >= 0 && nth < call.fallbacks().size() ? call.fallbacks().get(nth) : null;
        return fallback == null || !fallback.hasNonNull("to_model") ? "another attempt" : "'" + fallback.get("to_model").asText() + "'";
    }

    /** The replay makes one model call more than the recording has. */
    void beyondRecording() {
        TraceEvent.ModelRequested now = lastRequest;
        int step = now == null ? 0 : now.step();
        String purpose = now == null ? "step" : now.purpose();
        int recorded = recording.calls().size();
        String what = "a " + purpose + " model call the recording does not have (it recorded " + recorded + ")";
        diverge(recorded, step, purpose, "the run now makes " + what, "the run makes " + what + " at step " + step, "");
    }

    /** The replayed run ended after {@code used} model calls, before the recording's next one. */
    void endedEarly(int used, RunResult result) {
        Recording.Call next = recording.calls().get(used);
        String ending = result.status().name() + "/" + result.reason();
        String what = "before the recorded " + next.purpose() + " call of step " + next.step() + " (it used " + used + " of "
                + recording.calls().size() + " recorded model calls)";
        diverge(used, next.step(), next.purpose(), "the run now ends " + ending + " " + what, "the run ends " + ending + " " + what, "");
    }

    /**
     * Records the first divergence, found at recorded call {@code index} of {@code step}. When a guard
     * acts now that did not (or no longer acts) before that call, the divergence is placed there and
     * explained by it.
     */
    private synchronized void diverge(int index, int step, String purpose, String alone, String consequence, String diff) {
        if (divergence != null) {
            return;
        }
        List<JsonNode> replayed = List.copyOf(guardEvents);
        List<JsonNode> recorded = recording.guardEvents().stream().filter(g -> g.callsBefore() <= index)
                .map(Recording.Guard::event).toList();
        for (int s = 0; s <= step; s++) {
            List<String> changes = changes(atStep(recorded, s), atStep(replayed, s));
            if (!changes.isEmpty()) {
                divergence = new Divergence(s, purpose, "step " + s + ": " + String.join("; ", changes) + " (so " + consequence + ")",
                        diff);
                return;
            }
        }
        divergence = new Divergence(step, purpose, "step " + step + ": " + alone, diff);
    }

    private static List<JsonNode> atStep(List<JsonNode> events, int step) {
        return events.stream().filter(e -> e.path("step").asInt() == step).toList();
    }

    /** Guard events the replay has and the recording had not, and the reverse, described. */
    private List<String> changes(List<JsonNode> recorded, List<JsonNode> replayed) {
        List<String> recordedKeys = recorded.stream().map(Comparison::key).toList();
        List<String> replayedKeys = replayed.stream().map(Comparison::key).toList();
        List<String> out = new ArrayList<>();
        for (JsonNode e : replayed) {
            if (!recordedKeys.contains(key(e))) {
                out.add(describe(e, "now"));
            }
        }
        for (JsonNode e : recorded) {
            if (!replayedKeys.contains(key(e))) {
                out.add(describe(e, "no longer"));
            }
        }
        return out;
    }

    private static String key(JsonNode e) {
        return e.path("type").asText() + "|" + e.path("kind").asText() + "|" + e.path("detector").asText() + "|"
                + e.path("action").asText() + "|" + e.path("call_id").asText();
    }

    private String describe(JsonNode e, String when) {
        if (e.path("type").asText().equals("stall_detected")) {
            String tool = toolOfCall.getOrDefault(e.path("call_id").asText(), e.path("call_id").asText());
            return "the stall guard (" + e.path("detector").asText() + ") " + when + " " + verb(e.path("action").asText())
                    + " `" + tool + "`";
        }
        return "the " + e.path("kind").asText() + " intervention " + (when.equals("now") ? "now happens" : "no longer happens")
                + ": " + firstLine(e.path("message").asText());
    }

    private static String verb(String action) {
        return switch (action.toLowerCase(Locale.ROOT)) {
            case "blocked" -> "blocks";
            case "warned" -> "warns about";
            case "stopped" -> "stops the run at";
            default -> action + "s";
        };
    }

    private static String firstLine(String text) {
        int nl = text.indexOf('\n');
        return nl < 0 ? text : text.substring(0, nl);
    }
}
