package dev.rein.internal.schema;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * JSON Schema's keywords whose values hold subschemas, and how, and its keywords whose values are data: the one table
 * Rein's walks over a schema read (rein-core's {@link RefLoops} and {@link DistinctBranches}, rein-anthropic's sent-schema
 * checks, rein-openai's items for arrays), which each kept a list of their own. It names no provider; what a keyword's schemas mean to a provider stays
 * with the provider.
 */
public final class SchemaKeywords {
    private SchemaKeywords() {}

    /** How a keyword holds its subschemas: one schema, an array of them, or an object mapping names to them. */
    public enum Holds { ONE, ARRAY, MAP }

    /**
     * Every keyword that holds subschemas, in a fixed order: JSON Schema 2020-12's core ({@code $defs}) and applicator
     * vocabularies, its unevaluated ones, and the earlier drafts' {@code additionalItems}, {@code dependencies} (whose
     * entries may also be arrays of names) and {@code definitions}. An {@code items} of ONE may be an array in the earlier
     * drafts (a tuple).
     */
    public static final Map<String, Holds> APPLICATORS = applicators();

    /**
     * Keywords whose values are data, not schemas: a {@code "$ref"} in them is a value's key, never followed (rev120).
     * OpenAPI's singular {@code example} (no JSON Schema keyword, but common in MCP servers' schemas) is data too, in
     * every walk (rein-openai's list had it, rein-core's did not: rev132).
     */
    public static final Set<String> DATA = Set.of("const", "enum", "examples", "example", "default");

    /** Whether {@code keyword}'s value maps names to subschemas: a name there is no keyword, even "default". */
    public static boolean holdsNamedSchemas(String keyword) {
        return APPLICATORS.get(keyword) == Holds.MAP;
    }

    private static Map<String, Holds> applicators() {
        Map<String, Holds> all = new LinkedHashMap<>();
        for (String one : new String[] {"items", "not", "if", "then", "else", "contains", "additionalItems", "propertyNames",
                "unevaluatedItems", "unevaluatedProperties", "additionalProperties"}) {
            all.put(one, Holds.ONE);
        }
        for (String array : new String[] {"anyOf", "allOf", "oneOf", "prefixItems"}) {
            all.put(array, Holds.ARRAY);
        }
        for (String map : new String[] {"properties", "$defs", "definitions", "patternProperties", "dependentSchemas",
                "dependencies"}) {
            all.put(map, Holds.MAP);
        }
        return Collections.unmodifiableMap(all);
    }
}
