package dev.rein.internal.schema;

import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.resource.AllowSchemaLoader;

/**
 * The draft 2020-12 schema factory Rein compiles every schema with. It loads only what is bundled
 * with the validator (the meta-schemas, mapped to the class path): a {@code $ref} to an
 * {@code http:}, {@code https:} or {@code file:} address fails the schema instead of being fetched.
 * Schemas come from outside too (an MCP server's tool list), and the validator's default loader
 * would fetch such a reference, so a server could make Rein's host request any URL it names (an
 * internal address) or read a local file.
 */
public final class LocalSchemaFactory {
    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012,
            builder -> builder.schemaLoaders(loaders -> loaders.add(new AllowSchemaLoader(
                    iri -> iri.toString().startsWith("classpath:") || iri.toString().startsWith("resource:")))));

    private LocalSchemaFactory() {}

    /** The shared factory; thread-safe. */
    public static JsonSchemaFactory get() {
        return FACTORY;
    }
}
