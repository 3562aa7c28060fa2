package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.text;
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
import dev.rein.agent.TypedOutputJacksonAnnotationsTest.Unwrapped;
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
                return object;
            }
        }
    }
}
