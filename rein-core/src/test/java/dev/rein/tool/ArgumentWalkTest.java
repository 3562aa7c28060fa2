package dev.rein.tool;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The argument stage's one walk must agree with what it replaces: "too deep" exactly when
 * {@link Json#depth} is over the limit, and a size bound never below the exact size, so skipping
 * the exact count when the bound is within the limit never lets oversized arguments through.
 */
class ArgumentWalkTest {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final List<String> TEXTS = List.of("", "q", "é", "€uro", "東京", "😀", "\uD83D", "\uDE00x",
            "tab\tnew\nline \"q\" \\ \u0001\u001f", "</script>", "ｗｅａｔｈｅｒ");

    @Test
    void boundIsNeverBelowTheExactSizeAndDepthMatches() {
        Random random = new Random(42);
        for (int i = 0; i < 3000; i++) {
            JsonNode node = value(random, 0, 1 + random.nextInt(8));
            ArgumentValidation.Walk walk = walk(node);
            assertThat(walk.tooDeep).isFalse();
            if (walk.bounded) {
                assertThat(walk.bound).as(Json.write(node)).isGreaterThanOrEqualTo(Utf8Length.ofJson(node));
            }
        }
    }

    @Test
    void extremeNumbersStayWithinTheBound() {
        ArrayNode numbers = NODES.arrayNode().add(Long.MIN_VALUE).add(Integer.MIN_VALUE).add((short) -32768)
                .add(-Double.MAX_VALUE).add(-Double.MIN_VALUE).add(-4.9E-324).add(Double.NaN).add(Double.NEGATIVE_INFINITY)
                .add(-Float.MAX_VALUE).add(Float.NEGATIVE_INFINITY).add(-1.2345678901234567E-300);
        for (JsonNode n : numbers) {
            assertThat(walk(n).bound).as(n.toString()).isGreaterThanOrEqualTo(Utf8Length.ofJson(n));
        }
        assertThat(walk(NODES.numberNode(new BigDecimal("1E+400"))).bounded).isFalse();
        assertThat(walk(NODES.numberNode(BigInteger.TEN.pow(500))).bounded).isFalse();
        assertThat(walk(NODES.binaryNode(new byte[10])).bounded).isFalse();
        assertThat(walk(NODES.pojoNode(List.of("x"))).bounded).isFalse();
    }

    @Test
    void tooDeepExactlyWhenJsonDepthIsOverTheLimit() {
        for (int levels = 0; levels <= ToolExecutor.MAX_ARGUMENT_DEPTH + 3; levels++) {
            for (boolean arrays : List.of(false, true)) {
                ObjectNode root = NODES.objectNode();
                root.put("flat", "x");
                JsonNode inner = root;
                for (int l = 1; l < levels; l++) {
                    inner = arrays ? ((inner instanceof ObjectNode o) ? o.putArray("a") : ((ArrayNode) inner).addArray())
                            : ((inner instanceof ObjectNode o) ? o.putObject("o") : ((ArrayNode) inner).addObject());
                }
                JsonNode node = levels == 0 ? NODES.textNode("scalar") : root;
                assertThat(walk(node).tooDeep).as(levels + " levels").isEqualTo(Json.depth(node) > ToolExecutor.MAX_ARGUMENT_DEPTH);
            }
        }
    }

    private static ArgumentValidation.Walk walk(JsonNode node) {
        ArgumentValidation.Walk walk = new ArgumentValidation.Walk();
        walk.visit(node, 1);
        return walk;
    }

    private static JsonNode value(Random random, int level, int maxLevel) {
        int kind = random.nextInt(level >= maxLevel ? 7 : 9);
        return switch (kind) {
            case 0 -> NODES.textNode(text(random));
            case 1 -> NODES.numberNode(random.nextLong() >> random.nextInt(64));
            case 2 -> NODES.numberNode(random.nextInt());
            case 3 -> NODES.numberNode(Double.longBitsToDouble(random.nextLong()));
            case 4 -> NODES.numberNode(random.nextFloat() * (float) Math.pow(10, random.nextInt(30) - 15));
            case 5 -> NODES.booleanNode(random.nextBoolean());
            case 6 -> NODES.nullNode();
            case 7 -> {
                ObjectNode o = NODES.objectNode();
                for (int i = random.nextInt(5); i > 0; i--) {
                    o.set(text(random), value(random, level + 1, maxLevel));
                }
                yield o;
            }
            default -> {
                ArrayNode a = NODES.arrayNode();
                for (int i = random.nextInt(5); i > 0; i--) {
                    a.add(value(random, level + 1, maxLevel));
                }
                yield a;
            }
        };
    }

    private static String text(Random random) {
        StringBuilder sb = new StringBuilder();
        for (int i = random.nextInt(4); i > 0; i--) {
            sb.append(TEXTS.get(random.nextInt(TEXTS.size())));
        }
        return sb.toString();
    }
}
