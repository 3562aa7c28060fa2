package dev.rein.mcp.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a session notes about its requests (by JSON-RPC id) for their callers to read once: what
 * the server said refusing one, an error without an id that answered one, what cut one's stream
 * off. Only the latest {@link #KEPT} notes are kept. A caller reads its note as soon as its
 * request failed, but a caller that gave up first (its timeout) or a request the SDK sent itself
 * (an {@code initialize} after a 404) never reads it, and such notes must not pile up for as long
 * as a session lasts.
 */
final class ByRequest<V> {
    /** Far more than the requests of one session that fail at the same time (a model's parallel calls). */
    static final int KEPT = 64;

    private final Map<String, V> notes = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
            return size() > KEPT;
        }
    };

    synchronized void put(String id, V note) {
        notes.put(id, note);
    }

    /** The note on request {@code id}, forgotten now; null when there is none (or it was dropped). */
    synchronized V take(String id) {
        return notes.remove(id);
    }
}
