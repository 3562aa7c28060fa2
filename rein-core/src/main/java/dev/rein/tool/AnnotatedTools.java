package dev.rein.tool;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import dev.rein.ReinException;
import dev.rein.internal.json.JavaNames;
import dev.rein.internal.schema.BeanNames;
import dev.rein.internal.schema.GrowingTypes;
import dev.rein.internal.schema.JacksonShapes;
import dev.rein.json.Json;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds tools from methods annotated with {@link ToolMethod}. Each parameter becomes a property
 * of the input schema, generated from its Java type; a {@link ToolContext} parameter is injected
 * instead. Parameter names come from {@link ToolParam#name()} or from the compiled names
 * ({@code javac -parameters}).
 */
public final class AnnotatedTools {
    /**
     * Arguments are read with Jackson, so their schema describes values as Jackson reads them, with typed output's
     * configuration of it (JacksonShapes: Jackson's annotations, value types, a Map.Entry, a JsonNode, an Optional item,
     * no bean field Jackson reads from nothing). Only that part is shared: typed output's
     * own choices (a record's components required, a map's values as additionalProperties) would change the schema, and
     * so the request, of every tool taking a record or a map.
     */
    private static final SchemaGenerator GENERATOR = new SchemaGenerator(JacksonShapes.apply(
            new SchemaGeneratorConfigBuilder(Json.mapper(), SchemaVersion.DRAFT_2020_12, OptionPreset.PLAIN_JSON)).build());
    /** Refuses a parameter type with a class whose schema leaves out a property Jackson reads, as typed output does. */
    private static final BeanNames UNNAMED = new BeanNames(GENERATOR::generateSchema, "the tool's arguments");

    private AnnotatedTools() {}

    /**
     * The tools declared by the public {@link ToolMethod} methods of {@code target}.
     *
     * @throws ReinException when {@code target} is null or declares no tool, or a declaration cannot be used as
     *                       written (two parameters under one name, a negative timeout, an unknown parameter name, a parameter
     *                       type with a class Jackson reads under properties its schema does not name, a parameter type
     *                       holding itself at ever larger types, whose schema never ends), saying which
     */
    public static List<Tool> from(Object target) {
        if (target == null) {
            throw new ReinException("AnnotatedTools.from(...) was given null: pass the object whose public @ToolMethod methods"
                    + " are the tools (an instance; its static @ToolMethod methods count too)");
        }
        List<Tool> tools = new ArrayList<>();
        for (Method method : target.getClass().getMethods()) {
            ToolMethod annotation = method.getAnnotation(ToolMethod.class);
            if (annotation != null) {
                tools.add(toTool(target, method, annotation));
            }
        }
        if (tools.isEmpty()) {
            throw new ReinException(target.getClass().getName() + " has no public method annotated with @ToolMethod");
        }
        tools.sort((a, b) -> a.name().compareTo(b.name()));
        return tools;
    }

    private static Tool toTool(Object target, Method method, ToolMethod annotation) {
        String name = annotation.name().isEmpty() ? method.getName() : annotation.name();
        accessible(target, method, name);
        List<Param> params = params(name, method);
        Tool.Builder builder = Tool.builder(name)
                .description(annotation.description())
                .inputSchema(schema(name, params))
                .risk(annotation.risk())
                .polling(annotation.polling())
                .abortsOnInterrupt(annotation.abortsOnInterrupt())
                .requiredScopes(annotation.scopes())
                .handler((arguments, context) -> invoke(target, method, params, arguments, context));
        if (annotation.timeoutSeconds() < 0) {
            throw new ReinException("tool '" + name + "': @ToolMethod(timeoutSeconds = " + annotation.timeoutSeconds()
                    + ") is negative; give the timeout in seconds, or 0 (the default) for the executor's");
        }
        if (annotation.timeoutSeconds() > 0) {
            builder.timeout(Duration.ofSeconds(annotation.timeoutSeconds()));
        }
        return builder.build();
    }

    /**
     * Makes a public method of a class that is not public itself (a private nested class, a
     * package-private or an anonymous class: common homes of an application's tools) callable, as
     * reflection refuses it otherwise and every call would fail with an IllegalAccessException.
     * A class of a named module that does not open its package to Rein is refused when the tool is made.
     */
    private static void accessible(Object target, Method method, String toolName) {
        Object receiver = Modifier.isStatic(method.getModifiers()) ? null : target;
        if (method.canAccess(receiver) || method.trySetAccessible()) {
            return;
        }
        Class<?> type = method.getDeclaringClass();
        throw new ReinException("tool '" + toolName + "': Rein cannot call method " + method.getName() + " of " + type.getName()
                + ": the class is not public and module " + type.getModule().getName() + " does not open package "
                + type.getPackageName() + " to dev.rein.core; make the class public, or add 'opens " + type.getPackageName()
                + " to dev.rein.core;' to that module's module-info.java");
    }

    private record Param(String name, String description, boolean required, JavaType type, Type schemaType, boolean context) {}

    private static List<Param> params(String toolName, Method method) {
        List<Param> params = new ArrayList<>();
        for (Parameter p : method.getParameters()) {
            JavaType type = Json.mapper().getTypeFactory().constructType(p.getParameterizedType());
            if (ToolContext.class.equals(p.getType())) {
                params.add(new Param(p.getName(), "", false, type, null, true));
                continue;
            }
            ToolParam tp = p.getAnnotation(ToolParam.class);
            String paramName = tp != null && !tp.name().isEmpty() ? tp.name() : p.getName();
            if (!p.isNamePresent() && (tp == null || tp.name().isEmpty())) {
                throw new ReinException("tool '" + toolName + "': the name of parameter " + p.getName()
                        + " is not known; compile with -parameters or set @ToolParam(name = \"...\")");
            }
            boolean required = (tp == null || tp.required()) && !JacksonShapes.OPTIONALS.contains(p.getType());
            Type schemaType = p.getParameterizedType() instanceof ParameterizedType pt && Optional.class.equals(p.getType())
                    ? pt.getActualTypeArguments()[0] : p.getParameterizedType();
            if (params.stream().anyMatch(other -> !other.context() && other.name().equals(paramName))) {
                // one property for both: the schema would list it once and both parameters would get its value
                throw new ReinException("tool '" + toolName + "': two parameters are named '" + paramName + "'; give each its own"
                        + " property name with @ToolParam(name = \"...\")");
            }
            // first: the schema generator and BeanNames' walk recursed over such a type until the stack overflowed
            String grows = GrowingTypes.growing(JavaNames.type(schemaType));
            if (grows != null) {
                throw new ReinException(GrowingTypes.neverEnds("tool '" + toolName + "': parameter '" + paramName + "'", grows));
            }
            String unnamed = UNNAMED.unnamed(schemaType);
            if (unnamed != null) {
                // the model, told the fields, would give them, and the method would get nulls and zeros
                throw new ReinException("tool '" + toolName + "': parameter '" + paramName + "' cannot be given as its schema"
                        + " says: " + unnamed);
            }
            params.add(new Param(paramName, tp == null ? "" : tp.value(), required, type, schemaType, false));
        }
        return params;
    }

    private static ObjectNode schema(String toolName, List<Param> params) {
        ObjectNode schema = Json.object().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        ObjectNode defs = Json.object();
        var required = schema.putArray("required");
        for (Param p : params) {
            if (p.context()) {
                continue;
            }
            ObjectNode property;
            try {
                property = GENERATOR.generateSchema(p.schemaType());
            } catch (StackOverflowError e) { // one GrowingTypes misses, told alike: a mistake in the type, not a JVM error
                throw new ReinException(GrowingTypes.neverEnds("tool '" + toolName + "': parameter '" + p.name() + "'",
                        "a class in it"));
            } catch (IllegalStateException e) {
                String what = JacksonShapes.subtypeOfItsOwnHierarchy(e, "tool '" + toolName + "': parameter '" + p.name() + "'",
                        dev.rein.internal.json.JavaNames.type(p.schemaType()).getRawClass());
                if (what == null) {
                    throw e;
                }
                throw new ReinException(what, e);
            }
            property.remove("$schema");
            // a type holding itself (a Tree read from a List<Tree>) refers to its root, "#": here, to its property
            String root = "#/properties/" + p.name().replace("~", "~0").replace("/", "~1");
            rootRefs(property, root);
            if (property.get("$defs") instanceof ObjectNode propertyDefs) {
                defs.setAll(propertyDefs);
                property.remove("$defs");
            }
            if (!p.description().isEmpty()) {
                property.put("description", p.description());
            }
            properties.set(p.name(), property);
            if (p.required()) {
                required.add(p.name());
            }
        }
        if (!defs.isEmpty()) {
            schema.set("$defs", defs);
        }
        schema.put("additionalProperties", false);
        return schema;
    }

    /** Points each {@code "$ref": "#"} under {@code node} (the property's own schema, its $defs too) at {@code root}. */
    private static void rootRefs(JsonNode node, String root) {
        if (node instanceof ObjectNode object && object.path("$ref").asText().equals("#")) {
            object.put("$ref", root);
        }
        node.forEach(child -> rootRefs(child, root));
    }

    private static Object invoke(Object target, Method method, List<Param> params, JsonNode arguments,
                                 ToolContext context) throws Exception {
        Object[] values = new Object[params.size()];
        for (int i = 0; i < values.length; i++) {
            Param p = params.get(i);
            if (p.context()) {
                values[i] = context;
                continue;
            }
            JsonNode value = arguments.get(p.name());
            try {
                if (Optional.class.equals(p.type().getRawClass())) {
                    values[i] = value == null || value.isNull() ? Optional.empty()
                            : Optional.ofNullable(JavaNames.read(value, p.type().containedType(0)));
                } else {
                    // Under the names the parameter's schema gives (a record's orderId), not Rein's snake_case.
                    values[i] = value == null || value.isNull() ? defaultValue(p.type()) : JavaNames.read(value, p.type());
                }
            } catch (IllegalArgumentException e) {
                // valid by the schema, yet no value of the Java type ("2026-02-30" for a LocalDate, 3e10 for an int):
                // the model's arguments are wrong and the method was not called, as for arguments the schema refuses
                throw new UnreadableArgument(p.name(), e);
            }
        }
        try {
            return method.invoke(Modifier.isStatic(method.getModifiers()) ? null : target, values);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            // an Error the method threw (AssertionError, StackOverflowError) is named as itself, as a Tool's handler's is
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    /** An argument that fits the schema but not the parameter's Java type; the method was not called. */
    static final class UnreadableArgument extends IllegalArgumentException {
        UnreadableArgument(String parameter, IllegalArgumentException e) {
            super(path(parameter, e.getCause()) + ": " + (e.getCause() instanceof JsonMappingException m && m.getOriginalMessage() != null
                    ? m.getOriginalMessage() : e.getMessage()), e);
        }

        /** The JSON path of the value that could not be read: the parameter, and within it the field or element. */
        private static String path(String parameter, Throwable cause) {
            StringBuilder path = new StringBuilder("$.").append(parameter);
            if (cause instanceof JsonMappingException m) {
                for (JsonMappingException.Reference ref : m.getPath()) {
                    if (ref.getFieldName() != null) {
                        path.append('.').append(ref.getFieldName());
                    } else if (ref.getIndex() >= 0) {
                        path.append('[').append(ref.getIndex()).append(']');
                    }
                }
            }
            return path.toString();
        }
    }

    private static Object defaultValue(JavaType type) {
        Class<?> raw = type.getRawClass();
        if (!raw.isPrimitive()) {
            // OptionalInt, OptionalLong, OptionalDouble: a parameter left out is empty, as an Optional is
            return Map.<Class<?>, Object>of(java.util.OptionalInt.class, java.util.OptionalInt.empty(), java.util.OptionalLong.class,
                    java.util.OptionalLong.empty(), java.util.OptionalDouble.class, java.util.OptionalDouble.empty()).get(raw);
        }
        Map<Class<?>, Object> defaults = Map.of(boolean.class, false, int.class, 0, long.class, 0L,
                double.class, 0d, float.class, 0f, short.class, (short) 0, byte.class, (byte) 0, char.class, '\0');
        return defaults.get(raw);
    }
}
