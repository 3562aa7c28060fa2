package dev.rein.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.ModelException;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolChoice;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.TraceContextHeaders;
import dev.rein.testkit.openai.ChatReply;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What goes over the wire: the request body the fake server records (and validates like the real API). */
class RequestMappingTest extends FakeChat {

    @Test
    void systemPromptFirstToolsAsFunctionsStreamWithUsage() throws Exception {
        server.enqueue(ChatReply.text("ok"));
        call(request("こんにちは").system("You are terse.").tools(List.of(tool("search"))));

        JsonNode body = lastBody();
        assertThat(body.at("/messages/0/role").asText()).isEqualTo("system");
        assertThat(body.at("/messages/0/content").asText()).isEqualTo("You are terse.");
        assertThat(body.at("/messages/1/role").asText()).isEqualTo("user");
        assertThat(body.at("/messages/1/content").asText()).isEqualTo("こんにちは");
        assertThat(body.at("/tools/0/type").asText()).isEqualTo("function");
        assertThat(body.at("/tools/0/function/name").asText()).isEqualTo("search");
        assertThat(body.at("/tools/0/function/parameters/required/0").asText()).isEqualTo("q");
        assertThat(body.at("/tool_choice").asText()).isEqualTo("auto");
        assertThat(body.at("/stream").asBoolean()).isTrue();
        assertThat(body.at("/stream_options/include_usage").asBoolean()).isTrue();
        assertThat(body.at("/max_tokens").asInt()).as("a compatible server gets max_tokens").isEqualTo(256);
        assertThat(body.has("temperature")).isFalse();
        assertThat(server.lastRequest().header("authorization")).as("no key, no header").isNull();
    }

    @Test
    void anArraySchemaWithoutItemsIsSentWithItemsThatTakeAnything() throws Exception {
        // Chat Completions refuses every request whose tools hold {"type":"array"} without items (400
        // invalid_function_parameters: "Invalid schema for function 'read_files': In context=('properties',
        // 'paths'), array schema missing items."), even when the tool is not called; many MCP servers declare
        // arrays so, and the Messages API takes them. An absent items means any item, as {} does. A tuple
        // ({"prefixItems": [...]} without items) is refused the same way (community.openai.com/t/1357778); items {}
        // beside prefixItems only says what 2020-12 assumes anyway: any item after the tuple's.
        String schema = "{\"type\":\"object\",\"properties\":{"
                + "\"paths\":{\"type\":\"array\",\"description\":\"files to read\"},"
                + "\"nested\":{\"type\":\"object\",\"properties\":{\"ids\":{\"type\":[\"array\",\"null\"]}}},"
                + "\"either\":{\"anyOf\":[{\"type\":\"array\"},{\"type\":\"string\"}]},"
                + "\"tuple\":{\"type\":\"array\",\"prefixItems\":[{\"type\":\"string\"}]},"
                + "\"typed\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},"
                + "\"example\":{\"type\":\"string\",\"default\":{\"type\":\"array\"}},"
                + "\"default\":{\"type\":\"array\"}},"
                + "\"dependencies\":{\"const\":{\"type\":\"array\"}}}";
        var definition = new dev.rein.model.ToolDefinition("read_files", "Reads files.",
                (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(schema));
        server.enqueue(ChatReply.text("ok"));

        call(request("x").tools(List.of(definition)));

        JsonNode parameters = lastBody().at("/tools/0/function/parameters");
        assertThat(parameters.at("/properties/paths/items")).isEqualTo(Json.object());
        assertThat(parameters.at("/properties/paths/description").asText()).isEqualTo("files to read");
        assertThat(parameters.at("/properties/nested/properties/ids/items")).isEqualTo(Json.object());
        assertThat(parameters.at("/properties/either/anyOf/0/items")).isEqualTo(Json.object());
        assertThat(parameters.at("/properties/tuple/items")).as("the API refuses prefixItems without items").isEqualTo(Json.object());
        assertThat(parameters.at("/properties/tuple/prefixItems/0/type").asText()).isEqualTo("string");
        assertThat(parameters.at("/properties/typed/items/type").asText()).isEqualTo("string");
        assertThat(parameters.at("/properties/example/default").has("items")).as("a default is data").isFalse();
        assertThat(parameters.at("/properties/default/items")).as("a property named default is a schema").isEqualTo(Json.object());
        assertThat(parameters.at("/dependencies/const/items")).as("rev132: draft 7's dependencies maps names to schemas")
                .isEqualTo(Json.object());
        assertThat(definition.inputSchema()).as("the tool's own schema is left as it is").isEqualTo(Json.parse(schema));
    }

    @Test
    void aServerThatRefusesMaxTokensGetsMaxCompletionTokensFromThenOn() throws Exception {
        // The API reference: max_tokens is deprecated and reasoning models refuse it (Azure, proxies).
        server.enqueue(new ChatReply.HttpError(400, "invalid_request_error", "unsupported_parameter", "x", Map.of(),
                "{\"error\":{\"message\":\"Unsupported parameter: 'max_tokens' is not supported with this model."
                        + " Use 'max_completion_tokens' instead.\",\"type\":\"invalid_request_error\","
                        + "\"param\":\"max_tokens\",\"code\":\"unsupported_parameter\"}}"));
        server.enqueue(ChatReply.text("ok"));

        assertThat(call(request("x")).text()).isEqualTo("ok");

        assertThat(server.requests()).hasSize(2);
        JsonNode resent = lastBody();
        assertThat(resent.get("max_completion_tokens").asInt()).isEqualTo(256);
        assertThat(resent.has("max_tokens")).isFalse();
        server.enqueue(ChatReply.text("again"));
        call(request("y"));
        assertThat(server.requests()).as("no second refusal").hasSize(3);
        assertThat(lastBody().get("max_completion_tokens").asInt()).isEqualTo(256);
    }

    @Test
    void anAzureDeploymentOfAReasoningModelGetsMaxCompletionTokensFromTheFirstRequest() throws Exception {
        // Azure OpenAI's reasoning guide: "Reasoning models will only work with the max_completion_tokens parameter"
        // (o-series, gpt-5 family); a deployment named for one (the portal's default name is the model's) got max_tokens,
        // was refused with 400 unsupported_parameter and only then sent max_completion_tokens: one refused call per model.
        for (String base : new String[] {"https://contoso.openai.azure.com/openai/v1", "https://contoso.openai.azure.com"}) {
            try (OpenAiModel azure = OpenAiModel.builder().baseUrl(base).apiKey("key").environment(name -> null).build()) {
                for (String deployment : new String[] {"o1", "o3-mini", "o4-mini", "O3", "gpt-5", "gpt-5-mini", "gpt-5.1",
                        "codex-mini"}) {
                    JsonNode body = com.openai.core.ObjectMappers.jsonMapper().valueToTree(azure.requests().body(
                            dev.rein.model.ModelRequest.builder(deployment).maxTokens(256).addMessage(Message.user("x")).build()));
                    assertThat(body.path("max_completion_tokens").asInt()).as(base + " " + deployment).isEqualTo(256);
                    assertThat(body.has("max_tokens")).as(base + " " + deployment).isFalse();
                }
                for (String deployment : new String[] {"gpt-4o", "gpt-4.1-mini", "my-deployment", "ocr-model"}) {
                    JsonNode body = com.openai.core.ObjectMappers.jsonMapper().valueToTree(azure.requests().body(
                            dev.rein.model.ModelRequest.builder(deployment).maxTokens(256).addMessage(Message.user("x")).build()));
                    assertThat(body.path("max_tokens").asInt()).as(base + " " + deployment).isEqualTo(256);
                }
            }
        }
        // The field the user chose stays; another server gets max_tokens whatever the name (a local o3-mini stand-in).
        try (OpenAiModel forced = OpenAiModel.builder().baseUrl("https://contoso.openai.azure.com/openai/v1").apiKey("key")
                .maxTokensField(OpenAiModelBuilder.MaxTokensField.MAX_TOKENS).environment(name -> null).build()) {
            JsonNode body = com.openai.core.ObjectMappers.jsonMapper().valueToTree(forced.requests().body(
                    dev.rein.model.ModelRequest.builder("o3-mini").maxTokens(256).addMessage(Message.user("x")).build()));
            assertThat(body.path("max_tokens").asInt()).isEqualTo(256);
        }
        server.validateRequests(false); // a local server, not the OpenAI API the fake stands for, which refuses max_tokens here
        server.enqueue(ChatReply.text("ok"));
        model.call(dev.rein.model.ModelRequest.builder("o3-mini").maxTokens(256).addMessage(Message.user("x")).build(),
                new dev.rein.model.ModelCallContext(java.time.Instant.now().plusSeconds(30), stream));
        assertThat(lastBody().path("max_tokens").asInt()).isEqualTo(256);
    }

    @Test
    void aServerThatRefusesStreamOptionsGetsTheRequestWithoutThemFromThenOn() throws Exception {
        // Older Azure OpenAI API versions (and proxies in front of them) refuse the field with 400:
        // the request is sent once more without it, and the usage the server then leaves out is estimated.
        server.enqueue(new ChatReply.HttpError(400, "invalid_request_error", null, "x", Map.of(),
                "{\"error\":{\"code\":null,\"message\":\"Unrecognized request argument supplied: stream_options. Please contact"
                        + " us through an Azure support request.\",\"param\":\"\",\"type\":\"invalid_request_error\"}}"));
        server.enqueue(ChatReply.text("了解"));

        dev.rein.model.ModelResponse response = call(request("x"));

        assertThat(response.text()).isEqualTo("了解");
        assertThat(server.requests()).hasSize(2);
        assertThat(lastBody().has("stream_options")).isFalse();
        assertThat(lastBody().get("stream").asBoolean()).isTrue();
        assertThat(response.usage().notReported()).as("no usage asked for: the run estimates it").isTrue();
        server.enqueue(ChatReply.text("again"));
        call(request("y"));
        assertThat(server.requests()).as("no second refusal").hasSize(3);
        assertThat(lastBody().has("stream_options")).isFalse();
    }

    @Test
    void theUnknownParameterShapeOfTheRefusalIsReadToo() throws Exception {
        server.enqueue(new ChatReply.HttpError(400, "invalid_request_error", "unknown_parameter", "x", Map.of(),
                "{\"error\":{\"message\":\"Unknown parameter: 'stream_options'.\",\"type\":\"invalid_request_error\","
                        + "\"param\":\"stream_options\",\"code\":\"unknown_parameter\"}}"));
        server.enqueue(ChatReply.text("ok"));
        assertThat(call(request("x")).text()).isEqualTo("ok");
        assertThat(lastBody().has("stream_options")).isFalse();
    }

    @Test
    void aRefusalOfStreamOptionsAsAValidationListOrPlainTextIsReadToo() throws Exception {
        // Servers built on FastAPI/pydantic that forbid unknown fields list the field in "detail" (422);
        // a proxy may answer with plain text naming it.
        server.enqueue(new ChatReply.HttpError(422, "x", null, "x", Map.of(),
                "{\"detail\":[{\"type\":\"extra_forbidden\",\"loc\":[\"body\",\"stream_options\"],"
                        + "\"msg\":\"Extra inputs are not permitted\",\"input\":{\"include_usage\":true}}]}"));
        server.enqueue(ChatReply.text("ok"));
        assertThat(call(request("x")).text()).isEqualTo("ok");
        assertThat(lastBody().has("stream_options")).isFalse();
    }

    @Test
    void aValidationErrorThatOnlyEchoesTheRequestIsNoRefusalOfStreamOptions() throws Exception {
        // pydantic echoes the whole request as the input of an error at its root (FastAPI's 422), and vLLM
        // puts that echo in its message: the request names stream_options, the refusal is about something else.
        String echo = "{\"model\":\"gpt-test\",\"messages\":[{\"content\":\"x\",\"role\":\"user\"}],\"stream\":true,"
                + "\"stream_options\":{\"include_usage\":true}}";
        server.enqueue(new ChatReply.HttpError(422, "x", null, "x", Map.of(),
                "{\"detail\":[{\"type\":\"value_error\",\"loc\":[\"body\"],\"msg\":\"Value error, tool_choice 'required'"
                        + " is not supported\",\"input\":" + echo + "}]}"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> call(request("x")))
                .isInstanceOf(dev.rein.model.ModelException.class).hasMessageContaining("tool_choice 'required' is not supported");
        assertThat(server.requests()).as("not sent again without stream_options").hasSize(1);

        server.enqueue(new ChatReply.HttpError(400, "BadRequestError", null, "1 validation error for ChatCompletionRequest\n"
                + "  Value error, When using `tool_choice`, `tools` must be set. [type=value_error, input_value={'model': 'gpt-test',"
                + " 'stream': True, 'stream_options': {'include_usage': True}}, input_type=dict]", Map.of(), null));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> call(request("x")))
                .isInstanceOf(dev.rein.model.ModelException.class).hasMessageContaining("`tools` must be set");
        assertThat(server.requests()).as("not sent again without stream_options").hasSize(2);

        server.enqueue(ChatReply.text("ok"));
        call(request("x"));
        assertThat(lastBody().has("stream_options")).as("usage still asked for").isTrue();
    }

    @Test
    void aPlainTextRefusalOfStreamOptionsIsReadToo() throws Exception {
        server.enqueue(new ChatReply.HttpError(400, "x", null, "x", Map.of("content-type", "text/plain"),
                "unknown field: stream_options"));
        server.enqueue(ChatReply.text("ok"));
        assertThat(call(request("x")).text()).isEqualTo("ok");
        assertThat(lastBody().has("stream_options")).isFalse();
    }

    @Test
    void aLimitTooLargeIsNotARefusalOfTheField() throws Exception {
        server.enqueue(new ChatReply.HttpError(400, "invalid_request_error", null, "x", Map.of(),
                "{\"error\":{\"message\":\"max_tokens is too large: 100000. This model supports at most 16384"
                        + " completion tokens.\",\"type\":\"invalid_request_error\",\"param\":\"max_tokens\",\"code\":null}}"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> call(request("x")))
                .isInstanceOf(dev.rein.model.ModelException.class).hasMessageContaining("too large");
        assertThat(server.requests()).as("not sent again").hasSize(1);

        // vLLM's words for a limit too large name both fields, and are no refusal of either.
        server.enqueue(new ChatReply.HttpError(400, "BadRequestError", null, "x", Map.of(),
                "{\"object\":\"error\",\"message\":\"'max_tokens' or 'max_completion_tokens' is too large: 8192. This model's"
                        + " maximum context length is 4096 tokens and your request has 50 input tokens (8192 > 4096 - 50).\","
                        + "\"type\":\"BadRequestError\",\"param\":null,\"code\":400}"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> call(request("x")))
                .isInstanceOf(dev.rein.model.ModelException.class).hasMessageContaining("is too large: 8192");
        assertThat(server.requests()).as("not sent again").hasSize(2);
        assertThat(model.requests().maxTokensField()).isEqualTo(RequestMapper.MaxTokensField.MAX_TOKENS);
    }

    @Test
    void theTraceContextTravelsAsHeadersNotInTheBody() throws Exception {
        String traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        server.enqueue(ChatReply.text("ok"));
        call(request("hi").option(new TraceContextHeaders(Map.of("traceparent", traceparent))));
        assertThat(server.lastRequest().header("traceparent")).isEqualTo(traceparent);
        assertThat(lastBody().toString()).doesNotContain("traceparent");
        server.enqueue(ChatReply.text("ok"));
        call(request("hi"));
        assertThat(server.lastRequest().header("traceparent")).as("only when the option is set").isNull();
    }

    @Test
    void toolChoiceMapsFromTheNeutralChoice() throws Exception {
        for (ToolChoice choice : List.of(ToolChoice.auto(), ToolChoice.none(), ToolChoice.any(), ToolChoice.tool("search"))) {
            server.enqueue(ChatReply.text("ok"));
            call(request("x").tools(List.of(tool("search"))).toolChoice(choice));
            JsonNode sent = lastBody().get("tool_choice");
            switch (choice) {
                case ToolChoice.Auto a -> assertThat(sent.asText()).isEqualTo("auto");
                case ToolChoice.None n -> assertThat(sent.asText()).isEqualTo("none");
                case ToolChoice.Any a -> assertThat(sent.asText()).isEqualTo("required");
                case ToolChoice.Tool t -> assertThat(sent)
                        .isEqualTo(Json.parse("{\"type\":\"function\",\"function\":{\"name\":\"search\"}}"));
            }
            assertThat(lastBody().at("/tools/0/function/name").asText()).as("tools are always sent").isEqualTo("search");
        }
    }

    @Test
    void noToolsNoToolChoice() throws Exception {
        server.enqueue(ChatReply.text("ok"));
        call(request("x").toolChoice(ToolChoice.none()));
        assertThat(lastBody().has("tools")).isFalse();
        assertThat(lastBody().has("tool_choice")).isFalse();
    }

    /**
     * The API refuses tool_choice without tools, so Rein leaves auto/none out then; leaving out a forced choice would send
     * a request the model may answer without any tool, so it is refused before sending, as rein-anthropic does.
     */
    @Test
    void aForcedToolChoiceWithoutToolsIsRefusedBeforeSendingNotSentUnforced() {
        for (ToolChoice choice : List.of(ToolChoice.any(), ToolChoice.tool("search"))) {
            ModelException e = catchThrowableOfType(ModelException.class, () -> call(request("x").toolChoice(choice)));
            assertThat(e).as("refused, not sent without tool_choice").isNotNull();
            assertThat(e.kind()).isEqualTo(ModelException.Kind.INVALID_REQUEST);
            assertThat(e.retryable()).isFalse();
            assertThat(e.getMessage()).contains(choice instanceof ToolChoice.Any ? "ToolChoice.any()" : "ToolChoice.tool(\"search\")")
                    .contains("no tools").contains("ToolChoice.auto()");
        }
        assertThat(server.requestCount()).as("nothing was sent").isZero();
    }

    @Test
    void theAssistantTurnIsEchoedAndEachCallAnsweredInCallOrder() throws Exception {
        server.enqueue(ChatReply.text("done"));
        Message assistant = Message.assistant(List.of(new TextBlock("Reading both."),
                new ToolUseBlock("call_1", "search", Json.parse("{\"q\":\"a\"}")),
                new ToolUseBlock("call_2", "search", Json.parse("{\"q\":\"b\"}"))));
        // Results in another order than the calls, plus user text: tool messages first, in call order.
        Message results = Message.user(List.of(new ToolResultBlock("call_2", "B", false),
                new ToolResultBlock("call_1", "no such file", true), new TextBlock("Also: be brief.")));

        call(request("read a and b").tools(List.of(tool("search"))).addMessage(assistant).addMessage(results));

        JsonNode messages = lastBody().get("messages");
        assertThat(messages).hasSize(5);
        assertThat(messages.at("/1/role").asText()).isEqualTo("assistant");
        assertThat(messages.at("/1/content").asText()).isEqualTo("Reading both.");
        assertThat(messages.at("/1/tool_calls/0/id").asText()).isEqualTo("call_1");
        assertThat(messages.at("/1/tool_calls/0/type").asText()).isEqualTo("function");
        assertThat(messages.at("/1/tool_calls/0/function/arguments").asText()).isEqualTo("{\"q\":\"a\"}");
        assertThat(messages.at("/2/role").asText()).isEqualTo("tool");
        assertThat(messages.at("/2/tool_call_id").asText()).isEqualTo("call_1");
        assertThat(messages.at("/2/content").asText()).isEqualTo("Error: no such file");
        assertThat(messages.at("/3/tool_call_id").asText()).isEqualTo("call_2");
        assertThat(messages.at("/4/role").asText()).isEqualTo("user");
        assertThat(messages.at("/4/content").asText()).isEqualTo("Also: be brief.");
    }

    @Test
    void anAssistantTurnWithSeveralTextBlocksIsSentWithThemSeparatedAsAUserTurnsAre() throws Exception {
        // A history turn from another provider (Anthropic's text before and after a tool call) has several text blocks;
        // Chat Completions takes one content string, so they are joined, as a user turn's are, with a blank line.
        server.enqueue(ChatReply.text("ok"));
        Message assistant = Message.assistant(List.of(new TextBlock("確認します。"),
                new ToolUseBlock("call_1", "search", Json.parse("{\"q\":\"a\"}")), new TextBlock(""), new TextBlock("Done.")));
        Message results = Message.user(List.of(new ToolResultBlock("call_1", "A", false),
                new TextBlock("one"), new TextBlock("two")));

        call(request("check a").tools(List.of(tool("search"))).addMessage(assistant).addMessage(results));

        JsonNode messages = lastBody().get("messages");
        assertThat(messages.at("/1/content").asText()).isEqualTo("確認します。\n\nDone.");
        assertThat(messages.at("/3/content").asText()).isEqualTo("one\n\ntwo");
    }

    @Test
    void adjacentTextBlocksOfAnAssistantTurnAreOneParagraphAsACitedAnswerSplitsItsSentences() throws Exception {
        // Anthropic answers with citations in adjacent text blocks that split a sentence ("The capital is ", "Paris",
        // "."); Rein's own text of a turn joins them as they are, and so must the request, with no blank line inside.
        server.enqueue(ChatReply.text("ok"));
        Message assistant = Message.assistant(List.of(new TextBlock("首都は "), new TextBlock("パリ"), new TextBlock("です。")));

        call(request("首都は?").addMessage(assistant).addMessage(Message.user("ありがとう")));

        assertThat(lastBody().get("messages").at("/1/content").asText()).isEqualTo("首都は パリです。");
    }

    @Test
    void callIdsTheServerWouldRefuseAreSentInAFormItTakesTheSameInTheCallAndItsResult() throws Exception {
        // A history from another provider (a fallback's toolu_ ids, a resumed run) or a call Rein gave an id (call_0)
        // meets the server's rules for ids: the public API takes at most 40 characters ("Invalid
        // 'messages[1].tool_calls[0].id': string too long. Expected a string with maximum length 40"), Mistral
        // exactly 9 of a-z, A-Z, 0-9 ("Tool call id was call_0 but must be a-z, A-Z, 0-9, with a length of 9").
        String anthropic = "toolu_01A09q90qw90lq917835lq9";
        String gateway = "portkey-6aa6db90-1b84-4155-9f32-f658c97d6b1b";
        Message assistant = Message.assistant(List.of(new ToolUseBlock(anthropic, "search", Json.parse("{\"q\":\"a\"}")),
                new ToolUseBlock("call_0", "search", Json.parse("{\"q\":\"b\"}")),
                new ToolUseBlock(gateway, "search", Json.parse("{\"q\":\"c\"}")),
                new ToolUseBlock("D9fk2LmQ0", "search", Json.parse("{\"q\":\"d\"}"))));
        Message results = Message.user(List.of(new ToolResultBlock("D9fk2LmQ0", "D", false),
                new ToolResultBlock(gateway, "C", false), new ToolResultBlock("call_0", "B", false),
                new ToolResultBlock(anthropic, "A", false)));

        // Mistral's API (api.mistral.ai; this fake is not it, so the request writer is asked directly).
        assertThat(ToolCallIds.mistralHost("https://api.mistral.ai/v1")).isTrue();
        assertThat(ToolCallIds.mistralHost(server.baseUrl())).isFalse();
        var mistralBody = new RequestMapper(RequestMapper.MaxTokensField.MAX_TOKENS, false, true).body(
                dev.rein.model.ModelRequest.builder("mistral-large-latest").maxTokens(256).addMessage(Message.user("x"))
                        .tools(List.of(tool("search"))).addMessage(assistant).addMessage(results).build());
        JsonNode mistral = com.openai.core.ObjectMappers.jsonMapper().valueToTree(mistralBody).get("messages");
        java.util.Set<String> ids = new java.util.HashSet<>();
        for (int i = 0; i < 4; i++) {
            String id = mistral.at("/1/tool_calls/" + i + "/id").asText();
            assertThat(id).matches("[a-zA-Z0-9]{9}");
            assertThat(mistral.at("/" + (2 + i) + "/tool_call_id").asText()).as("its result names it so").isEqualTo(id);
            assertThat(mistral.at("/" + (2 + i) + "/content").asText()).isEqualTo(String.valueOf((char) ('A' + i)));
            ids.add(id);
        }
        assertThat(ids).hasSize(4);
        assertThat(mistral.at("/1/tool_calls/3/id").asText()).as("an id Mistral takes is kept").isEqualTo("D9fk2LmQ0");

        // Anywhere else, a Mistral model on a local server too: ids as they are, unless longer than 40.
        server.enqueue(ChatReply.text("done"), ChatReply.text("done"));
        call(dev.rein.model.ModelRequest.builder("mistral-small3.2").maxTokens(256).addMessage(Message.user("x"))
                .tools(List.of(tool("search"))).addMessage(assistant).addMessage(results));
        assertThat(lastBody().at("/messages/1/tool_calls/1/id").asText()).isEqualTo("call_0");
        call(request("x").tools(List.of(tool("search"))).addMessage(assistant).addMessage(results));
        JsonNode openai = lastBody().get("messages");
        assertThat(openai.at("/1/tool_calls/0/id").asText()).isEqualTo(anthropic);
        assertThat(openai.at("/1/tool_calls/1/id").asText()).isEqualTo("call_0");
        String shortened = openai.at("/1/tool_calls/2/id").asText();
        assertThat(shortened).hasSizeLessThanOrEqualTo(40).startsWith("portkey-");
        assertThat(openai.at("/4/tool_call_id").asText()).isEqualTo(shortened);
        assertThat(((ToolUseBlock) assistant.content().get(2)).id()).as("the history keeps its ids").isEqualTo(gateway);
    }

    @Test
    void aCallsArgumentTextIsEchoedExactlyAsTheModelSentIt() throws Exception {
        String spaced = "{\"q\": \"a\",  \"n\": 1.50}";
        server.enqueue(ChatReply.toolCall("call_7", "search", spaced), ChatReply.text("done"));
        var first = call(request("x").tools(List.of(tool("search"))));
        assertThat(first.toolUses().get(0).input().get("q").asText()).isEqualTo("a");

        Message answered = Message.user(List.of(new ToolResultBlock("call_7", "found", false)));
        call(request("x").tools(List.of(tool("search"))).addMessage(first.toHistoryMessage().orElseThrow())
                .addMessage(answered));

        JsonNode assistant = lastBody().at("/messages/1");
        assertThat(assistant.at("/tool_calls/0/function/arguments").asText()).isEqualTo(spaced);
        assertThat(assistant.get("content").isNull()).as("a message of only tool calls has content null").isTrue();
        assertThat(server.pendingReplies()).isZero();
    }

    @Test
    void samplingParametersOnlyWhenSetAndThePublicApiGetsMaxCompletionTokens() {
        var body = RequestMapper.settings(request("x").temperature(0.2).topP(0.9).topK(5)
                .stopSequences(List.of("END")).build(), RequestMapper.MaxTokensField.MAX_COMPLETION_TOKENS);
        assertThat(body.get("temperature").asDouble()).isEqualTo(0.2);
        assertThat(body.get("top_p").asDouble()).isEqualTo(0.9);
        assertThat(body.has("top_k")).as("not part of Chat Completions").isFalse();
        assertThat(body.at("/stop/0").asText()).isEqualTo("END");
        assertThat(body.get("max_completion_tokens").asInt()).isEqualTo(256);
        assertThat(body.has("max_tokens")).isFalse();
    }
    @Test
    void aToolDescriptionLongerThanOpenAiTakesIsSentCutToItsLimitThereAndWholeElsewhere() throws Exception {
        // The public API and Azure OpenAI refuse every request whose tools hold a description over 1024 characters (400
        // "Invalid 'tools[13].function.description': string too long. Expected a string with maximum length 1024, but got
        // a string with length 1103 instead.", code string_above_max_length), called or not; MCP servers' descriptions
        // are often longer (sentry-mcp's), and Rein adds "[MCP server 'NAME'] " before them. The user cannot shorten them.
        String description = "[MCP server 'sentry'] 課題を検索します。😀" + "x".repeat(1100);
        dev.rein.model.ToolDefinition longTool = new dev.rein.model.ToolDefinition("search_issues", description,
                (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse("{\"type\":\"object\"}"));
        dev.rein.model.ModelRequest request = dev.rein.model.ModelRequest.builder("gpt-4.1-mini").maxTokens(256)
                .addMessage(Message.user("x")).tools(List.of(longTool, tool("short"))).build();
        for (String base : new String[] {"https://api.openai.com/v1", "https://contoso.openai.azure.com/openai/v1"}) {
            try (OpenAiModel openAi = OpenAiModel.builder().baseUrl(base).apiKey("sk-test").environment(name -> null).build()) {
                JsonNode tools = com.openai.core.ObjectMappers.jsonMapper().valueToTree(openAi.requests().body(request)).get("tools");
                String sent = tools.at("/0/function/description").asText();
                assertThat(sent.codePointCount(0, sent.length())).isEqualTo(1024);
                assertThat(sent).startsWith("[MCP server 'sentry'] 課題を検索します。😀xxx").endsWith("x…");
                assertThat(tools.at("/1/function/description").asText()).isEqualTo("The short tool.");
            }
        }
        // Other servers (vLLM, Ollama: the fake without the API's checks) take it whole.
        server.validateRequests(false).enqueue(ChatReply.text("ok"));
        model.call(request, new dev.rein.model.ModelCallContext(java.time.Instant.now().plusSeconds(30), stream));
        assertThat(server.requests()).hasSize(1);
        assertThat(server.requests().get(0).body().at("/tools/0/function/description").asText()).isEqualTo(description);
    }
    @Test
    void aServerThatRefusesALongToolDescriptionGetsItCutFromThenOn() throws Exception {
        // A proxy in front of OpenAI (GitHub Copilot's, LiteLLM's, a gateway on a domain of its own) answers with the API's
        // 400 for a description over 1024 characters, at every step: as for a refused max_tokens, the request is sent once
        // more with descriptions cut to that length, and from then on.
        String description = "[MCP server 'sentry'] " + "x".repeat(1100);
        dev.rein.model.ToolDefinition longTool = new dev.rein.model.ToolDefinition("search_issues", description,
                (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse("{\"type\":\"object\"}"));
        // The fake refuses it itself, in the API's words, as a proxy passes the API's refusal on.
        server.enqueue(ChatReply.text("ok"), ChatReply.text("again"));
        dev.rein.model.ModelRequest request = dev.rein.model.ModelRequest.builder("gpt-4.1-mini").maxTokens(256)
                .addMessage(Message.user("x")).tools(List.of(longTool, tool("short"))).build();
        assertThat(model.call(request, new dev.rein.model.ModelCallContext(java.time.Instant.now().plusSeconds(30), stream))
                .text()).isEqualTo("ok");
        assertThat(model.call(request, new dev.rein.model.ModelCallContext(java.time.Instant.now().plusSeconds(30), stream))
                .text()).isEqualTo("again");
        assertThat(server.requests()).hasSize(3);
        assertThat(server.requests().get(0).body().at("/tools/0/function/description").asText()).isEqualTo(description);
        for (int i = 1; i < 3; i++) {
            String sent = server.requests().get(i).body().at("/tools/0/function/description").asText();
            assertThat(sent).hasSize(1024).endsWith("x…");
            assertThat(server.requests().get(i).body().at("/tools/1/function/description").asText()).isEqualTo("The short tool.");
        }
    }
}
