package dev.rein.internal.replay;

/**
 * The run id a replay gives its run: the recorded run's, taken as it is. The agent knows it from an application's
 * supplier by this type, and does not hold it to the limit on new ids' length ({@code RunIds.LONGEST_BYTES}): the
 * recording has that id already (a store without the limit kept it, or an older Rein wrote it), and the replay keeps its
 * run in a store of its own, in memory.
 */
public record RecordedRunId(String runId) implements java.util.function.Supplier<String> {
    @Override
    public String get() {
        return runId;
    }
}
