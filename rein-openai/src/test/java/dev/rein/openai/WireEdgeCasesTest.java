package dev.rein.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.run.RunStatus;
import dev.rein.testkit.openai.ChatReply;
import dev.rein.tool.Tool;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Documented promises at the edges of the wire format, each checked once (they held when written):
 * fragments joined by index when calls interleave, only the first choice read, an unknown
 * finish_reason taken as an end of turn, a whole completion with null content, a base URL with a
 * trailing slash, Japanese intact in every kind of error message, a tool call cut by length never
 * run, the non-streamed refusal and content_filter shapes, and a call with an empty arguments string.
 */
class WireEdgeCasesTest extends FakeChat {
    private static String chunk(String choices) {
        return "{\"id\":\"chatcmpl-e1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":" + choices + "}";
    }

    @Test
    void interleavedCallsAreJoinedByIndexEvenWhenASurrogatePairIsSplitBetweenFragments() throws Exception {
        // Id and name only in each call's first delta; fragments of two calls alternate; one call's
        // emoji arrives as two escaped surrogate halves in two chunks; a comment and a usage chunk
        // without choices (OpenRouter's ": OPENROUTER PROCESSING", include_usage) come in between.
        server.enqueue(new ChatReply.Malformed(": OPENROUTER PROCESSING\n\n\n" + events(
                chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"index\":0,\"id\":\"call_a\","
                        + "\"type\":\"function\",\"function\":{\"name\":\"search\",\"arguments\":\"\"}}]},\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"call_b\",\"type\":\"function\",\"function\":"
                        + "{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":\\\"\"}}]},\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"q\\\":\\\"東\"}}]},"
                        + "\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\"\\ud83d\"}}]},\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\"\\ude00\\\"}\"}}]},"
                        + "\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"京\\\"}\"}}]},\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]"),
                "{\"id\":\"chatcmpl-e1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[],\"usage\":"
                        + "{\"prompt_tokens\":10,\"completion_tokens\":5,\"total_tokens\":15,\"prompt_tokens_details\":{\"cached_tokens\":4},"
                        + "\"completion_tokens_details\":{\"reasoning_tokens\":2}}}",
                "[DONE]")));

        ModelResponse response = call(request("x").tools(List.of(tool("search"))));

        assertThat(response.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(response.toolUses()).extracting(ToolUseBlock::id).containsExactly("call_a", "call_b");
        assertThat(response.toolUses().get(0).input().get("q").asText()).isEqualTo("東京");
        assertThat(response.toolUses().get(1).input().get("q").asText()).isEqualTo("😀");
        assertThat(response.usage()).isEqualTo(Usage.of(6, 5, 4, 0).withReasoningOutputTokens(2));
        assertThat(stream.events).containsSubsequence("start:call_a:search", "start:call_b:search");
    }

    @Test
    void onlyTheFirstChoiceIsRead() throws Exception {
        server.enqueue(new ChatReply.Malformed(events(
                chunk("[{\"index\":0,\"delta\":{\"content\":\"一つ目\"},\"finish_reason\":null},"
                        + "{\"index\":1,\"delta\":{\"content\":\"二つ目\"},\"finish_reason\":null}]"),
                chunk("[{\"index\":1,\"delta\":{\"content\":\"!\"},\"finish_reason\":\"length\"}]"),
                chunk("[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]"),
                "[DONE]")));

        ModelResponse response = call(request("x"));

        assertThat(response.text()).isEqualTo("一つ目");
        assertThat(response.stopReason()).isEqualTo(StopReason.END_TURN);
    }

    @Test
    void aFinishReasonOutsideTheApisIsTakenAsAnEndOfTurn() {
        // Some compatible servers report "eos"; StopReason.UNKNOWN is handled like an end of turn.
        server.enqueue(new ChatReply.Malformed(events(
                chunk("[{\"index\":0,\"delta\":{\"content\":\"答えは391です。\"},\"finish_reason\":\"eos\"}]"), "[DONE]")));

        RunResult result = Agent.builder().model(model).modelName("gpt-4.1-mini").build().run("17 * 23?");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("答えは391です。");
    }

    @Test
    void aWholeCompletionWithNullContentAndToolCallsIsToolUse() throws Exception {
        ModelResponse response = callPlainServer("application/json", "{\"id\":\"chatcmpl-j1\",\"object\":\"chat.completion\","
                + "\"model\":\"m\",\"system_fingerprint\":\"fp_1\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                + "\"content\":null,\"refusal\":null,\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\",\"function\":"
                + "{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":\\\"日本\\\"}\"}}]},\"finish_reason\":\"tool_calls\"}]}");

        assertThat(response.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(response.text()).isEmpty();
        assertThat(response.toolUses()).singleElement().satisfies(use -> {
            assertThat(use.id()).isEqualTo("call_1");
            assertThat(use.input().get("q").asText()).isEqualTo("日本");
        });
        assertThat(response.usage().notReported()).isTrue();
    }

    @Test
    void aBaseUrlWithATrailingSlashStillPostsToChatCompletions() throws Exception {
        try (OpenAiModel slash = OpenAiModel.builder().baseUrl(server.baseUrl() + "/").environment(name -> null).build()) {
            server.enqueue(ChatReply.text("ok"));
            ModelResponse response = slash.call(request("x").build(), new ModelCallContext(Instant.now().plusSeconds(30), stream));
            assertThat(response.text()).isEqualTo("ok");
            assertThat(server.lastRequest().path()).isEqualTo("/v1/chat/completions");
        }
    }

    @Test
    void japaneseErrorMessagesArriveIntact() {
        server.enqueue(new ChatReply.HttpError(400, "invalid_request_error", null, "入力が長すぎます", Map.of(), null));
        assertThat(failure().getMessage()).isEqualTo("入力が長すぎます");
        server.enqueue(new ChatReply.HttpError(502, "x", null, "x", Map.of("content-type", "text/html; charset=utf-8"),
                "<html><body><h1>不正なゲートウェイ</h1></body></html>"));
        assertThat(failure().getMessage()).isEqualTo("HTTP 502 from the server at " + server.baseUrl() + ": 不正なゲートウェイ");
        server.enqueue(new ChatReply.HttpError(404, "x", null, "x", Map.of(), "{\"error\":\"モデルが見つかりません\"}"));
        assertThat(failure().getMessage()).isEqualTo("モデルが見つかりません");
        server.enqueue(new ChatReply.StreamError(ChatReply.text("部分的な答え"), 1, "server_error", "サーバーエラー"));
        assertThat(failure().getMessage()).endsWith("(server_error): サーバーエラー");
    }

    @Test
    void aToolCallCutByLengthIsNeverRunAndTheRunEndsMaxTokens() {
        // finish_reason "length" in the middle of a call's arguments: the cut call must not run.
        AtomicInteger runs = new AtomicInteger();
        Tool search = Tool.builder("search").description("Searches.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}")
                .handler((args, ctx) -> {
                    runs.incrementAndGet();
                    return "ok";
                }).build();
        server.enqueue(new ChatReply.Malformed(events(
                chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"index\":0,"
                        + "\"id\":\"call_l\",\"type\":\"function\",\"function\":{\"name\":\"search\",\"arguments\":\"\"}}]},"
                        + "\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"q\\\":\\\"東\"}}]},"
                        + "\"finish_reason\":\"length\"}]"),
                "[DONE]")));

        RunResult result = Agent.builder().model(model).modelName("gpt-4.1-mini").tools(search).build().run("東京を調べて");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo("max_tokens");
        assertThat(runs).hasValue(0);
    }

    @Test
    void aWholeCompletionsRefusalOrContentFilterIsARefusal() throws Exception {
        // The non-streamed shapes: message.refusal with null content, and finish_reason content_filter.
        ModelResponse refused = callPlainServer("application/json", "{\"id\":\"c\",\"object\":\"chat.completion\",\"model\":\"m\","
                + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":null,"
                + "\"refusal\":\"その依頼にはお応えできません。\"},\"finish_reason\":\"stop\"}]}");
        assertThat(refused.stopReason()).isEqualTo(StopReason.REFUSAL);
        assertThat(refused.text()).isEqualTo("その依頼にはお応えできません。");

        ModelResponse filtered = callPlainServer("application/json", "{\"id\":\"c\",\"object\":\"chat.completion\",\"model\":\"m\","
                + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Step 1\"},"
                + "\"finish_reason\":\"content_filter\"}]}");
        assertThat(filtered.stopReason()).isEqualTo(StopReason.REFUSAL);
        assertThat(filtered.stopDetail()).contains("content filter");
    }

    @Test
    void aCallWithAnEmptyArgumentsStringRunsItsToolWithAnEmptyObjectAndIsEchoedAsSent() {
        // A tool without parameters, whose call some servers send with "arguments": "" rather than "{}".
        AtomicReference<String> input = new AtomicReference<>();
        Tool now = Tool.builder("now").description("The time.").inputSchema("{\"type\":\"object\",\"properties\":{}}")
                .handler((args, ctx) -> {
                    input.set(args.toString());
                    return "12:00";
                }).build();
        server.enqueue(new ChatReply.Malformed(events(
                chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"index\":0,"
                        + "\"id\":\"call_e\",\"type\":\"function\",\"function\":{\"name\":\"now\",\"arguments\":\"\"}}]},"
                        + "\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]"),
                "[DONE]")), ChatReply.text("正午です"));

        RunResult result = Agent.builder().model(model).modelName("gpt-4.1-mini").tools(now).build().run("今何時?");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("正午です");
        assertThat(input.get()).isEqualTo("{}");
        JsonNode echoed = server.requests().get(1).body().path("messages").get(1).path("tool_calls").get(0);
        assertThat(echoed.path("function").path("arguments").asText()).isEmpty();
        assertThat(echoed.path("id").asText()).isEqualTo("call_e");
    }

    @Test
    void aToolCallsExtraContentIsEchoedBackWithTheCall() {
        // Gemini 3 on Google's OpenAI-compatible endpoint signs its function calls
        // (extra_content.google.thought_signature) and answers 400 'Function call is missing a
        // thought_signature in functionCall parts' to a history that echoes a call without it.
        Tool search = Tool.builder("search").description("Searches.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}")
                .handler((args, ctx) -> "晴れ").build();
        String extra = "{\"google\":{\"thought_signature\":\"CiQBjz1rX+署名==\"}}";
        server.enqueue(new ChatReply.Malformed(events(
                "{\"choices\":[{\"delta\":{\"role\":\"assistant\",\"tool_calls\":[{\"extra_content\":" + extra + ","
                        + "\"function\":{\"arguments\":\"{\\\"q\\\":\\\"東京\\\"}\",\"name\":\"search\"},\"id\":\"function-call-1\","
                        + "\"type\":\"function\"}]},\"finish_reason\":\"tool_calls\",\"index\":0}],\"created\":1,\"id\":\"g1\","
                        + "\"model\":\"gemini-3-pro-preview\",\"object\":\"chat.completion.chunk\"}",
                "[DONE]")), ChatReply.text("東京は晴れです"));

        RunResult result = Agent.builder().model(model).modelName("gemini-3-pro-preview")
                .price("gemini-3-pro-preview", dev.rein.budget.ModelPrice.of("0", "0", "0")).tools(search).build()
                .run("東京の天気は?");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        JsonNode echoed = server.requests().get(1).body().path("messages").get(1).path("tool_calls").get(0);
        assertThat(echoed.get("extra_content")).isEqualTo(dev.rein.json.Json.parse(extra));
        assertThat(echoed.path("id").asText()).isEqualTo("function-call-1");
        assertThat(echoed.path("function").path("arguments").asText()).isEqualTo("{\"q\":\"東京\"}");
    }

    @Test
    void aGemini3OnGooglesEndpointsGetsTheDocumentedSkipSignatureForACallNoGoogleHostHereSigned() {
        // Gemini 3 refuses a history whose function call comes without a thought signature (400 'Function call is missing
        // a thought_signature in functionCall parts'), and a signature goes back only to the host that made it: a run
        // resumed or falling back onto Gemini 3 from another provider, or between AI Studio and Vertex AI, failed at its
        // first request. Both docs give a value that skips the check for calls Gemini did not sign here:
        // "skip_thought_signature_validator" (ai.google.dev and Vertex AI's thought signatures pages).
        String aiStudio = "https://generativelanguage.googleapis.com/v1beta/openai/";
        String vertex = "https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/endpoints/openapi";
        JsonNode ownSignature = dev.rein.json.Json.parse("{\"google\":{\"thought_signature\":\"CiQB自分の\"}}");
        List<dev.rein.model.Message> history = List.of(dev.rein.model.Message.user("東京と大阪の天気は?"),
                dev.rein.model.Message.assistant(List.of(
                        new dev.rein.model.ToolUseBlock("toolu_01", "search", dev.rein.json.Json.parse("{\"q\":\"東京\"}")),
                        new dev.rein.model.ToolUseBlock("toolu_02", "search", dev.rein.json.Json.parse("{\"q\":\"大阪\"}")))),
                dev.rein.model.Message.user(List.of(new dev.rein.model.ToolResultBlock("toolu_01", "晴れ", false),
                        new dev.rein.model.ToolResultBlock("toolu_02", "雨", false))),
                dev.rein.model.Message.assistant(List.of(
                        new dev.rein.model.ToolUseBlock("call_v", "search", dev.rein.json.Json.parse("{\"q\":\"札幌\"}")),
                        ExtraContent.keep("call_v", ownSignature, Origin.of(vertex)))),
                dev.rein.model.Message.user(List.of(new dev.rein.model.ToolResultBlock("call_v", "雪", false))));
        for (String base : new String[] {aiStudio, vertex}) {
            for (String gemini : new String[] {"gemini-3-pro-preview", "google/gemini-3-flash-preview"}) {
                JsonNode messages = body(base, gemini, history).path("messages");
                JsonNode anthropicCalls = messages.get(1).path("tool_calls");
                assertThat(anthropicCalls.get(0).at("/extra_content/google/thought_signature").asText()).as(base + " " + gemini)
                        .isEqualTo("skip_thought_signature_validator");
                assertThat(anthropicCalls.get(1).has("extra_content")).as("a parallel call's signature is on the first only")
                        .isFalse();
                JsonNode vertexCall = messages.get(4).path("tool_calls").get(0);
                assertThat(vertexCall.get("extra_content")).as(base + " " + gemini).isEqualTo(base.equals(vertex) ? ownSignature
                        : dev.rein.json.Json.parse("{\"google\":{\"thought_signature\":\"skip_thought_signature_validator\"}}"));
            }
        }
        // Gemini 2.5 does not check signatures, and no other server or model gets a field outside the protocol.
        for (String[] other : new String[][] {{aiStudio, "gemini-2.5-flash"}, {vertex, "meta/llama-3.3-70b-instruct-maas"},
                {"https://api.openai.com/v1", "gpt-4.1"}, {"http://localhost:8000/v1", "gemini-3-pro-preview"}}) {
            JsonNode messages = body(other[0], other[1], history).path("messages");
            assertThat(messages.get(1).path("tool_calls").get(0).has("extra_content")).as(other[0] + " " + other[1]).isFalse();
            assertThat(messages.get(4).path("tool_calls").get(0).has("extra_content")).as(other[0] + " " + other[1])
                    .isEqualTo(other[0].equals(vertex)); // its own signature goes back to the host that made it, as before
        }
    }

    static JsonNode body(String baseUrl, String modelName, List<dev.rein.model.Message> history) {
        try (OpenAiModel google = OpenAiModel.builder().baseUrl(baseUrl).apiKey("key").environment(name -> null).build()) {
            return com.openai.core.ObjectMappers.jsonMapper().valueToTree(google.requests().body(dev.rein.model.ModelRequest
                    .builder(modelName).maxTokens(256).messages(history).tools(List.of(tool("search"))).build()));
        }
    }

    @Test
    void theReasoningOfAToolCallTurnIsEchoedBackWithItsCalls() {
        // DeepSeek's thinking mode (deepseek-reasoner) streams its reasoning as reasoning_content and
        // answers 400 'Missing `reasoning_content` field in the assistant message at message index 1'
        // to a history whose tool-call turn comes back without it (api-docs.deepseek.com, thinking
        // mode, tool calls).
        Tool search = Tool.builder("search").description("Searches.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}")
                .handler((args, ctx) -> "晴れ").build();
        server.enqueue(new ChatReply.Malformed(events(
                chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"reasoning_content\":\"天気を\"},"
                        + "\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"content\":null,\"reasoning_content\":\"調べる。\"},\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_r\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":\\\"東京\\\"}\"}}]},\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]"),
                "[DONE]")),
                // Then reasoning and a blank answer: the run nudges (a user message), and DeepSeek wants the reasoning
                // of every assistant message between two user messages with a tool call between them.
                new ChatReply.Malformed(events(
                        chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\" \",\"reasoning_content\":\"答える。\"},"
                                + "\"finish_reason\":\"stop\"}]"),
                        "[DONE]")),
                ChatReply.text("東京は晴れです"));

        RunResult result = Agent.builder().model(model).modelName("gpt-4.1-mini").tools(search).build().run("東京の天気は?");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("東京は晴れです");
        JsonNode assistant = server.requests().get(1).body().path("messages").get(1);
        assertThat(assistant.path("role").asText()).isEqualTo("assistant");
        assertThat(assistant.path("reasoning_content").asText()).isEqualTo("天気を調べる。");
        JsonNode third = server.requests().get(2).body().path("messages");
        assertThat(third.get(1).path("reasoning_content").asText()).isEqualTo("天気を調べる。");
        assertThat(third.get(3).path("role").asText()).isEqualTo("assistant");
        assertThat(third.get(3).path("reasoning_content").asText()).isEqualTo("答える。");
    }

    @Test
    void theReasoningOfATurnWithoutToolCallsIsNotSentBack() throws Exception {
        // DeepSeek's docs: between two user messages without a tool call the reasoning_content is not to be passed back
        // (deepseek-reasoner's guide: a request whose input messages carry it is refused with 400; thinking mode now
        // ignores it); between two with a tool call it must be, on every assistant message. A follow-up question to an
        // answer (rein reply, a chat) sent the first answer's reasoning back.
        server.enqueue(new ChatReply.Malformed(events(
                chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"9.8\",\"reasoning_content\":\"比べる。\"},"
                        + "\"finish_reason\":\"stop\"}]"),
                "[DONE]")));
        ModelResponse answer = call(dev.rein.model.ModelRequest.builder("deepseek-reasoner").maxTokens(256)
                .addMessage(dev.rein.model.Message.user("9.11 と 9.8 はどちらが大きい?")));
        server.enqueue(ChatReply.text("3"));
        call(dev.rein.model.ModelRequest.builder("deepseek-reasoner").maxTokens(256)
                .addMessage(dev.rein.model.Message.user("9.11 と 9.8 はどちらが大きい?"))
                .addMessage(answer.toHistoryMessage().orElseThrow())
                .addMessage(dev.rein.model.Message.user("strawberry に r はいくつ?")));
        JsonNode first = server.requests().get(1).body().path("messages").get(1);
        assertThat(first.path("content").asText()).isEqualTo("9.8");
        assertThat(first.has("reasoning_content")).as(first.toString()).isFalse();
    }

    @Test
    void fieldsOutsideTheProtocolGoBackOnlyToTheServerThatSentThem() throws Exception {
        // DeepSeek's reasoning_content, OpenRouter's reasoning_details and Gemini's extra_content are echoed back to the
        // server that sent them, which wants them; a fallback or resumed run on another server (Groq, Cerebras, the
        // public API) refuses them: 400 "'messages.1' : for 'role:assistant' the following must be satisfied
        // [('messages.1' : property 'reasoning_content' is unsupported)]", at that step and every later one.
        server.enqueue(new ChatReply.Malformed(events(
                chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"reasoning_content\":\"天気を調べる。\","
                        + "\"reasoning_details\":[{\"type\":\"reasoning.encrypted\",\"data\":\"CiQB\",\"index\":0}]},"
                        + "\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_r\",\"type\":\"function\","
                        + "\"extra_content\":{\"google\":{\"thought_signature\":\"sig\"}},"
                        + "\"function\":{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":\\\"東京\\\"}\"}}]},\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]"),
                "[DONE]")));
        ModelResponse first = call(request("東京の天気は?").tools(List.of(tool("search"))));
        List<dev.rein.model.Message> history = List.of(dev.rein.model.Message.user("東京の天気は?"),
                first.toHistoryMessage().orElseThrow(),
                dev.rein.model.Message.user(List.of(new dev.rein.model.ToolResultBlock("call_r", "晴れ", false))));

        try (dev.rein.testkit.openai.FakeChatCompletionsServer other = dev.rein.testkit.openai.FakeChatCompletionsServer.start();
             OpenAiModel fallback = OpenAiModel.builder().baseUrl(other.baseUrl()).environment(name -> null).build()) {
            other.enqueue(ChatReply.text("東京は晴れです"));
            fallback.call(dev.rein.model.ModelRequest.builder("llama-3.3-70b").maxTokens(256).messages(history)
                    .tools(List.of(tool("search"))).build(), new ModelCallContext(Instant.now().plusSeconds(30), stream));
            JsonNode assistant = other.requests().get(0).body().path("messages").get(1);
            assertThat(assistant.path("tool_calls").get(0).path("function").path("name").asText()).isEqualTo("search");
            assertThat(assistant.has("reasoning_content")).as(assistant.toString()).isFalse();
            assertThat(assistant.has("reasoning_details")).as(assistant.toString()).isFalse();
            assertThat(assistant.path("tool_calls").get(0).has("extra_content")).as(assistant.toString()).isFalse();
        }

        server.enqueue(ChatReply.text("東京は晴れです"));
        call(dev.rein.model.ModelRequest.builder("deepseek-reasoner").maxTokens(256).messages(history).tools(List.of(tool("search"))));
        JsonNode echoed = server.requests().get(1).body().path("messages").get(1);
        assertThat(echoed.path("reasoning_content").asText()).isEqualTo("天気を調べる。");
        assertThat(echoed.path("reasoning_details").get(0).path("data").asText()).isEqualTo("CiQB");
        assertThat(echoed.path("tool_calls").get(0).path("extra_content").path("google").path("thought_signature").asText())
                .isEqualTo("sig");
    }

    @Test
    void theReasoningOfADeepSeekOrKimiModelGoesBackToTheSameModelFamilyOnAnotherHost() throws Exception {
        // DeepSeek's and Moonshot's thinking modes refuse a tool-call turn without its reasoning_content (400 'Missing
        // reasoning_content field', 'thinking is enabled but reasoning_content is missing in assistant tool call message')
        // on every host that serves them (api.moonshot.ai, api.moonshot.cn, api.kimi.com/coding; DeepSeek's API and a
        // gateway of one's own): a fallback to the same family elsewhere needs it; another family (Groq's llama) never gets it.
        for (String[] pair : new String[][] {{"deepseek-reasoner", "deepseek-chat"}, {"kimi-k2-thinking", "kimi-for-coding"},
                {"deepseek-reasoner", "llama-3.3-70b"}, {"kimi-k2-thinking", "qwen3:8b"}}) {
            server.enqueue(new ChatReply.Malformed(events(
                    chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"reasoning_content\":\"天気を調べる。\"},"
                            + "\"finish_reason\":null}]").replace("\"model\":\"m\"", "\"model\":\"" + pair[0] + "\""),
                    chunk("[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_r\",\"type\":\"function\","
                            + "\"function\":{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":\\\"東京\\\"}\"}}]},\"finish_reason\":\"tool_calls\"}]"),
                    "[DONE]")));
            ModelResponse first = model.call(dev.rein.model.ModelRequest.builder(pair[0]).maxTokens(256)
                    .addMessage(dev.rein.model.Message.user("東京の天気は?")).tools(List.of(tool("search"))).build(),
                    new ModelCallContext(Instant.now().plusSeconds(30), stream));
            List<dev.rein.model.Message> history = List.of(dev.rein.model.Message.user("東京の天気は?"),
                    first.toHistoryMessage().orElseThrow(),
                    dev.rein.model.Message.user(List.of(new dev.rein.model.ToolResultBlock("call_r", "晴れ", false))));

            try (dev.rein.testkit.openai.FakeChatCompletionsServer other = dev.rein.testkit.openai.FakeChatCompletionsServer.start();
                 OpenAiModel fallback = OpenAiModel.builder().baseUrl(other.baseUrl()).environment(name -> null).build()) {
                other.enqueue(ChatReply.text("東京は晴れです"));
                fallback.call(dev.rein.model.ModelRequest.builder(pair[1]).maxTokens(256).messages(history)
                        .tools(List.of(tool("search"))).build(), new ModelCallContext(Instant.now().plusSeconds(30), stream));
                JsonNode assistant = other.requests().get(0).body().path("messages").get(1);
                boolean sameFamily = !pair[1].startsWith("llama") && !pair[1].startsWith("qwen");
                assertThat(assistant.path("reasoning_content").asText(null)).as(pair[0] + " -> " + pair[1])
                        .isEqualTo(sameFamily ? "天気を調べる。" : null);
            }
            // Groq and Cerebras refuse the field whatever model they serve (Groq served deepseek-r1-distill-llama-70b).
            for (String base : new String[] {"https://api.groq.com/openai/v1", "https://api.cerebras.ai/v1"}) {
                try (OpenAiModel refuses = OpenAiModel.builder().baseUrl(base).apiKey("key").environment(name -> null).build()) {
                    JsonNode body = com.openai.core.ObjectMappers.jsonMapper().valueToTree(refuses.requests().body(
                            dev.rein.model.ModelRequest.builder(pair[0].startsWith("deepseek") ? "deepseek-r1-distill-llama-70b"
                                    : "moonshotai/kimi-k2-instruct").maxTokens(256).messages(history).tools(List.of(tool("search")))
                                    .build()));
                    assertThat(body.at("/messages/1").has("reasoning_content")).as(base + " " + pair[0]).isFalse();
                }
            }
        }
    }

    /**
     * vLLM names the reasoning field {@code reasoning} now ("reasoning used to be called reasoning_content. To migrate,
     * directly replace reasoning_content with reasoning", its reasoning-outputs guide), in stream deltas and in a whole
     * message alike, and reads only {@code reasoning} on an assistant message of the input (its chat_utils), which it
     * hands the chat template for interleaved thinking. A DeepSeek or Kimi model served there (thinking mode) needs its
     * reasoning back on a tool-call turn, as on its makers' APIs; it was read only from {@code reasoning_content}, so
     * it was lost.
     */
    @Test
    void vllmsReasoningFieldIsKeptAndEchoedBackAsReasoningToADeepSeekOrKimiModel() throws Exception {
        String model = "deepseek-ai/DeepSeek-V3.1";
        String streamed = events(
                chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"reasoning\":\"天気を\"},"
                        + "\"finish_reason\":null}]").replace("\"model\":\"m\"", "\"model\":\"" + model + "\""),
                chunk("[{\"index\":0,\"delta\":{\"reasoning\":\"調べる。\"},\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_r\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":\\\"東京\\\"}\"}}]},\"finish_reason\":\"tool_calls\"}]"),
                "[DONE]");
        // the same answer as one chat.completion body (a server that ignores stream)
        String whole = "{\"id\":\"chatcmpl-w\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"" + model + "\","
                + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":null,\"reasoning\":\"天気を調べる。\","
                + "\"tool_calls\":[{\"id\":\"call_r\",\"type\":\"function\",\"function\":{\"name\":\"search\","
                + "\"arguments\":\"{\\\"q\\\":\\\"東京\\\"}\"}}]},\"finish_reason\":\"tool_calls\"}],"
                + "\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":5,\"total_tokens\":15}}";
        for (String body : new String[] {streamed, whole}) {
            server.enqueue(new ChatReply.Malformed(body)); // a body starting with { is read as one chat.completion
            ModelResponse first = call(dev.rein.model.ModelRequest.builder(model).maxTokens(256)
                    .addMessage(dev.rein.model.Message.user("東京の天気は?")).tools(List.of(tool("search"))));
            List<dev.rein.model.Message> history = List.of(dev.rein.model.Message.user("東京の天気は?"),
                    first.toHistoryMessage().orElseThrow(),
                    dev.rein.model.Message.user(List.of(new dev.rein.model.ToolResultBlock("call_r", "晴れ", false))));

            server.enqueue(ChatReply.text("東京は晴れです"));
            call(dev.rein.model.ModelRequest.builder(model).maxTokens(256).messages(history).tools(List.of(tool("search"))));
            JsonNode assistant = lastBody().path("messages").get(1);
            assertThat(assistant.path("reasoning").asText(null)).as(assistant.toString()).isEqualTo("天気を調べる。");
            assertThat(assistant.has("reasoning_content")).as("vLLM reads only reasoning").isFalse();

            // DeepSeek's own API (the same family on another host) takes it as reasoning_content
            try (dev.rein.testkit.openai.FakeChatCompletionsServer other = dev.rein.testkit.openai.FakeChatCompletionsServer.start();
                 OpenAiModel fallback = OpenAiModel.builder().baseUrl(other.baseUrl()).environment(name -> null).build()) {
                other.enqueue(ChatReply.text("東京は晴れです"));
                fallback.call(dev.rein.model.ModelRequest.builder("deepseek-chat").maxTokens(256).messages(history)
                        .tools(List.of(tool("search"))).build(), new ModelCallContext(Instant.now().plusSeconds(30), stream));
                JsonNode elsewhere = other.requests().get(0).body().path("messages").get(1);
                assertThat(elsewhere.path("reasoning_content").asText(null)).isEqualTo("天気を調べる。");
                assertThat(elsewhere.has("reasoning")).isFalse();
            }
        }
    }

    /**
     * GLM (Z.ai's thinking-mode guide: with interleaved thinking and tools, "thinking blocks should be explicitly preserved
     * and returned together with the tool results", since GLM-4.5) and MiniMax-M2 (MiniMax's tool-use guide: in multi-turn
     * function calls the complete assistant message, its reasoning included, must go back "to maintain the continuity of
     * the reasoning chain") on vLLM get their {@code reasoning} back on a tool-call turn, as DeepSeek and Kimi do; it went
     * back only to those two (it was not even kept).
     */
    @Test
    void vllmsReasoningGoesBackToAGlmOrMiniMaxModelOnAToolCallTurn() throws Exception {
        for (String model : new String[] {"zai-org/GLM-4.6", "MiniMaxAI/MiniMax-M2"}) {
            server.enqueue(new ChatReply.Malformed(events(
                    chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"reasoning\":\"天気を調べる。\"},"
                            + "\"finish_reason\":null}]").replace("\"model\":\"m\"", "\"model\":\"" + model + "\""),
                    chunk("[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_r\",\"type\":\"function\","
                            + "\"function\":{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":\\\"東京\\\"}\"}}]},\"finish_reason\":\"tool_calls\"}]"),
                    "[DONE]")));
            ModelResponse first = call(dev.rein.model.ModelRequest.builder(model).maxTokens(256)
                    .addMessage(dev.rein.model.Message.user("東京の天気は?")).tools(List.of(tool("search"))));
            List<dev.rein.model.Message> history = List.of(dev.rein.model.Message.user("東京の天気は?"),
                    first.toHistoryMessage().orElseThrow(),
                    dev.rein.model.Message.user(List.of(new dev.rein.model.ToolResultBlock("call_r", "晴れ", false))));

            server.enqueue(ChatReply.text("東京は晴れです"));
            call(dev.rein.model.ModelRequest.builder(model).maxTokens(256).messages(history).tools(List.of(tool("search"))));
            JsonNode assistant = lastBody().path("messages").get(1);
            assertThat(assistant.path("reasoning").asText(null)).as(model + ": " + assistant).isEqualTo("天気を調べる。");
            assertThat(assistant.has("reasoning_content")).as("vLLM reads only reasoning").isFalse();

        }
    }

    /**
     * MiniMax's own API (api.minimax.io, api.minimaxi.com) documents no {@code reasoning_content}, and {@code
     * reasoning_details} only with its non-standard {@code reasoning_split}, which Rein does not send: without it the
     * thinking is in {@code content}'s think tags, "preserved completely" (its OpenAI API guide), as MiniMax's model card
     * asks of every deployment ("passed back in its original format. Do not remove the {@code <think>...</think>} part").
     * vLLM reads only {@code reasoning} on an assistant message of the input. A MiniMax model's reasoning kept from one
     * host went to another as {@code reasoning_details} (MiniMax's API) or {@code reasoning_content} (vLLM, a gateway):
     * unread, so a fallback lost it; it now goes at the start of {@code content}, in the model's own think tags.
     */
    @Test
    void aMiniMaxModelsReasoningKeptElsewhereGoesBackInItsThinkTags() throws Exception {
        for (String field : new String[] {"reasoning", "reasoning_content"}) {
            server.enqueue(new ChatReply.Malformed(events(
                    chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"" + field + "\":\"天気を調べる。\"},"
                            + "\"finish_reason\":null}]").replace("\"model\":\"m\"", "\"model\":\"MiniMaxAI/MiniMax-M2\""),
                    chunk("[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_r\",\"type\":\"function\","
                            + "\"function\":{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":\\\"東京\\\"}\"}}]},\"finish_reason\":\"tool_calls\"}]"),
                    "[DONE]")));
            ModelResponse first = call(dev.rein.model.ModelRequest.builder("MiniMaxAI/MiniMax-M2").maxTokens(256)
                    .addMessage(dev.rein.model.Message.user("東京の天気は?")).tools(List.of(tool("search"))));
            List<dev.rein.model.Message> history = List.of(dev.rein.model.Message.user("東京の天気は?"),
                    first.toHistoryMessage().orElseThrow(),
                    dev.rein.model.Message.user(List.of(new dev.rein.model.ToolResultBlock("call_r", "晴れ", false))));
            for (String[] to : new String[][] {{"https://api.minimax.io/v1", "MiniMax-M2"}, {"https://api.minimaxi.com/v1", "MiniMax-M2"},
                    {"https://api.novita.ai/v3/openai", "minimax/minimax-m2"}, {"http://gpu-box:8000/v1", "MiniMaxAI/MiniMax-M2"}}) {
                JsonNode assistant = body(to[0], to[1], history).path("messages").get(1);
                assertThat(assistant.path("content").asText(null)).as(field + " -> " + to[0] + ": " + assistant)
                        .isEqualTo("<think>\n天気を調べる。\n</think>\n\n");
                assertThat(assistant.has("reasoning_details")).isFalse();
                assertThat(assistant.has("reasoning_content")).isFalse();
                assertThat(assistant.has("reasoning")).isFalse();
            }
        }
    }

    /**
     * A gateway (OpenRouter) sends a model's reasoning in {@code reasoning_details}, with the plain {@code reasoning}
     * beside it, and gets the details back; they go to that server only. For a model of a family whose reasoning goes
     * back wherever it is served (a MiniMax or DeepSeek model), a fallback to another host (vLLM, the family's own API)
     * lost it: the plain text was not kept, as the details carry it. The details' text now goes there as the family's
     * reasoning does; the gateway itself still gets only its details.
     */
    @Test
    void aFamilysReasoningSentInReasoningDetailsGoesToAnotherHostOfTheFamily() throws Exception {
        for (String[] model : new String[][] {{"minimax/minimax-m2", "MiniMaxAI/MiniMax-M2"}, {"deepseek/deepseek-r1", "deepseek-reasoner"}}) {
            server.enqueue(new ChatReply.Malformed(events(
                    chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"reasoning\":\"天気を\","
                            + "\"reasoning_details\":[{\"type\":\"reasoning.text\",\"index\":0,\"text\":\"天気を\"}]},"
                            + "\"finish_reason\":null}]").replace("\"model\":\"m\"", "\"model\":\"" + model[0] + "\""),
                    chunk("[{\"index\":0,\"delta\":{\"reasoning\":\"調べる。\",\"reasoning_details\":[{\"type\":\"reasoning.text\","
                            + "\"index\":0,\"text\":\"調べる。\"}]},\"finish_reason\":null}]"),
                    chunk("[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_r\",\"type\":\"function\","
                            + "\"function\":{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":\\\"東京\\\"}\"}}]},\"finish_reason\":\"tool_calls\"}]"),
                    "[DONE]")));
            ModelResponse first = call(dev.rein.model.ModelRequest.builder(model[0]).maxTokens(256)
                    .addMessage(dev.rein.model.Message.user("東京の天気は?")).tools(List.of(tool("search"))));
            List<dev.rein.model.Message> history = List.of(dev.rein.model.Message.user("東京の天気は?"),
                    first.toHistoryMessage().orElseThrow(),
                    dev.rein.model.Message.user(List.of(new dev.rein.model.ToolResultBlock("call_r", "晴れ", false))));

            server.enqueue(ChatReply.text("東京は晴れです"));
            call(dev.rein.model.ModelRequest.builder(model[0]).maxTokens(256).messages(history).tools(List.of(tool("search"))));
            JsonNode same = lastBody().path("messages").get(1);
            assertThat(same.path("reasoning_details").get(0).path("text").asText(null)).as(same.toString()).isEqualTo("天気を調べる。");
            assertThat(same.has("reasoning_content")).isFalse();
            assertThat(same.has("reasoning")).isFalse();

            JsonNode elsewhere = body(model[1].startsWith("deepseek") ? "https://api.deepseek.com/v1" : "http://gpu-box:8000/v1",
                    model[1], history).path("messages").get(1);
            assertThat(elsewhere.has("reasoning_details")).as(elsewhere.toString()).isFalse();
            if (model[1].startsWith("deepseek")) {
                assertThat(elsewhere.path("reasoning_content").asText(null)).as(elsewhere.toString()).isEqualTo("天気を調べる。");
            } else {
                assertThat(elsewhere.path("content").asText(null)).as(elsewhere.toString())
                        .isEqualTo("<think>\n天気を調べる。\n</think>\n\n");
            }
            // another model elsewhere gets none of it
            JsonNode other = body("https://api.openai.com/v1", "gpt-4.1-mini", history).path("messages").get(1);
            assertThat(other.has("reasoning_content") || other.has("reasoning_details") || !other.path("content").isNull())
                    .as(other.toString()).isFalse();
        }
    }

    /**
     * The plain reasoning of a model whose family wants none back (Qwen3 on vLLM, any model on Groq, which refuses the
     * field) is not kept: a response of only reasoning stays a turn without content, as before vLLM's name was read.
     */
    @Test
    void thePlainReasoningOfAnotherModelIsNotKept() throws Exception {
        server.enqueue(new ChatReply.Malformed(events(
                chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"reasoning\":\"考える。\"},"
                        + "\"finish_reason\":null}]").replace("\"model\":\"m\"", "\"model\":\"Qwen/Qwen3-8B\""),
                chunk("[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]"),
                "[DONE]")));
        ModelResponse response = call(dev.rein.model.ModelRequest.builder("Qwen/Qwen3-8B").maxTokens(256)
                .addMessage(dev.rein.model.Message.user("x")));
        assertThat(response.content()).isEmpty();
        assertThat(response.toHistoryMessage()).isEmpty();
    }

    /**
     * The reasoning a server streams (DeepSeek's reasoning_content, vLLM's and Groq's reasoning) reaches the stream
     * observer as thinking, apart from the text and once for a delta with both names, as Anthropic's thinking does
     * (fbd4fa33): a live view hears the model think; also for a model whose reasoning is not kept, and in a whole answer.
     */
    @Test
    void streamedReasoningReachesTheObserverAsThinkingApartFromTheText() throws Exception {
        server.enqueue(new ChatReply.Malformed(events(
                chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"reasoning_content\":\"天気を\"},"
                        + "\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"reasoning_content\":\"調べる。\",\"reasoning\":\"調べる。\"},\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"content\":\"晴れ\"},\"finish_reason\":\"stop\"}]"),
                "[DONE]")));
        call(dev.rein.model.ModelRequest.builder("deepseek-reasoner").maxTokens(256).addMessage(dev.rein.model.Message.user("x")));
        assertThat(stream.events).containsExactly("thinking:天気を", "thinking:調べる。", "text:晴れ");

        stream.events.clear();
        server.enqueue(new ChatReply.Malformed(events(
                chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"reasoning\":\"考える。\"},"
                        + "\"finish_reason\":null}]").replace("\"model\":\"m\"", "\"model\":\"Qwen/Qwen3-8B\""),
                chunk("[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]"),
                "[DONE]")));
        call(dev.rein.model.ModelRequest.builder("Qwen/Qwen3-8B").maxTokens(256).addMessage(dev.rein.model.Message.user("x")));
        assertThat(stream.events).containsExactly("thinking:考える。");

        stream.events.clear();
        server.enqueue(new ChatReply.Malformed("{\"id\":\"chatcmpl-w\",\"object\":\"chat.completion\",\"created\":1,"
                + "\"model\":\"deepseek-reasoner\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                + "\"content\":\"晴れ\",\"reasoning_content\":\"天気を調べる。\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":5,\"total_tokens\":15}}"));
        call(dev.rein.model.ModelRequest.builder("deepseek-reasoner").maxTokens(256).addMessage(dev.rein.model.Message.user("x")));
        assertThat(stream.events).containsExactlyInAnyOrder("thinking:天気を調べる。", "text:晴れ");
    }

    /**
     * Mistral's reasoning models stream their thinking as {@code {"type":"thinking","thinking":[{"type":"text",...}]}}
     * blocks of {@code content}: it reaches the observer as thinking, as other servers' reasoning fields do (bc3077c3),
     * apart from the answer's text; it was dropped unheard.
     */
    @Test
    void mistralsThinkingContentBlocksReachTheObserverAsThinking() throws Exception {
        server.enqueue(new ChatReply.Malformed(events(
                chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":[{\"type\":\"thinking\",\"thinking\":"
                        + "[{\"type\":\"text\",\"text\":\"天気を\"}]}]},\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"content\":[{\"type\":\"thinking\",\"thinking\":"
                        + "[{\"type\":\"text\",\"text\":\"調べる。\"}]}]},\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"content\":[{\"type\":\"text\",\"text\":\"晴れ\"}]},\"finish_reason\":\"stop\"}]"),
                "[DONE]")));
        ModelResponse response = call(dev.rein.model.ModelRequest.builder("magistral-medium-latest").maxTokens(256)
                .addMessage(dev.rein.model.Message.user("x")));
        assertThat(stream.events).containsExactly("thinking:天気を", "thinking:調べる。", "text:晴れ");
        assertThat(response.content()).containsExactly(new dev.rein.model.TextBlock("晴れ"));
    }

    /**
     * Reasoning sent only in {@code reasoning_details} (MiniMax's API with {@code reasoning_split}, a gateway passing
     * them on: {@code [{"type":"reasoning.text","text":...}]}, OpenRouter's {@code reasoning.summary}) reaches the observer
     * as thinking, fragment by fragment; an encrypted block has nothing to read. OpenRouter's plain {@code reasoning}
     * beside its details is heard once, not twice. It never reached the observer.
     */
    @Test
    void reasoningSentOnlyInReasoningDetailsReachesTheObserverAsThinking() throws Exception {
        server.enqueue(new ChatReply.Malformed(events(
                chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"reasoning_details\":"
                        + "[{\"type\":\"reasoning.text\",\"id\":\"r1\",\"format\":\"MiniMax-response-v1\",\"index\":0,"
                        + "\"text\":\"天気を\"}]},\"finish_reason\":null}]").replace("\"model\":\"m\"", "\"model\":\"MiniMax-M2\""),
                chunk("[{\"index\":0,\"delta\":{\"reasoning_details\":[{\"type\":\"reasoning.text\",\"index\":0,"
                        + "\"text\":\"調べる。\"}]},\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"reasoning_details\":[{\"type\":\"reasoning.summary\",\"index\":1,"
                        + "\"summary\":\"要約\"},{\"type\":\"reasoning.encrypted\",\"index\":2,\"data\":\"eyJ\"}]},"
                        + "\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"content\":\"晴れ\"},\"finish_reason\":\"stop\"}]"),
                "[DONE]")));
        ModelResponse response = call(dev.rein.model.ModelRequest.builder("MiniMax-M2").maxTokens(256)
                .addMessage(dev.rein.model.Message.user("x")));
        assertThat(stream.events).containsExactly("thinking:天気を", "thinking:調べる。", "thinking:要約", "text:晴れ");
        assertThat(response.text()).isEqualTo("晴れ");

        // OpenRouter: the plain reasoning and the details carry the same text
        stream.events.clear();
        server.enqueue(new ChatReply.Malformed(events(
                chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"reasoning\":\"考える。\","
                        + "\"reasoning_details\":[{\"type\":\"reasoning.text\",\"index\":0,\"text\":\"考える。\"}]},"
                        + "\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"content\":\"晴れ\"},\"finish_reason\":\"stop\"}]"),
                "[DONE]")));
        call(dev.rein.model.ModelRequest.builder("anthropic/claude-sonnet-4.5").maxTokens(256)
                .addMessage(dev.rein.model.Message.user("x")));
        assertThat(stream.events).containsExactly("thinking:考える。", "text:晴れ");
    }

    /** A server between the two names sends both with the same text: read once, echoed under the older name as before. */
    @Test
    void aDeltaWithBothReasoningFieldsIsReadOnce() throws Exception {
        server.enqueue(new ChatReply.Malformed(events(
                chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"reasoning_content\":\"天気を\","
                        + "\"reasoning\":\"天気を\"},\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_r\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"search\",\"arguments\":\"{}\"}}]},\"finish_reason\":\"tool_calls\"}]"),
                "[DONE]")));
        ModelResponse first = call(dev.rein.model.ModelRequest.builder("deepseek-reasoner").maxTokens(256)
                .addMessage(dev.rein.model.Message.user("東京の天気は?")).tools(List.of(tool("search"))));
        server.enqueue(ChatReply.text("晴れ"));
        call(dev.rein.model.ModelRequest.builder("deepseek-reasoner").maxTokens(256).messages(List.of(
                dev.rein.model.Message.user("東京の天気は?"), first.toHistoryMessage().orElseThrow(),
                dev.rein.model.Message.user(List.of(new dev.rein.model.ToolResultBlock("call_r", "晴れ", false)))))
                .tools(List.of(tool("search"))));
        JsonNode assistant = lastBody().path("messages").get(1);
        assertThat(assistant.path("reasoning_content").asText(null)).isEqualTo("天気を");
        assertThat(assistant.has("reasoning")).isFalse();
    }

    @Test
    void openRoutersReasoningDetailsAreJoinedAndEchoedBackWithTheCalls() {
        // openrouter.ai/docs, reasoning tokens, preserving reasoning blocks: reasoning_details must come back on the
        // assistant message when tool calls go on; Gemini 3 through OpenRouter refuses the next request without its
        // encrypted block (400 'Function call is missing a thought_signature'). Streamed, a block comes in fragments
        // with the same index: text joined, a signature from a later fragment kept.
        Tool search = Tool.builder("search").description("Searches.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}")
                .handler((args, ctx) -> "晴れ").build();
        server.enqueue(new ChatReply.Malformed(events(
                chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"reasoning\":\"天気を\","
                        + "\"reasoning_details\":[{\"type\":\"reasoning.text\",\"text\":\"天気を\",\"format\":\"anthropic-claude-v1\","
                        + "\"index\":0}]},\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"content\":\"\",\"reasoning\":\"調べる。\",\"reasoning_details\":[{\"type\":"
                        + "\"reasoning.text\",\"text\":\"調べる。\",\"format\":\"anthropic-claude-v1\",\"index\":0}]},\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"content\":\"\",\"reasoning_details\":[{\"type\":\"reasoning.text\",\"text\":\"\","
                        + "\"signature\":\"sig-1\",\"format\":\"anthropic-claude-v1\",\"index\":0}]},\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"reasoning_details\":[{\"type\":\"reasoning.encrypted\",\"data\":\"CiQB\","
                        + "\"id\":\"tool_search_1\",\"format\":\"google-gemini-v1\",\"index\":1}],\"tool_calls\":[{\"index\":0,"
                        + "\"id\":\"tool_search_1\",\"type\":\"function\",\"function\":{\"name\":\"search\","
                        + "\"arguments\":\"{\\\"q\\\":\\\"東京\\\"}\"}}]},\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]"),
                "[DONE]")),
                // Only the plain reasoning text (Groq sends it so, and refuses it back: "property 'reasoning' is
                // unsupported"): nothing to echo.
                new ChatReply.Malformed(events(
                        chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"reasoning\":\"もう一度。\","
                                + "\"tool_calls\":[{\"index\":0,\"id\":\"call_2\",\"type\":\"function\",\"function\":{\"name\":"
                                + "\"search\",\"arguments\":\"{}\"}}]},\"finish_reason\":\"tool_calls\"}]"),
                        "[DONE]")),
                ChatReply.text("東京は晴れです"));

        RunResult result = Agent.builder().model(model).modelName("gpt-4.1-mini").tools(search).build().run("東京の天気は?");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        JsonNode assistant = server.requests().get(1).body().path("messages").get(1);
        assertThat(assistant.path("role").asText()).isEqualTo("assistant");
        assertThat(assistant.path("reasoning_details")).isEqualTo(dev.rein.json.Json.parse("[{\"type\":\"reasoning.text\","
                + "\"text\":\"天気を調べる。\",\"format\":\"anthropic-claude-v1\",\"index\":0,\"signature\":\"sig-1\"},"
                + "{\"type\":\"reasoning.encrypted\",\"data\":\"CiQB\",\"id\":\"tool_search_1\",\"format\":\"google-gemini-v1\","
                + "\"index\":1}]"));
        assertThat(assistant.has("reasoning")).as("the details carry it, as OpenRouter's example echoes them alone").isFalse();
        JsonNode third = server.requests().get(2).body().path("messages");
        assertThat(third.get(1).path("reasoning_details").size()).isEqualTo(2);
        assertThat(third.get(3).has("reasoning")).isFalse();
        assertThat(third.get(3).has("reasoning_details")).isFalse();
    }

    /**
     * OpenRouter documents {@code index} as optional and "the complete reasoning sequence is built by concatenating all
     * chunks in order"; a server that streams reasoning without it (MiniMax's {@code reasoning_split}, a gateway passing
     * fragments on) sends one block in many fragments, which OpenRouter's own AI SDK provider joins while they are
     * {@code reasoning.text}. They were kept as one block each and echoed back so, a sequence the model never produced
     * (a signed block's text split from its signature). Consecutive text fragments without an index now make one
     * block until one is signed or another id starts; an encrypted block is whole in its fragment and stays apart.
     */
    @Test
    void unindexedReasoningDetailsFragmentsAreJoinedIntoTheirBlock() throws Exception {
        server.enqueue(new ChatReply.Malformed(events(
                chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"reasoning_details\":"
                        + "[{\"type\":\"reasoning.text\",\"id\":\"r1\",\"format\":\"anthropic-claude-v1\",\"text\":\"天気を\"}]},"
                        + "\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"reasoning_details\":[{\"type\":\"reasoning.text\",\"text\":\"調べる。\"}]},"
                        + "\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"reasoning_details\":[{\"type\":\"reasoning.text\",\"id\":\"r1\",\"text\":\"\","
                        + "\"signature\":\"sig-1\"}]},\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"reasoning_details\":[{\"type\":\"reasoning.text\",\"text\":\"東京を\"}]},"
                        + "\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"reasoning_details\":[{\"type\":\"reasoning.text\",\"text\":\"選ぶ。\"},"
                        + "{\"type\":\"reasoning.encrypted\",\"data\":\"CiQB\"},{\"type\":\"reasoning.encrypted\",\"data\":\"CiQC\"}]},"
                        + "\"finish_reason\":null}]"),
                chunk("[{\"index\":0,\"delta\":{\"reasoning_details\":[{\"type\":\"reasoning.text\",\"id\":\"r3\",\"text\":\"次。\"},"
                        + "{\"type\":\"reasoning.text\",\"id\":\"r4\",\"text\":\"別。\"}],"
                        + "\"tool_calls\":[{\"index\":0,\"id\":\"call_r\",\"type\":\"function\",\"function\":{\"name\":\"search\","
                        + "\"arguments\":\"{}\"}}]},\"finish_reason\":\"tool_calls\"}]"),
                "[DONE]")));
        ModelResponse first = call(dev.rein.model.ModelRequest.builder("anthropic/claude-sonnet-4.5").maxTokens(256)
                .addMessage(dev.rein.model.Message.user("東京の天気は?")).tools(List.of(tool("search"))));
        server.enqueue(ChatReply.text("晴れ"));
        call(dev.rein.model.ModelRequest.builder("anthropic/claude-sonnet-4.5").maxTokens(256).messages(List.of(
                dev.rein.model.Message.user("東京の天気は?"), first.toHistoryMessage().orElseThrow(),
                dev.rein.model.Message.user(List.of(new dev.rein.model.ToolResultBlock("call_r", "晴れ", false)))))
                .tools(List.of(tool("search"))));

        JsonNode assistant = lastBody().path("messages").get(1);
        assertThat(assistant.path("reasoning_details")).as(assistant.toString()).isEqualTo(dev.rein.json.Json.parse("["
                + "{\"type\":\"reasoning.text\",\"id\":\"r1\",\"format\":\"anthropic-claude-v1\",\"text\":\"天気を調べる。\","
                + "\"signature\":\"sig-1\"},"
                + "{\"type\":\"reasoning.text\",\"text\":\"東京を選ぶ。\"},"
                + "{\"type\":\"reasoning.encrypted\",\"data\":\"CiQB\"},{\"type\":\"reasoning.encrypted\",\"data\":\"CiQC\"},"
                + "{\"type\":\"reasoning.text\",\"id\":\"r3\",\"text\":\"次。\"},{\"type\":\"reasoning.text\",\"id\":\"r4\",\"text\":\"別。\"}]"));

        // a whole message's list is blocks, never joined
        ModelResponse whole = callPlainServer("application/json", "{\"id\":\"c\",\"object\":\"chat.completion\",\"model\":\"m\","
                + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"晴れ\",\"reasoning_details\":["
                + "{\"type\":\"reasoning.text\",\"text\":\"一。\"},{\"type\":\"reasoning.text\",\"text\":\"二。\"}]},"
                + "\"finish_reason\":\"stop\"}]}");
        JsonNode kept = whole.content().stream().filter(b -> b instanceof dev.rein.model.OpaqueBlock o
                && o.type().equals(ReasoningDetails.TYPE)).map(b -> ((dev.rein.model.OpaqueBlock) b).json()).findFirst().orElseThrow();
        assertThat(kept.path("reasoning_details").size()).as(kept.toString()).isEqualTo(2);
    }

    private ModelException failure() {
        ModelException e = catchThrowableOfType(ModelException.class, () -> call(request("x")));
        assertThat(e).as("the call failed").isNotNull();
        return e;
    }
}
