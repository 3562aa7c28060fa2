package dev.rein.tool;

import static dev.rein.internal.schema.DeepValues.DEEP_SCHEMA;
import static dev.rein.internal.schema.DeepValues.OVERFLOWING_DEPTH;
import static dev.rein.internal.schema.DeepValues.deepNode;
import static dev.rein.internal.schema.DeepValues.onSmallStack;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import org.junit.jupiter.api.Test;

/** A tool's hand-written input schema whose $refs loop with no property or item between is refused, as an output schema's. */
class InputSchemaLoopTest {
    /**
     * Checking arguments against such a schema would never end (the validator overflows the stack, as it did for an
     * output schema): the tool is refused when built, naming the loop. Failed first: the tool was built.
     */
    @Test
    void aRefLoopWithNoPropertyBetweenIsRefusedWhenTheToolIsBuilt() {
        String looping = "{\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":\"#/$defs/a\"}},\"$defs\":{\"a\":{\"$ref\":"
                + "\"#/$defs/b\"},\"b\":{\"anyOf\":[{\"$ref\":\"#/$defs/a\"}]}}}";
        assertThatThrownBy(() -> Tool.builder("loop").description("loops").inputSchema(looping).handler((arguments, context) -> "ok")
                .build()).isInstanceOf(ReinException.class).hasMessageStartingWith("tool 'loop' has an input schema that loops")
                .hasMessageContaining("#/$defs/a → #/$defs/b → #/$defs/b/anyOf/0 → #/$defs/a");
    }

    /** rev120: a loop through an anchor ("$ref": "#A") was built, and the first call overflowed the stack. */
    @Test
    void aRefLoopThroughAnAnchorIsRefusedWhenTheToolIsBuilt() {
        String looping = "{\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":\"#/$defs/a\"}},"
                + "\"$defs\":{\"a\":{\"$anchor\":\"A\",\"anyOf\":[{\"$ref\":\"#A\"}]}}}";
        assertThatThrownBy(() -> Tool.builder("loop").description("loops").inputSchema(looping).handler((arguments, context) -> "ok")
                .build()).isInstanceOf(ReinException.class).hasMessageStartingWith("tool 'loop' has an input schema that loops")
                .hasMessageContaining("#/$defs/a → #/$defs/a/anyOf/0 → #/$defs/a");
    }

    /** rev120: a loop only the validator finds (a subschema's own relative $id) is a ReinException, not a StackOverflowError. */
    @Test
    void aLoopOnlyTheValidatorFindsIsAReinExceptionWhenArgumentsAreChecked() {
        Tool tool = Tool.builder("loop").description("loops").inputSchema("{\"$id\":\"https://example.com/root\",\"type\":"
                + "\"object\",\"properties\":{\"x\":{\"$ref\":\"sub\"}},\"$defs\":{\"s\":{\"$id\":\"sub\",\"allOf\":"
                + "[{\"$ref\":\"sub\"}]}}}").handler((arguments, context) -> "ok").build();
        assertThatThrownBy(() -> tool.validationProblems(new com.fasterxml.jackson.databind.ObjectMapper().readTree("{\"x\":1}")))
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("checking arguments against tool 'loop''s input schema ran out of stack: the schema may"
                        + " loop through a form Rein does not follow")
                .hasMessageContaining("or the arguments are nested too deeply");
    }

    /**
     * JSON Schema 2020-12 scopes an $anchor to its schema resource (the nearest $id): "#a" in the root is the root's "a",
     * in a subschema with its own $id that subschema's, as the validator resolves it. RefLoops kept one anchor map for the
     * whole document, the first "a" in document order winning, so each loop below was missed and the tool built (the
     * first call would overflow the validator's stack). Failed first: both were built.
     */
    @Test
    void anAnchorIsLookedUpInItsOwnSchemaResource() {
        String rootLoops = "{\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":\"#a\"}},\"$defs\":{"
                + "\"s\":{\"$id\":\"urn:s\",\"$anchor\":\"a\",\"type\":\"string\"},"
                + "\"x\":{\"$anchor\":\"a\",\"anyOf\":[{\"$ref\":\"#a\"}]}}}";
        assertThatThrownBy(() -> Tool.builder("loop").description("loops").inputSchema(rootLoops)
                .handler((arguments, context) -> "ok").build()).isInstanceOf(ReinException.class)
                .hasMessageContaining("#/$defs/x → #/$defs/x/anyOf/0 → #/$defs/x");
        String innerLoops = "{\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":\"urn:s\"}},\"$defs\":{"
                + "\"r\":{\"$anchor\":\"a\",\"type\":\"string\"},"
                + "\"s\":{\"$id\":\"urn:s\",\"$anchor\":\"a\",\"anyOf\":[{\"$ref\":\"#a\"}]}}}";
        assertThatThrownBy(() -> Tool.builder("loop").description("loops").inputSchema(innerLoops)
                .handler((arguments, context) -> "ok").build()).isInstanceOf(ReinException.class)
                .hasMessageContaining("#/$defs/s → #/$defs/s/anyOf/0 → #/$defs/s");
    }

    /**
     * rev132: arguments nested deeper than the validator's stack holds (a person's edit, a direct check; a run refuses
     * more than 64 levels first) threw a ConfigurationException blaming the schema; they are now a problem of the
     * arguments, which a run answers INVALID_ARGUMENTS. Failed first: ConfigurationException.
     */
    @Test
    void argumentsTooDeepForTheValidatorAreAProblemOfTheArguments() throws Exception {
        Tool tool = Tool.builder("deep").description("d").inputSchema(DEEP_SCHEMA)
                .handler((arguments, context) -> "ok").build();
        com.fasterxml.jackson.databind.JsonNode value = deepNode(OVERFLOWING_DEPTH);
        org.assertj.core.api.Assertions.assertThat(onSmallStack(() -> tool.validationProblems(value)))
                .containsExactly("the arguments are nested " + OVERFLOWING_DEPTH + " levels deep, more than the validator can"
                        + " check (it ran out of stack): send them with fewer levels of nesting");
    }
}
