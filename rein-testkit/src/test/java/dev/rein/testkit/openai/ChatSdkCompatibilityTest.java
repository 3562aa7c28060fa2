package dev.rein.testkit.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.errors.InternalServerException;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.OpenAIInvalidDataException;
import com.openai.errors.RateLimitException;
import com.openai.errors.SseException;
import com.openai.errors.UnauthorizedException;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionAllowedToolChoice;
import com.openai.models.chat.completions.ChatCompletionAllowedTools;
import com.openai.models.chat.completions.ChatCompletionAssistantMessageParam;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionCustomTool;
import com.openai.models.chat.completions.ChatCompletionMessageCustomToolCall;
import com.openai.models.chat.completions.ChatCompletionNamedToolChoiceCustom;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import com.openai.core.JsonValue;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.ReasoningEffort;
import com.openai.models.ResponseFormatJsonObject;
import com.openai.models.ResponseFormatJsonSchema;
import com.openai.models.chat.completions.ChatCompletionContentPart;
import com.openai.models.chat.completions.ChatCompletionContentPartText;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The official OpenAI Java SDK, pointed at the fake server with strict response validation on,
 * must read everything the server writes: the fake is only useful if it is faithful to the wire.
 */
class ChatSdkCompatibilityTest {

    private FakeChatCompletionsServer server;
    private OpenAIClient client;

    @BeforeEach
    void start() {
        server = FakeChatCompletionsServer.start();
        client = client(0);
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private OpenAIClient client(int maxRetries) {
        return OpenAIOkHttpClient.builder().baseUrl(server.baseUrl()).apiKey("sk-test").maxRetries(maxRetries)
                .responseValidation(true).timeout(Duration.ofSeconds(10)).build();
    }

    private static ChatCompletionCreateParams.Builder params(String text) {
        return ChatCompletionCreateParams.builder().model("gpt-test").addUserMessage(text);
    }

    private static ChatCompletionFunctionTool tool(String name) {
        return ChatCompletionFunctionTool.builder().function(FunctionDefinition.builder().name(name).build()).build();
    }

    @Test
    void readsATextCompletionWithUsage() {
        server.enqueue(ChatReply.completion().text("Hello, 世界").usage(100, 7, 40).build());

        ChatCompletion completion = client.chat().completions().create(params("hi").build());

        assertThat(completion.id()).isEqualTo("chatcmpl-fake001");
        assertThat(completion.model()).isEqualTo("gpt-test");
        assertThat(completion.choices().get(0).message().content()).contains("Hello, 世界");
        assertThat(completion.choices().get(0).finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.STOP);
        assertThat(completion.usage().orElseThrow().promptTokens()).isEqualTo(100);
        assertThat(completion.usage().orElseThrow().completionTokens()).isEqualTo(7);
        assertThat(completion.usage().orElseThrow().promptTokensDetails().orElseThrow().cachedTokens()).contains(40L);
        assertThat(server.takeRequest().header("authorization")).isEqualTo("Bearer sk-test");
    }

    @Test
    void aReasoningModelsReasoningTokensAreReadByTheSdkWholeAndStreamed() {
        // A reasoning model reports the tokens it spent thinking as usage.completion_tokens_details.reasoning_tokens, a
        // part of completion_tokens; the fake wrote 0 whatever a reply or a pasted response said.
        server.enqueue(ChatReply.completion().text("42").usage(100, 300, 0).reasoningTokens(256).build(),
                ChatReply.completion().text("42").usage(100, 300, 0).reasoningTokens(256).build());
        ChatCompletion whole = client.chat().completions().create(params("x").build());
        assertThat(whole.usage().orElseThrow().completionTokensDetails().orElseThrow().reasoningTokens()).contains(256L);

        ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(params("x")
                .streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build()).build())) {
            stream.stream().forEach(accumulator::accumulate);
        }
        assertThat(accumulator.chatCompletion().usage().orElseThrow().completionTokensDetails().orElseThrow()
                .reasoningTokens()).contains(256L);

        // A pasted response keeps them; more than the completion's tokens is refused, as no server reports it.
        ChatScript script = ChatScript.parse("[{\"type\":\"completion\",\"content\":\"42\",\"usage\":{\"prompt_tokens\":10,"
                + "\"completion_tokens\":300,\"completion_tokens_details\":{\"reasoning_tokens\":256}}}]");
        assertThat(((ChatReply.Completion) script.replies().get(0)).usage().reasoningTokens()).isEqualTo(256);
        assertThatThrownBy(() -> ChatReply.completion().usage(10, 5, 0).reasoningTokens(6).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reasoning");
    }

    @Test
    void readsParallelToolCalls() {
        server.enqueue(ChatReply.completion().toolCall("call_1", "read_file", "{\"path\":\"a.txt\"}")
                .toolCall("call_2", "read_file", "{\"path\":\"b.txt\"}").build());

        ChatCompletion completion = client.chat().completions()
                .create(params("read both").addTool(tool("read_file")).build());

        List<ChatCompletionMessageToolCall> calls = completion.choices().get(0).message().toolCalls().orElseThrow();
        assertThat(calls).hasSize(2);
        assertThat(calls.get(1).asFunction().id()).isEqualTo("call_2");
        assertThat(calls.get(1).asFunction().function().arguments()).isEqualTo("{\"path\":\"b.txt\"}");
        assertThat(completion.choices().get(0).finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.TOOL_CALLS);
    }

    @Test
    void everyFinishReasonIsKnownToTheSdk() {
        for (String reason : List.of("stop", "length", "tool_calls", "content_filter")) {
            server.enqueue(ChatReply.completion().text("x").finishReason(reason).build());
            ChatCompletion.Choice.FinishReason finish =
                    client.chat().completions().create(params("x").build()).choices().get(0).finishReason();
            assertThat(finish.known()).as(reason).isNotNull();
            assertThat(finish.asString()).isEqualTo(reason);
        }
    }

    @Test
    void aStreamAccumulatesIntoTheSameCompletion() {
        server.enqueue(ChatReply.completion().text("Reading both files, 日本語も。")
                .toolCall("call_a", "read_file", "{\"path\":\"docs/README.md\",\"limit\":200}")
                .toolCall("call_b", "list_dir", "{}").usage(50, 20, 10).build());
        ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
        int chunks = 0;
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(params("go")
                .addTool(tool("read_file")).addTool(tool("list_dir"))
                .streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build()).build())) {
            for (ChatCompletionChunk chunk : (Iterable<ChatCompletionChunk>) stream.stream()::iterator) {
                accumulator.accumulate(chunk);
                chunks++;
            }
        }
        ChatCompletion completion = accumulator.chatCompletion();

        assertThat(chunks).isGreaterThan(6);
        assertThat(completion.choices().get(0).message().content()).contains("Reading both files, 日本語も。");
        List<ChatCompletionMessageToolCall> calls = completion.choices().get(0).message().toolCalls().orElseThrow();
        assertThat(calls).extracting(c -> c.asFunction().function().arguments())
                .containsExactly("{\"path\":\"docs/README.md\",\"limit\":200}", "{}");
        assertThat(completion.choices().get(0).finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.TOOL_CALLS);
        assertThat(completion.usage().orElseThrow().promptTokens()).isEqualTo(50);
        assertThat(server.takeRequest().body().path("stream").asBoolean()).isTrue();
    }

    @Test
    void theFirstChunkOfAToolCallOnlyAnswerCarriesContentNullAsTheRealStreamDoes() {
        // The real API opens a stream with the role: "content": "" when text follows, "content": null when the answer
        // is only tool calls, as the complete message's content is null then; a client that takes "" for text must
        // not see an empty text part the real API never sends.
        server.enqueue(ChatReply.toolCall("call_1", "read_file", "{\"path\":\"a.txt\"}"), ChatReply.text("読みました。"));
        for (String expected : new String[] {null, ""}) {
            try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(params("go")
                    .addTool(tool("read_file")).build())) {
                ChatCompletionChunk.Choice.Delta first = stream.stream().toList().get(0).choices().get(0).delta();
                assertThat(first.role()).hasValue(ChatCompletionChunk.Choice.Delta.Role.ASSISTANT);
                if (expected == null) {
                    assertThat(first._content().isNull()).as("content is JSON null, not \"\" or absent").isTrue();
                } else {
                    assertThat(first.content()).hasValue(expected);
                }
            }
        }
    }

    @Test
    void echoedToolCallsAndToolMessagesAreAccepted() {
        server.enqueue(ChatReply.text("Both read."));
        ChatCompletionMessageToolCall call = ChatCompletionMessageToolCall.ofFunction(
                ChatCompletionMessageFunctionToolCall.builder().id("call_1")
                        .function(ChatCompletionMessageFunctionToolCall.Function.builder()
                                .name("read_file").arguments("{\"path\":\"a.txt\"}").build())
                        .build());
        ChatCompletionCreateParams params = params("read a").addTool(tool("read_file"))
                .addMessage(ChatCompletionAssistantMessageParam.builder().addToolCall(call).build())
                .addMessage(ChatCompletionToolMessageParam.builder().toolCallId("call_1").content("hello").build())
                .build();

        assertThat(client.chat().completions().create(params).choices().get(0).message().content()).contains("Both read.");
    }

    @Test
    void theDocumentedToolChoicesAndCustomToolsAreAccepted() {
        // The API reference's tool_choice takes a mode, a named function, allowed_tools ({"type":"allowed_tools",
        // "allowed_tools":{"mode":...,"tools":[...]}}) and a named custom tool; tools may be custom tools, and a history
        // may echo a custom tool call. The fake looked for function.name in every object choice and refused the last two
        // shapes of choice with "function 'null' was not found in 'tools'", and an echoed custom call for its arguments.
        server.enqueue(ChatReply.text("one"), ChatReply.text("two"), ChatReply.text("three"));
        ChatCompletionAllowedTools allowed = ChatCompletionAllowedTools.builder().mode(ChatCompletionAllowedTools.Mode.REQUIRED)
                .addTool(ChatCompletionAllowedTools.Tool.builder().putAdditionalProperty("type", JsonValue.from("function"))
                        .putAdditionalProperty("function", JsonValue.from(Map.of("name", "read_file"))).build())
                .build();
        ChatCompletionCreateParams allowedTools = params("x").addTool(tool("read_file")).addTool(tool("write_file"))
                .toolChoice(ChatCompletionAllowedToolChoice.builder().allowedTools(allowed).build()).build();
        assertThat(client.chat().completions().create(allowedTools).choices().get(0).message().content()).contains("one");

        ChatCompletionCustomTool grammar = ChatCompletionCustomTool.builder()
                .custom(ChatCompletionCustomTool.Custom.builder().name("run_sql").description("Runs SQL.").build()).build();
        ChatCompletionCreateParams custom = params("x").addTool(tool("read_file")).addTool(grammar)
                .toolChoice(ChatCompletionNamedToolChoiceCustom.builder()
                        .custom(ChatCompletionNamedToolChoiceCustom.Custom.builder().name("run_sql").build()).build())
                .build();
        assertThat(client.chat().completions().create(custom).choices().get(0).message().content()).contains("two");

        ChatCompletionCreateParams echoed = params("x").addTool(grammar)
                .addMessage(ChatCompletionAssistantMessageParam.builder().addToolCall(ChatCompletionMessageCustomToolCall.builder()
                        .id("call_sql").custom(ChatCompletionMessageCustomToolCall.Custom.builder().name("run_sql")
                                .input("SELECT 1").build()).build()).build())
                .addMessage(ChatCompletionToolMessageParam.builder().toolCallId("call_sql").content("1").build()).build();
        assertThat(client.chat().completions().create(echoed).choices().get(0).message().content()).contains("three");
        assertThat(server.pendingReplies()).isZero();
    }

    @Test
    void whatTheRealApiRejectsIsRejectedWithItsMessage() {
        ChatCompletionMessageToolCall call = ChatCompletionMessageToolCall.ofFunction(
                ChatCompletionMessageFunctionToolCall.builder().id("call_9")
                        .function(ChatCompletionMessageFunctionToolCall.Function.builder()
                                .name("read_file").arguments("{}").build())
                        .build());
        ChatCompletionCreateParams unanswered = params("x").addTool(tool("read_file"))
                .addMessage(ChatCompletionAssistantMessageParam.builder().addToolCall(call).build())
                .addUserMessage("and?").build();
        assertThatThrownBy(() -> client.chat().completions().create(unanswered))
                .isInstanceOf(BadRequestException.class)
                .hasMessageContaining("must be followed by tool messages responding to each 'tool_call_id'")
                .hasMessageContaining("call_9");

        ChatCompletionCreateParams unknownId = params("x").addTool(tool("read_file"))
                .addMessage(ChatCompletionToolMessageParam.builder().toolCallId("call_x").content("?").build()).build();
        assertThatThrownBy(() -> client.chat().completions().create(unknownId))
                .isInstanceOf(BadRequestException.class).hasMessageContaining("role 'tool' must be a response");

        ChatCompletionCreateParams parallelWithoutTools = params("x").parallelToolCalls(false).build();
        assertThatThrownBy(() -> client.chat().completions().create(parallelWithoutTools))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.getMessage()).contains("Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is"
                            + " only allowed when 'tools' are specified.");
                    assertThat(e.param()).hasValue("parallel_tool_calls");
                });

        ChatCompletionCreateParams noTools = params("x")
                .addMessage(ChatCompletionAssistantMessageParam.builder().addToolCall(call).build())
                .addMessage(ChatCompletionToolMessageParam.builder().toolCallId("call_9").content("ok").build()).build();
        assertThatThrownBy(() -> client.chat().completions().create(noTools))
                .isInstanceOf(BadRequestException.class).hasMessageContaining("'tools' must be specified");

        // An array schema without items, as many MCP servers declare one, is refused whether or not it is called.
        ChatCompletionCreateParams bareArray = params("x").addTool(ChatCompletionFunctionTool.builder()
                .function(FunctionDefinition.builder().name("read_files").parameters(FunctionParameters.builder()
                        .putAdditionalProperty("type", JsonValue.from("object"))
                        .putAdditionalProperty("properties", JsonValue.from(Map.of("meta", Map.of("type", "object",
                                "properties", Map.of("paths", Map.of("type", "array"))))))
                        .build()).build()).build()).build();
        assertThatThrownBy(() -> client.chat().completions().create(bareArray))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.getMessage()).contains("Invalid schema for function 'read_files': In context=('properties',"
                            + " 'meta', 'properties', 'paths'), array schema missing items.");
                    assertThat(e.code()).hasValue("invalid_function_parameters");
                    assertThat(e.param()).hasValue("tools[0].function.parameters");
                });
        assertThat(server.pendingReplies()).isZero();
    }

    @Test
    void jsonModeWithoutTheWordJsonInTheMessagesIsRejectedAsTheRealApiDoes() {
        // The JSON mode guide: with response_format json_object "the API will throw an error if the string 'JSON' does
        // not appear somewhere in the context". The fake answered such a request.
        ChatCompletionCreateParams without = params("Give me a list of three colours.")
                .responseFormat(ResponseFormatJsonObject.builder().build()).build();
        assertThatThrownBy(() -> client.chat().completions().create(without))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.getMessage()).contains("'messages' must contain the word 'json' in some form, to use"
                            + " 'response_format' of type 'json_object'.");
                    assertThat(e.param()).hasValue("messages");
                });
        assertThat(server.requests()).hasSize(1);

        // Any message, in any case, as a string or a text part, will do; a reply is consumed only then.
        server.enqueue(ChatReply.text("{\"colours\":[\"赤\",\"青\",\"緑\"]}"), ChatReply.text("{}"));
        ChatCompletionCreateParams system = params("Three colours.").addSystemMessage("Answer in JSON.")
                .responseFormat(ResponseFormatJsonObject.builder().build()).build();
        assertThat(client.chat().completions().create(system).choices().get(0).message().content()).hasValue("{\"colours\":[\"赤\",\"青\",\"緑\"]}");
        ChatCompletionCreateParams part = ChatCompletionCreateParams.builder().model("gpt-test")
                .addUserMessageOfArrayOfContentParts(List.of(ChatCompletionContentPart.ofText(
                        ChatCompletionContentPartText.builder().text("reply as a json object").build())))
                .responseFormat(ResponseFormatJsonObject.builder().build()).build();
        assertThat(client.chat().completions().create(part).choices().get(0).message().content()).hasValue("{}");
        assertThat(server.pendingReplies()).isZero();
    }

    @Test
    void aStrictSchemaBreakingStructuredOutputsRulesIsRejectedAsTheRealApiDoes() {
        // The Structured Outputs guide: with strict true every object sets additionalProperties false and lists every
        // property in required, for response_format and for a function's parameters alike. The fake answered both.
        ChatCompletionCreateParams open = params("x").responseFormat(strictFormat(Map.of("type", "object",
                "properties", Map.of("verdict", Map.of("type", "string")), "required", List.of("verdict")))).build();
        assertThatThrownBy(() -> client.chat().completions().create(open))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.getMessage()).contains("Invalid schema for response_format 'Verdict': In context=(),"
                            + " 'additionalProperties' is required to be supplied and to be false.");
                    assertThat(e.code()).hasValue("invalid_json_schema");
                    assertThat(e.param()).hasValue("response_format");
                });
        ChatCompletionCreateParams optional = params("x").responseFormat(strictFormat(Map.of("type", "object",
                "additionalProperties", false, "required", List.of("verdict"), "properties", Map.of("verdict",
                        Map.of("type", "string"), "tags", Map.of("type", "array", "items", Map.of("type", "object",
                                "additionalProperties", false, "properties", Map.of("name", Map.of("type", "string")),
                                "required", List.of("name"))))))).build();
        assertThatThrownBy(() -> client.chat().completions().create(optional))
                .isInstanceOfSatisfying(BadRequestException.class, e -> assertThat(e.getMessage()).contains(
                        "Invalid schema for response_format 'Verdict': In context=(), 'required' is required to be supplied"
                                + " and to be an array including every key in properties. Missing 'tags'."));
        ChatCompletionCreateParams nested = params("x").addTool(ChatCompletionFunctionTool.builder()
                .function(FunctionDefinition.builder().name("tag").strict(true).parameters(FunctionParameters.builder()
                        .putAdditionalProperty("type", JsonValue.from("object"))
                        .putAdditionalProperty("additionalProperties", JsonValue.from(false))
                        .putAdditionalProperty("required", JsonValue.from(List.of("tags")))
                        .putAdditionalProperty("properties", JsonValue.from(Map.of("tags", Map.of("type", "array",
                                "items", Map.of("type", "object", "properties", Map.of("name", Map.of("type", "string")),
                                        "required", List.of("name"))))))
                        .build()).build()).build()).build();
        assertThatThrownBy(() -> client.chat().completions().create(nested))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.getMessage()).contains("Invalid schema for function 'tag': In context=('properties',"
                            + " 'tags', 'items'), 'additionalProperties' is required to be supplied and to be false.");
                    assertThat(e.code()).hasValue("invalid_function_parameters");
                    assertThat(e.param()).hasValue("tools[0].function.parameters");
                });
        assertThat(server.requests()).hasSize(3);

        // Without strict, or with both rules kept, the same schemas are answered (data and a property named
        // "properties" are no schemas of their own).
        server.enqueue(ChatReply.text("{\"verdict\":\"可\"}"), ChatReply.text("{\"verdict\":\"否\"}"));
        ChatCompletionCreateParams loose = params("x").responseFormat(ResponseFormatJsonSchema.builder()
                .jsonSchema(ResponseFormatJsonSchema.JsonSchema.builder().name("Verdict").strict(false)
                        .schema(ResponseFormatJsonSchema.JsonSchema.Schema.builder()
                                .putAdditionalProperty("type", JsonValue.from("object")).build()).build()).build()).build();
        assertThat(client.chat().completions().create(loose).choices().get(0).message().content()).hasValue("{\"verdict\":\"可\"}");
        ChatCompletionCreateParams kept = params("x").responseFormat(strictFormat(Map.of("type", "object",
                "additionalProperties", false, "required", List.of("verdict", "properties"), "properties", Map.of("verdict",
                        Map.of("type", "string", "enum", List.of(Map.of("type", "object"))), "properties",
                        Map.of("type", "string"))))).build();
        assertThat(client.chat().completions().create(kept).choices().get(0).message().content()).hasValue("{\"verdict\":\"否\"}");
    }

    private static ResponseFormatJsonSchema strictFormat(Map<String, Object> schema) {
        ResponseFormatJsonSchema.JsonSchema.Schema.Builder wire = ResponseFormatJsonSchema.JsonSchema.Schema.builder();
        schema.forEach((key, value) -> wire.putAdditionalProperty(key, JsonValue.from(value)));
        return ResponseFormatJsonSchema.builder().jsonSchema(ResponseFormatJsonSchema.JsonSchema.builder().name("Verdict")
                .strict(true).schema(wire.build()).build()).build();
    }

    @Test
    void anOutputSchemaWithAnArrayWithoutItemsIsRejectedAsTheRealApiDoes() {
        // The real API refuses a response_format schema holding an array without items as it refuses one in a tool's
        // parameters: 400 invalid_json_schema "Invalid schema for response_format 'Verdict': In context=('properties',
        // 'tags'), array schema missing items."
        ChatCompletionCreateParams bare = params("x").responseFormat(ResponseFormatJsonSchema.builder()
                .jsonSchema(ResponseFormatJsonSchema.JsonSchema.builder().name("Verdict").strict(false)
                        .schema(ResponseFormatJsonSchema.JsonSchema.Schema.builder()
                                .putAdditionalProperty("type", JsonValue.from("object"))
                                .putAdditionalProperty("properties", JsonValue.from(Map.of("tags", Map.of("type", "array"))))
                                .build()).build()).build()).build();
        assertThatThrownBy(() -> client.chat().completions().create(bare))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.getMessage()).contains("Invalid schema for response_format 'Verdict': In context=("
                            + "'properties', 'tags'), array schema missing items.");
                    assertThat(e.code()).hasValue("invalid_json_schema");
                    assertThat(e.param()).hasValue("response_format");
                });
        server.enqueue(ChatReply.text("{\"tags\":[]}"));
        ChatCompletionCreateParams withItems = params("x").responseFormat(ResponseFormatJsonSchema.builder()
                .jsonSchema(ResponseFormatJsonSchema.JsonSchema.builder().name("Verdict").strict(false)
                        .schema(ResponseFormatJsonSchema.JsonSchema.Schema.builder()
                                .putAdditionalProperty("type", JsonValue.from("object"))
                                .putAdditionalProperty("properties", JsonValue.from(Map.of("tags", Map.of("type", "array",
                                        "items", Map.of()))))
                                .build()).build()).build()).build();
        assertThat(client.chat().completions().create(withItems).choices().get(0).message().content()).hasValue("{\"tags\":[]}");
    }

    @Test
    @SuppressWarnings("deprecation") // max_tokens is deprecated: that is what the test is about
    void aReasoningModelRefusesMaxTokensAsTheRealApiDoes() {
        // The API reference: max_tokens "is not compatible with o-series models"; o1, o3, o4-mini and the gpt-5 family
        // answer it with 400 unsupported_parameter naming the field to use, which a client must handle.
        for (String model : List.of("o1", "o3-mini", "o4-mini-2025-04-16", "gpt-5", "gpt-5.1", "gpt-5-mini", "codex-mini-latest")) {
            ChatCompletionCreateParams request = ChatCompletionCreateParams.builder().model(model).addUserMessage("x")
                    .maxTokens(256).build();
            assertThatThrownBy(() -> client.chat().completions().create(request)).as(model)
                    .isInstanceOfSatisfying(BadRequestException.class, e -> {
                        assertThat(e.getMessage()).contains("Unsupported parameter: 'max_tokens' is not supported with this"
                                + " model. Use 'max_completion_tokens' instead.");
                        assertThat(e.code()).hasValue("unsupported_parameter");
                        assertThat(e.param()).hasValue("max_tokens");
                    });
        }
        server.enqueue(ChatReply.text("newer field"), ChatReply.text("older model"));
        assertThat(client.chat().completions().create(ChatCompletionCreateParams.builder().model("o3").addUserMessage("x")
                .maxCompletionTokens(256).build()).choices().get(0).message().content()).contains("newer field");
        assertThat(client.chat().completions().create(ChatCompletionCreateParams.builder().model("gpt-4o").addUserMessage("x")
                .maxTokens(256).build()).choices().get(0).message().content()).contains("older model");
    }

    @Test
    void aReasoningModelRefusesASamplingSettingOtherThanItsDefaultAsTheRealApiDoes() {
        // o1, o3, o4-mini, gpt-5 (mini, nano) answer a temperature or top_p other than 1 with 400 unsupported_value
        // "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported."
        for (String model : List.of("o1", "o3-mini", "o4-mini", "gpt-5", "gpt-5-mini-2025-08-07")) {
            ChatCompletionCreateParams hot = ChatCompletionCreateParams.builder().model(model).addUserMessage("x")
                    .temperature(0.2).build();
            assertThatThrownBy(() -> client.chat().completions().create(hot)).as(model)
                    .isInstanceOfSatisfying(BadRequestException.class, e -> {
                        assertThat(e.getMessage()).contains("Unsupported value: 'temperature' does not support 0.2 with this"
                                + " model. Only the default (1) value is supported.");
                        assertThat(e.code()).hasValue("unsupported_value");
                        assertThat(e.param()).hasValue("temperature");
                    });
        }
        ChatCompletionCreateParams narrow = ChatCompletionCreateParams.builder().model("o3").addUserMessage("x").topP(0.9).build();
        assertThatThrownBy(() -> client.chat().completions().create(narrow))
                .isInstanceOfSatisfying(BadRequestException.class, e -> assertThat(e.param()).hasValue("top_p"));
        server.enqueue(ChatReply.text("default"), ChatReply.text("other model"));
        assertThat(client.chat().completions().create(ChatCompletionCreateParams.builder().model("o3").addUserMessage("x")
                .temperature(1.0).build()).choices().get(0).message().content()).contains("default");
        assertThat(client.chat().completions().create(ChatCompletionCreateParams.builder().model("gpt-4o").addUserMessage("x")
                .temperature(0.2).build()).choices().get(0).message().content()).contains("other model");
    }

    @Test
    void aLaterGpt5RefusesASamplingSettingOnlyWithAReasoningEffortOtherThanNone() {
        // The API reference: gpt-5.1 and later default to reasoning effort none, and take a temperature or top_p only
        // with it; with any other effort they refuse one but 1 as the first gpt-5 models do.
        for (String model : List.of("gpt-5.1", "gpt-5.2-2025-12-11")) {
            for (ReasoningEffort effort : List.of(ReasoningEffort.LOW, ReasoningEffort.MEDIUM, ReasoningEffort.HIGH)) {
                ChatCompletionCreateParams hot = ChatCompletionCreateParams.builder().model(model).addUserMessage("x")
                        .reasoningEffort(effort).temperature(0.2).build();
                assertThatThrownBy(() -> client.chat().completions().create(hot)).as(model + " " + effort)
                        .isInstanceOfSatisfying(BadRequestException.class, e -> {
                            assertThat(e.getMessage()).contains("Unsupported value: 'temperature' does not support 0.2 with"
                                    + " this model. Only the default (1) value is supported.");
                            assertThat(e.code()).hasValue("unsupported_value");
                            assertThat(e.param()).hasValue("temperature");
                        });
            }
        }
        ChatCompletionCreateParams narrow = ChatCompletionCreateParams.builder().model("gpt-5.1").addUserMessage("x")
                .reasoningEffort(ReasoningEffort.LOW).topP(0.9).build();
        assertThatThrownBy(() -> client.chat().completions().create(narrow))
                .isInstanceOfSatisfying(BadRequestException.class, e -> assertThat(e.param()).hasValue("top_p"));
        server.enqueue(ChatReply.text("no effort"), ChatReply.text("effort none"), ChatReply.text("default value"));
        assertThat(client.chat().completions().create(ChatCompletionCreateParams.builder().model("gpt-5.1")
                .addUserMessage("x").temperature(0.2).topP(0.9).build()).choices().get(0).message().content())
                .contains("no effort");
        assertThat(client.chat().completions().create(ChatCompletionCreateParams.builder().model("gpt-5.2")
                .addUserMessage("x").reasoningEffort(ReasoningEffort.NONE).temperature(0.2).build()).choices().get(0)
                .message().content()).contains("effort none");
        assertThat(client.chat().completions().create(ChatCompletionCreateParams.builder().model("gpt-5.2")
                .addUserMessage("x").reasoningEffort(ReasoningEffort.HIGH).temperature(1.0).build()).choices().get(0)
                .message().content()).contains("default value");
    }

    @Test
    void aReasoningModelRefusesStopSequencesAsTheRealApiDoes() {
        // o3, o4-mini and the first gpt-5 models take no stop sequences: 400 unsupported_parameter "Unsupported
        // parameter: 'stop' is not supported with this model."
        for (String model : List.of("o3", "o3-2025-04-16", "o4-mini", "gpt-5", "gpt-5-mini", "gpt-5-nano-2025-08-07")) {
            ChatCompletionCreateParams stop = ChatCompletionCreateParams.builder().model(model).addUserMessage("x")
                    .stopOfStrings(List.of("END")).build();
            assertThatThrownBy(() -> client.chat().completions().create(stop)).as(model)
                    .isInstanceOfSatisfying(BadRequestException.class, e -> {
                        assertThat(e.getMessage()).contains("Unsupported parameter: 'stop' is not supported with this"
                                + " model.");
                        assertThat(e.code()).hasValue("unsupported_parameter");
                        assertThat(e.param()).hasValue("stop");
                    });
        }
        server.enqueue(ChatReply.text("stops"));
        assertThat(client.chat().completions().create(ChatCompletionCreateParams.builder().model("gpt-4.1")
                .addUserMessage("x").stopOfStrings(List.of("END")).build()).choices().get(0).message().content())
                .contains("stops");
    }

    @Test
    void aReasoningModelRefusesParallelToolCallsAsTheRealApiDoes() {
        // o1, o3, o3-mini and o4-mini refuse the field whatever its value: 400 unsupported_parameter "Unsupported
        // parameter: 'parallel_tool_calls' is not supported with this model."; the gpt-5 family and gpt-4.1 take it.
        for (String model : List.of("o1", "o3", "o3-mini", "o4-mini", "o4-mini-2025-04-16")) {
            ChatCompletionCreateParams parallel = ChatCompletionCreateParams.builder().model(model).addUserMessage("x")
                    .addTool(tool("search")).parallelToolCalls(false).build();
            assertThatThrownBy(() -> client.chat().completions().create(parallel)).as(model)
                    .isInstanceOfSatisfying(BadRequestException.class, e -> {
                        assertThat(e.getMessage()).contains("Unsupported parameter: 'parallel_tool_calls' is not supported"
                                + " with this model.");
                        assertThat(e.code()).hasValue("unsupported_parameter");
                        assertThat(e.param()).hasValue("parallel_tool_calls");
                    });
        }
        server.enqueue(ChatReply.text("one"), ChatReply.text("two"));
        for (String model : List.of("gpt-5", "gpt-4.1")) {
            assertThat(client.chat().completions().create(ChatCompletionCreateParams.builder().model(model).addUserMessage("x")
                    .addTool(tool("search")).parallelToolCalls(false).build()).choices()).as(model).hasSize(1);
        }
    }

    @Test
    void aReasoningEffortTheModelDoesNotTakeIsRejectedAsTheRealApiDoes() {
        // The API reference: gpt-5.1 takes none, low, medium and high; models before it do not take none; xhigh is for
        // models after gpt-5.1-codex-max. The real API answers another value with 400 unsupported_value, e.g.
        // "Unsupported value: 'minimal' is not supported with the 'gpt-5.1' model. Supported values are: 'none', 'low',
        // 'medium', and 'high'."
        record Case(String model, ReasoningEffort effort, String message) {}
        List<Case> cases = List.of(
                new Case("gpt-5.1", ReasoningEffort.MINIMAL, "Unsupported value: 'minimal' is not supported with the"
                        + " 'gpt-5.1' model. Supported values are: 'none', 'low', 'medium', and 'high'."),
                new Case("gpt-5", ReasoningEffort.NONE, "Unsupported value: 'none' is not supported with the 'gpt-5'"
                        + " model. Supported values are: 'minimal', 'low', 'medium', and 'high'."),
                new Case("gpt-5-mini", ReasoningEffort.XHIGH, "Unsupported value: 'xhigh' is not supported with the"
                        + " 'gpt-5-mini' model. Supported values are: 'minimal', 'low', 'medium', and 'high'."),
                new Case("o3", ReasoningEffort.MINIMAL, "Unsupported value: 'minimal' is not supported with the 'o3'"
                        + " model. Supported values are: 'low', 'medium', and 'high'."),
                new Case("o4-mini", ReasoningEffort.NONE, "Unsupported value: 'none' is not supported with the 'o4-mini'"
                        + " model. Supported values are: 'low', 'medium', and 'high'."));
        for (Case c : cases) {
            ChatCompletionCreateParams params = ChatCompletionCreateParams.builder().model(c.model()).addUserMessage("x")
                    .reasoningEffort(c.effort()).build();
            assertThatThrownBy(() -> client.chat().completions().create(params)).as(c.model() + " " + c.effort())
                    .isInstanceOfSatisfying(BadRequestException.class, e -> {
                        assertThat(e.getMessage()).contains(c.message());
                        assertThat(e.code()).hasValue("unsupported_value");
                        assertThat(e.param()).hasValue("reasoning_effort");
                    });
        }
        server.enqueue(ChatReply.text("a"), ChatReply.text("b"), ChatReply.text("c"), ChatReply.text("d"));
        for (Case ok : List.of(new Case("gpt-5.1", ReasoningEffort.NONE, "a"), new Case("gpt-5.2", ReasoningEffort.XHIGH, "b"),
                new Case("gpt-5-nano", ReasoningEffort.MINIMAL, "c"), new Case("o3", ReasoningEffort.HIGH, "d"))) {
            assertThat(client.chat().completions().create(ChatCompletionCreateParams.builder().model(ok.model())
                    .addUserMessage("x").reasoningEffort(ok.effort()).build()).choices().get(0).message().content())
                    .as(ok.model()).contains(ok.message());
        }
    }

    @Test
    void aModelThatDoesNotReasonRefusesAReasoningEffortAsTheRealApiDoes() {
        // reasoning_effort is for reasoning models: gpt-4o, gpt-4.1 (Rein's default model) and gpt-5-chat answer it with
        // 400 unsupported_parameter "Unsupported parameter: 'reasoning_effort' is not supported with this model."
        for (String model : List.of("gpt-4.1-mini", "gpt-4o-2024-08-06", "gpt-4-turbo", "gpt-3.5-turbo", "gpt-5-chat-latest")) {
            ChatCompletionCreateParams effort = ChatCompletionCreateParams.builder().model(model).addUserMessage("x")
                    .reasoningEffort(ReasoningEffort.LOW).build();
            assertThatThrownBy(() -> client.chat().completions().create(effort)).as(model)
                    .isInstanceOfSatisfying(BadRequestException.class, e -> {
                        assertThat(e.getMessage()).contains("Unsupported parameter: 'reasoning_effort' is not supported"
                                + " with this model.");
                        assertThat(e.code()).hasValue("unsupported_parameter");
                        assertThat(e.param()).hasValue("reasoning_effort");
                    });
        }
        server.enqueue(ChatReply.text("reasons"), ChatReply.text("unknown model"));
        assertThat(client.chat().completions().create(ChatCompletionCreateParams.builder().model("o4-mini")
                .addUserMessage("x").reasoningEffort(ReasoningEffort.LOW).build()).choices().get(0).message().content())
                .contains("reasons");
        assertThat(client.chat().completions().create(ChatCompletionCreateParams.builder().model("qwen3:8b")
                .addUserMessage("x").reasoningEffort(ReasoningEffort.LOW).build()).choices().get(0).message().content())
                .as("another server's model is not OpenAI's to judge").contains("unknown model");
    }

    @Test
    void aSamplingSettingOutsideItsDocumentedRangeIsRejectedAsTheRealApiDoes() {
        // The API reference: temperature "between 0 and 2", top_p between 0 and 1; beyond them the real API answers 400
        // "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 2.5 instead."
        record Case(ChatCompletionCreateParams params, String field, String message, String code) {}
        List<Case> cases = List.of(
                new Case(params("x").temperature(2.5).build(), "temperature", "Invalid 'temperature': decimal above"
                        + " maximum value. Expected a value <= 2, but got 2.5 instead.", "decimal_above_max_value"),
                new Case(params("x").temperature(-0.5).build(), "temperature", "Invalid 'temperature': decimal below"
                        + " minimum value. Expected a value >= 0, but got -0.5 instead.", "decimal_below_min_value"),
                new Case(params("x").topP(1.5).build(), "top_p", "Invalid 'top_p': decimal above maximum value. Expected"
                        + " a value <= 1, but got 1.5 instead.", "decimal_above_max_value"),
                new Case(params("x").topP(-0.1).build(), "top_p", "Invalid 'top_p': decimal below minimum value. Expected"
                        + " a value >= 0, but got -0.1 instead.", "decimal_below_min_value"),
                // The range is checked before the model's own rule.
                new Case(ChatCompletionCreateParams.builder().model("o3").addUserMessage("x").temperature(3.0).build(),
                        "temperature", "Expected a value <= 2, but got 3.0 instead.", "decimal_above_max_value"));
        for (Case c : cases) {
            assertThatThrownBy(() -> client.chat().completions().create(c.params())).as(c.message())
                    .isInstanceOfSatisfying(BadRequestException.class, e -> {
                        assertThat(e.getMessage()).contains(c.message());
                        assertThat(e.code()).hasValue(c.code());
                        assertThat(e.param()).hasValue(c.field());
                    });
        }
        server.enqueue(ChatReply.text("at the edges"));
        assertThat(client.chat().completions().create(params("x").temperature(2.0).topP(0.0).build()).choices().get(0)
                .message().content()).contains("at the edges");
        assertThat(server.pendingReplies()).isZero();
    }

    @Test
    void requestsBeyondTheApisDocumentedLimitsAreRejectedAsTheRealApiRejectsThem() {
        // The API reference: tools "A max of 128 functions are supported", stop "Up to 4 sequences", a function's
        // description and a tool call id within the lengths the API checks; beyond them the real API answers 400
        // invalid_request_error with code array_above_max_length / string_above_max_length and the field as param.
        ChatCompletionCreateParams.Builder many = params("x");
        for (int i = 0; i < 129; i++) {
            many.addTool(tool("t" + i));
        }
        assertThatThrownBy(() -> client.chat().completions().create(many.build()))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.getMessage()).contains("Invalid 'tools': array too long. Expected an array with maximum"
                            + " length 128, but got an array with length 129 instead.");
                    assertThat(e.code()).hasValue("array_above_max_length");
                    assertThat(e.param()).hasValue("tools");
                });

        ChatCompletionCreateParams stops = params("x").stopOfStrings(List.of("a", "b", "c", "d", "e")).build();
        assertThatThrownBy(() -> client.chat().completions().create(stops))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.getMessage()).contains("Invalid 'stop': array too long. Expected an array with maximum"
                            + " length 4, but got an array with length 5 instead.");
                    assertThat(e.code()).hasValue("array_above_max_length");
                    assertThat(e.param()).hasValue("stop");
                });

        // Counted in characters (code points): 1,024 of them, an emoji among them, pass; 1,025 do not.
        String fits = "😀" + "x".repeat(1023);
        ChatCompletionCreateParams longDescription = params("x").addTool(tool("short"))
                .addTool(ChatCompletionFunctionTool.builder().function(FunctionDefinition.builder().name("long")
                        .description(fits + "y").build()).build()).build();
        assertThatThrownBy(() -> client.chat().completions().create(longDescription))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.getMessage()).contains("Invalid 'tools[1].function.description': string too long. Expected"
                            + " a string with maximum length 1024, but got a string with length 1025 instead.");
                    assertThat(e.code()).hasValue("string_above_max_length");
                    assertThat(e.param()).hasValue("tools[1].function.description");
                });

        ChatCompletionMessageToolCall longId = ChatCompletionMessageToolCall.ofFunction(
                ChatCompletionMessageFunctionToolCall.builder().id("toolu_" + "a".repeat(35))
                        .function(ChatCompletionMessageFunctionToolCall.Function.builder().name("read_file").arguments("{}")
                                .build()).build());
        ChatCompletionCreateParams longIds = params("x").addTool(tool("read_file"))
                .addMessage(ChatCompletionAssistantMessageParam.builder().addToolCall(longId).build())
                .addMessage(ChatCompletionToolMessageParam.builder().toolCallId("toolu_" + "a".repeat(35)).content("ok").build())
                .build();
        assertThatThrownBy(() -> client.chat().completions().create(longIds))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.getMessage()).contains("Invalid 'messages[1].tool_calls[0].id': string too long. Expected"
                            + " a string with maximum length 40, but got a string with length 41 instead.");
                    assertThat(e.code()).hasValue("string_above_max_length");
                });

        server.enqueue(ChatReply.text("within"));
        ChatCompletionCreateParams.Builder limits = params("x").stopOfStrings(List.of("a", "b", "c", "d"))
                .addTool(ChatCompletionFunctionTool.builder().function(FunctionDefinition.builder().name("long")
                        .description(fits).build()).build());
        for (int i = 1; i < 128; i++) {
            limits.addTool(tool("t" + i));
        }
        assertThat(client.chat().completions().create(limits.build()).choices().get(0).message().content()).contains("within");
    }

    @Test
    void errorsCarryTheApiBodyAndTheSdkHonoursRetryAfterMs() {
        server.enqueue(ChatReply.rateLimited(0).withHeader("retry-after-ms", "50"), ChatReply.text("after the wait"));
        OpenAIClient retrying = client(1);
        try {
            assertThat(retrying.chat().completions().create(params("x").build()).choices().get(0).message().content())
                    .contains("after the wait");
        } finally {
            retrying.close();
        }
        assertThat(server.requestCount()).isEqualTo(2);

        server.enqueue(ChatReply.rateLimited(3));
        assertThatThrownBy(() -> client.chat().completions().create(params("x").build()))
                .isInstanceOfSatisfying(RateLimitException.class, e -> {
                    assertThat(e.getMessage()).contains("Rate limit reached for requests");
                    assertThat(e.headers().values("retry-after")).containsExactly("3");
                    assertThat(e.code()).contains("rate_limit_exceeded");
                });
        server.enqueue(ChatReply.error(503, "server_error", "The engine is currently overloaded"));
        assertThatThrownBy(() -> client.chat().completions().create(params("x").build()))
                .isInstanceOf(InternalServerException.class).hasMessageContaining("currently overloaded");
    }

    @Test
    void streamFailuresReachTheSdkAsTheRealOnesDo() {
        ChatCompletionCreateParams params = params("x").build();
        server.enqueue(new ChatReply.StreamError(ChatReply.text("partial"), 2, "server_error", "The server had an error"));
        assertThatThrownBy(() -> drain(params)).isInstanceOf(SseException.class).hasMessageContaining("The server had an error");

        server.enqueue(new ChatReply.Disconnect(ChatReply.text("a longer partial answer"), 2));
        assertThatThrownBy(() -> drain(params)).isInstanceOf(OpenAIIoException.class);

        server.enqueue(ChatReply.disconnect());
        assertThatThrownBy(() -> client.chat().completions().create(params)).isInstanceOf(OpenAIIoException.class);

        server.enqueue(new ChatReply.Malformed(null));
        assertThatThrownBy(() -> client.chat().completions().create(params))
                .isInstanceOfAny(OpenAIInvalidDataException.class, OpenAIIoException.class);

        // Without [DONE] the SDK's iterator ends quietly: why Rein reads the stream itself.
        server.enqueue(new ChatReply.NoDone(ChatReply.text("no end marker")));
        assertThat(drain(params)).isGreaterThan(1);
    }

    @Test
    void aRequiredKeyIsCheckedLikeThePublicApi() {
        server.requireApiKey("sk-right");
        assertThatThrownBy(() -> client.chat().completions().create(params("x").build()))
                .isInstanceOf(UnauthorizedException.class).hasMessageContaining("Incorrect API key");
    }

    @Test
    void aWrongOrMissingKeyIsAnsweredWithThePublicApisErrorBodies() throws Exception {
        // The public API's 401s: a wrong key is named, masked, with code invalid_api_key; no key at all has no code.
        server.requireApiKey("sk-right");
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.util.function.BiFunction<String, String, com.fasterxml.jackson.databind.JsonNode> post = (key, body) -> {
            var request = java.net.http.HttpRequest.newBuilder(java.net.URI.create(server.baseUrl() + "/chat/completions"))
                    .header("content-type", "application/json").POST(java.net.http.HttpRequest.BodyPublishers.ofString(body));
            if (key != null) {
                request.header("authorization", "Bearer " + key);
            }
            try {
                var response = http.send(request.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).isEqualTo(401);
                return new com.fasterxml.jackson.databind.ObjectMapper().readTree(response.body()).path("error");
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        };
        String body = "{\"model\":\"gpt-4.1-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}";
        var wrong = post.apply("sk-proj-abcdefghijklmnopqrstuvwxyz0123", body);
        assertThat(wrong.path("message").asText()).isEqualTo("Incorrect API key provided: sk-proj-**************************0123."
                + " You can find your API key at https://platform.openai.com/account/api-keys.");
        assertThat(wrong.path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(wrong.path("code").asText()).isEqualTo("invalid_api_key");
        assertThat(wrong.path("param").isNull()).isTrue();
        assertThat(post.apply("wrong", body).path("message").asText()).as("a short key is not shown whole")
                .startsWith("Incorrect API key provided: *****.");
        var missing = post.apply(null, body);
        assertThat(missing.path("message").asText()).isEqualTo("You didn't provide an API key. You need to provide your API"
                + " key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password"
                + " field (with blank username) if you're accessing the API from your browser and are prompted for a username"
                + " and password. You can obtain an API key from https://platform.openai.com/account/api-keys.");
        assertThat(missing.path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(missing.path("code").isNull()).as("no key is not an invalid one").isTrue();
    }

    private int drain(ChatCompletionCreateParams params) {
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(params)) {
            return (int) stream.stream().count();
        }
    }
}
