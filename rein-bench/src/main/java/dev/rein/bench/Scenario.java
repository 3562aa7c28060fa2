package dev.rein.bench;

import java.util.concurrent.ConcurrentLinkedQueue;

/** The task every client runs: the same prompt, the same tool, the same tool output. */
final class Scenario {
    static final String MODEL = "claude-sonnet-4-5";
    static final String SYSTEM = "You are a benchmark agent. Look up every item the user names, then answer.";
    static final String GOAL = "Look up the items one by one and tell me the answer.";
    static final String TOOL_DESCRIPTION = "Looks up one item by its name and returns what is known about it.";
    static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\",\"description\":\"the item\"}},"
            + "\"required\":[\"q\"]}";
    private static final String FILLER = "Stock level normal; last audited by the warehouse team; no open orders, "
            + "no holds, no pending transfers; supplier lead time within the usual range; price unchanged since the "
            + "previous quarter; item appears in three bundles and one seasonal catalogue; notes: none. ";

    private Scenario() {}

    /** About 400 characters of tool output, different for every item. */
    static String lookup(String q) {
        return "Record for " + q + ": " + FILLER + FILLER.substring(0, 90);
    }

    /**
     * Parallel-step case: how long each call takes, in milliseconds (100); 0 while the parallel
     * benchmark warms the client's code up with the same calls, then no time is taken or recorded.
     */
    static volatile long slowLookupMillis = 100;

    /** Parallel-step case: each tool call takes {@link #slowLookupMillis}. */
    static void slowLookup() {
        long millis = slowLookupMillis;
        if (millis == 0) {
            return;
        }
        long start = System.nanoTime();
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        TOOL_SPANS.add(new long[] {start, System.nanoTime()});
    }

    /** Start and end ({@code System.nanoTime}) of every timed lookup, for the parallel step's breakdown. */
    static final ConcurrentLinkedQueue<long[]> TOOL_SPANS = new ConcurrentLinkedQueue<>();
}
