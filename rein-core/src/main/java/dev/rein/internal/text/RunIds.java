package dev.rein.internal.text;

/**
 * What no run id may hold: half a UTF-16 surrogate pair (text cut inside an emoji). It has no UTF-8
 * form, so a database column, an OpenTelemetry attribute or a trace file read as UTF-8 would hold
 * {@code ?} in its place: another id, which may be another run's ({@code run_?}).
 */
public final class RunIds {
    private RunIds() {}

    /** Why {@code runId} cannot be a run's id, as the end of a sentence, or null when it can be. */
    public static String halfPair(String runId) {
        int at = LoneSurrogates.first(runId);
        if (at >= 0) {
            return "it holds " + LoneSurrogates.describe(runId, at) + ", which has no UTF-8 form, so no store, trace or"
                    + " telemetry could keep the id as it is";
        }
        return null;
    }

    /** {@code runId} as a message quotes it: control characters and half a surrogate pair as escapes ({@code \ud83d}). */
    public static String shown(String runId) {
        return dev.rein.json.Json.escapeHalfPairs(Controls.visible(runId, false));
    }
}
