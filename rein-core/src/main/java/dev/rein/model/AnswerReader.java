package dev.rein.model;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.Deserializers;
import com.fasterxml.jackson.databind.deser.std.ReferenceTypeDeserializer;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.jsontype.TypeDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.ReferenceType;
import com.fasterxml.jackson.databind.type.TypeBindings;
import com.fasterxml.jackson.databind.type.TypeFactory;
import com.fasterxml.jackson.databind.type.TypeModifier;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.lang.reflect.Type;
import java.util.Optional;

/**
 * Reads a typed final answer into its Java type under the contract of the schema {@link OutputSchema#of}
 * generates: the Java names of the components (not Rein's snake_case wire names), {@code Optional}
 * components empty when left out or null, and properties the schema does not forbid ignored, so every
 * answer that validates can be read.
 */
final class AnswerReader {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .addModule(new OptionalModule())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private AnswerReader() {}

    /** @throws IllegalArgumentException when {@code value} does not fit {@code type} */
    static <T> T read(JsonNode value, Class<T> type) {
        return MAPPER.convertValue(value, type);
    }

    /** {@code Optional} as a reference type, as jackson-datatype-jdk8 does it (Rein takes no dependency for these few lines). */
    private static final class OptionalModule extends SimpleModule {
        OptionalModule() {
            super("rein-answer-optional");
        }

        @Override
        public void setupModule(SetupContext context) {
            super.setupModule(context);
            context.addTypeModifier(new TypeModifier() {
                @Override
                public JavaType modifyType(JavaType type, Type jdkType, TypeBindings bindings, TypeFactory factory) {
                    if (type.isReferenceType() || type.isContainerType() || type.getRawClass() != Optional.class) {
                        return type;
                    }
                    return ReferenceType.upgradeFrom(type, type.containedTypeOrUnknown(0));
                }
            });
            context.addDeserializers(new Deserializers.Base() {
                @Override
                public JsonDeserializer<?> findReferenceDeserializer(ReferenceType type, DeserializationConfig config,
                                                                     BeanDescription description, TypeDeserializer contentTypes,
                                                                     JsonDeserializer<?> content) {
                    return type.hasRawClass(Optional.class) ? new OptionalDeserializer(type, contentTypes, content) : null;
                }
            });
        }
    }

    private static final class OptionalDeserializer extends ReferenceTypeDeserializer<Optional<?>> {
        OptionalDeserializer(JavaType type, TypeDeserializer contentTypes, JsonDeserializer<?> content) {
            super(type, null, contentTypes, content);
        }

        @Override
        protected OptionalDeserializer withResolved(TypeDeserializer contentTypes, JsonDeserializer<?> content) {
            return new OptionalDeserializer(_fullType, contentTypes, content);
        }

        @Override
        public Optional<?> getNullValue(DeserializationContext context) {
            return Optional.empty();
        }

        @Override
        public Object getAbsentValue(DeserializationContext context) {
            return Optional.empty(); // a component the answer left out: the schema let it
        }

        @Override
        public Optional<?> referenceValue(Object contents) {
            return Optional.ofNullable(contents);
        }

        @Override
        public Optional<?> updateReference(Optional<?> reference, Object contents) {
            return Optional.ofNullable(contents);
        }

        @Override
        public Object getReferenced(Optional<?> reference) {
            return reference.orElse(null);
        }
    }
}
