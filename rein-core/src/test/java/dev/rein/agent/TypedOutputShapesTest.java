package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Typed final answers as a user of other frameworks tries them: nested records, enums, Optional,
 * List and Map components, Japanese text, answers that are not JSON, the finish tool's result.
 */
class TypedOutputShapesTest {
    public enum Decision { REFUND, REJECT, ESCALATE }
    public record Line(String sku, int quantity, BigDecimal price) {}
    public record Customer(String name, Optional<String> email) {}
    public record Verdict(Decision decision, Customer customer, List<Line> lines, Optional<Customer> referrer,
                          Map<String, Integer> scores, double confidence) {}

    private static final String VALID = "{\"decision\":\"REFUND\",\"customer\":{\"name\":\"山田太郎\"},"
            + "\"lines\":[{\"sku\":\"A-1\",\"quantity\":2,\"price\":12.50}],\"scores\":{\"信頼\":3},\"confidence\":0.9}";

    @Test
    void nestedRecordsEnumsOptionalsListsAndMapsReadBack() {
        ScriptedModel model = ScriptedModel.of(text(VALID));
        RunResult r = Agent.builder().model(model).build().run("判定して", Verdict.class);
        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        Verdict v = r.output(Verdict.class);
        assertThat(v.decision()).isEqualTo(Decision.REFUND);
        assertThat(v.customer().name()).isEqualTo("山田太郎");
        assertThat(v.customer().email()).isEmpty();
        assertThat(v.referrer()).isEmpty();
        assertThat(v.lines().get(0).price()).isEqualByComparingTo("12.50");
        assertThat(v.scores()).containsEntry("信頼", 3);
    }

    @Test
    void anEnumOutsideItsValuesAndAMissingNestedComponentAreRepaired() {
        String bad = "{\"decision\":\"MAYBE\",\"customer\":{},\"lines\":[],\"scores\":{},\"confidence\":0.9}";
        ScriptedModel model = ScriptedModel.of(text(bad), text(VALID));
        RunResult r = Agent.builder().model(model).build().run("判定して", Verdict.class);
        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(model.requests()).hasSize(2);
        assertThat(model.requests().get(1).toString()).contains("MAYBE").contains("name");
    }

    @Test
    void proseAroundJsonOrTruncatedJsonIsRepairedThenFailed() {
        ScriptedModel model = ScriptedModel.of(text("はい、こちらです: " + VALID), text("{\"decision\":\"REFUND\""));
        RunResult r = Agent.builder().model(model).build().run("判定して", Verdict.class);
        assertThat(r.status()).isEqualTo(RunStatus.FAILED);
        assertThat(r.reason()).isEqualTo("invalid_output");
        assertThat(r.message()).contains("not JSON");
        assertThatThrownBy(() -> r.output(Verdict.class)).isInstanceOf(ReinException.class).hasMessageContaining("invalid_output");
    }

    @Test
    void jsonFollowedByMoreTextOrASecondValueIsRepairedThenFailed() {
        ScriptedModel model = ScriptedModel.of(text(VALID + "\n\n以上です 🦊"), text(VALID + " " + VALID));
        RunResult r = Agent.builder().model(model).build().run("判定して", Verdict.class);
        assertThat(r.status()).as("a value followed by text is not one JSON value").isEqualTo(RunStatus.FAILED);
        assertThat(r.reason()).isEqualTo("invalid_output");
        assertThat(model.requests().get(1).toString()).contains("the answer is not one JSON value: text follows it at line 1")
                .contains("give the JSON value alone");
        assertThat(r.message()).contains("not one JSON value");
    }

    public record Delivery(String order, java.time.LocalDate due, java.time.Instant shippedAt) {}

    @Test
    void aValueTheSchemaAllowsButTheTypeCannotHoldIsRepairedNotAcceptedAndLeftUnreadable() {
        // "format": "date" is only an annotation in JSON Schema 2020-12: "3 Dec" validates, but is no LocalDate
        String notADate = "{\"order\":\"A-104\",\"due\":\"12月3日\",\"shippedAt\":\"2026-12-01T09:00:00Z\"}";
        String valid = "{\"order\":\"A-104\",\"due\":\"2026-12-03\",\"shippedAt\":\"2026-12-01T09:00:00Z\"}";
        ScriptedModel model = ScriptedModel.of(text(notADate), text(valid));
        RunResult r = Agent.builder().model(model).build().run("いつ届く?", Delivery.class);
        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(model.requests()).hasSize(2);
        assertThat(model.requests().get(1).toString()).contains("at $.due: the value does not fit Delivery: Cannot deserialize value of type"
                        + " `java.time.LocalDate` from String \"12月3日\"");
        assertThat(r.output(Delivery.class).due()).isEqualTo(java.time.LocalDate.of(2026, 12, 3));
    }

    public record Statement(java.time.YearMonth period, java.time.MonthDay billingDay, java.time.Year fiscalYear,
                            java.net.URL link, java.net.URI source, byte[] receipt, java.util.Locale language,
                            java.util.Currency currency, java.time.ZoneOffset offset, List<java.time.YearMonth> months) {}

    @Test
    void valueTypesJacksonWritesAsTextAreTextInTheSchemaAndReadBack() {
        // Before: YearMonth, MonthDay, Year, URL, Locale, Currency and ZoneOffset were described by their getters
        // as objects ({"year":..,"month":..}) and byte[] as an array of strings, none of which Jackson reads: every
        // answer was refused, whatever the model wrote
        com.fasterxml.jackson.databind.JsonNode properties = dev.rein.model.OutputSchema.of(Statement.class).schema().get("properties");
        assertThat(properties.get("period").get("type").asText()).isEqualTo("string");
        assertThat(properties.get("period").has("pattern")).isTrue();
        assertThat(properties.get("billingDay").get("type").asText()).isEqualTo("string");
        assertThat(properties.get("fiscalYear").get("type").asText()).isEqualTo("integer");
        assertThat(properties.get("link").get("type").asText()).isEqualTo("string");
        assertThat(properties.get("link").get("format").asText()).isEqualTo("uri");
        assertThat(properties.get("receipt").get("type").asText()).isEqualTo("string");
        assertThat(properties.get("receipt").get("contentEncoding").asText()).isEqualTo("base64");
        assertThat(properties.get("language").get("type").asText()).isEqualTo("string");
        assertThat(properties.get("currency").get("type").asText()).isEqualTo("string");
        assertThat(properties.get("offset").get("type").asText()).isEqualTo("string");
        assertThat(properties.get("months").get("items").get("type").asText()).isEqualTo("string");

        String wrong = "{\"period\":\"2026年12月\",\"billingDay\":\"--12-03\",\"fiscalYear\":2026,"
                + "\"link\":\"明細.html\",\"source\":\"urn:isbn:4000000000\",\"receipt\":\"領収書\",\"language\":\"ja-JP\","
                + "\"currency\":\"JPY\",\"offset\":\"+09:00\",\"months\":[\"2026-11\"]}";
        String valid = "{\"period\":\"2026-12\",\"billingDay\":\"--12-03\",\"fiscalYear\":2026,"
                + "\"link\":\"https://例え.jp/明細?月=12\",\"source\":\"urn:isbn:4000000000\",\"receipt\":\"44GC44GE8J+mig==\","
                + "\"language\":\"ja-JP\",\"currency\":\"JPY\",\"offset\":\"+09:00\",\"months\":[\"2026-11\",\"2026-12\"]}";
        ScriptedModel model = ScriptedModel.of(text(wrong), text(valid));
        RunResult r = Agent.builder().model(model).build().run("12月の明細は?", Statement.class);
        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(model.requests()).hasSize(2);
        assertThat(model.requests().get(1).toString()).contains("$.period").contains("2026年12月");
        Statement s = r.output(Statement.class);
        assertThat(s.period()).isEqualTo(java.time.YearMonth.of(2026, 12));
        assertThat(s.billingDay()).isEqualTo(java.time.MonthDay.of(12, 3));
        assertThat(s.fiscalYear()).isEqualTo(java.time.Year.of(2026));
        assertThat(s.link().toString()).isEqualTo("https://例え.jp/明細?月=12");
        assertThat(s.source()).isEqualTo(java.net.URI.create("urn:isbn:4000000000"));
        assertThat(new String(s.receipt(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("あい🦊");
        assertThat(s.language()).isEqualTo(java.util.Locale.JAPAN);
        assertThat(s.currency()).isEqualTo(java.util.Currency.getInstance("JPY"));
        assertThat(s.offset()).isEqualTo(java.time.ZoneOffset.ofHours(9));
        assertThat(s.months()).containsExactly(java.time.YearMonth.of(2026, 11), java.time.YearMonth.of(2026, 12));
    }

    @Test
    void aReceiptThatIsNotBase64OrALinkWithoutASchemeIsRefusedNamingWhere() {
        String valid = "{\"period\":\"2026-12\",\"billingDay\":\"--12-03\",\"fiscalYear\":2026,"
                + "\"link\":\"https://example.com/a\",\"source\":\"urn:x\",\"receipt\":\"44GC\",\"language\":\"ja\","
                + "\"currency\":\"JPY\",\"offset\":\"Z\",\"months\":[]}";
        dev.rein.model.OutputSchema schema = dev.rein.model.OutputSchema.of(Statement.class);
        assertThat(schema.problems(valid)).isEmpty();
        assertThat(schema.problems(valid.replace("44GC", "領収書!")))
                .singleElement().asString().startsWith("at $.receipt: the value does not fit Statement: ").contains("base64");
        assertThat(schema.problems(valid.replace("https://example.com/a", "明細.html")))
                .singleElement().asString().startsWith("at $.link: the value does not fit Statement: ");
        assertThat(schema.problems(valid.replace("\"2026-12\"", "\"2026-13\""))).singleElement().asString().contains("$.period");
    }

    /** Enums whose JSON is not their constants' names: written and read by @JsonValue, or by @JsonProperty on each constant. */
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

    public enum Mood {
        @com.fasterxml.jackson.annotation.JsonProperty("嬉しい") HAPPY,
        @com.fasterxml.jackson.annotation.JsonProperty("悲しい") SAD
    }

    public record Order(Size size, List<Mood> moods) {}
    public record Pick(Optional<Size> size) {}

    @Test
    void anEnumWithJsonValueOrRenamedConstantsListsTheValuesJacksonReads() {
        // Before: the schema listed the constants' names (SMALL, HAPPY), which Jackson does not read for such an
        // enum, while the values it reads (s, 嬉しい) were outside the schema's enum: every answer was refused
        com.fasterxml.jackson.databind.JsonNode properties = dev.rein.model.OutputSchema.of(Order.class).schema().get("properties");
        assertThat(properties.get("size").get("enum").toString()).isEqualTo("[\"s\",\"l\"]");
        assertThat(properties.get("moods").get("items").get("enum").toString()).isEqualTo("[\"嬉しい\",\"悲しい\"]");
        ScriptedModel model = ScriptedModel.of(text("{\"size\":\"SMALL\",\"moods\":[\"HAPPY\"]}"),
                text("{\"size\":\"l\",\"moods\":[\"悲しい\",\"嬉しい\"]}"));
        RunResult r = Agent.builder().model(model).build().run("注文は?", Order.class);
        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(model.requests()).hasSize(2);
        assertThat(r.output(Order.class)).isEqualTo(new Order(Size.LARGE, List.of(Mood.SAD, Mood.HAPPY)));
        assertThat(Agent.builder().model(ScriptedModel.of(text("\"s\""))).build().run("大きさは?", Size.class).output(Size.class))
                .isEqualTo(Size.SMALL);
        assertThat(dev.rein.model.OutputSchema.readAnswer("{\"size\":null}", Pick.class).size()).isEmpty();
        assertThat(dev.rein.model.OutputSchema.readAnswer("{\"size\":\"s\"}", Pick.class).size()).contains(Size.SMALL);
    }

    /** Read from one string by a static factory, with no @JsonValue. */
    public static final class Sku {
        private final String code;

        private Sku(String code) {
            this.code = code;
        }

        @com.fasterxml.jackson.annotation.JsonCreator
        public static Sku parse(String code) {
            return new Sku(code);
        }

        public String code() {
            return code;
        }
    }

    /** Read from and written as an int. */
    public static final class Points {
        private final int value;

        @com.fasterxml.jackson.annotation.JsonCreator
        public Points(int value) {
            this.value = value;
        }

        @com.fasterxml.jackson.annotation.JsonValue
        public int value() {
            return value;
        }
    }

    /** Read from a number. */
    public static final class Ratio {
        final double value;

        private Ratio(double value) {
            this.value = value;
        }

        @com.fasterxml.jackson.annotation.JsonCreator
        public static Ratio of(double value) {
            return new Ratio(value);
        }
    }

    /** Read from a boolean. */
    public static final class Flag {
        final boolean on;

        @com.fasterxml.jackson.annotation.JsonCreator
        public Flag(boolean on) {
            this.on = on;
        }
    }

    /** Read by a delegating creator from a list of strings, and written as it. */
    public static final class Tags {
        private final List<String> values;

        @com.fasterxml.jackson.annotation.JsonCreator(mode = com.fasterxml.jackson.annotation.JsonCreator.Mode.DELEGATING)
        public Tags(List<String> values) {
            this.values = List.copyOf(values);
        }

        @com.fasterxml.jackson.annotation.JsonValue
        public List<String> values() {
            return values;
        }
    }

    /** A bean Jackson reads from an object (its no-argument constructor) as well as from one string: it stays an object. */
    public static final class Labelled {
        public String label;

        public Labelled() {}

        public Labelled(String label) {
            this.label = label;
        }
    }

    public record Card(Sku sku, Points points, Ratio ratio, Flag flag, Tags tags, Labelled labelled) {}

    /**
     * A class Jackson reads from one value (a one-argument @JsonCreator, delegating or from a String, int, double or
     * boolean) and from no object is described as that value, as Jackson reads it: each was an object of its fields,
     * which no creator takes, so no answer to a record holding one could be read.
     */
    @Test
    void aClassReadFromOneValueIsDescribedAsThatValue() {
        com.fasterxml.jackson.databind.JsonNode properties = dev.rein.model.OutputSchema.of(Card.class).schema().get("properties");
        assertThat(properties.get("sku")).isEqualTo(dev.rein.json.Json.parse("{\"type\":\"string\"}"));
        assertThat(properties.get("points")).isEqualTo(dev.rein.json.Json.parse("{\"type\":\"integer\"}"));
        assertThat(properties.get("ratio")).isEqualTo(dev.rein.json.Json.parse("{\"type\":\"number\"}"));
        assertThat(properties.get("flag")).isEqualTo(dev.rein.json.Json.parse("{\"type\":\"boolean\"}"));
        assertThat(properties.get("tags")).isEqualTo(dev.rein.json.Json.parse("{\"type\":\"array\",\"items\":{\"type\":\"string\"}}"));
        assertThat(properties.get("labelled").get("type").asText()).isEqualTo("object");
        assertThat(properties.get("labelled").at("/properties/label/type").asText()).isEqualTo("string");

        RunResult r = Agent.builder().model(ScriptedModel.of(text("{\"sku\":\"在庫-1\",\"points\":3,\"ratio\":0.5,"
                + "\"flag\":true,\"tags\":[\"急ぎ\"],\"labelled\":{\"label\":\"L\"}}"))).build().run("カードは?", Card.class);
        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        Card card = r.output(Card.class);
        assertThat(card.sku().code()).isEqualTo("在庫-1");
        assertThat(card.points().value()).isEqualTo(3);
        assertThat(card.ratio().value).isEqualTo(0.5);
        assertThat(card.flag().on).isTrue();
        assertThat(card.tags().values()).containsExactly("急ぎ");
        assertThat(card.labelled().label).isEqualTo("L");
        assertThat(dev.rein.model.OutputSchema.of(Card.class).problems("{\"sku\":\"A\",\"points\":\"三\",\"ratio\":1,"
                + "\"flag\":false,\"tags\":[],\"labelled\":{}}")).containsExactly("$.points: string found, integer expected");
    }

    /** Read by Jackson from one string through a public one-string constructor it finds unannotated. */
    public static final class Plain {
        private final String value;

        public Plain(String value) {
            this.value = value;
        }

        public String getValue() {
            return value;
        }
    }

    /** A record written as its one component: Jackson reads it from that string. */
    public record Code(@com.fasterxml.jackson.annotation.JsonValue String value) {}

    /** Written as a string, but Jackson can make none (no creator): described as written, and refused when read. */
    public static final class Written {
        private Written(int a, int b) {}

        @com.fasterxml.jackson.annotation.JsonValue
        public String text() {
            return "x";
        }
    }

    public record Tagged(Plain plain, Code code, Written written) {}
    public record Readable(Plain plain, Code code) {}

    /**
     * The creators asked of Jackson, not read off annotations: an unannotated public one-string constructor, a record
     * with a @JsonValue component, are strings (each was an object of its fields); a class Jackson can make no value of
     * is described by its @JsonValue, and an answer is refused naming it.
     */
    @Test
    void whatJacksonReadsAClassFromIsAskedOfJackson() {
        dev.rein.model.OutputSchema schema = dev.rein.model.OutputSchema.of(Tagged.class);
        com.fasterxml.jackson.databind.JsonNode string = dev.rein.json.Json.parse("{\"type\":\"string\"}");
        assertThat(schema.schema().get("properties").get("plain")).isEqualTo(string);
        assertThat(schema.schema().get("properties").get("code")).isEqualTo(string);
        assertThat(schema.schema().get("properties").get("written")).isEqualTo(string);
        Readable read = dev.rein.model.OutputSchema.readAnswer("{\"plain\":\"p\",\"code\":\"c\"}", Readable.class);
        assertThat(read.plain().getValue()).isEqualTo("p");
        assertThat(read.code()).isEqualTo(new Code("c"));
        assertThat(schema.problems("{\"plain\":\"p\",\"code\":\"c\",\"written\":\"x\"}")).singleElement().asString()
                .startsWith("at $.written: the value does not fit Tagged: Cannot construct instance of");
    }

    /** A category whose parent is required: an answer would have to nest parents without end. */
    public record Category(String name, Category parent) {}
    public record Employee(String name, Team team) {}
    public record Team(String name, Employee lead) {}
    /** Recursion through Optional or a List ends: an empty Optional or list is an answer. */
    public record Folder(String name, Optional<Folder> parent, List<Folder> children) {}

    @Test
    void aTypeThatRequiresItselfIsRefusedWhenTheAgentIsBuiltNotAfterEveryAnswer() {
        // Before: the agent was built and every answer was refused ('$.parent.parent: null found, object expected')
        // until the run ended FAILED/invalid_output, since no finite JSON has a parent at every level
        ScriptedModel model = ScriptedModel.of(text("{\"name\":\"本\",\"parent\":null}"));
        assertThatThrownBy(() -> Agent.builder().model(model).outputType(Category.class))
                .isInstanceOf(ReinException.class)
                .hasMessageContaining("the output type Category cannot be answered")
                .hasMessageContaining("Category.parent")
                .hasMessageContaining("Optional");
        assertThat(model.requests()).isEmpty();
        assertThatThrownBy(() -> dev.rein.model.OutputSchema.of(Employee.class)).isInstanceOf(ReinException.class)
                .hasMessageContaining("Employee.team → Team.lead → Employee");
        RunResult r = Agent.builder().model(ScriptedModel.of(text("{\"name\":\"文書\",\"children\":[{\"name\":\"下書き\",\"children\":[]}]}")))
                .build().run("フォルダは?", Folder.class);
        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(r.output(Folder.class).children().get(0).name()).isEqualTo("下書き");
    }

    @Test
    void anAnswerWithAKeyTwiceInOneObjectIsRefusedNamingTheKeyNotReadAsItsLastValue() {
        // Before: Jackson kept the last of the two values, so a model that changed its mind mid-answer
        // ("decision":"REFUND", ..., "decision":"REJECT") had the run SUCCEED with one of them, chosen unseen
        String twice = VALID.replace("\"confidence\":0.9}", "\"confidence\":0.9,\"decision\":\"REJECT\"}");
        ScriptedModel model = ScriptedModel.of(text(twice), text(VALID));
        RunResult r = Agent.builder().model(model).build().run("判定して", Verdict.class);
        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(model.requests()).hasSize(2);
        assertThat(model.requests().get(1).toString()).contains("the answer has the key \"decision\" twice in one object")
                .contains("give each key once");
        assertThat(r.output(Verdict.class).decision()).isEqualTo(Decision.REFUND);
        assertThatThrownBy(() -> dev.rein.model.OutputSchema.readAnswer("{\"名前\":\"a\",\"名前\":\"b\"}", Map.class))
                .isInstanceOf(ReinException.class).hasMessageContaining("the key \"名前\" twice");
    }

    public record Reading(byte level, Byte offset, List<Byte> samples) {}

    @Test
    void byteComponentsAreIntegersInTheByteRangeAsJacksonWritesThem() {
        // Before: described as strings, so the numbers Jackson writes ({"level":5}) were refused
        com.fasterxml.jackson.databind.JsonNode properties = dev.rein.model.OutputSchema.of(Reading.class).schema().get("properties");
        for (com.fasterxml.jackson.databind.JsonNode b : List.of(properties.get("level"), properties.get("offset"),
                properties.get("samples").get("items"))) {
            assertThat(b.get("type").asText()).isEqualTo("integer");
            assertThat(b.get("minimum").asInt()).isEqualTo(-128);
            assertThat(b.get("maximum").asInt()).isEqualTo(127);
        }
        dev.rein.model.OutputSchema schema = dev.rein.model.OutputSchema.of(Reading.class);
        assertThat(schema.problems(dev.rein.json.Json.write(new Reading((byte) 5, (byte) -3, List.of((byte) 127, (byte) -128))))).isEmpty();
        assertThat(schema.problems("{\"level\":300,\"offset\":1,\"samples\":[]}")).isNotEmpty();
        RunResult r = Agent.builder().model(ScriptedModel.of(text("{\"level\":5,\"offset\":-3,\"samples\":[1,2]}")))
                .build().run("測って", Reading.class);
        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(r.output(Reading.class)).isEqualTo(new Reading((byte) 5, (byte) -3, List.of((byte) 1, (byte) 2)));
    }

    public interface Shape {}

    @Test
    void anInterfaceAsTheOutputTypeIsRefusedWhenTheAgentIsBuiltNotAfterEveryAnswer() {
        ScriptedModel model = ScriptedModel.of(text("{}"));
        assertThatThrownBy(() -> Agent.builder().model(model).outputType(Shape.class))
                .isInstanceOf(ReinException.class)
                .hasMessageContaining("the output type Shape is an interface").hasMessageContaining("Use a record or a concrete class");
        assertThat(model.requests()).isEmpty();
        // a List or a Map is an interface Jackson reads as a concrete type
        assertThat(Agent.builder().model(ScriptedModel.of(text("[1, 2]"))).build().run("数えて", List.class).output(List.class))
                .containsExactly(1, 2);
    }

    public record Page<T>(List<T> items, Page<T> next) {}

    public interface Box<T> {}

    @Test
    void aGenericOutputTypeGetsTheChecksOfItsRawType() {
        // Before: OutputSchema.of(name, Type) built the schema, and every answer was then refused or unreadable
        java.lang.reflect.Type page = new com.fasterxml.jackson.core.type.TypeReference<Page<String>>() {}.getType();
        assertThatThrownBy(() -> dev.rein.model.OutputSchema.of("page", page)).isInstanceOf(ReinException.class)
                .hasMessageContaining("the output type Page cannot be answered").hasMessageContaining("Page.next → Page");
        java.lang.reflect.Type box = new com.fasterxml.jackson.core.type.TypeReference<Box<String>>() {}.getType();
        assertThatThrownBy(() -> dev.rein.model.OutputSchema.of("box", box)).isInstanceOf(ReinException.class)
                .hasMessageContaining("the output type Box is an interface");
        // a generic type Jackson can create is still accepted
        java.lang.reflect.Type list = new com.fasterxml.jackson.core.type.TypeReference<List<Verdict>>() {}.getType();
        assertThat(dev.rein.model.OutputSchema.of("verdicts", list).schema().get("type").asText()).isEqualTo("array");
    }

    /** An enum whose constants have bodies: its class is abstract for reflection, yet Jackson reads its names. */
    public enum Priority {
        LOW { @Override String label() { return "低"; } },
        HIGH { @Override String label() { return "高"; } };

        abstract String label();
    }

    @Test
    void anEnumWhoseConstantsHaveBodiesIsAnOutputTypeLikeAnyEnum() {
        // Before: refused when the agent was built ('the output type Priority is an abstract class')
        RunResult r = Agent.builder().model(ScriptedModel.of(text("\"HIGH\""))).build().run("優先度は?", Priority.class);
        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(r.output(Priority.class)).isEqualTo(Priority.HIGH);
        assertThat(r.output(Priority.class).label()).isEqualTo("高");
    }

    @Test
    void aFencedBlockIsAccepted() {
        ScriptedModel model = ScriptedModel.of(text("```json\n" + VALID + "\n```"));
        RunResult r = Agent.builder().model(model).build().run("判定して", Verdict.class);
        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(r.output(Verdict.class).decision()).isEqualTo(Decision.REFUND);
    }

    @Test
    void readingAsAnotherTypeSaysWhatIsWrong() {
        RunResult r = Agent.builder().model(ScriptedModel.of(text(VALID))).build().run("判定して", Verdict.class);
        assertThatThrownBy(() -> r.output(Line.class)).isInstanceOf(ReinException.class)
                .hasMessageContaining("is not a valid Line: ").hasMessageContaining("required property 'sku' not found");
    }
    @Test
    void theFinishToolsResultCarriesTheJsonAsText() {
        String asString = dev.rein.json.Json.write(dev.rein.json.Json.object().put("status", "completed").put("summary", "s").put("result", VALID));
        ScriptedModel model = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("finish", asString)));
        RunResult r = Agent.builder().model(model).finishTool(true).build().run("判定して", Verdict.class);
        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(r.output(Verdict.class).customer().name()).isEqualTo("山田太郎");
    }

    @Test
    void theFinishToolsResultMayBeTheTypedObjectItselfAndIsCheckedAgainstTheOutputSchema() {
        // Before: refused with '$.result: object found, string expected', and the model was asked again
        String asObject = "{\"status\":\"completed\",\"summary\":\"s\",\"result\":" + VALID + "}";
        ScriptedModel model = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("finish", asObject)));
        RunResult r = Agent.builder().model(model).finishTool(true).build().run("判定して", Verdict.class);
        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(model.requests()).hasSize(1);
        assertThat(r.output(Verdict.class).customer().name()).isEqualTo("山田太郎");
        assertThat(r.output(Verdict.class).lines().get(0).price()).isEqualByComparingTo("12.50");
        assertThat(dev.rein.json.Json.parse(r.answer())).isEqualTo(dev.rein.json.Json.parse(VALID));

        // an object that does not fit the output schema is refused with the schema's problems, not the finish tool's type
        String wrong = "{\"status\":\"completed\",\"summary\":\"s\",\"result\":{\"decision\":\"MAYBE\"}}";
        ScriptedModel model2 = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("finish", wrong)),
                ScriptedModel.toolCalls(ScriptedModel.call("finish", asObject)));
        RunResult r2 = Agent.builder().model(model2).finishTool(true).build().run("判定して", Verdict.class);
        assertThat(r2.status()).as(r2.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(model2.requests()).hasSize(2);
        assertThat(model2.requests().get(1).toString()).contains("MAYBE").doesNotContain("string expected");
    }

    @Test
    void anEnumGivenAsTheFinishToolsStringResultIsThatEnum() {
        // Before: 'REFUND' was not JSON, so refused ('the answer is not JSON'), though the tool's result field is a string
        String bare = "{\"status\":\"completed\",\"summary\":\"s\",\"result\":\"REFUND\"}";
        ScriptedModel model = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("finish", bare)));
        RunResult r = Agent.builder().model(model).finishTool(true).build().run("判定して", Decision.class);
        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(r.output(Decision.class)).isEqualTo(Decision.REFUND);
        assertThat(r.answer()).isEqualTo("\"REFUND\"");

        // as JSON it is taken as written; a string outside the enum is still refused
        String quoted = "{\"status\":\"completed\",\"summary\":\"s\",\"result\":\"\\\"REJECT\\\"\"}";
        String outside = "{\"status\":\"completed\",\"summary\":\"s\",\"result\":\"MAYBE\"}";
        ScriptedModel model2 = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("finish", outside)),
                ScriptedModel.toolCalls(ScriptedModel.call("finish", quoted)));
        RunResult r2 = Agent.builder().model(model2).finishTool(true).build().run("判定して", Decision.class);
        assertThat(r2.status()).as(r2.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(r2.output(Decision.class)).isEqualTo(Decision.REJECT);
        assertThat(model2.requests()).hasSize(2);
    }

    @Test
    void aQuestionForTheUserUnderAStringTypeStaysTheQuestionsText() {
        String ask = "{\"status\":\"needs_user_input\",\"summary\":\"s\",\"result\":\"どの注文ですか?\"}";
        ScriptedModel model = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("finish", ask)));
        RunResult r = Agent.builder().model(model).finishTool(true).build().run("注文を調べて", String.class);
        assertThat(r.reason()).as(r.message()).isEqualTo("needs_user_input");
        assertThat(r.answer()).isEqualTo("どの注文ですか?");
    }

    /**
     * Under typed output a completed finish whose result is null is the JSON value null, checked against the
     * output schema as any typed answer is (docs/replay.md): refused as invalid output (intervention
     * invalid_output, counted toward maxVerificationFailures, so twice ends the run FAILED/invalid_output),
     * where it was a refused tool call ('$.result: null found, string expected') that counted toward nothing, so
     * a model repeating it ran to the step limit.
     */
    @Test
    void aNullResultOfACompletedFinishIsInvalidOutput() {
        String none = "{\"status\":\"completed\",\"summary\":\"s\",\"result\":null}";
        String asObject = "{\"status\":\"completed\",\"summary\":\"s\",\"result\":" + VALID + "}";
        dev.rein.testkit.RecordingListener trace = new dev.rein.testkit.RecordingListener();
        ScriptedModel model = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("finish", none)),
                ScriptedModel.toolCalls(ScriptedModel.call("finish", asObject)));
        RunResult r = Agent.builder().model(model).finishTool(true).listener(trace).build().run("判定して", Verdict.class);
        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(trace.events(dev.rein.trace.TraceEvent.Intervention.class)).filteredOn(e -> e.kind().equals("invalid_output"))
                .singleElement().satisfies(e -> assertThat(e.evidence()).containsEntry("refusals", 1));
        assertThat(model.requests().get(1).toString()).doesNotContain("string expected");

        ScriptedModel twice = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("finish", none)),
                ScriptedModel.toolCalls(ScriptedModel.call("finish", none)), ScriptedModel.toolCalls(ScriptedModel.call("finish", none)));
        RunResult failed = Agent.builder().model(twice).finishTool(true).build().run("判定して", Verdict.class);
        assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
        assertThat(failed.reason()).isEqualTo("invalid_output");
        assertThat(twice.requests()).hasSize(2);
    }

    /**
     * A completed finish whose result shows nothing (empty, or only invisible characters) is refused under a
     * String output type as without one (README: 'a result that shows nothing is refused like an answer that
     * fails verification'), where it was read as the JSON string "" and the run SUCCEEDED with an empty answer.
     */
    @Test
    void anEmptyResultOfACompletedFinishUnderAStringTypeIsRefused() {
        for (String empty : List.of("", " \\u200b")) {
            String none = "{\"status\":\"completed\",\"summary\":\"s\",\"result\":\"" + empty + "\"}";
            ScriptedModel model = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("finish", none)),
                    ScriptedModel.toolCalls(ScriptedModel.call("finish", "{\"status\":\"completed\",\"summary\":\"s\",\"result\":\"A-104\"}")));
            RunResult r = Agent.builder().model(model).finishTool(true).build().run("注文を調べて", String.class);
            assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(r.output(String.class)).isEqualTo("A-104");
            assertThat(model.requests()).hasSize(2);
            assertThat(model.requests().get(1).toString()).contains("the finish call's result is empty");
        }
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

    public record HasTree(Tree tree) {}

    /**
     * A value class read from a list of itself is described once and referred to where it comes back (rev103, high). Failed
     * first: OutputSchema.of overflowed the stack, and the run ended in a ReinException saying the class held itself at a
     * larger type.
     */
    @Test
    void aValueClassWhoseDelegateHoldsItselfIsDescribedOnceAndReferred() {
        var schema = dev.rein.model.OutputSchema.of(HasTree.class);
        assertThat(schema.schema().at("/$defs/Tree/items/$ref").asText()).as(schema.schema().toString()).isEqualTo("#/$defs/Tree");
        assertThat(schema.problems("{\"tree\":[[],[[]]]}")).isEmpty();
        assertThat(schema.problems("{\"tree\":[[],[{}]]}")).isNotEmpty();
        RunResult r = Agent.builder().model(ScriptedModel.of(text("{\"tree\":[[],[[]]]}"))).build().run("木は?", HasTree.class);
        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(r.output(HasTree.class).tree().kids().get(1).kids()).hasSize(1);
        assertThat(dev.rein.model.OutputSchema.of(Tree.class).problems("[[[]],[]]")).isEmpty();
    }

    /** Read by a delegating creator from a list, with no @JsonValue: Jackson files it as an array delegate. */
    public static final class TagsNoValue {
        private final List<String> values;

        @com.fasterxml.jackson.annotation.JsonCreator(mode = com.fasterxml.jackson.annotation.JsonCreator.Mode.DELEGATING)
        public TagsNoValue(List<String> values) {
            this.values = List.copyOf(values);
        }

        public List<String> getValues() {
            return values;
        }
    }

    /** Read from one string or from a list of strings. */
    public static final class StrOrList {
        final List<String> values;

        @com.fasterxml.jackson.annotation.JsonCreator(mode = com.fasterxml.jackson.annotation.JsonCreator.Mode.DELEGATING)
        public StrOrList(List<String> values) {
            this.values = List.copyOf(values);
        }

        @com.fasterxml.jackson.annotation.JsonCreator
        public static StrOrList of(String value) {
            return new StrOrList(List.of(value));
        }
    }

    /** Read by a delegating creator from a BigDecimal, and written as it. */
    public static final class Amount {
        final BigDecimal value;

        @com.fasterxml.jackson.annotation.JsonCreator(mode = com.fasterxml.jackson.annotation.JsonCreator.Mode.DELEGATING)
        public Amount(BigDecimal value) {
            this.value = value;
        }

        @com.fasterxml.jackson.annotation.JsonValue
        public BigDecimal value() {
            return value;
        }
    }

    public record Listed(TagsNoValue tags, StrOrList either, Amount amount) {}

    /**
     * A delegating creator taking a list (Jackson's array delegate) is described as that list, beside a string creator too,
     * and a delegate of the same JSON type as a creator is named once (rev103, medium and low). Failed first: tags was an
     * object of its getter (the answer Jackson reads was refused), either only a string, amount a number twice in an anyOf.
     */
    @Test
    void aDelegatingCreatorTakingAListIsDescribedAsThatList() {
        com.fasterxml.jackson.databind.JsonNode properties = dev.rein.model.OutputSchema.of(Listed.class).schema().get("properties");
        assertThat(properties.get("tags")).isEqualTo(dev.rein.json.Json.parse("{\"type\":\"array\",\"items\":{\"type\":\"string\"}}"));
        assertThat(properties.get("either")).isEqualTo(dev.rein.json.Json.parse(
                "{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"array\",\"items\":{\"type\":\"string\"}}]}"));
        assertThat(properties.get("amount")).isEqualTo(dev.rein.json.Json.parse("{\"type\":\"number\"}"));
        RunResult r = Agent.builder().model(ScriptedModel.of(text("{\"tags\":[\"a\"],\"either\":\"b\",\"amount\":1.5}")))
                .build().run("タグは?", Listed.class);
        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        Listed listed = r.output(Listed.class);
        assertThat(listed.tags().getValues()).containsExactly("a");
        assertThat(listed.either().values).containsExactly("b");
        assertThat(listed.amount().value()).isEqualByComparingTo("1.5");
    }

    public record Ranked(List<Map.Entry<String, Line>> ranking, Map.Entry<String, Customer> best) {}

    /**
     * A Map.Entry is described as Jackson reads it, an object of one key whose value has the entry's value schema, and
     * checked so: it was a bare object, so {"first":{"sku":"A"}} validated and was read as a Line with no quantity or
     * price, in a run that succeeded. Failed first: the run succeeded on the first answer.
     */
    @Test
    void aMapEntryIsAnObjectOfOneKeyAndItsValueIsChecked() {
        String incomplete = "{\"ranking\":[{\"first\":{\"sku\":\"A\"}}],\"best\":{\"vip\":{\"name\":\"山田\"}}}";
        String valid = "{\"ranking\":[{\"first\":{\"sku\":\"A\",\"quantity\":1,\"price\":2}}],\"best\":{\"vip\":{\"name\":\"山田\"}}}";
        ScriptedModel model = ScriptedModel.of(text(incomplete), text(valid));
        RunResult r = Agent.builder().model(model).build().run("順位", Ranked.class);
        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(model.requests()).hasSize(2);
        assertThat(model.requests().get(1).toString()).contains("quantity");
        Ranked ranked = r.output(Ranked.class);
        assertThat(ranked.ranking().get(0).getKey()).isEqualTo("first");
        assertThat(ranked.ranking().get(0).getValue().quantity()).isEqualTo(1);
        assertThat(ranked.best().getValue().name()).isEqualTo("山田");
        var entry = dev.rein.model.OutputSchema.of(Ranked.class).schema().path("properties").path("best");
        assertThat(entry.path("minProperties").asInt()).as(entry.toString()).isEqualTo(1);
        assertThat(entry.path("maxProperties").asInt()).as(entry.toString()).isEqualTo(1);
        // a list of entries read on its own is checked too, and an entry of two keys (which Jackson refuses) is refused
        java.lang.reflect.Type entries = new dev.rein.model.TypeRef<List<Map.Entry<String, Line>>>() {}.type();
        assertThatThrownBy(() -> dev.rein.model.OutputSchema.readAnswer("[{\"a\":{\"sku\":\"A\"}}]", entries))
                .isInstanceOf(ReinException.class).hasMessageContaining("quantity");
        assertThatThrownBy(() -> dev.rein.model.OutputSchema.readAnswer("[{\"a\":{\"sku\":\"A\",\"quantity\":1,\"price\":2},"
                + "\"b\":{\"sku\":\"B\",\"quantity\":1,\"price\":2}}]", entries)).isInstanceOf(ReinException.class)
                .hasMessageContaining("$[0]");
    }
}
