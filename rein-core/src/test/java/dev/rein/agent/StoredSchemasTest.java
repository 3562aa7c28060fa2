package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunSnapshot;
import dev.rein.state.RunStore;
import dev.rein.state.SnapshotCodec;
import dev.rein.testkit.ScriptedModel;
import org.junit.jupiter.api.Test;

/**
 * The stored schemas a driven run keeps (one instance each, so each is compiled once for a worker): keyed by the
 * stored text, so that a run is continued with its own schema as it stored it, and bounded.
 */
class StoredSchemasTest {
    /** A stored run (its status does not matter here) whose stored output schema is {@code schema}, read back. */
    private static RunSnapshot storedWith(String schema) {
        RunStore store = new InMemoryRunStore();
        RunResult done = Agent.builder().model(ScriptedModel.of(text("done"))).store(store).build().run("a goal");
        ObjectNode tree = (ObjectNode) Json.parse(SnapshotCodec.write(store.load(done.runId()).orElseThrow()));
        tree.set("output_schema", Json.parse("{\"name\":\"Refund\",\"schema\":" + schema + "}"));
        return SnapshotCodec.readSnapshot(Json.write(tree));
    }

    private static String numbered(int n) {
        return "{\"type\":\"object\",\"description\":\"v" + n + "\"}";
    }

    /**
     * Two runs whose schemas differ only in the order of their properties (equal as JSON trees): each is continued
     * with its own, so the model's instruction and the snapshot written back keep the order that run stored. They
     * were keyed by JsonNode.equals, and the second run was continued, and written back, in the first run's order.
     */
    @Test
    void aRunIsContinuedWithItsOwnSchemaWhenAnotherRunsDiffersOnlyInPropertyOrder() {
        StoredSchemas schemas = new StoredSchemas();
        RunSnapshot first = storedWith("{\"type\":\"object\",\"properties\":{\"orderId\":{\"type\":\"string\"},"
                + "\"amount\":{\"type\":\"integer\"}}}");
        RunSnapshot reordered = storedWith("{\"type\":\"object\",\"properties\":{\"amount\":{\"type\":\"integer\"},"
                + "\"orderId\":{\"type\":\"string\"}}}");
        assertThat(first.outputSchema()).isEqualTo(reordered.outputSchema());

        schemas.shared(first);
        RunSnapshot shared = schemas.shared(reordered);

        assertThat(shared.outputSchema()).isSameAs(reordered.outputSchema());
        assertThat(Json.write(Json.parse(SnapshotCodec.write(shared)).path("output_schema")))
                .contains("{\"amount\":{\"type\":\"integer\"},\"orderId\":{\"type\":\"string\"}}");
        RunSnapshot firstAgain = storedWith("{\"type\":\"object\",\"properties\":{\"orderId\":{\"type\":\"string\"},"
                + "\"amount\":{\"type\":\"integer\"}}}");
        assertThat(schemas.shared(firstAgain).outputSchema()).as("the same stored text shares one instance")
                .isSameAs(first.outputSchema());
    }

    /** At most MAX schemas are kept, the least recently used dropped first; one in use is kept. */
    @Test
    void atMostMaxSchemasAreKeptTheLeastRecentlyUsedDropped() {
        StoredSchemas schemas = new StoredSchemas();
        RunSnapshot oldest = storedWith(numbered(0));
        RunSnapshot used = storedWith(numbered(1));
        schemas.shared(oldest);
        schemas.shared(used);
        for (int n = 2; n <= StoredSchemas.MAX; n++) { // MAX kept: 0 to MAX - 1 and MAX, 0 dropped
            schemas.shared(storedWith(numbered(n)));
            if (n == StoredSchemas.MAX / 2) {
                schemas.shared(storedWith(numbered(1))); // 1 used again: no longer the least recently used
            }
        }

        assertThat(schemas.shared(storedWith(numbered(1))).outputSchema()).as("kept").isSameAs(used.outputSchema());
        RunSnapshot again = storedWith(numbered(0));
        assertThat(schemas.shared(again).outputSchema()).as("dropped: this one kept in its place")
                .isSameAs(again.outputSchema());
        assertThat(schemas.size()).isEqualTo(StoredSchemas.MAX);
    }
}
