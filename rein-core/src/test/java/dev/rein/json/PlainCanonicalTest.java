package dev.rein.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Plain values are written by {@link PlainCanonical} instead of Jackson's generator: the text must
 * be the generator's, for every char in keys and values and for random documents, and the string
 * callback must see the same strings in the same order.
 */
class PlainCanonicalTest {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    @Example
    void everyCharIsQuotedAsTheGeneratorQuotesIt() {
        List<String> differ = new ArrayList<>();
        for (int c = 0; c <= Character.MAX_VALUE; c++) {
            String s = "a" + (char) c + "b";
            ObjectNode node = F.objectNode().put(s, s);
            if (!Json.canonical(node).equals(Json.canonicalByGenerator(node, UnaryOperator.identity()))) {
                differ.add(String.format("U+%04X", c));
            }
        }
        assertThat(differ).isEmpty();
    }

    @Property(tries = 1000)
    void randomDocumentsAreWrittenAsTheGeneratorWritesThem(@ForAll("documents") JsonNode node) {
        List<String> seenPlain = new ArrayList<>();
        List<String> seenGenerator = new ArrayList<>();
        String plain = Json.canonical(node, s -> {
            seenPlain.add(s);
            return s.isEmpty() ? "" : s.substring(1);
        });
        String generator = Json.canonicalByGenerator(node, s -> {
            seenGenerator.add(s);
            return s.isEmpty() ? "" : s.substring(1);
        });
        assertThat(plain).isEqualTo(generator);
        assertThat(seenPlain).isEqualTo(seenGenerator);
        assertThat(Json.canonical(node)).isEqualTo(Json.canonicalByMapper(node));
    }

    @Example
    void valuesThatAreNotPlainGoThroughTheGeneratorWithTheCallbackCalledOnce() {
        ObjectNode node = F.objectNode().put("a", "x").put("f", 1.5).put("z", "y");
        node.putArray("b").add("w").add(new BigInteger("123456789012345678901234567890")).add(F.numberNode((short) 3));
        List<String> seen = new ArrayList<>();
        String text = Json.canonical(node, s -> {
            seen.add(s);
            return "";
        });
        assertThat(seen).containsExactly("x", "w", "y");
        assertThat(text).isEqualTo("{\"a\":\"\",\"b\":[\"\",123456789012345678901234567890,3],\"f\":1.5,\"z\":\"\"}");
    }

    @Provide
    Arbitrary<JsonNode> documents() {
        Arbitrary<String> text = Arbitraries.oneOf(Arbitraries.strings().all().ofMaxLength(8),
                Arbitraries.of("", "a", "B", "é", "東京", "😀", "\"", "\\", "\n", "\u2028", "\u007F", "/", "</script>"));
        Arbitrary<JsonNode> leaves = Arbitraries.oneOf(
                text.map(F::textNode),
                Arbitraries.integers().map(i -> (JsonNode) F.numberNode(i)),
                Arbitraries.longs().map(l -> (JsonNode) F.numberNode(l)),
                Arbitraries.bigIntegers().between(BigInteger.TEN.pow(30).negate(), BigInteger.TEN.pow(30)).map(F::numberNode),
                Arbitraries.doubles().map(d -> (JsonNode) F.numberNode(d)),
                Arbitraries.of(F.booleanNode(true), F.booleanNode(false), F.nullNode()));
        Arbitrary<JsonNode> level1 = Arbitraries.oneOf(leaves, objects(text, leaves), arrays(leaves));
        Arbitrary<JsonNode> level2 = Arbitraries.oneOf(level1, objects(text, level1), arrays(level1));
        return Arbitraries.oneOf(objects(text, level2), arrays(level2), leaves);
    }

    private static Arbitrary<JsonNode> objects(Arbitrary<String> keys, Arbitrary<JsonNode> values) {
        return Arbitraries.maps(keys, values).ofMaxSize(5).map(m -> {
            ObjectNode o = F.objectNode();
            m.forEach(o::set);
            return o;
        });
    }

    private static Arbitrary<JsonNode> arrays(Arbitrary<JsonNode> elements) {
        return elements.list().ofMaxSize(5).map(l -> {
            ArrayNode a = F.arrayNode();
            l.forEach(a::add);
            return a;
        });
    }
}
