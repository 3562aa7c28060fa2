package dev.rein.internal.text;

/**
 * What no run id may hold: half a UTF-16 surrogate pair (text cut inside an emoji), which has no UTF-8
 * form, so a database column, an OpenTelemetry attribute or a trace file read as UTF-8 would hold
 * {@code ?} in its place: another id, which may be another run's ({@code run_?}); and a control
 * character (a line break, an escape), which a log line quoting the id would carry as it is (a forged
 * second line, a terminal sequence), and which no file name or HTTP header the id might become can
 * hold.
 */
public final class RunIds {
    private RunIds() {}

    /**
     * The most bytes of UTF-8 a new run's id may have: the most the JDBC store indexes (PostgreSQL cannot index a value
     * much over 2,700 bytes) and Temporal takes as a workflow id by default. The one value of the limit: Agent's start,
     * DrivenRun.begin, JdbcRunStore and TemporalAgentClient all take it from here.
     */
    public static final int LONGEST_BYTES = 1_000;

    /**
     * {@code runId} shown (its first 40 characters) with its length and the limit, as the middle of a sentence that
     * refuses it ({@code 'run_荷荷…' (337 characters, 1003 bytes of UTF-8), longer than the 1000 bytes ...}), when it is
     * over {@link #LONGEST_BYTES} bytes of UTF-8; null when it is within.
     */
    public static String overLimit(String runId) {
        int bytes = runId.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (bytes <= LONGEST_BYTES) {
            return null;
        }
        int characters = runId.codePointCount(0, runId.length());
        String shown = characters <= 40 ? runId : runId.substring(0, runId.offsetByCodePoints(0, 40)) + "…";
        return "'" + shown(shown) + "' (" + characters + " characters, " + bytes + " bytes of UTF-8), longer than the "
                + LONGEST_BYTES + " bytes of UTF-8 a run id may have (the most the JDBC store indexes and Temporal takes)";
    }

    /** Why {@code runId} cannot be a run's id, as the end of a sentence, or null when it can be. */
    public static String problem(String runId) {
        String unstorable = unstorable(runId);
        return unstorable != null ? unstorable : control(runId);
    }

    /**
     * Why no store can even look {@code runId} up (half a surrogate pair: a database would look up another id), or
     * null. An id with a control character can be looked up: an older Rein saved runs under such ids.
     */
    public static String unstorable(String runId) {
        int at = LoneSurrogates.first(runId);
        if (at >= 0) {
            return "it holds " + LoneSurrogates.describe(runId, at) + ", which has no UTF-8 form, so no store, trace or"
                    + " telemetry could keep the id as it is";
        }
        return null;
    }

    /** Why {@code runId}, which holds a control character, cannot be a run's id, or null when it holds none. */
    private static String control(String runId) {
        for (int i = 0; i < runId.length(); i++) {
            char c = runId.charAt(i);
            if (c < 0x20 || c >= 0x7f && c <= 0x9f || c == 0x2028 || c == 0x2029) {
                String name = switch (c) {
                    case '\n' -> " (a line feed)";
                    case '\r' -> " (a carriage return)";
                    case '\t' -> " (a tab)";
                    case 0x1b -> " (an escape)";
                    default -> "";
                };
                return "it holds the control character " + String.format(java.util.Locale.ROOT, "U+%04X", (int) c) + name
                        + " at index " + i + ", which a log line quoting the id would carry as it is and no file name or"
                        + " HTTP header can hold";
            }
        }
        return null;
    }

    /** {@code runId} as a message quotes it: control characters and half a surrogate pair as escapes ({@code \ud83d}). */
    public static String shown(String runId) {
        return dev.rein.json.Json.escapeHalfPairs(Controls.visible(runId, false));
    }

    /**
     * {@code runId} as the RUN of a command a message suggests ({@code rein show ID}), to be pasted into a POSIX shell:
     * as {@link #shown} gives it, quoted as {@link ShellWords#word} says, after {@code --} when it starts with '-'
     * ({@link ShellWords#run}). The one rule for a run id in such a command: core's messages and rein-cli's hints
     * ({@code CliHome.shellId}) both take it from here.
     */
    public static String shellWord(String runId) {
        return ShellWords.run(runId, ShellWords.word(shown(runId)));
    }
}
