package dev.rein.replay;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A recorded run resumed at {@code step} after its process stopped while RUNNING, under other limits (or model name)
 * than the replay has there ({@code changes}, readable): a replay takes up a resuming agent's limits only where the
 * recording paused (for approval), and nothing pauses it at the point where the recorded process stopped, so those
 * limits are not the replay's.
 */
record Interruption(int step, String changes) {

    /** The limits (and model name) {@code resumed} records that differ from {@code limits} and {@code model}, readable; empty when none. */
    static String changes(JsonNode limits, String model, JsonNode resumed) {
        List<String> changes = new ArrayList<>();
        String resumedModel = resumed.path("model").isTextual() ? resumed.get("model").asText() : model;
        if (!resumedModel.equals(model)) {
            changes.add("model " + resumedModel + " (was " + model + ")");
        }
        JsonNode now = resumed.path("limits");
        Set<String> names = new LinkedHashSet<>();
        limits.fieldNames().forEachRemaining(names::add);
        now.fieldNames().forEachRemaining(names::add);
        for (String name : names) {
            JsonNode before = limits.path(name);
            JsonNode after = now.path(name);
            if (!before.equals(after)) {
                changes.add(name + " " + shown(after) + " (was " + shown(before) + ")");
            }
        }
        return String.join(", ", changes);
    }

    private static String shown(JsonNode value) {
        return value.isMissingNode() || value.isNull() ? "none" : value.isTextual() ? value.asText() : value.toString();
    }

    /** The note added to a divergence at or after {@link #step}. */
    String note() {
        return "; the recorded run was resumed at step " + step + " after its process stopped (run_resumed from RUNNING)"
                + " under other limits than the replay had there: " + changes + "; a replay cannot take them up there, as"
                + " nothing pauses it where the process stopped, so it ran on under the earlier ones and may diverge for that"
                + " alone (replay the run resumed in the same process, or with the resuming agent's limits from the start,"
                + " to compare)";
    }
}
