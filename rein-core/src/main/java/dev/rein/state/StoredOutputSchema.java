package dev.rein.state;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.ReinException;
import dev.rein.json.Json;
import dev.rein.model.OutputSchema;

/**
 * A typed run's output schema as its snapshot stores it: {@code {"name":…,"schema":{…}}}, the name and the JSON
 * Schema (the Java type it may have been generated from is not stored). It is kept as read and compiled only when the
 * run continues ({@link #outputSchema()}): a stored schema this Rein cannot use (one a later Rein checks more strictly,
 * a hand-edited row) leaves the run readable, so it can still be shown and cancelled, and is written back unchanged.
 */
public final class StoredOutputSchema {
    private final JsonNode stored;
    /** The compiled schema, once asked for (null until then). */
    private volatile OutputSchema compiled;

    private StoredOutputSchema(JsonNode stored, OutputSchema compiled) {
        this.stored = stored;
        this.compiled = compiled;
    }

    /** The stored form of {@code schema}. */
    public static StoredOutputSchema of(OutputSchema schema) {
        if (schema == null) {
            throw new ReinException("StoredOutputSchema.of was given no schema (null): give the run's OutputSchema (an"
                    + " untyped run's snapshot holds null in its place)");
        }
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("name", schema.name());
        node.set("schema", schema.schema());
        return new StoredOutputSchema(node, schema);
    }

    /** Reads a stored schema as it is, whatever it holds (it is checked when the run continues). */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static StoredOutputSchema read(JsonNode stored) {
        return stored == null || stored.isNull() ? null : new StoredOutputSchema(stored.deepCopy(), null);
    }

    /** The stored form, a copy: what a snapshot writes. */
    @JsonValue
    public JsonNode json() {
        return stored.deepCopy();
    }

    /** The schema's name, or null when the stored form has none. */
    public String name() {
        JsonNode name = stored.path("name");
        return name.isTextual() ? name.asText() : null;
    }

    /** Whether {@code schema} is this one (the same JSON Schema, whatever its name). */
    public boolean sameSchemaAs(OutputSchema schema) {
        return schema.schema().equals(stored.get("schema"));
    }

    /**
     * The schema, compiled (once) to check answers against.
     *
     * @throws ReinException when the stored form is not a schema this Rein can use, saying what is wrong with it
     */
    public OutputSchema outputSchema() {
        OutputSchema schema = compiled;
        if (schema == null) {
            JsonNode json = stored.get("schema");
            String name = name() == null ? "output" : name();
            if (!stored.isObject() || json == null || !json.isObject()) {
                throw new ReinException("the stored output schema '" + name + "' cannot be used: it is "
                        + (stored.isObject() ? (json == null ? "without its \"schema\"" : "\"schema\": " + Json.write(json)
                        + ", not a JSON object") : Json.write(stored) + ", not {\"name\":…,\"schema\":{…}}"));
            }
            try {
                schema = OutputSchema.fromJson(name, Json.write(json));
            } catch (ReinException e) {
                throw new ReinException("the stored output schema '" + name + "' cannot be used: "
                        + e.getMessage().replace("the output schema '" + name + "' ", ""), e);
            }
            compiled = schema;
        }
        return schema;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoredOutputSchema other && stored.equals(other.stored);
    }

    @Override
    public int hashCode() {
        return stored.hashCode();
    }

    @Override
    public String toString() {
        return "StoredOutputSchema" + stored;
    }
}
