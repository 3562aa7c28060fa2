package dev.rein.state;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.trace.TraceEvent;

/** The JSON form of snapshots, idempotency records and events, shared by every store. */
public final class SnapshotCodec {
    private SnapshotCodec() {}

    public static String write(RunSnapshot snapshot) {
        return Json.write(snapshot);
    }

    /**
     * @throws StoreException when the text is not a snapshot, or one written by a newer Rein
     */
    public static RunSnapshot readSnapshot(String json) {
        RunSnapshot snapshot = read(json, RunSnapshot.class, "run snapshot");
        if (snapshot.format() > RunSnapshot.FORMAT) {
            throw new StoreException("run " + snapshot.runId() + " was saved in snapshot format " + snapshot.format()
                    + " by a newer Rein; this version reads format " + RunSnapshot.FORMAT + ". Upgrade Rein to resume it.");
        }
        return snapshot;
    }

    public static String write(IdempotencyRecord record) {
        return Json.write(record);
    }

    public static IdempotencyRecord readIdempotency(String json) {
        return read(json, IdempotencyRecord.class, "idempotency record");
    }

    /** The JSON of an event and its type name. */
    public static StoredEvent event(long seq, TraceEvent event) {
        JsonNode tree = Json.mapper().valueToTree(event);
        return new StoredEvent(seq, event.runId(), event.step(), tree.path("type").asText(), event.time(), Json.write(tree));
    }

    private static <T> T read(String json, Class<T> type, String what) {
        try {
            // Unknown fields are skipped so that a snapshot with fields added by a later minor version still loads.
            return Json.storedMapper().readerFor(type).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).readValue(json);
        } catch (JsonProcessingException e) {
            throw new StoreException("cannot read a stored " + what + ": " + e.getOriginalMessage(), e);
        }
    }
}
