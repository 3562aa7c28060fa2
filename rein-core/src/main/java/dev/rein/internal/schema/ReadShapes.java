package dev.rein.internal.schema;

import com.fasterxml.classmate.ResolvedType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.victools.jsonschema.generator.CustomDefinition;
import com.github.victools.jsonschema.generator.FieldScope;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import dev.rein.internal.json.JavaNames;
import dev.rein.json.Json;
import java.util.List;
import java.util.Map;

/**
 * The types and fields the generator sees otherwise than Jackson reads them, described as Jackson reads them: a
 * {@code Map.Entry}, a {@code JsonNode}, an {@code Optional} inside a list or map, and a bean's field Jackson reads from
 * nothing. Part of {@link JacksonShapes#apply}, so typed output's schema and annotated tools' input schemas get them alike:
 * tools' schemas kept the generator's descriptions for a while after typed output's changed, and a tool's arguments as
 * the schema said were refused by Jackson or read as nulls (a request-body change only for a tool whose parameter types
 * hold one of these).
 */
final class ReadShapes {
    private ReadShapes() {}

    /** Registers the descriptions; before Jackson's module and {@link JacksonShapes}' own, which would take these types first. */
    static void apply(SchemaGeneratorConfigBuilder config) {
        // a Map.Entry is read by Jackson as an object of one key ({"first": {...}}) whose value is the entry's value: it was
        // a bare object, so an entry's value went unchecked and was read as a record of nulls and zeros
        config.forTypesInGeneral().withCustomDefinitionProvider((javaType, context) -> {
            if (javaType.getErasedType() != Map.Entry.class) {
                return null;
            }
            List<ResolvedType> kv = javaType.getTypeParameters();
            ObjectNode entry = Json.object().put("type", "object").put("minProperties", 1).put("maxProperties", 1);
            entry.set("additionalProperties", kv.size() == 2 ? context.createDefinitionReference(kv.get(1)) : Json.object());
            return new CustomDefinition(entry, CustomDefinition.DefinitionType.INLINE, CustomDefinition.AttributeInclusion.NO);
        });
        // victools writes an Object as {} already, a JsonNode as an object, which refused "hot" or 5 Jackson binds to it,
        // and a JsonNode subclass as Jackson's internals (an ObjectNode's _children and _nodeFactory)
        config.forTypesInGeneral().withCustomDefinitionProvider((javaType, context) -> JsonNode.class.isAssignableFrom(
                javaType.getErasedType()) ? new CustomDefinition(nodeSchema(javaType.getErasedType()),
                CustomDefinition.DefinitionType.INLINE, CustomDefinition.AttributeInclusion.YES) : null);
        // An Optional inside a list, array or map (a record's component is flattened by victools already) is its value or
        // null, as Jackson writes and reads it: victools described it by its field, {"value": ...} with nothing required,
        // so [{"value": {...}}] validated, was read as a record of nulls, and the model was told that shape.
        config.forTypesInGeneral().withCustomDefinitionProvider((javaType, context) -> {
            if (javaType.getErasedType() != java.util.Optional.class) {
                return null;
            }
            List<ResolvedType> value = javaType.getTypeParameters();
            if (value.isEmpty()) {
                return new CustomDefinition(Json.object(), CustomDefinition.DefinitionType.INLINE, CustomDefinition.AttributeInclusion.NO);
            }
            // an Optional of an Optional is its innermost value or null: one null, not one per Optional (Jackson reads
            // null as Optional[Optional.empty])
            ResolvedType inner = value.get(0);
            while (inner.getErasedType() == java.util.Optional.class && !inner.getTypeParameters().isEmpty()) {
                inner = inner.getTypeParameters().get(0);
            }
            if (inner.getErasedType() == java.util.Optional.class) { // a raw Optional inside: any value
                return new CustomDefinition(Json.object(), CustomDefinition.DefinitionType.INLINE, CustomDefinition.AttributeInclusion.NO);
            }
            // the value's schema is filled in (or made a $ref) only at the end, so it is wrapped, not made nullable itself
            ObjectNode schema = Json.object();
            schema.putArray("anyOf").add(Json.object().put("type", "null")).add(context.createDefinitionReference(inner));
            return new CustomDefinition(schema, CustomDefinition.DefinitionType.INLINE, CustomDefinition.AttributeInclusion.NO);
        });
        // in a record's component (List<Optional<Verdict>> items) victools flattened an item's Optional as a component's but
        // kept it required, so an item that is null, which Jackson reads as empty, was refused: the item stays an Optional,
        // described as above (victools' NULLABLE_ARRAY_ITEMS_ALLOWED would also make an Optional<List<String>>'s items null)
        config.forFields().withTargetTypeOverridesResolver(field -> field.isFakeContainerItemScope()
                && field.getType().getErasedType() == java.util.Optional.class ? List.of(field.getType()) : null);
    }

    /**
     * A bean's field Jackson reads from no property (private, with no getter, setter or creator parameter), as Jackson's
     * own introspection of the class finds it: it was listed, the model filled it in and its value was dropped unseen. A
     * record's components, a static field and a class Jackson cannot introspect are left as the generator makes them.
     * Asked of the class described, not the field's declaring class: a base's private field is read when the subclass's
     * creator sets it through super(id) (rev111). A class read through its builder (@JsonDeserialize(builder = ...), as
     * Lombok's @Jacksonized makes it) keeps its fields: Jackson's introspection of the class does not see the builder.
     */
    static boolean unreadByJackson(FieldScope field) {
        Class<?> owner = field.getDeclarationDetails().getSchemaTargetType().getErasedType();
        var deserialize = owner.getAnnotation(com.fasterxml.jackson.databind.annotation.JsonDeserialize.class);
        if (owner.isRecord() || owner.isEnum() || field.isStatic() || deserialize != null && deserialize.builder() != Void.class) {
            return false;
        }
        try {
            return !BeanNames.readByJackson(field.getRawMember(), JavaNames.readProperties(JavaNames.type(owner)));
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The schema of the JSON a JsonNode class holds: its kind where the class says it, else any value ({}). */
    private static ObjectNode nodeSchema(Class<?> node) {
        String kind = com.fasterxml.jackson.databind.node.ObjectNode.class.isAssignableFrom(node) ? "object"
                : com.fasterxml.jackson.databind.node.ArrayNode.class.isAssignableFrom(node) ? "array"
                : com.fasterxml.jackson.databind.node.TextNode.class.isAssignableFrom(node) ? "string"
                : com.fasterxml.jackson.databind.node.BooleanNode.class.isAssignableFrom(node) ? "boolean"
                : List.of(com.fasterxml.jackson.databind.node.IntNode.class, com.fasterxml.jackson.databind.node.LongNode.class,
                        com.fasterxml.jackson.databind.node.ShortNode.class, com.fasterxml.jackson.databind.node.BigIntegerNode.class)
                        .stream().anyMatch(c -> c.isAssignableFrom(node)) ? "integer"
                : com.fasterxml.jackson.databind.node.NumericNode.class.isAssignableFrom(node) ? "number"
                : null;
        ObjectNode schema = Json.object();
        return kind == null ? schema : schema.put("type", kind);
    }
}
