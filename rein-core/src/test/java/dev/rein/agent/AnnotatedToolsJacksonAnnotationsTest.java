package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.ReinException;
import dev.rein.agent.TypedOutputJacksonAnnotationsTest.Circle;
import dev.rein.agent.TypedOutputJacksonAnnotationsTest.HoldsCreator;
import dev.rein.agent.TypedOutputJacksonAnnotationsTest.Invoice;
import dev.rein.agent.TypedOutputJacksonAnnotationsTest.SetterOnly;
import dev.rein.agent.TypedOutputJacksonAnnotationsTest.Shape;
import dev.rein.agent.TypedOutputJacksonAnnotationsTest.Snake;
import dev.rein.agent.TypedOutputJacksonAnnotationsTest.Ticket;
import dev.rein.agent.TypedOutputJacksonAnnotationsTest.Unwrapped;
import dev.rein.agent.TypedOutputShapesTest.Line;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.ToolDefinition;
import dev.rein.model.ToolUseBlock;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.AnnotatedTools;
import dev.rein.tool.ToolMethod;
import dev.rein.tool.ToolParam;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Annotated tools whose parameter types carry Jackson annotations (subtypes, naming, unwrapping) or are beans read under
 * other names than their fields: the input schema the model is given describes what Jackson reads (as typed output's
 * does), or the tool is refused when it is made, so the model's arguments as the schema says never reach the method as
 * zeros and nulls or fail as unreadable.
 */
class AnnotatedToolsJacksonAnnotationsTest {
    public static final class Drawing {
        final List<Object> got = new CopyOnWriteArrayList<>();

        @ToolMethod(description = "Draws a shape.")
        public String draw(@ToolParam(name = "shape", value = "the shape") Shape shape) {
            got.add(shape);
            return "drawn";
        }

        @ToolMethod(description = "Places an order.")
        public String place(@ToolParam(name = "order", value = "the order") Snake order) {
            got.add(order);
            return "placed";
        }

        @ToolMethod(description = "Files a note on an invoice.")
        public String file(@ToolParam(name = "note", value = "the note") Optional<Unwrapped> note) {
            got.add(note.map(n -> List.of(String.valueOf(n.invoice), n.note)).orElse(List.of()));
            return "filed";
        }
    }

    @Test
    void argumentsAsTheInputSchemaSaysReachTheMethodAsJacksonReadsThem() {
        Drawing tools = new Drawing();
        ScriptedModel model = ScriptedModel.of(answersAsTheSchemaSays("draw", "place", "file"), text("done"));
        RunResult r = Agent.builder().model(model).tools(AnnotatedTools.from(tools)).build().run("draw, place and file");

        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        // before: the schema of Shape was a bare object, so the model gave no "kind" and the call was refused as
        // unreadable; Snake's named orderId/itemCount, read by Jackson as order_id/item_count: Snake[null, 0]; Unwrapped's
        // nested its invoice, which Jackson reads flat: a null invoice
        assertThat(tools.got).containsExactlyInAnyOrder(new Circle(2.5), new Snake("s", 2),
                List.of(new Invoice("s", 2).toString(), "s"));
        String told = model.requests().get(0).tools().toString();
        assertThat(told).contains("\"kind\"").contains("circle").contains("square").contains("order_id").contains("item_count")
                .doesNotContain("orderId");
    }

    public static final class SetterTools {
        @ToolMethod(description = "Pays an invoice.")
        public String pay(@ToolParam(name = "payment", value = "the payment") SetterOnly payment) {
            return "paid";
        }
    }

    public static final class CreatorTools {
        @ToolMethod(description = "Holds.")
        public String hold(@ToolParam(name = "held", value = "what to hold") List<HoldsCreator> held) {
            return "held";
        }
    }

    @Test
    void aParameterOfABeanReadUnderOtherNamesThanItsFieldsIsRefusedWhenTheToolIsMade() {
        // before: both were made, and the model's arguments as the schema said reached the method as nulls
        assertThatThrownBy(() -> AnnotatedTools.from(new SetterTools())).isInstanceOf(ReinException.class)
                .hasMessageContaining("tool 'pay'").hasMessageContaining("parameter 'payment'")
                .hasMessageContaining("SetterOnly").hasMessageContaining("\"invoice\"").hasMessageContaining("record");
        assertThatThrownBy(() -> AnnotatedTools.from(new CreatorTools())).isInstanceOf(ReinException.class)
                .hasMessageContaining("tool 'hold'").hasMessageContaining("parameter 'held'")
                .hasMessageContaining("Creator").hasMessageContaining("\"summary\"");
    }

    public static final class ReadShapes {
        final List<Object> got = new CopyOnWriteArrayList<>();

        @ToolMethod(description = "Files a ticket.")
        public String ticket(@ToolParam(name = "ticket", value = "the ticket") Ticket ticket) {
            got.add(ticket.getStatus() + "/" + ticket.invoice);
            return "filed";
        }

        @ToolMethod(description = "Ranks the best line.")
        public String rank(@ToolParam(name = "best", value = "the best line under its rank") Map.Entry<String, Line> best) {
            got.add(best.getKey() + "=" + best.getValue());
            return "ranked";
        }

        @ToolMethod(description = "Checks lines.")
        public String check(@ToolParam(name = "lines", value = "the lines, null for a missing one") List<Optional<Line>> lines) {
            got.add(lines);
            return "checked";
        }

        @ToolMethod(description = "Stores any JSON value.")
        public String store(@ToolParam(name = "value", value = "any JSON value") JsonNode value) {
            got.add(value);
            return "stored";
        }
    }

    private static JsonNode inputSchema(String tool) {
        return AnnotatedTools.from(new ReadShapes()).stream().filter(t -> t.name().equals(tool)).findFirst().orElseThrow()
                .definition().inputSchema();
    }

    /**
     * A bean's field Jackson reads from nothing (private, no getter, setter or creator parameter) is left out of the
     * tool's input schema, as typed output's leaves it out: it was listed, the model filled it in and its value was
     * dropped unseen. A private field with a getter is still listed (Jackson sets it as a field). Failed first: the
     * schema listed internalNote.
     */
    @Test
    void aBeanFieldJacksonReadsFromNothingIsLeftOutOfTheInputSchema() {
        JsonNode properties = inputSchema("ticket").at("/properties/ticket/properties");
        assertThat(properties.has("internalNote")).as(properties.toString()).isFalse();
        assertThat(properties.has("status")).as(properties.toString()).isTrue();
        assertThat(properties.has("invoice")).as(properties.toString()).isTrue();
        ReadShapes tools = new ReadShapes();
        ScriptedModel model = ScriptedModel.of(answersAsTheSchemaSays("ticket"), text("done"));
        RunResult r = Agent.builder().model(model).tools(AnnotatedTools.from(tools)).build().run("file it");
        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(model.requests().get(0).tools().toString()).doesNotContain("internalNote");
        assertThat(tools.got).containsExactly("s/" + new Invoice("s", 2));
    }

    /**
     * A Map.Entry parameter is described as Jackson reads an entry, an object of exactly one key whose value has the
     * entry's value schema, and checked so: it was a bare object, so the model was not told the shape, and an object of
     * no key or of two passed the schema. Failed first: the schema was {"type":"object"}, and a call as it said ({}) was
     * refused as unreadable.
     */
    @Test
    void aMapEntryParameterIsAnObjectOfOneKeyWhoseValueIsTheEntrysValue() {
        JsonNode entry = inputSchema("rank").at("/properties/best");
        assertThat(entry.path("minProperties").asInt()).as(entry.toString()).isEqualTo(1);
        assertThat(entry.path("maxProperties").asInt()).as(entry.toString()).isEqualTo(1);
        assertThat(entry.at("/additionalProperties/properties").has("sku")).as(entry.toString()).isTrue();
        ReadShapes tools = new ReadShapes();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("rank", "{\"best\":{\"a\":{\"sku\":\"A\"},\"b\":{\"sku\":\"B\"}}}")),
                answersAsTheSchemaSays("rank"), text("done"));
        RunResult r = Agent.builder().model(model).tools(AnnotatedTools.from(tools)).build().run("rank");
        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(model.requests().get(1).toString()).contains("Invalid arguments for tool 'rank'").contains("maxProperties");
        assertThat(tools.got).containsExactly("k=" + new Line("s", 2, new java.math.BigDecimal("2.5")));
    }

    /**
     * A List<Optional<X>> parameter's items are X or null, as Jackson reads them, and a JsonNode parameter any JSON
     * value: the items were described as {"value": {...}}, which Jackson refuses, and a null item was refused by the
     * schema; a JsonNode was an object, so a string or number Jackson binds to it was refused. Failed first: the null
     * item and the string were refused as invalid arguments.
     */
    @Test
    void optionalItemsAreTheirValueOrNullAndAJsonNodeIsAnyValue() {
        JsonNode items = inputSchema("check").at("/properties/lines/items");
        assertThat(items.toString()).doesNotContain("\"value\"").contains("\"null\"").contains("sku");
        assertThat(inputSchema("store").at("/properties/value")).isEqualTo(Json.object().put("description", "any JSON value"));
        ReadShapes tools = new ReadShapes();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("check", "{\"lines\":[null,{\"sku\":\"A\",\"quantity\":1,"
                + "\"price\":2}]}"), call("store", "{\"value\":\"hot\"}")), text("done"));
        RunResult r = Agent.builder().model(model).tools(AnnotatedTools.from(tools)).build().run("check and store");
        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(model.requests().get(1).toString()).doesNotContain("Invalid arguments");
        assertThat(tools.got).containsExactlyInAnyOrder(List.of(Optional.empty(), Optional.of(new Line("A", 1,
                new java.math.BigDecimal("2")))), Json.mapper().getNodeFactory().textNode("hot"));
    }

    /**
     * A turn calling each named tool with arguments made from the input schema it was given, as a model following the
     * schema would: every property listed, the first branch of an anyOf, the first value of an enum or const.
     */
    private static ScriptedModel.Turn answersAsTheSchemaSays(String... names) {
        return (request, number) -> {
            List<ContentBlock> calls = new ArrayList<>();
            for (String name : names) {
                ToolDefinition tool = request.tools().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
                calls.add(new ToolUseBlock("toolu_" + number + "_" + name, name,
                        example(tool.inputSchema(), tool.inputSchema())));
            }
            return new ModelResponse("msg_" + number, request.model(), calls, StopReason.TOOL_USE, null, ScriptedModel.DEFAULT_USAGE);
        };
    }

    private static JsonNode example(JsonNode schema, JsonNode root) {
        if (schema.has("$ref")) {
            return example(root.at(schema.get("$ref").asText().substring(1)), root);
        }
        if (schema.has("const")) {
            return schema.get("const");
        }
        if (schema.has("enum")) {
            return schema.get("enum").get(0);
        }
        for (String choice : List.of("anyOf", "oneOf")) {
            if (schema.has(choice)) {
                for (JsonNode branch : schema.get(choice)) {
                    if (!branch.path("type").asText().equals("null")) {
                        return example(branch, root);
                    }
                }
            }
        }
        ObjectNode object = Json.object();
        if (schema.has("allOf")) {
            schema.get("allOf").forEach(part -> object.setAll((ObjectNode) example(part, root)));
        }
        String type = schema.path("type").isArray() ? schema.path("type").get(0).asText() : schema.path("type").asText("object");
        switch (type) {
            case "string" -> { return Json.mapper().getNodeFactory().textNode("s"); }
            case "integer" -> { return Json.mapper().getNodeFactory().numberNode(2); }
            case "number" -> { return Json.mapper().getNodeFactory().numberNode(2.5); }
            case "boolean" -> { return Json.mapper().getNodeFactory().booleanNode(true); }
            case "array" -> {
                ArrayNode items = Json.mapper().createArrayNode();
                return items.add(example(schema.path("items"), root));
            }
            default -> {
                schema.path("properties").properties().forEach(p -> object.set(p.getKey(), example(p.getValue(), root)));
                if (object.isEmpty() && schema.path("additionalProperties").isObject()) { // a map or an entry: one key
                    object.set("k", example(schema.get("additionalProperties"), root));
                }
                return object;
            }
        }
    }
}
