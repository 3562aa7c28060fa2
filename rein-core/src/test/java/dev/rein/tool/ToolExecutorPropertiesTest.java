package dev.rein.tool;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Combinators;

/** No JSON a model can put in tool arguments makes execution throw. */
class ToolExecutorPropertiesTest {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final ToolExecutor executor = ToolExecutor.builder(ToolRegistry.of(
            Tool.builder("typed").description("typed input")
                    .inputSchema("{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\",\"minimum\":0},"
                            + "\"s\":{\"type\":\"string\",\"maxLength\":5},\"list\":{\"type\":\"array\",\"items\":{\"type\":\"number\"}}},"
                            + "\"required\":[\"n\"]}")
                    .handler((args, ctx) -> args.get("n").asInt() % 3 == 0 ? null : "n=" + args.get("n").asInt())
                    .build(),
            Tool.builder("fragile").description("reads fields without checking")
                    .handler((args, ctx) -> args.get("missing").get("deeper").asText())
                    .build()))
            .build();

    @Property(tries = 300)
    void executionNeverThrows(@ForAll("json") JsonNode arguments, @ForAll("names") String name) throws Exception {
        ToolResult result = executor.execute(new ToolCall("c", name, arguments, 0), ToolContext.standalone("c"));
        assertThat(result).isNotNull();
        assertThat(result.content()).isNotBlank();
    }

    @Provide
    Arbitrary<String> names() {
        return Arbitraries.of("typed", "fragile", "unknown", "");
    }

    @Provide
    Arbitrary<JsonNode> json() {
        return value(3);
    }

    private Arbitrary<JsonNode> value(int depth) {
        Arbitrary<JsonNode> leaf = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(12).map(F::textNode),
                Arbitraries.integers().map(F::numberNode),
                Arbitraries.doubles().map(F::numberNode),
                Arbitraries.of(true, false).map(F::booleanNode),
                Arbitraries.just(F.nullNode()));
        if (depth == 0) {
            return leaf;
        }
        Arbitrary<JsonNode> array = value(depth - 1).list().ofMaxSize(4).map(items -> {
            ArrayNode node = F.arrayNode();
            items.forEach(node::add);
            return node;
        });
        Arbitrary<JsonNode> object = Combinators.combine(
                Arbitraries.of("n", "s", "list", "missing", "x", "").list().ofMaxSize(4),
                value(depth - 1).list().ofSize(4)).as((keys, values) -> {
                    ObjectNode node = F.objectNode();
                    for (int i = 0; i < keys.size(); i++) {
                        node.set(keys.get(i), values.get(i));
                    }
                    return node;
                });
        return Arbitraries.oneOf(leaf, array, object);
    }
}
