package dev.rein.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.ValidationMessage;
import dev.rein.ReinException;
import dev.rein.internal.schema.LocalSchemaFactory;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/** Compiles and applies tool input schemas with a real JSON Schema validator (draft 2020-12). */
final class JsonSchemas {
    private static final JsonSchemaFactory FACTORY = LocalSchemaFactory.get(); // never fetches a $ref

    private JsonSchemas() {}

    /**
     * What makes {@code schema} an invalid JSON Schema of its declared dialect (draft 2020-12 when it
     * declares none), each as "path: message"; empty when it is valid. Checking a draft-07 schema
     * against the 2020-12 meta-schema would refuse valid ones (an array {@code items}).
     */
    static List<String> metaSchemaProblems(JsonNode schema) {
        String unsupported = LocalSchemaFactory.unsupportedDialect(schema);
        if (unsupported != null) {
            return List.of("$: " + unsupported);
        }
        return LocalSchemaFactory.metaSchemaOf(schema).validate(schema).stream()
                .map(ValidationMessage::getMessage)
                .distinct()
                .sorted()
                .toList();
    }

    /** A compiled schema; thread-safe. */
    static final class Compiled {
        private final JsonSchema schema;
        /** A sure "valid" for simple schemas, or null. */
        private final SimpleSchema shortcut;

        /** The tool's name, for what a validator's stack overflow is told as. */
        private final String toolName;

        private Compiled(String toolName, JsonSchema schema, SimpleSchema shortcut) {
            this.toolName = toolName;
            this.schema = schema;
            this.shortcut = shortcut;
        }

        /** The validation problems of {@code value}, each as "path: message"; empty when valid. */
        List<String> problems(JsonNode value) {
            if (shortcut != null && shortcut.surelyValid(value)) {
                return List.of(); // what the validator would answer, without its per-call work
            }
            return validatorProblems(value);
        }

        /** The validator's own answer, never the shortcut's (tests compare the two). */
        List<String> validatorProblems(JsonNode value) {
            Set<ValidationMessage> messages;
            try {
                messages = schema.validate(value);
            } catch (StackOverflowError e) { // deep arguments, or a loop RefLoops does not follow: said so, not a JVM error
                String tooDeep = dev.rein.internal.schema.RefLoops.tooDeep(value, "the arguments", "send them", schema::validate);
                if (tooDeep != null) { // the arguments' fault: INVALID_ARGUMENTS, which the model is asked to fix
                    return List.of(tooDeep);
                }
                // the schema (or the stack it is given) cannot check arguments: a setting to change, so configuration_error
                throw new dev.rein.ConfigurationException(dev.rein.internal.schema.RefLoops.overflow("tool '" + toolName
                        + "''s input schema", "arguments"));
            }
            return messages.stream()
                    .sorted(Comparator.comparing(ValidationMessage::getMessage))
                    .map(ValidationMessage::getMessage)
                    .toList();
        }
    }

    static Compiled compile(String toolName, ObjectNode schema) {
        String unsupported = LocalSchemaFactory.unsupportedDialect(schema);
        if (unsupported != null) {
            throw new ReinException("tool '" + toolName + "' has an input schema that " + unsupported);
        }
        // checking arguments against such a loop never ended: the validator overflowed the stack on the first call
        String loop = dev.rein.internal.schema.RefLoops.find(schema);
        if (loop != null) {
            throw new ReinException(dev.rein.internal.schema.RefLoops.describe("tool '" + toolName + "' has an input schema that",
                    loop, "arguments"));
        }
        try {
            // each anyOf/allOf branch once: the validator compiled a $ref's target again per path, 2^n along a chain
            JsonSchema compiled = FACTORY.getSchema(dev.rein.internal.schema.DistinctBranches.of(schema));
            compiled.initializeValidators();
            return new Compiled(toolName, compiled, SimpleSchema.of(schema));
        } catch (RuntimeException e) {
            throw new ReinException("tool '" + toolName + "' has an input schema the validator cannot use: " + e.getMessage(), e);
        }
    }
}
