package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.internal.schema.SchemaKeywords;
import org.junit.jupiter.api.Test;

/** SchemaTree reads rein-core's one table of keywords holding schemas, giving each a role of its own. */
class SchemaTreeKeywordsTest {
    /**
     * A refactor (core53 item 5): the keywords, their order and how each holds its schemas are those SchemaTree listed
     * itself before, now read from SchemaKeywords; this passed on the old code's list too.
     */
    @Test
    void everyKeywordOfCoresTableHasARoleInTheOldOrder() {
        assertThat(SchemaTree.APPLICATORS).extracting(SchemaTree.Applicator::keyword).containsExactly("items", "not", "if",
                "then", "else", "contains", "additionalItems", "propertyNames", "unevaluatedItems", "unevaluatedProperties",
                "additionalProperties", "anyOf", "allOf", "oneOf", "prefixItems", "properties", "$defs", "definitions",
                "patternProperties", "dependentSchemas", "dependencies");
        assertThat(SchemaTree.APPLICATORS).allMatch(a -> a.holds() == SchemaKeywords.APPLICATORS.get(a.keyword()));
        assertThat(SchemaTree.APPLICATORS).filteredOn(a -> a.role() == SchemaTree.SchemaRole.ENTRY)
                .extracting(SchemaTree.Applicator::keyword).containsExactly("allOf");
    }
}
