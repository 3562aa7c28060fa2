package dev.rein.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The tree-walking canonical writer gives exactly the text of the reference (maps and lists through the mapper). */
class JsonCanonicalTest {

    @Test
    void sameTextAsTheReferenceForEveryKindOfValue() {
        List<String> documents = List.of(
                "{}", "[]", "{\"b\":1,\"a\":2}", "{\"z\":{\"y\":[3,{\"d\":null,\"c\":true}],\"x\":\"\"},\"a\":[]}",
                "{\"q\":\"caf\\u00e9 \\\"quoted\\\" \\n tab\\t \\u2028 \\ud83d\\ude00 \\u0000\"}",
                "{\"n\":[0,-1,2147483648,-9223372036854775809,123456789012345678901234567890]}",
                "{\"f\":[1.5,-0.0,1e300,1.0E-7,0.1,3.141592653589793,2.0]}",
                "{\"B\":1,\"a\":2,\"_\":3,\"\":4,\"10\":5,\"9\":6,\"\\u00e9\":7}",
                "[[[[{\"k\":[{\"k\":[1,2,{\"b\":false,\"a\":null}]}]}]]]]",
                "\"just text\"", "42", "4.25", "true", "null");
        for (String document : documents) {
            JsonNode node = Json.parse(document);
            assertEquals(Json.canonicalByMapper(node), Json.canonical(node), document);
        }
    }

    @Test
    void nodesBuiltInCodeAlsoMatch() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode node = f.objectNode();
        node.put("short", (short) 7);
        node.put("float", 0.1f);
        node.put("decimal", new BigDecimal("12.3400"));
        node.put("big", new BigInteger("98765432109876543210"));
        node.put("long", Long.MIN_VALUE);
        node.putPOJO("pojo", List.of(1, "two"));
        node.put("binary", new byte[] {1, 2, 3});
        node.putArray("nested").addObject().put("y", 1).put("x", 2);
        assertEquals(Json.canonicalByMapper(node), Json.canonical(node));
    }

    @Test
    void deepDocumentsWithinTheDocumentDepth() {
        StringBuilder open = new StringBuilder();
        StringBuilder close = new StringBuilder();
        for (int i = 0; i < Json.MAX_INPUT_DEPTH / 2 - 1; i++) { // an object and an array per round
            open.append("{\"k").append(i % 3).append("\":[");
            close.append("]}");
        }
        JsonNode node = Json.parse(open + "1" + close);
        assertEquals(Json.canonicalByMapper(node), Json.canonical(node));
    }
}
