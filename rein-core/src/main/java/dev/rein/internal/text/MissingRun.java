package dev.rein.internal.text;

/** What to say when a store has no run of the id asked for. */
public final class MissingRun {
    private MissingRun() {}

    /**
     * "there is no run 'ID' in {@code where}", and for an in-memory store why that may be: an agent
     * built without a store keeps its runs to itself, so a run paused by another agent instance (a
     * web application that builds one per request) or another process is not there.
     *
     * @param inMemory whether the store is an {@code InMemoryRunStore}
     * @param where    how to name the store ("this agent's store")
     * @param listed   how to list the runs it does hold
     */
    public static String message(boolean inMemory, String runId, String where, String listed) {
        String why = inMemory
                ? " (it keeps runs in memory, in this process only, and an agent built without .store(...) has a store of its own:"
                        + " a run paused by another Agent instance or another process is not in it; give every agent that"
                        + " runs, decides or resumes these runs one store, e.g. .store(JdbcRunStore.sqlite(dir)) from rein-store-jdbc)"
                : "";
        return "there is no run '" + runId + "' in " + where + why + "; list the stored runs with " + listed;
    }
}
