package dev.rein.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.core.ObjectMappers;
import com.openai.models.ResponseFormatJsonSchema;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.model.OutputSchema;
import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.testkit.openai.ChatReply;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Typed final results over the Chat Completions wire (fake server): valid, repaired after feedback, invalid to the end, and the response_format opt-in. */
class TypedOutputTest extends FakeChat {
    /** The typed answer of these runs. */
    public record Verdict(String decision, int confidence, List<String> reasons) {}

    private Agent agent() {
        return Agent.builder().model(model).systemPrompt("You judge refund requests.").maxVerificationFailures(2).build();
    }

    @Test
    void aValidAnswerIsReturnedAsTheType() {
        server.enqueue(ChatReply.text("{\"decision\":\"refund\",\"confidence\":80,\"reasons\":[\"配送遅延\"]}"));

        RunResult result = agent().run("Should order A-104 be refunded?", Verdict.class);

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.output(Verdict.class)).isEqualTo(new Verdict("refund", 80, List.of("配送遅延")));
        String system = lastBody().at("/messages/0/content").asText();
        assertThat(system).startsWith("You judge refund requests.").contains("JSON Schema (Verdict)").contains("\"confidence\"");
    }

    @Test
    void anInvalidAnswerIsShownToTheModelWithTheErrorsAndRepaired() {
        server.enqueue(ChatReply.text("{\"decision\":\"refund\",\"confidence\":\"high\"}"),
                ChatReply.text("```json\n{\"decision\":\"refund\",\"confidence\":90,\"reasons\":[]}\n```"));

        RunResult result = agent().run("Should order A-104 be refunded?", Verdict.class);

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.output(Verdict.class).confidence()).isEqualTo(90);
        JsonNode messages = server.requests().get(1).body().get("messages");
        String feedback = messages.get(messages.size() - 1).path("content").asText();
        assertThat(feedback).contains("not valid output").contains("confidence").contains("reasons");
    }

    @Test
    void anAnswerInvalidEveryTimeEndsFailedInvalidOutput() {
        server.enqueue(ChatReply.text("I think a refund is fair."), ChatReply.text("{\"decision\":1}"));

        RunResult result = agent().run("Should order A-104 be refunded?", Verdict.class);

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo(Reasons.INVALID_OUTPUT);
        assertThat(result.message()).contains("2 times");
        assertThatThrownBy(() -> result.output(Verdict.class)).isInstanceOf(ReinException.class).hasMessageContaining("invalid_output");
    }

    @Test
    void withStructuredOutputEnabledTheSchemaIsSentAsResponseFormatAndStillValidated() {
        server.enqueue(ChatReply.text("{\"decision\":\"refund\",\"confidence\":\"high\",\"reasons\":[]}"),
                ChatReply.text("{\"decision\":\"refund\",\"confidence\":70,\"reasons\":[]}"));

        RunResult result = Agent.builder().model(model).outputType(Verdict.class)
                .modelOption(OpenAiStructuredOutput.ENABLED).build().run("Refund?");

        assertThat(result.output(Verdict.class).confidence()).as("the first answer was refused despite response_format").isEqualTo(70);
        assertThat(server.requestCount()).isEqualTo(2);
        JsonNode format = lastBody().get("response_format");
        assertThat(format.path("type").asText()).isEqualTo("json_schema");
        assertThat(format.at("/json_schema/name").asText()).isEqualTo("Verdict");
        assertThat(format.at("/json_schema/strict").isBoolean()).isTrue();
        assertThat(format.at("/json_schema/strict").asBoolean()).isFalse();
        assertThat(format.at("/json_schema/schema/properties/confidence/type").asText()).isEqualTo("integer");
        assertThat(format.at("/json_schema/schema/required").toString()).contains("decision");

        // The official SDK reads the body as its typed json_schema response format.
        ResponseFormatJsonSchema.JsonSchema typed = ObjectMappers.jsonMapper()
                .convertValue(lastBody(), ChatCompletionCreateParams.Body.class)
                .responseFormat().orElseThrow().asJsonSchema().jsonSchema();
        assertThat(typed.name()).isEqualTo("Verdict");
        assertThat(typed.strict()).contains(false);
        assertThat(typed.schema()).isPresent();
    }

    /** A sealed interface Jackson reads by its type id: the whole answer is one of its records (an anyOf at the top). */
    @com.fasterxml.jackson.annotation.JsonTypeInfo(use = com.fasterxml.jackson.annotation.JsonTypeInfo.Id.NAME, property = "kind")
    @com.fasterxml.jackson.annotation.JsonSubTypes({@com.fasterxml.jackson.annotation.JsonSubTypes.Type(value = Circle.class, name = "circle"),
            @com.fasterxml.jackson.annotation.JsonSubTypes.Type(value = Square.class, name = "square")})
    public sealed interface Shape permits Circle, Square {}

    public record Circle(double radius) implements Shape {}

    public record Square(double side) implements Shape {}

    /** A one-value class: the whole answer is a string. */
    public static final class Money {
        private final String amount;

        private Money(String amount) {
            this.amount = amount;
        }

        @com.fasterxml.jackson.annotation.JsonCreator
        public static Money of(String amount) {
            return new Money(amount);
        }

        @com.fasterxml.jackson.annotation.JsonValue
        public String amount() {
            return amount;
        }
    }

    /**
     * OpenAI's structured outputs take only an object at the schema's top, not an anyOf (the API answers 400 "schema
     * must be a JSON Schema of 'type: \"object\"'"): on the public API and Azure OpenAI a typed answer whose schema is
     * not one, a sealed interface's anyOf or a one-value class's string, is refused before anything is sent, naming the
     * schema and what to do.
     */
    @Test
    void aTopThatIsNotAnObjectIsRefusedBeforeSendingToOpenAiAndAzure() throws Exception {
        for (String base : new String[] {"https://api.openai.com/v1", "https://contoso.openai.azure.com/openai/v1"}) {
            try (OpenAiModel openAi = OpenAiModel.builder().baseUrl(base).apiKey("sk-test").environment(name -> null).build()) {
                dev.rein.model.ModelException shape = org.junit.jupiter.api.Assertions.assertThrows(
                        dev.rein.model.ModelException.class, () -> openAi.call(structured(OutputSchema.of(Shape.class)),
                                new dev.rein.model.ModelCallContext(java.time.Instant.now().plusSeconds(30), stream)));
                assertThat(shape.kind()).isEqualTo(dev.rein.model.ModelException.Kind.INVALID_REQUEST);
                assertThat(shape.retryable()).isFalse();
                assertThat(shape.getMessage()).contains("Shape", "an anyOf", "OpenAiStructuredOutput", "not sent",
                        "record ShapeAnswer(Shape value)");
                dev.rein.model.ModelException money = org.junit.jupiter.api.Assertions.assertThrows(
                        dev.rein.model.ModelException.class, () -> openAi.call(structured(OutputSchema.of(Money.class)),
                                new dev.rein.model.ModelCallContext(java.time.Instant.now().plusSeconds(30), stream)));
                assertThat(money.getMessage()).contains("Money", "\"type\": \"string\"", "record MoneyAnswer(Money value)")
                        .doesNotContain("anyOf");
            }
        }
    }

    /**
     * A proxy in front of OpenAI (LiteLLM, a company gateway) relays the API's refusal of a top that is not an object:
     * the same advice is added to its words.
     */
    @Test
    void aProxysRefusalOfATopThatIsNotAnObjectGetsTheSameAdvice() {
        server.enqueue(new ChatReply.HttpError(400, "invalid_request_error", "invalid_json_schema", "Invalid schema for"
                + " response_format 'Shape': schema must be a JSON Schema of 'type: \"object\"', got 'type: \"None\"'.",
                java.util.Map.of(), null));
        dev.rein.model.ModelException e = org.junit.jupiter.api.Assertions.assertThrows(dev.rein.model.ModelException.class,
                () -> model.call(structured(OutputSchema.of(Shape.class)),
                        new dev.rein.model.ModelCallContext(java.time.Instant.now().plusSeconds(30), stream)));
        assertThat(e.getMessage()).contains("schema must be a JSON Schema of", "the output schema Shape has an anyOf",
                "ask for an object that holds the value", "record ShapeAnswer(Shape value)");
    }

    /**
     * The record advice names a Java type only where the schema's name can be one (not a keyword, a literal or a
     * restricted identifier such as record), told with java.base alone: a trimmed runtime (jlink without java.compiler)
     * has no javax.lang.model, which the check used to load (SourceVersion.isIdentifier, which took "class" too).
     */
    @Test
    void theRecordAdviceIsGivenForANameThatCanBeAJavaTypeToldWithJavaBaseAlone() throws Exception {
        String top = "{\"type\":\"array\",\"items\":{\"type\":\"string\"}}";
        assertThat(RequestLimits.objectTop(OutputSchema.fromJson("Tags", top), "OpenAI"))
                .contains("record TagsAnswer(Tags value)");
        assertThat(RequestLimits.objectTop(OutputSchema.fromJson("Étiquette_2$", top), "OpenAI"))
                .contains("record Étiquette_2$Answer(Étiquette_2$ value)");
        for (String name : List.of("tag list", "2tags", "flag.v1", "class", "record", "var", "null", "true", "_")) {
            assertThat(RequestLimits.objectTop(OutputSchema.fromJson(name, top), "OpenAI")).as(name)
                    .contains("ask for an object that holds the value").doesNotContain("Answer(");
        }
        try (java.io.InputStream in = RequestLimits.class.getResourceAsStream("RequestLimits.class")) {
            assertThat(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1))
                    .as("RequestLimits needs only java.base").doesNotContain("javax/lang/model");
        }
    }

    private static dev.rein.model.ModelRequest structured(OutputSchema schema) {
        return request("Which shape?").option(schema).option(OpenAiStructuredOutput.ENABLED).build();
    }

    /**
     * Ollama, vLLM, LM Studio and llama.cpp decode to any JSON Schema, whatever its top: there a sealed interface's anyOf
     * or a one-value class's string is sent as it is, and the agent is built (OpenAI's rule is the public API's).
     */
    @Test
    void aTopThatIsNotAnObjectIsSentAsItIsToAnotherServer() {
        server.validateRequests(false); // a local server, not the OpenAI API the fake stands for
        server.enqueue(ChatReply.text("{\"kind\":\"circle\",\"radius\":2.0}"));
        Agent agent = Agent.builder().model(model).outputType(Shape.class).modelOption(OpenAiStructuredOutput.ENABLED).build();

        RunResult result = agent.run("Which shape?", Shape.class);

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.output(Shape.class)).isEqualTo(new Circle(2.0));
        assertThat(lastBody().at("/response_format/json_schema/schema").has("anyOf")).isTrue();

        server.enqueue(ChatReply.text("\"12.50 EUR\""));
        RunResult money = Agent.builder().model(model).modelOption(OpenAiStructuredOutput.ENABLED).build().run("Price?", Money.class);
        assertThat(money.output(Money.class).amount()).isEqualTo("12.50 EUR");
        assertThat(lastBody().at("/response_format/json_schema/schema/type").asText()).isEqualTo("string");
    }

    @Test
    void aSchemaNameIsMadeFitForTheApi() {
        server.enqueue(ChatReply.text("{\"ok\":true}"));
        OutputSchema schema = OutputSchema.fromJson("承認 flag.v1",
                "{\"type\":\"object\",\"properties\":{\"ok\":{\"type\":\"boolean\"}},\"required\":[\"ok\"]}");

        RunResult result = Agent.builder().model(model).outputSchema(schema).modelOption(OpenAiStructuredOutput.ENABLED)
                .build().run("Is it ok?");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(lastBody().at("/response_format/json_schema/name").asText()).matches("[A-Za-z0-9_-]{1,64}").endsWith("flag_v1");
        assertThat(RequestMapper.wireName("x".repeat(100))).hasSize(64);
    }

    @Test
    void anArrayWithoutItemsInTheOutputSchemaIsSentWithItemsThatTakeAnything() {
        // The API refuses a schema holding {"type":"array"} without items, as it does in a tool's parameters
        // ("array schema missing items"); an absent items means any item, as {} does.
        server.enqueue(ChatReply.text("{\"tags\":[\"配送\",1],\"pair\":[\"a\"]}"));
        String json = "{\"type\":\"object\",\"properties\":{\"tags\":{\"type\":\"array\"},"
                + "\"pair\":{\"type\":\"array\",\"prefixItems\":[{\"type\":\"string\"}]}},\"required\":[\"tags\"]}";
        OutputSchema schema = OutputSchema.fromJson("Tags", json);

        RunResult result = Agent.builder().model(model).outputSchema(schema).modelOption(OpenAiStructuredOutput.ENABLED)
                .build().run("Tag it.");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        JsonNode sent = lastBody().at("/response_format/json_schema/schema");
        assertThat(sent.at("/properties/tags/items")).isEqualTo(dev.rein.json.Json.object());
        assertThat(sent.at("/properties/pair/items")).isEqualTo(dev.rein.json.Json.object());
        assertThat(schema.schema()).as("the schema Rein validates with is left as it is").isEqualTo(dev.rein.json.Json.parse(json));
    }

    @Test
    void withoutTheOptInNoResponseFormatIsSent() {
        server.enqueue(ChatReply.text("{\"decision\":\"no\",\"confidence\":1,\"reasons\":[]}"));
        agent().run("Refund?", Verdict.class);
        assertThat(lastBody().has("response_format")).isFalse();
    }

    @Test
    void theOptInWithoutAnOutputSchemaSendsNothing() {
        server.enqueue(ChatReply.text("plain answer"));
        RunResult result = Agent.builder().model(model).modelOption(OpenAiStructuredOutput.ENABLED).build().run("Hi");
        assertThat(result.answer()).isEqualTo("plain answer");
        assertThat(lastBody().has("response_format")).isFalse();
    }
}
