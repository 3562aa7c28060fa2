package dev.rein.tool;

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
}
