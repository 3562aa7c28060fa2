package dev.rein.state;

import java.time.Instant;

/**
 * A trace event as a store keeps it: its type name and its JSON (already redacted).
 *
 * @param seq increasing per store, in the order events were appended
 */
public record StoredEvent(long seq, String runId, int step, String type, Instant time, String json) {}
