package dev.rein.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/** A chain of levels each referring twice to the next compiles in time linear in its length, not 2^n. */
class OutputSchemaRefChainTest {
    /** Levels l0..l{n-1}, each {@code {"anyOf": [{"$ref": "#/$defs/l(i+1)"}, {"$ref": "#/$defs/l(i+1)"}]}}, the last a string. */
    static String chain(int levels) {
        StringBuilder defs = new StringBuilder();
        for (int i = 0; i < levels; i++) {
            defs.append("\"l").append(i).append("\":{\"anyOf\":[{\"$ref\":\"#/$defs/l").append(i + 1)
                    .append("\"},{\"$ref\":\"#/$defs/l").append(i + 1).append("\"}]},");
        }
        defs.append("\"l").append(levels).append("\":{\"type\":\"string\",\"minLength\":2}");
        return "{\"$defs\":{" + defs + "},\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":\"#/$defs/l0\"}},"
                + "\"required\":[\"x\"]}";
    }

    /**
     * The networknt validator compiled each $ref's target again for every path that reached it: 2^n schemas at n levels
     * (about 13 s at 30; checking a value that fits no level, 2^n branches). Failed first: timed out after 10 s (the timeout is 30 s now, for a loaded machine; 40 levels never end on the old code).
     */
    @Test
    void aChainOfLevelsReferringTwiceToTheNextIsMadeAndCheckedSoon() {
        OutputSchema schema = Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> OutputSchema.fromJson("Chain", chain(40)));
        Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            assertThat(schema.problems("{\"x\":\"ok\"}")).isEmpty();
            assertThat(schema.problems("{\"x\":\"o\"}")).isNotEmpty().allMatch(p -> p.contains("$.x"));
            assertThat(schema.problems("{\"x\":5}")).isNotEmpty();
            assertThat(schema.problems("{}")).containsExactly("$: required property 'x' not found");
        });
    }
}
