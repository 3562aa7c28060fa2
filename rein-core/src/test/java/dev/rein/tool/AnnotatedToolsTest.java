package dev.rein.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.ReinException;
import dev.rein.json.Json;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AnnotatedToolsTest {
    public enum Priority { LOW, HIGH }

    public record Address(String city, String zip) {}

    public record Shipment(String trackingNumber, int itemCount, Optional<String> giftNote) {}

    public static final class Shipping {
        @ToolMethod(description = "Registers a shipment.")
        public String register(@ToolParam("the shipment") Shipment shipment) {
            return shipment.trackingNumber() + " x" + shipment.itemCount() + shipment.giftNote().map(n -> " (" + n + ")").orElse("");
        }
    }

    public static final class Orders {
        @ToolMethod(description = "Looks up an order by id.", abortsOnInterrupt = true)
        public String lookupOrder(@ToolParam("the order id, e.g. A-104") String orderId,
                                  @ToolParam(value = "include shipment events", required = false) Optional<Boolean> withEvents) {
            return "order " + orderId + (withEvents.orElse(false) ? " with events" : "");
        }

        @ToolMethod(name = "create_ticket", description = "Opens a ticket.", risk = Risk.WRITE, scopes = "tickets:write")
        public Object createTicket(@ToolParam("title") String title, @ToolParam("priority") Priority priority,
                                   @ToolParam("tags") List<String> tags, @ToolParam("where") Address address, ToolContext context) {
            return java.util.Map.of("title", title, "priority", priority, "tags", tags, "city", address.city(), "run", context.runId());
        }
    }

    @Test
    void schemasAreGeneratedFromParameterTypes() {
        List<Tool> tools = AnnotatedTools.from(new Orders());
        assertThat(tools).extracting(Tool::name).containsExactly("create_ticket", "lookupOrder");
        JsonNode lookup = tools.get(1).definition().inputSchema();
        assertThat(lookup.at("/properties/orderId/type").asText()).isEqualTo("string");
        assertThat(lookup.at("/properties/orderId/description").asText()).isEqualTo("the order id, e.g. A-104");
        assertThat(lookup.at("/properties/withEvents/type").asText()).isEqualTo("boolean");
        assertThat(lookup.get("required")).extracting(JsonNode::asText).containsExactly("orderId");

        Tool ticket = tools.get(0);
        JsonNode schema = ticket.definition().inputSchema();
        assertThat(schema.at("/properties/priority/enum")).extracting(JsonNode::asText).containsExactly("LOW", "HIGH");
        assertThat(schema.at("/properties/tags/type").asText()).isEqualTo("array");
        assertThat(schema.at("/properties/address/properties/city/type").asText()).isEqualTo("string");
        assertThat(schema.at("/properties/context").isMissingNode()).isTrue();
        assertThat(ticket.risk()).isEqualTo(Risk.WRITE);
        assertThat(ticket.requiredScopes()).containsExactly("tickets:write");
        assertThat(tools.get(1).abortsOnInterrupt()).isTrue();
        assertThat(ticket.abortsOnInterrupt()).isFalse();
    }

    @Test
    void annotatedToolsRunThroughTheExecutor() throws Exception {
        ToolExecutor executor = ToolExecutor.builder(ToolRegistry.of(AnnotatedTools.from(new Orders()))).build();
        Principal writer = new Principal("u", "t", java.util.Set.of("tickets:write"));
        ToolResult plain = executor.execute(new ToolCall("c1", "lookupOrder", Json.parse("{\"orderId\":\"A-104\"}"), 0),
                ToolContext.standalone("c1"));
        assertThat(plain.content()).isEqualTo("order A-104");
        ToolResult ticket = executor.execute(new ToolCall("c2", "create_ticket", Json.parse(
                "{\"title\":\"配送遅延\",\"priority\":\"HIGH\",\"tags\":[\"a\"],\"address\":{\"city\":\"東京\",\"zip\":\"100\"}}"), 0),
                ToolContext.standalone("c2", writer));
        assertThat(ticket.isError()).isFalse();
        assertThat(Json.parse(ticket.content()).get("city").asText()).isEqualTo("東京");
        ToolResult wrongEnum = executor.execute(new ToolCall("c3", "create_ticket", Json.parse(
                "{\"title\":\"t\",\"priority\":\"URGENT\",\"tags\":[],\"address\":{}}"), 0), ToolContext.standalone("c3", writer));
        assertThat(wrongEnum.errorClass()).isEqualTo(ErrorClass.INVALID_ARGUMENTS);
    }

    @Test
    void aRecordParametersComponentsAreReadUnderTheNamesItsSchemaGives() throws Exception {
        Tool tool = AnnotatedTools.from(new Shipping()).getFirst();
        JsonNode schema = tool.definition().inputSchema();
        assertThat(schema.at("/properties/shipment/properties/trackingNumber/type").asText()).isEqualTo("string");
        ToolExecutor executor = ToolExecutor.builder(ToolRegistry.of(List.of(tool))).build();
        ToolResult result = executor.execute(new ToolCall("c1", "register", Json.parse(
                "{\"shipment\":{\"trackingNumber\":\"追跡-42\",\"itemCount\":3,\"giftNote\":\"おめでとう\"}}"), 0),
                ToolContext.standalone("c1"));
        assertThat(result.isError()).as(result.content()).isFalse();
        assertThat(result.content()).isEqualTo("追跡-42 x3 (おめでとう)");
        ToolResult withoutNote = executor.execute(new ToolCall("c2", "register", Json.parse(
                "{\"shipment\":{\"trackingNumber\":\"T-1\",\"itemCount\":1}}"), 0), ToolContext.standalone("c2"));
        assertThat(withoutNote.content()).as(withoutNote.content()).isEqualTo("T-1 x1");
    }

    public enum Size {
        SMALL("s"), LARGE("l");

        private final String code;

        Size(String code) {
            this.code = code;
        }

        @com.fasterxml.jackson.annotation.JsonValue
        public String code() {
            return code;
        }
    }

    public record Refund(@com.fasterxml.jackson.annotation.JsonProperty("order_id") String orderId, int amount) {}

    public static final class Reports {
        @ToolMethod(description = "Books a monthly report.")
        public String book(@ToolParam("the month") java.time.YearMonth month, @ToolParam("the size") Size size,
                           @ToolParam("the refund") Refund refund, @ToolParam("the logo") byte[] logo,
                           @ToolParam(value = "how many copies", required = false) java.util.OptionalInt copies) {
            return month + " " + size + " " + refund.orderId() + " " + refund.amount() + " " + new String(logo,
                    java.nio.charset.StandardCharsets.UTF_8) + " " + (copies.isPresent() ? copies.getAsInt() : "-");
        }
    }

    @Test
    void valueTypesRenamedComponentsAndJsonValueEnumsGetTheSchemaJacksonReadsThemBy() throws Exception {
        // the same rules as typed output: before, the month was an object of getters, the enum listed SMALL and LARGE,
        // the refund asked for orderId (read as null), the logo was an array and copies an object, so no valid
        // arguments could be read
        Tool tool = AnnotatedTools.from(new Reports()).getFirst();
        JsonNode schema = tool.definition().inputSchema();
        assertThat(schema.at("/properties/month/type").asText()).isEqualTo("string");
        assertThat(schema.at("/properties/size/enum")).extracting(JsonNode::asText).containsExactly("s", "l");
        assertThat(schema.at("/properties/refund/properties/order_id/type").asText()).isEqualTo("string");
        assertThat(schema.at("/properties/logo/type").asText()).isEqualTo("string");
        assertThat(schema.get("required")).extracting(JsonNode::asText).containsExactly("month", "size", "refund", "logo");

        ToolExecutor executor = ToolExecutor.builder(ToolRegistry.of(List.of(tool))).build();
        String logo = java.util.Base64.getEncoder().encodeToString("ロゴ".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        ToolResult booked = executor.execute(new ToolCall("c1", "book", Json.parse("{\"month\":\"2026-12\",\"size\":\"l\","
                + "\"refund\":{\"order_id\":\"注文-7\",\"amount\":300},\"logo\":\"" + logo + "\",\"copies\":2}"), 0),
                ToolContext.standalone("c1"));
        assertThat(booked.isError()).as(booked.content()).isFalse();
        assertThat(booked.content()).isEqualTo("2026-12 LARGE 注文-7 300 ロゴ 2");
        ToolResult noCopies = executor.execute(new ToolCall("c2", "book", Json.parse("{\"month\":\"2026-01\",\"size\":\"s\","
                + "\"refund\":{\"order_id\":\"A\",\"amount\":1},\"logo\":\"\"}"), 0), ToolContext.standalone("c2"));
        assertThat(noCopies.content()).as(noCopies.content()).isEqualTo("2026-01 SMALL A 1  -");
    }

    /** A value class Jackson reads from one string, as a tool's parameter. */
    public static final class Amount {
        private final String text;

        @com.fasterxml.jackson.annotation.JsonCreator
        public Amount(String text) {
            this.text = text;
        }

        @com.fasterxml.jackson.annotation.JsonValue
        public String text() {
            return text;
        }
    }

    public static final class Payments {
        @ToolMethod(description = "Charges an amount.")
        public String charge(@ToolParam("the amount, e.g. 12.50 EUR") Amount amount) {
            return "charged " + amount.text();
        }
    }

    @Test
    void aParameterReadFromOneStringIsAStringInTheInputSchema() throws Exception {
        // before: an object of the class's fields ({"text": ...}), which Jackson cannot read it from
        Tool tool = AnnotatedTools.from(new Payments()).getFirst();
        assertThat(tool.definition().inputSchema().at("/properties/amount/type").asText()).isEqualTo("string");
        ToolResult charged = ToolExecutor.builder(ToolRegistry.of(List.of(tool))).build().execute(
                new ToolCall("c1", "charge", Json.parse("{\"amount\":\"12.50 EUR\"}"), 0), ToolContext.standalone("c1"));
        assertThat(charged.isError()).as(charged.content()).isFalse();
        assertThat(charged.content()).isEqualTo("charged 12.50 EUR");
    }

    public static final class Lookups {
        @ToolMethod(description = "Finds a shipment by its tracking number.")
        public Optional<Shipment> findShipment(@ToolParam("tracking number") String trackingNumber) {
            return trackingNumber.equals("追跡-42") ? Optional.of(new Shipment("追跡-42", 3, Optional.empty())) : Optional.empty();
        }
    }

    @Test
    void anOptionalResultIsSentAsItsValueAndAnEmptyOneAsAnEmptyResult() throws Exception {
        // a non-string result is sent as JSON; an Optional (returned or as a record component) used to fail the
        // call with "cannot write JSON: Java 8 optional type `java.util.Optional` not supported by default"
        ToolExecutor executor = ToolExecutor.builder(ToolRegistry.of(AnnotatedTools.from(new Lookups()))).build();
        ToolResult found = executor.execute(new ToolCall("c1", "findShipment", Json.parse("{\"trackingNumber\":\"追跡-42\"}"), 0),
                ToolContext.standalone("c1"));
        assertThat(found.isError()).as(found.content()).isFalse();
        assertThat(Json.parse(found.content())).isEqualTo(Json.parse(
                "{\"tracking_number\":\"追跡-42\",\"item_count\":3,\"gift_note\":null}"));
        ToolResult missing = executor.execute(new ToolCall("c2", "findShipment", Json.parse("{\"trackingNumber\":\"T-0\"}"), 0),
                ToolContext.standalone("c2"));
        assertThat(missing.isError()).as(missing.content()).isFalse();
        assertThat(missing.content()).isEqualTo(HandlerInvocation.EMPTY_RESULT);
    }

    @Test
    void anObjectWithoutToolMethodsIsAConfigurationError() {
        assertThatThrownBy(() -> AnnotatedTools.from(new Object()))
                .isInstanceOf(ReinException.class).hasMessageContaining("@ToolMethod");
    }

    public static final class TwoParamsOneName {
        @ToolMethod(description = "Moves stock.")
        public String move(@ToolParam(value = "from", name = "sku") String from, @ToolParam(value = "to", name = "sku") String to) {
            return from + "->" + to;
        }
    }

    public static final class NegativeTimeout {
        @ToolMethod(description = "Waits.", timeoutSeconds = -5)
        public String waitABit() {
            return "ok";
        }
    }

    /**
     * Declarations that cannot be what the author meant are refused when the tools are made, naming the tool and what to
     * change. Before: from(null) threw a bare NullPointerException; two parameters under one property name made a schema
     * with one property, both parameters receiving its value; a negative timeoutSeconds silently used the default.
     */
    @Test
    void declarationsThatCannotBeMeantAreRefusedSayingWhatToChange() {
        assertThatThrownBy(() -> AnnotatedTools.from(null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("from(...) was given null").hasMessageContaining("@ToolMethod");
        assertThatThrownBy(() -> AnnotatedTools.from(new TwoParamsOneName())).isInstanceOf(ReinException.class)
                .hasMessageContaining("tool 'move'").hasMessageContaining("'sku'").hasMessageContaining("@ToolParam(name");
        assertThatThrownBy(() -> AnnotatedTools.from(new NegativeTimeout())).isInstanceOf(ReinException.class)
                .hasMessageContaining("tool 'waitABit'").hasMessageContaining("timeoutSeconds").hasMessageContaining("-5");
    }

    /** A value class whose delegate holds the class itself: a tree read from nested lists. */
    public static final class Tree {
        final List<Tree> kids;

        @com.fasterxml.jackson.annotation.JsonCreator(mode = com.fasterxml.jackson.annotation.JsonCreator.Mode.DELEGATING)
        public Tree(List<Tree> kids) {
            this.kids = List.copyOf(kids);
        }

        @com.fasterxml.jackson.annotation.JsonValue
        public List<Tree> kids() {
            return kids;
        }
    }

    public static final class Trees {
        @ToolMethod(description = "Counts a tree's leaves.")
        public String count(@ToolParam("a tree, as nested lists") Tree tree) {
            return "kids " + tree.kids().size();
        }
    }

    /** A parameter of a value class read from a list of itself (rev103, high). Failed first: StackOverflowError. */
    @Test
    void aParameterOfAValueClassHoldingItselfHasASchemaThatEnds() throws Exception {
        Tool tool = AnnotatedTools.from(new Trees()).getFirst();
        ToolResult counted = ToolExecutor.builder(ToolRegistry.of(List.of(tool))).build().execute(
                new ToolCall("c1", "count", Json.parse("{\"tree\":[[],[[]]]}"), 0), ToolContext.standalone("c1"));
        assertThat(counted.isError()).as(counted.content()).isFalse();
        assertThat(counted.content()).isEqualTo("kids 2");
        ToolResult refused = ToolExecutor.builder(ToolRegistry.of(List.of(tool))).build().execute(
                new ToolCall("c2", "count", Json.parse("{\"tree\":[{}]}"), 0), ToolContext.standalone("c2"));
        assertThat(refused.isError()).as(refused.content()).isTrue();
    }
}
