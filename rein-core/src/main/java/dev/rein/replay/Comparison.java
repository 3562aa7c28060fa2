package dev.rein.replay;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.model.ToolUseBlock;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Compares a replay with its recording: collects the replay's guard events (interventions, stall
 * findings) by step, and on the first request that differs says what changed, in words.
 */
final class Comparison {
    private final Recording recording;
    private final Map<Integer, List<JsonNode>> guardEvents = new ConcurrentHashMap<>();
    private final Map<String, String> toolOfCall = new HashMap<>();
    private volatile Divergence divergence;

    Comparison(Recording recording) {
        this.recording = recording;
        for (Recording.Call call : recording.calls()) {
            for (ToolUseBlock use : call.response().toolUses()) {
                toolOfCall.put(use.id(), use.name());
            }
        }
    }

    RunListener listener(String runId) {
        return new RunListener() {
            @Override
            public void onEvent(TraceEvent event) {
                if (event instanceof TraceEvent.Intervention || event instanceof TraceEvent.StallDetected) {
                    guardEvents.computeIfAbsent(event.step(), s -> java.util.Collections.synchronizedList(new ArrayList<>()))
                            .add(Json.mapper().valueToTree(event));
                }
            }
        };
    }

    Divergence divergence() {
        return divergence;
    }

    /** Records the first divergence: the request of {@code call} differs by {@code diff}. */
    void diverged(Recording.Call call, String diff) {
        for (int step = 0; step <= call.step(); step++) {
            List<String> changes = changes(recording.guardEvents().getOrDefault(step, List.of()), guardEvents.getOrDefault(step, List.of()));
            if (!changes.isEmpty()) {
                divergence = new Divergence(step, call.purpose(), "step " + step + ": " + String.join("; ", changes)
                        + " (so the " + call.purpose() + " request of step " + call.step() + " differs " + diff + ")", diff);
                return;
            }
        }
        divergence = new Divergence(call.step(), call.purpose(), "step " + call.step() + ": the " + call.purpose()
                + " request differs " + diff, diff);
    }

    /** Guard events the replay has and the recording had not, and the reverse, described. */
    private List<String> changes(List<JsonNode> recorded, List<JsonNode> replayed) {
        List<String> recordedKeys = recorded.stream().map(Comparison::key).toList();
        List<String> replayedKeys = new ArrayList<>(replayed).stream().map(Comparison::key).toList();
        List<String> out = new ArrayList<>();
        for (JsonNode e : new ArrayList<>(replayed)) {
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
        return switch (action) {
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
