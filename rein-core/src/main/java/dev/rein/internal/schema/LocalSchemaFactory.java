package dev.rein.internal.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaId;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.resource.AllowSchemaLoader;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The draft 2020-12 schema factory Rein compiles every schema with. It loads only what is bundled
 * with the validator (the meta-schemas, mapped to the class path): a {@code $ref} to an
 * {@code http:}, {@code https:} or {@code file:} address fails the schema instead of being fetched.
 * Schemas come from outside too (an MCP server's tool list), and the validator's default loader
 * would fetch such a reference, so a server could make Rein's host request any URL it names (an
 * internal address) or read a local file.
 *
 * <p>A schema is read in the dialect its {@code $schema} names, draft 2020-12 when it names none:
 * the MCP specification (2025-11-25, Basic, JSON Schema Usage) has implementations validate schemas
 * "according to their declared or default dialect" and refuse an unsupported dialect with an error
 * saying so. The dialects Rein reads are {@link #SUPPORTED}.
 */
public final class LocalSchemaFactory {
    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012,
            builder -> builder.schemaLoaders(loaders -> loaders.add(new AllowSchemaLoader(
                    iri -> iri.toString().startsWith("classpath:") || iri.toString().startsWith("resource:")))));

    /** The dialects whose meta-schemas the validator bundles, by {@code $schema} IRI (without a trailing '#'). */
    private static final Map<String, String> DIALECTS = Map.of(
            "https://json-schema.org/draft/2020-12/schema", SchemaId.V202012,
            "https://json-schema.org/draft/2019-09/schema", SchemaId.V201909,
            "http://json-schema.org/draft-07/schema", SchemaId.V7,
            "http://json-schema.org/draft-06/schema", SchemaId.V6,
            "http://json-schema.org/draft-04/schema", SchemaId.V4);
    /** The supported dialects, for messages. */
    public static final String SUPPORTED = "2020-12 (the default), 2019-09, draft-07, draft-06 and draft-04";
    private static final Map<String, JsonSchema> META_SCHEMAS = new ConcurrentHashMap<>();

    private LocalSchemaFactory() {}

    /** The shared factory; thread-safe. */
    public static JsonSchemaFactory get() {
        return FACTORY;
    }

    /**
     * Why {@code schema}'s declared dialect cannot be used ("declares the JSON Schema dialect 'X',
     * which Rein does not support (...)"); null when it declares none or a supported one.
     */
    public static String unsupportedDialect(JsonNode schema) {
        JsonNode declared = schema == null ? null : schema.get("$schema");
        if (declared == null || (declared.isTextual() && DIALECTS.containsKey(strip(declared.asText())))) {
            return null;
        }
        return "declares the JSON Schema dialect " + (declared.isTextual() ? "'" + declared.asText() + "'" : declared.toString())
                + ", which Rein does not support (it reads " + SUPPORTED + ")";
    }

    /**
     * The meta-schema of the dialect {@code schema} declares, the draft 2020-12 one when it
     * declares none; check {@link #unsupportedDialect} first (an unsupported one gives 2020-12's).
     */
    public static JsonSchema metaSchemaOf(JsonNode schema) {
        JsonNode declared = schema == null ? null : schema.get("$schema");
        String id = declared != null && declared.isTextual() ? DIALECTS.get(strip(declared.asText())) : null;
        return META_SCHEMAS.computeIfAbsent(id == null ? SchemaId.V202012 : id, iri -> FACTORY.getSchema(SchemaLocation.of(iri)));
    }

    private static String strip(String iri) {
        return iri.endsWith("#") ? iri.substring(0, iri.length() - 1) : iri;
    }
}
