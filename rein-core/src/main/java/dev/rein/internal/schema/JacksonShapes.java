package dev.rein.internal.schema;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.victools.jsonschema.generator.CustomDefinition;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import dev.rein.internal.json.JavaNames;
import dev.rein.json.Json;
import java.util.Map;
import java.util.Set;

/**
 * Makes a generated schema describe values as Jackson writes and reads them, so that a value valid
 * under the schema can be read into the Java type: the typed output's schema and an annotated tool's
 * input schema both come from Java types and are both read back with Jackson.
 */
public final class JacksonShapes {
    /**
     * Value types Jackson writes and reads as one string or number (an OptionalInt as its number) that
     * the generator would describe by their getters, as objects ({@code {"year":..,"month":..}} for a
     * YearMonth, an array of strings for {@code byte[]}) that no value could both validate against and
     * be read from.
     */
    private static final Map<Class<?>, ObjectNode> VALUE_TYPES = Map.ofEntries(
            Map.entry(java.time.YearMonth.class, text("pattern", "^[0-9]{4}-(0[1-9]|1[0-2])$")),
            Map.entry(java.time.MonthDay.class, text("pattern", "^--(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$")),
            Map.entry(java.time.Year.class, Json.object().put("type", "integer")),
            Map.entry(java.time.ZoneOffset.class, text("pattern", "^(Z|[+-][0-9]{2}:[0-9]{2})$")),
            Map.entry(java.net.URL.class, text("format", "uri")),
            Map.entry(byte[].class, text("contentEncoding", "base64")),
            // the generator describes a byte as a string; Jackson writes and reads it as a number
            Map.entry(byte.class, byteRange()),
            Map.entry(Byte.class, byteRange()),
            Map.entry(java.util.Locale.class, text("description", "an IETF BCP 47 language tag, e.g. ja-JP")),
            Map.entry(java.util.Currency.class, text("pattern", "^[A-Z]{3}$")),
            Map.entry(java.util.OptionalInt.class, orNull("integer")),
            Map.entry(java.util.OptionalLong.class, orNull("integer")),
            Map.entry(java.util.OptionalDouble.class, orNull("number")));

    /** Types whose value may be left out: Jackson reads a missing or null one as empty. */
    public static final Set<Class<?>> OPTIONALS = Set.of(java.util.Optional.class, java.util.OptionalInt.class,
            java.util.OptionalLong.class, java.util.OptionalDouble.class);

    private JacksonShapes() {}

    /**
     * Names properties as Jackson reads them ({@code @JsonProperty("order_id")}: a value that validates under
     * the Java name would be read as null) and describes value types and renamed enums by their JSON.
     */
    public static SchemaGeneratorConfigBuilder apply(SchemaGeneratorConfigBuilder config) {
        config.forFields().withPropertyNameOverrideResolver(field -> {
            JsonProperty renamed = field.getAnnotationConsideringFieldAndGetter(JsonProperty.class);
            return renamed == null || renamed.value().isEmpty() ? null : renamed.value();
        });
        config.forTypesInGeneral().withCustomDefinitionProvider((javaType, context) -> {
            ObjectNode value = javaType.getErasedType().isEnum() ? enumValues(javaType.getErasedType())
                    : VALUE_TYPES.get(javaType.getErasedType());
            return value == null ? null : new CustomDefinition(value.deepCopy(), CustomDefinition.DefinitionType.INLINE,
                    CustomDefinition.AttributeInclusion.YES);
        });
        return config;
    }

    private static ObjectNode byteRange() {
        return Json.object().put("type", "integer").put("minimum", Byte.MIN_VALUE).put("maximum", Byte.MAX_VALUE);
    }

    private static ObjectNode text(String keyword, String value) {
        return Json.object().put("type", "string").put(keyword, value);
    }

    /** A number or null, as the generator describes an Optional's value. */
    private static ObjectNode orNull(String type) {
        ObjectNode schema = Json.object();
        schema.putArray("type").add(type).add("null");
        return schema;
    }

    /**
     * The values of an enum whose JSON is not its constants' names ({@code @JsonValue}, {@code @JsonProperty}
     * on a constant), as Jackson writes and reads them; null for an enum read by its names, which the
     * generator lists itself.
     */
    private static ObjectNode enumValues(Class<?> type) {
        ObjectNode schema = Json.object();
        ArrayNode values = schema.putArray("enum");
        boolean renamed = false;
        boolean text = true;
        try {
            for (Object constant : type.getEnumConstants()) {
                JsonNode json = JavaNames.tree(constant);
                values.add(json);
                renamed |= !json.isTextual() || !json.asText().equals(((Enum<?>) constant).name());
                text &= json.isTextual();
            }
        } catch (IllegalArgumentException e) { // a @JsonValue that fails: leave the enum to the generator
            return null;
        }
        if (!renamed) {
            return null;
        }
        if (text) {
            schema.put("type", "string");
        }
        return schema;
    }
}
