package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.model.OutputSchema;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** agent.run(goal, Type.class) and RunResult.output(Type.class): what validates against the generated schema reads back as the type. */
class TypedOutputTest {
    /** Components named as Java names them: the generated schema requires exactly these names. */
    public record Shipment(String orderId, int itemCount, LocalDate shipDate, List<String> trackingNumbers,
                           Optional<String> customerNote) {}

    private static RunResult answered(String answer) {
        return Agent.builder().model(ScriptedModel.of(text(answer))).build().run("ship order A-104", Shipment.class);
    }

    @Test
    void camelCaseComponentsAreReadBackUnderTheNamesTheSchemaRequires() {
        assertThat(OutputSchema.of(Shipment.class).schema().get("required").toString())
                .contains("\"orderId\"", "\"itemCount\"", "\"trackingNumbers\"").doesNotContain("customerNote");

        RunResult result = answered("{\"orderId\":\"A-104\",\"itemCount\":2,\"shipDate\":\"2026-12-03\","
                + "\"trackingNumbers\":[\"JP-1\"],\"customerNote\":\"置き配希望\"}");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.output(Shipment.class)).isEqualTo(new Shipment("A-104", 2, LocalDate.of(2026, 12, 3), List.of("JP-1"),
                Optional.of("置き配希望")));
    }

    @Test
    void anOptionalComponentLeftOutOrNullIsReadAsEmpty() {
        RunResult left = answered("{\"orderId\":\"A-104\",\"itemCount\":1,\"shipDate\":\"2026-12-03\",\"trackingNumbers\":[]}");
        RunResult nulled = answered("{\"orderId\":\"A-104\",\"itemCount\":1,\"shipDate\":\"2026-12-03\",\"trackingNumbers\":[],"
                + "\"customerNote\":null}");

        assertThat(left.output(Shipment.class).customerNote()).isEmpty();
        assertThat(nulled.output(Shipment.class).customerNote()).isEmpty();
    }

    @Test
    void aPropertyTheSchemaAllowsBesideTheComponentsDoesNotStopTheAnswerBeingRead() {
        RunResult result = answered("{\"orderId\":\"A-104\",\"itemCount\":1,\"shipDate\":\"2026-12-03\",\"trackingNumbers\":[],"
                + "\"carrier\":\"ヤマト\"}");

        assertThat(result.status()).as("the schema does not forbid other properties").isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.output(Shipment.class).orderId()).isEqualTo("A-104");
    }

    @Test
    void anAnswerCutOffMidJsonIsShownToTheModelAndTheCallerWithoutJacksonInternals() {
        String cut = "{\"orderId\":\"A-104\",\"itemCount\":2,\"trackingNumbers\":[\"JP-1\"";
        ScriptedModel model = ScriptedModel.of(text(cut), text(cut));
        RunResult result = Agent.builder().model(model).build().run("ship order A-104", Shipment.class);

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo("invalid_output");
        String feedback = model.requests().get(1).messages().get(model.requests().get(1).messages().size() - 1).toString();
        for (String shown : List.of(result.message(), feedback)) {
            assertThat(shown).contains("the answer is not JSON: Unexpected end-of-input").contains("line 1, column")
                    .as("REDACTED means a masked secret in Rein; Jackson's source placeholder is not one")
                    .doesNotContain("REDACTED", "StreamReadFeature", "[Source");
        }
    }

    @Test
    void aSchemaFileCutOffMidJsonIsNamedWithoutJacksonInternals() {
        assertThatThrownBy(() -> OutputSchema.fromJson("verdict.json", "{\"type\":\"object\",\"properties\":{"))
                .isInstanceOf(ReinException.class).hasMessageStartingWith("the output schema 'verdict.json' is not JSON: ")
                .hasMessageContaining("line 1, column").hasMessageNotContaining("REDACTED").hasMessageNotContaining("StreamReadFeature");
    }

    @Test
    void aSchemaWithTextAfterItsObjectIsRefusedNotCutShort() {
        // A brace closed too early: Jackson's readTree stops there and "required" would be dropped unseen.
        assertThatThrownBy(() -> OutputSchema.fromJson("verdict.json", "{\"type\":\"object\"}, \"required\":[\"a\"]}"))
                .isInstanceOf(ReinException.class).hasMessageStartingWith("the output schema 'verdict.json' is not one JSON object: ")
                .hasMessageContaining("text follows it at line 1, column 18");
        assertThat(OutputSchema.fromJson("verdict.json", "{\"type\":\"object\"}\n").schema().toString()).isEqualTo("{\"type\":\"object\"}");
    }
    @Test
    void aSchemaWithAKeyTwiceInOneObjectIsRefusedNamingTheKey() {
        // Before: Jackson kept the last "required", so the schema silently required "b" and not "a"
        assertThatThrownBy(() -> OutputSchema.fromJson("verdict.json",
                "{\"type\":\"object\",\"required\":[\"a\"],\n\"properties\":{\"a\":{},\"b\":{}},\"required\":[\"b\"]}"))
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("the output schema 'verdict.json' has the key \"required\" twice in one object (line 2, column ")
                .hasMessageContaining("keep one");
    }
    /** Another record: what a caller may mistakenly read a Shipment answer as. */
    public record Invoice(String invoiceId, int total) {}

    @Test
    void anAnswerWithoutTheTypesRequiredComponentsIsNoValueOfTheTypeRatherThanOneFullOfNulls() {
        RunResult shipment = answered("{\"orderId\":\"A-104\",\"itemCount\":2,\"shipDate\":\"2026-12-03\",\"trackingNumbers\":[]}");
        assertThatThrownBy(() -> shipment.output(Invoice.class)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("the answer of run " + shipment.runId() + " is not a valid Invoice: ")
                .hasMessageContaining("invoiceId").hasMessageContaining("total");

        // A run without an output schema: a JSON answer is read only when it has what the record requires.
        RunResult untyped = Agent.builder().model(ScriptedModel.of(text("{\"orderId\":\"A-104\"}"))).build().run("ship");
        assertThatThrownBy(() -> untyped.output(Shipment.class)).isInstanceOf(ReinException.class)
                .hasMessageContaining("itemCount");
    }

    /** A record whose components Jackson reads under other names (a wire format's snake_case, a Japanese key). */
    public record Refund(@com.fasterxml.jackson.annotation.JsonProperty("order_id") String orderId,
                         @com.fasterxml.jackson.annotation.JsonProperty("返金額") int amount, String reason) {}

    @Test
    void componentsRenamedWithJsonPropertyAreRequiredAndReadUnderTheirJsonNames() {
        // Before: the schema required the Java names (orderId, amount), which Jackson does not read for a renamed
        // component, so the answer that validated was read as Refund[orderId=null, amount=0] and the run SUCCEEDED
        assertThat(OutputSchema.of(Refund.class).schema().get("required").toString())
                .contains("\"order_id\"", "\"返金額\"", "\"reason\"").doesNotContain("orderId", "amount");
        ScriptedModel model = ScriptedModel.of(text("{\"orderId\":\"A-104\",\"amount\":1200,\"reason\":\"破損\"}"),
                text("{\"order_id\":\"A-104\",\"返金額\":1200,\"reason\":\"破損\"}"));
        RunResult result = Agent.builder().model(model).build().run("返金して", Refund.class);

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(model.requests()).as("the answer under the Java names is refused").hasSize(2);
        assertThat(model.requests().get(1).toString()).contains("required property 'order_id' not found");
        assertThat(result.output(Refund.class)).isEqualTo(new Refund("A-104", 1200, "破損"));
        assertThatThrownBy(() -> OutputSchema.readAnswer("{\"orderId\":\"A-104\",\"amount\":1200,\"reason\":\"破損\"}", Refund.class))
                .isInstanceOf(ReinException.class).hasMessageContaining("required property 'order_id' not found");
    }

    public record Stock(String sku, java.util.OptionalInt quantity, java.util.OptionalDouble weightKg,
                        java.util.OptionalLong barcode) {}

    @Test
    void optionalIntLongAndDoubleComponentsAreNumbersThatMayBeLeftOut() {
        // Before: each was described by its getters as a required object {"isPresent":..,"value":..}, which
        // Jackson does not read: no answer both validated and could be read, and the run ended FAILED/invalid_output
        RunResult result = Agent.builder().model(ScriptedModel.of(text("{\"sku\":\"在庫-1\",\"quantity\":3,\"weightKg\":1.5,\"barcode\":null}")))
                .build().run("在庫は?", Stock.class);

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        Stock stock = result.output(Stock.class);
        assertThat(stock.quantity()).hasValue(3);
        assertThat(stock.weightKg()).hasValue(1.5);
        assertThat(stock.barcode()).isEmpty();
        assertThat(OutputSchema.of(Stock.class).schema().get("required").toString()).isEqualTo("[\"sku\"]");
        assertThat(OutputSchema.of(Stock.class).problems("{\"sku\":\"在庫-1\",\"quantity\":\"たくさん\"}"))
                .containsExactly("$.quantity: string found, [integer, null] expected");
    }

    /** A value class Jackson reads from one string (and writes as it): its generated schema is an object. */
    public static final class Money {
        private final String text;

        @com.fasterxml.jackson.annotation.JsonCreator
        public Money(String text) {
            this.text = text;
        }

        @com.fasterxml.jackson.annotation.JsonValue
        public String text() {
            return text;
        }
    }

    /** An enum read leniently by its own creator ("red" as RED), where its schema lists only the names. */
    public enum Color {
        RED, GREEN;

        @com.fasterxml.jackson.annotation.JsonCreator
        public static Color of(String name) {
            return valueOf(name.toUpperCase(java.util.Locale.ROOT));
        }
    }

    /** A bean: Jackson reads "5" as its int. */
    public static final class Order {
        public String id;
        public int count;
    }

    /** A plain class (bean) that holds records: checked, as a record holding them would be. */
    public static final class Report {
        public String summary;
        public List<Invoice> invoices;
    }

    /** A generic bean: checked when what it holds is a record. */
    public static final class Box<T> {
        public T item;
    }

    /** A record with a value-class component: the record is checked, the component as Jackson reads it (a string). */
    public record Priced(Money total) {}

    /** Value-class components inside a list and an Optional. */
    public record Basket(List<Money> items, Optional<Money> discount) {}

    private static RunResult untyped(String answer) {
        return Agent.builder().model(ScriptedModel.of(text(answer))).build().run("answer");
    }

    /**
     * Before (since 93e167f0): every class was checked against its generated schema, stricter than Jackson, so each of
     * these failed ("$: string found, object expected" for Money); only records and containers of records are checked.
     */
    @Test
    void aTypeThatIsNoRecordNorHoldsRecordsIsReadAsJacksonReadsIt() {
        assertThat(untyped("\"12.50 EUR\"").output(Money.class).text()).isEqualTo("12.50 EUR");
        assertThat(untyped("\"red\"").output(Color.class)).isEqualTo(Color.RED);
        assertThat(untyped("1700000000").output(java.time.Instant.class)).isEqualTo(java.time.Instant.ofEpochSecond(1_700_000_000L));
        assertThat(untyped("\"hi\"").output(char[].class)).containsExactly('h', 'i');
        assertThat(untyped("5").output(String.class)).isEqualTo("5");
        assertThat(untyped("\"5\"").output(Integer.class)).isEqualTo(5);
        assertThat(untyped("{\"id\":\"A\",\"count\":\"5\"}").output(Order.class).count).isEqualTo(5);
        assertThat(untyped("[\"12.50 EUR\"]").output(new dev.rein.model.TypeRef<List<Money>>() {}).get(0).text()).isEqualTo("12.50 EUR");
        // what Jackson cannot read is still refused, naming the type
        assertThatThrownBy(() -> untyped("[1]").output(Order.class)).isInstanceOf(ReinException.class)
                .hasMessageContaining("is not a valid Order");
        // records, and lists, arrays and maps of them, are still checked: no record of nulls and zeros
        assertThatThrownBy(() -> untyped("[[{\"invoiceId\":\"I-1\"}]]").output(Invoice[][].class)).isInstanceOf(ReinException.class)
                .hasMessageContaining("$[0][0]: required property 'total' not found");
        assertThatThrownBy(() -> untyped("{\"a\":[{\"invoiceId\":\"I-1\"}]}")
                .output(new dev.rein.model.TypeRef<java.util.Map<String, List<? extends Invoice>>>() {})).isInstanceOf(ReinException.class)
                .hasMessageContaining("$.a[0]: required property 'total' not found");
        // so is a bean whose properties, at any depth, hold records (before: a Report with an Invoice whose total was 0)
        assertThatThrownBy(() -> untyped("{\"summary\":\"s\",\"invoices\":[{\"invoiceId\":\"I-1\"}]}").output(Report.class))
                .isInstanceOf(ReinException.class).hasMessageContaining("$.invoices[0]: required property 'total' not found");
        assertThatThrownBy(() -> untyped("{\"item\":{\"invoiceId\":\"I-1\"}}")
                .output(new dev.rein.model.TypeRef<Box<Invoice>>() {})).isInstanceOf(ReinException.class)
                .hasMessageContaining("$.item: required property 'total' not found");
        // a Box of what is no record is read as Jackson reads it
        assertThat(untyped("{\"item\":\"12.50 EUR\"}").output(new dev.rein.model.TypeRef<Box<Money>>() {}).item.text())
                .isEqualTo("12.50 EUR");
    }

    /**
     * A value class Jackson reads from one string (a one-string @JsonCreator, written by its @JsonValue) is a string in
     * the schema of a record holding it, as Jackson reads it. Before, its schema was an object of its fields
     * ({"text": …}), which no creator takes, so record Priced(Money total) could be answered in neither shape:
     * {"total":"12.50 EUR"} was refused "$.total: string found, object expected".
     */
    @Test
    void aValueClassReadFromOneStringIsAStringInsideACheckedRecord() {
        assertThat(OutputSchema.of(Priced.class).schema().get("properties").get("total"))
                .isEqualTo(dev.rein.json.Json.parse("{\"type\":\"string\"}"));
        assertThat(untyped("{\"total\":\"12.50 EUR\"}").output(Priced.class).total().text()).isEqualTo("12.50 EUR");
        // the object shape, which Jackson cannot read, is refused by the schema, naming where
        assertThatThrownBy(() -> untyped("{\"total\":{\"text\":\"12.50 EUR\"}}").output(Priced.class))
                .isInstanceOf(ReinException.class).hasMessageContaining("$.total: object found, string expected");
        RunResult typed = Agent.builder().model(ScriptedModel.of(text("{\"total\":\"3 JPY\"}"))).build().run("price?", Priced.class);
        assertThat(typed.status()).as(typed.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(typed.output(Priced.class).total().text()).isEqualTo("3 JPY");

        // inside a List and an Optional alike
        com.fasterxml.jackson.databind.JsonNode basket = OutputSchema.of(Basket.class).schema();
        assertThat(basket.at("/properties/items")).isEqualTo(dev.rein.json.Json.parse(
                "{\"type\":\"array\",\"items\":{\"type\":\"string\"}}"));
        assertThat(basket.at("/properties/discount")).isEqualTo(dev.rein.json.Json.parse("{\"type\":[\"string\",\"null\"]}"));
        assertThat(basket.get("required").toString()).isEqualTo("[\"items\"]");
        Basket read = untyped("{\"items\":[\"1 EUR\",\"2 EUR\"],\"discount\":\"0.50 EUR\"}").output(Basket.class);
        assertThat(read.items()).extracting(Money::text).containsExactly("1 EUR", "2 EUR");
        assertThat(read.discount()).map(Money::text).contains("0.50 EUR");
        assertThat(untyped("{\"items\":[]}").output(Basket.class).discount()).isEmpty();
        assertThat(untyped("{\"items\":[],\"discount\":null}").output(Basket.class).discount()).isEmpty();
    }

    /** A bean that holds itself (and a record). */
    public static final class Node {
        public Node next;
        public Invoice invoice;
    }

    /** The walk over a bean's properties ends at a bean it has seen, and still finds the record beside it. */
    @Test
    void aBeanThatHoldsItselfIsChecked() {
        assertThatThrownBy(() -> untyped("{\"next\":{\"invoice\":{\"invoiceId\":\"I-1\"}}}").output(Node.class))
                .isInstanceOf(ReinException.class).hasMessageContaining("required property 'total' not found");
    }

    /**
     * A null type is refused naming the method the caller called and what to pass: before, agent.run(goal, (Class<?>) null)
     * and outputType((Class<?>) null) named OutputSchema.of, which the caller never called.
     */
    @Test
    void aNullTypeIsRefusedNamingTheMethodCalled() {
        Agent agent = Agent.builder().model(ScriptedModel.of(text("{}"))).build();

        assertThatThrownBy(() -> agent.run("ship", (Class<?>) null)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("Agent.run(goal, type) was given no type (null)").hasMessageContaining("Shipment.class")
                .hasMessageNotContaining("OutputSchema.of");
        assertThatThrownBy(() -> agent.run("ship", (dev.rein.model.TypeRef<?>) null)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("Agent.run(goal, type) was given no TypeRef (null)").hasMessageNotContaining("OutputSchema.of");
        assertThatThrownBy(() -> Agent.builder().outputType((Class<?>) null)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("outputType(...) was given null").hasMessageContaining("Shipment.class")
                .hasMessageNotContaining("OutputSchema.of");
        assertThatThrownBy(() -> Agent.builder().outputType((dev.rein.model.TypeRef<?>) null)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("outputType(...) was given null").hasMessageNotContaining("OutputSchema.of");
    }
}
