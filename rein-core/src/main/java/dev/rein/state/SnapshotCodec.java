package dev.rein.state;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import dev.rein.json.Json;
import dev.rein.trace.TraceEvent;

/** The JSON form of snapshots, idempotency records and events, shared by every store. */
public final class SnapshotCodec {
    private static final String STATE_GOAL = "goal";
    private static final String STATE_BUDGET = "budget";

    private SnapshotCodec() {}

    /**
     * The stored form (format {@value RunSnapshot#FORMAT}): the goal and the budget used are written
     * once, at the top; the agent state's copies of them are left out and restored on reading.
     */
    public static String write(RunSnapshot snapshot) {
        ObjectNode tree = Json.storedMapper().valueToTree(snapshot);
        tree.put("format", RunSnapshot.FORMAT);
        if (tree.path("output_schema").isNull()) {
            // an untyped run is stored as before the schema was kept (an added field: the format stays the same)
            tree.remove("output_schema");
        }
        if (tree.get("state") instanceof ObjectNode state) {
            state.remove(STATE_GOAL);
            state.remove(STATE_BUDGET);
        }
        return Json.write(tree);
    }

    /**
     * Reads a snapshot of this format or an older one (format 1 stored the goal and the budget used
     * twice, at the top and in the agent state; the top-level values are the ones read). A decision
     * stored without who made it reads as made by {@link dev.rein.approval.ApprovalDecision#NOT_RECORDED},
     * one without its time as made at the snapshot's {@code updated_at}. A snapshot without an
     * {@code output_schema} (an untyped run, or one saved before the schema was kept) reads with none.
     *
     * @throws StoreException when the text is not a snapshot, or one written by a newer Rein
     */
    public static RunSnapshot readSnapshot(String json) {
        JsonNode tree;
        try {
            tree = readExact(json);
        } catch (JsonProcessingException e) {
            throw damaged(e);
        }
        int format = tree.path("format").asInt(0);
        if (format > RunSnapshot.FORMAT) {
            throw new StoreException("run " + tree.path("run_id").asText("?") + " was saved in snapshot format " + format
                    + " by a newer Rein; this version reads format " + RunSnapshot.FORMAT + ". Upgrade Rein to resume it.");
        }
        if (tree instanceof ObjectNode top && top.get("state") instanceof ObjectNode state) {
            state.set(STATE_GOAL, top.path("goal"));
            ObjectNode budget = state.putObject(STATE_BUDGET);
            budget.set("steps", top.path("steps"));
            budget.set("usage", top.path("usage"));
            budget.set("cost_usd", top.path("cost_usd"));
            budget.set("active_millis", top.path("active_millis"));
        }
        if (tree instanceof ObjectNode top && top.path("approvals").get("decisions") instanceof ObjectNode decisions) {
            // A decision now needs its time; one stored without it (made by application code) was made by the last save.
            decisions.forEach(d -> {
                if (d instanceof ObjectNode decision && !decision.hasNonNull("decided_at")) {
                    decision.set("decided_at", top.path("updated_at"));
                }
            });
        }
        try {
            return Json.storedMapper().readerFor(RunSnapshot.class).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .readValue(tree);
        } catch (IOException e) {
            throw damaged(e);
        }
    }

    /**
     * The snapshot's tree, in one pass, with the money used ({@code cost_usd}, and the earlier turns'
     * {@code conversation.cost_before}) read with every digit: a tree reads a decimal number as a double, which keeps
     * about 17 significant digits, and the money used must load as it was saved (the JDBC stores keep every digit).
     * Only these: a tool call's float arguments must read as they always have, or the action hash a person approved of
     * a paused call would change when the run is loaded. A key given twice keeps its last value, as a tree does.
     */
    private static JsonNode readExact(String json) throws JsonProcessingException {
        try (JsonParser p = Json.storedMapper().getFactory().createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return Json.storedMapper().readTree(json); // not a snapshot: said by the reading below, as before
            }
            ObjectNode top = Json.storedMapper().createObjectNode();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (name.equals("cost_usd") && value == JsonToken.VALUE_NUMBER_FLOAT) {
                    top.put(name, p.getDecimalValue());
                } else if (name.equals("conversation") && value == JsonToken.START_OBJECT) {
                    ObjectNode conversation = top.putObject(name);
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String field = p.currentName();
                        if (p.nextToken() == JsonToken.VALUE_NUMBER_FLOAT && field.equals("cost_before")) {
                            conversation.put(field, p.getDecimalValue());
                        } else {
                            conversation.set(field, p.readValueAsTree());
                        }
                    }
                } else {
                    top.set(name, p.readValueAsTree());
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT) {
                throw new com.fasterxml.jackson.core.JsonParseException(p, "Unexpected end-of-input: expected close marker for Object");
            }
            return top;
        } catch (JsonProcessingException e) {
            throw e;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e); // reading a String: not expected
        }
    }

    /**
     * A snapshot that is not one (cut short, or edited outside Rein): said without Jackson's source
     * placeholder and package names, with what can be done about it.
     */
    private static StoreException damaged(IOException e) {
        String reason = e instanceof JsonProcessingException json ? json.getOriginalMessage() : e.getMessage();
        reason = String.valueOf(reason).replaceAll("`(?:[a-z0-9_]+\\.)+([A-Za-z0-9_$]+)`", "$1");
        return new StoreException("the stored run snapshot is damaged and cannot be read (" + reason + "); it was cut short or"
                + " changed outside Rein: restore the run store from a backup, or start the task again", e);
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
