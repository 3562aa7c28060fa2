package dev.rein.tool;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A sure "valid" for the simple input schemas most tools have, so that the full JSON Schema
 * validator runs only when the answer may be no. It understands a small subset of the keywords:
 * {@code type} (a name or a list of names), {@code enum} of strings, {@code properties},
 * {@code required} and {@code additionalProperties: false} on objects, {@code items} (one schema) on
 * arrays, and annotations that assert nothing. A schema using anything else gets no shortcut.
 * {@link #surelyValid} answers true only for values the validator accepts; false means "ask the
 * validator", which also writes the problems. Built from a copy of the schema's content, like the
 * compiled schema, so a later change to the schema node changes neither.
 */
final class SimpleSchema {
    private static final Set<String> ANNOTATIONS = Set.of("description", "title", "default", "examples", "$comment",
            "deprecated", "readOnly", "writeOnly");
    private static final Set<String> TYPES = Set.of("object", "array", "string", "boolean", "null", "number", "integer");

    /** The allowed types, or null for any. */
    private final Set<String> types;
    /** The allowed strings, or null without {@code enum}. */
    private final Set<String> textEnum;
    /** Object keywords, used only when {@link #types} is exactly {@code object}. */
    private final Map<String, SimpleSchema> properties;
    private final List<String> required;
    private final boolean closed;
    /** The schema of every element, used only when {@link #types} is exactly {@code array}; or null. */
    private final SimpleSchema items;

    private SimpleSchema(Set<String> types, Set<String> textEnum, Map<String, SimpleSchema> properties, List<String> required,
                         boolean closed, SimpleSchema items) {
        this.types = types;
        this.textEnum = textEnum;
        this.properties = properties;
        this.required = required;
        this.closed = closed;
        this.items = items;
    }

    /** The shortcut for {@code schema}, or null when it uses a keyword or a form outside the subset. */
    static SimpleSchema of(JsonNode schema) {
        if (!schema.isObject()) {
            return null; // boolean schemas and anything odd: the validator decides
        }
        Set<String> types = null;
        Set<String> textEnum = null;
        Map<String, SimpleSchema> properties = Map.of();
        List<String> required = List.of();
        boolean closed = false;
        boolean objectKeywords = false;
        SimpleSchema items = null;
        for (Map.Entry<String, JsonNode> keyword : schema.properties()) {
            JsonNode value = keyword.getValue();
            switch (keyword.getKey()) {
                case "type" -> {
                    types = typeNames(value);
                    if (types == null) {
                        return null;
                    }
                }
                case "enum" -> {
                    textEnum = texts(value);
                    if (textEnum == null) {
                        return null;
                    }
                }
                case "properties" -> {
                    properties = subschemas(value);
                    if (properties == null) {
                        return null;
                    }
                    objectKeywords = true;
                }
                case "required" -> {
                    Set<String> names = texts(value);
                    if (names == null) {
                        return null;
                    }
                    required = List.copyOf(names);
                    objectKeywords = true;
                }
                case "additionalProperties" -> {
                    if (!value.isBoolean()) {
                        return null;
                    }
                    closed = !value.booleanValue();
                    objectKeywords = true;
                }
                case "items" -> {
                    items = of(value);
                    if (items == null) {
                        return null;
                    }
                }
                default -> {
                    if (!ANNOTATIONS.contains(keyword.getKey())) {
                        return null;
                    }
                }
            }
        }
        // Object and array keywords only where the type settles that they apply.
        if ((objectKeywords && !Set.of("object").equals(types)) || (items != null && !Set.of("array").equals(types))) {
            return null;
        }
        return new SimpleSchema(types, textEnum, properties, required, closed, items);
    }

    /** True when {@code value} certainly satisfies the schema; false when the validator must decide. */
    boolean surelyValid(JsonNode value) {
        if (types != null && !hasType(value)) {
            return false;
        }
        if (textEnum != null && !(value.isTextual() && textEnum.contains(value.textValue()))) {
            return false;
        }
        if (value.isObject() && !objectValid(value)) {
            return false;
        }
        if (items != null) { // only with type array, so value is an array here
            for (JsonNode element : value) {
                if (!items.surelyValid(element)) {
                    return false;
                }
            }
        }
        return true;
    }

    private boolean objectValid(JsonNode object) {
        for (String name : required) {
            if (!object.has(name)) {
                return false;
            }
        }
        if (properties.isEmpty() && !closed) {
            return true;
        }
        Iterator<Map.Entry<String, JsonNode>> fields = object.properties().iterator();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            SimpleSchema property = properties.get(field.getKey());
            if (property == null ? closed : !property.surelyValid(field.getValue())) {
                return false;
            }
        }
        return true;
    }

    private boolean hasType(JsonNode value) {
        for (String type : types) {
            boolean matches = switch (type) {
                case "object" -> value.isObject();
                case "array" -> value.isArray();
                case "string" -> value.isTextual();
                case "boolean" -> value.isBoolean();
                case "null" -> value.isNull();
                case "number" -> value.isNumber();
                default -> value.isIntegralNumber(); // "integer": whole numbers written as decimals are left to the validator
            };
            if (matches) {
                return true;
            }
        }
        return false;
    }

    private static Set<String> typeNames(JsonNode value) {
        if (value.isTextual()) {
            return TYPES.contains(value.textValue()) ? Set.of(value.textValue()) : null;
        }
        Set<String> names = texts(value);
        return names == null || names.isEmpty() || !TYPES.containsAll(names) ? null : names;
    }

    /** The strings of a JSON array of strings, or null for anything else. */
    private static Set<String> texts(JsonNode value) {
        if (!value.isArray()) {
            return null;
        }
        Set<String> texts = new HashSet<>();
        for (JsonNode element : value) {
            if (!element.isTextual()) {
                return null;
            }
            texts.add(element.textValue());
        }
        return Set.copyOf(texts);
    }

    private static Map<String, SimpleSchema> subschemas(JsonNode value) {
        if (!value.isObject()) {
            return null;
        }
        Map<String, SimpleSchema> subschemas = new HashMap<>();
        for (Map.Entry<String, JsonNode> property : value.properties()) {
            SimpleSchema subschema = of(property.getValue());
            if (subschema == null) {
                return null;
            }
            subschemas.put(property.getKey(), subschema);
        }
        return Map.copyOf(subschemas);
    }
}
