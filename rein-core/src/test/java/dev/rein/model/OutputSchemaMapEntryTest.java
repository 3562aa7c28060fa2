package dev.rein.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A Map.Entry<String, X> as the whole answer type is an object of exactly one key, as it is as a tool's parameter. */
class OutputSchemaMapEntryTest {
    public record Verdict(String decision, int confidence) {}

    /** Failed first: refused as "an interface, and an answer is read into a value of it". */
    @Test
    void aMapEntryIsAnObjectOfExactlyOneKey() {
        Type type = new TypeRef<Map.Entry<String, Verdict>>() {}.type();
        OutputSchema schema = OutputSchema.of("Entry", type);
        assertThat(schema.problems("{\"a\":{\"decision\":\"keep\",\"confidence\":2}}")).isEmpty();
        assertThat(schema.problems("{}")).isNotEmpty();
        assertThat(schema.problems("{\"a\":{\"decision\":\"keep\",\"confidence\":2},\"b\":{\"decision\":\"drop\","
                + "\"confidence\":1}}")).isNotEmpty();
        assertThat(schema.problems("{\"a\":{\"decision\":\"keep\"}}")).isNotEmpty();
        @SuppressWarnings("unchecked")
        Map.Entry<String, Verdict> read = (Map.Entry<String, Verdict>) OutputSchema.readAnswer(
                "{\"a\":{\"decision\":\"keep\",\"confidence\":2}}", type);
        assertThat(read.getKey()).isEqualTo("a");
        assertThat(read.getValue()).isEqualTo(new Verdict("keep", 2));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> OutputSchema.readAnswer("{\"a\":{\"decision\":\"keep\"}}", type))
                .isInstanceOf(dev.rein.ReinException.class).hasMessageContaining("confidence");
        assertThat(OutputSchema.of("Entries", new TypeRef<List<Map.Entry<String, Integer>>>() {}.type())
                .problems("[{\"a\":1},{\"b\":2}]")).isEmpty();
    }

    /** rev132: two keys were told "$: must have at most 1 properties"; the model is told the shape. Failed first. */
    @Test
    void anEntryOfTwoKeysOrNoneIsToldExactlyOneKey() {
        OutputSchema schema = OutputSchema.of("Entry", new TypeRef<Map.Entry<String, Integer>>() {}.type());
        String told = "$: must be an object of exactly one key (the entry's key), whose value is the entry's value";
        assertThat(schema.problems("{\"a\":1,\"b\":2}")).containsExactly(told);
        assertThat(schema.problems("{}")).containsExactly(told);
    }

    /**
     * rev133: the bound was matched by its English message; networknt ships translated ones. Matched by the keyword now.
     * Failed first: the German message was passed on.
     */
    @Test
    void anEntryOfTwoKeysIsToldExactlyOneKeyInAnyLocale() {
        java.util.Locale before = java.util.Locale.getDefault();
        java.util.Locale.setDefault(java.util.Locale.GERMAN);
        try {
            OutputSchema schema = OutputSchema.of("Entry", new TypeRef<Map.Entry<String, Integer>>() {}.type());
            assertThat(schema.problems("{\"a\":1,\"b\":2}")).containsExactly(
                    "$: must be an object of exactly one key (the entry's key), whose value is the entry's value");
        } finally {
            java.util.Locale.setDefault(before);
        }
    }
}
