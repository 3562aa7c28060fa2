package dev.rein.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.run.RunStatus;
import dev.rein.testkit.openai.ChatReply;
import dev.rein.testkit.openai.FakeChatCompletionsServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What comes back: text, parallel tool calls assembled from argument deltas, stop reasons and usage. */
class ResponseMappingTest extends FakeChat {

    @Test
    void textStreamsToTheObserverAndUsageSplitsCachedInput() throws Exception {
        server.enqueue(ChatReply.completion().text("配送は遅れています。Weather.").usage(1200, 30, 1000).build());

        ModelResponse response = call(request("why?"));

        assertThat(response.text()).isEqualTo("配送は遅れています。Weather.");
        assertThat(response.stopReason()).isEqualTo(StopReason.END_TURN);
        assertThat(response.id()).isEqualTo("chatcmpl-fake001");
        assertThat(response.model()).isEqualTo("gpt-test");
        assertThat(response.usage()).isEqualTo(Usage.of(200, 30, 1000, 0));
        assertThat(stream.text()).isEqualTo("配送は遅れています。Weather.");
        assertThat(stream.events.size()).as("more than one delta").isGreaterThan(1);
    }

    @Test
    void outputTokensLeftOutOfCompletionTokensButCountedInTheTotalAreOutputToo() throws Exception {
        // Google's OpenAI-compatible endpoint (Gemini thinking models) puts usage in every chunk and leaves the
        // thinking tokens out of completion_tokens, though total_tokens counts them and they are billed as
        // output (prompt 9, completion 3, total 105: 93 thinking tokens). OpenAI counts reasoning tokens in
        // completion_tokens, so for it the total is the sum and nothing changes.
        String chunk = "{\"id\":\"g1\",\"object\":\"chat.completion.chunk\",\"model\":\"gemini-3-flash-preview\",";
        server.enqueue(new ChatReply.Malformed(events(
                chunk + "\"choices\":[{\"delta\":{\"content\":\"1\",\"role\":\"assistant\"},\"index\":0}],"
                        + "\"usage\":{\"completion_tokens\":1,\"prompt_tokens\":9,\"total_tokens\":103}}",
                chunk + "\"choices\":[{\"delta\":{\"content\":\", 2\"},\"finish_reason\":\"stop\",\"index\":0}],"
                        + "\"usage\":{\"completion_tokens\":3,\"prompt_tokens\":9,\"total_tokens\":105}}",
                "[DONE]")));
        assertThat(call(request("x")).usage()).isEqualTo(Usage.of(9, 96, 0, 0));

        // A total below the sum (or none) takes nothing away: completion_tokens stands.
        server.enqueue(new ChatReply.Malformed(events(
                chunk + "\"choices\":[{\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\",\"index\":0}],"
                        + "\"usage\":{\"completion_tokens\":5,\"prompt_tokens\":20,\"total_tokens\":20}}",
                "[DONE]")));
        assertThat(call(request("x")).usage()).isEqualTo(Usage.of(20, 5, 0, 0));
    }

    @Test
    void deepSeeksCacheHitsAreCacheReadsAsOpenAisCachedTokensAre() throws Exception {
        // DeepSeek reports its context cache in usage fields of its own (api-docs.deepseek.com, context caching:
        // prompt_cache_hit_tokens + prompt_cache_miss_tokens = prompt_tokens), billed at its cache-hit price; read only as
        // prompt_tokens, every hit was charged as uncached input (several times the price), so --max-cost-usd stopped runs early.
        String chunk = "{\"id\":\"d1\",\"object\":\"chat.completion.chunk\",\"model\":\"deepseek-chat\",";
        server.enqueue(new ChatReply.Malformed(events(
                chunk + "\"choices\":[{\"delta\":{\"content\":\"ok\",\"role\":\"assistant\"},\"finish_reason\":\"stop\",\"index\":0}]}",
                chunk + "\"choices\":[],\"usage\":{\"completion_tokens\":5,\"prompt_tokens\":1000,\"prompt_cache_hit_tokens\":900,"
                        + "\"prompt_cache_miss_tokens\":100,\"total_tokens\":1005,\"completion_tokens_details\":{\"reasoning_tokens\":0}}}",
                "[DONE]")));
        assertThat(call(request("x")).usage()).isEqualTo(Usage.of(100, 5, 900, 0));

        // Where both are given, OpenAI's cached_tokens stands.
        server.enqueue(new ChatReply.Malformed(events(
                chunk + "\"choices\":[{\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\",\"index\":0}],\"usage\":"
                        + "{\"completion_tokens\":5,\"prompt_tokens\":1000,\"prompt_tokens_details\":{\"cached_tokens\":800},"
                        + "\"prompt_cache_hit_tokens\":800,\"prompt_cache_miss_tokens\":200,\"total_tokens\":1005}}",
                "[DONE]")));
        assertThat(call(request("x")).usage()).isEqualTo(Usage.of(200, 5, 800, 0));
    }

    /**
     * The finish_reason as the server sent it is kept as the response's providerStopReason: mapped,
     * Mistral's model_length is MODEL_CONTEXT_WINDOW_EXCEEDED and a value Rein does not know UNKNOWN,
     * which alone would not say what the server said. A stream without one has none.
     */
    @Test
    void theServersOwnFinishReasonIsKeptBesideTheMappedStopReason() throws Exception {
        String chunk = "{\"id\":\"m1\",\"object\":\"chat.completion.chunk\",\"model\":\"magistral-medium\",\"choices\":";
        for (String[] sent : new String[][] {{"model_length", "MODEL_CONTEXT_WINDOW_EXCEEDED"}, {"eos", "UNKNOWN"},
                {"content_filter", "REFUSAL"}, {"stop", "END_TURN"}}) {
            server.enqueue(new ChatReply.Malformed(events(
                    chunk + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"長い\"},\"finish_reason\":\""
                            + sent[0] + "\"}]}",
                    "[DONE]")));
            ModelResponse response = call(request("x"));
            assertThat(response.stopReason()).hasToString(sent[1]);
            assertThat(response.providerStopReason()).isEqualTo(sent[0]);
        }
        server.enqueue(new ChatReply.Malformed(events(
                chunk + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"長い\"},\"finish_reason\":null}]}",
                "[DONE]")));
        ModelResponse none = call(request("x"));
        assertThat(none.stopReason()).isEqualTo(StopReason.UNKNOWN);
        assertThat(none.providerStopReason()).isNull();

        // An empty finish_reason, as older Ollama and SGLang send on every chunk (ollama#4357, sglang#3912), is none: it
        // neither names a reason nor replaces one that came; a message of tool calls without one asks for the tools.
        server.enqueue(new ChatReply.Malformed(events(
                chunk + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,\"id\":\"call_1\","
                        + "\"type\":\"function\",\"function\":{\"name\":\"search\",\"arguments\":\"{}\"}}]},\"finish_reason\":\"\"}]}",
                chunk + "[{\"index\":0,\"delta\":{},\"finish_reason\":\"\"}]}",
                "[DONE]")));
        ModelResponse empty = call(request("x"));
        assertThat(empty.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(empty.providerStopReason()).isNull();
        server.enqueue(new ChatReply.Malformed(events(
                chunk + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"長い\"},\"finish_reason\":\"length\"}]}",
                chunk + "[{\"index\":0,\"delta\":{},\"finish_reason\":\"\"}]}",
                "[DONE]")));
        ModelResponse kept = call(request("x"));
        assertThat(kept.stopReason()).isEqualTo(StopReason.MAX_TOKENS);
        assertThat(kept.providerStopReason()).isEqualTo("length");
    }

    @Test
    void theFinishReasonsOfCompatibleApisForAFailedOrOverfullGenerationAreNoAnswer() throws Exception {
        // Mistral's and OpenRouter's "error" (the generation failed mid-way) and Mistral's "model_length"
        // (the model's context is full): read as an end of turn, the cut text was taken as the answer.
        String chunk = "{\"id\":\"m1\",\"object\":\"chat.completion.chunk\",\"model\":\"mistral-large\",\"choices\":";
        server.enqueue(new ChatReply.Malformed(events(
                chunk + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"手順1: \"},\"finish_reason\":null}]}",
                chunk + "[{\"index\":0,\"delta\":{\"content\":\"\"},\"finish_reason\":\"error\","
                        + "\"native_finish_reason\":\"MALFORMED_FUNCTION_CALL\"}]}",
                "[DONE]")));
        dev.rein.model.ModelException failed = org.assertj.core.api.Assertions.catchThrowableOfType(
                dev.rein.model.ModelException.class, () -> call(request("x")));
        assertThat(failed).isNotNull();
        assertThat(failed.retryable()).isTrue();
        assertThat(failed.getMessage()).contains("finish_reason error").contains("MALFORMED_FUNCTION_CALL");

        server.enqueue(new ChatReply.Malformed(events(
                chunk + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"長い\"},\"finish_reason\":\"model_length\"}]}",
                "[DONE]")));
        assertThat(call(request("x")).stopReason()).isEqualTo(StopReason.MODEL_CONTEXT_WINDOW_EXCEEDED);

        // vLLM ends a stream its engine aborted (a shutdown, a pause, an abort request) with finish_reason "abort"
        // and then data: [DONE] (vllm#57082): what came is cut, no answer; another attempt may be served.
        String vllm = "{\"id\":\"v1\",\"object\":\"chat.completion.chunk\",\"model\":\"Qwen/Qwen3-8B\",\"choices\":";
        server.enqueue(new ChatReply.Malformed(events(
                vllm + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"東京の天気は\"},\"finish_reason\":null}]}",
                vllm + "[{\"index\":0,\"delta\":{\"content\":\"\"},\"finish_reason\":\"abort\"}]}",
                "[DONE]")));
        dev.rein.model.ModelException aborted = org.assertj.core.api.Assertions.catchThrowableOfType(
                dev.rein.model.ModelException.class, () -> call(request("x")));
        assertThat(aborted).as("a cut generation is not an answer").isNotNull();
        assertThat(aborted.retryable()).isTrue();
        assertThat(aborted.getMessage()).contains("finish_reason abort");

        // DeepSeek's "insufficient_system_resource": the generation was interrupted for lack of inference resources
        // (api-docs.deepseek.com, create chat completion, finish_reason).
        String deepseek = "{\"id\":\"d1\",\"object\":\"chat.completion.chunk\",\"model\":\"deepseek-chat\",\"choices\":";
        server.enqueue(new ChatReply.Malformed(events(
                deepseek + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"手順1\"},\"finish_reason\":null}]}",
                deepseek + "[{\"index\":0,\"delta\":{\"content\":\"\"},\"finish_reason\":\"insufficient_system_resource\"}]}",
                "[DONE]")));
        dev.rein.model.ModelException interrupted = org.assertj.core.api.Assertions.catchThrowableOfType(
                dev.rein.model.ModelException.class, () -> call(request("x")));
        assertThat(interrupted).as("a cut generation is not an answer").isNotNull();
        assertThat(interrupted.retryable()).isTrue();
        assertThat(interrupted.getMessage()).contains("finish_reason insufficient_system_resource");
    }

    @Test
    void anErrorInsideAChoiceFailsTheCallWithItsMessageAndIsClassifiedByItsCode() throws Exception {
        // OpenRouter's choices carry an error of their own (NonStreamingChoice / StreamingChoice: error?: {code, message,
        // metadata}) when the generation failed after HTTP 200: its message is what went wrong, its code an HTTP status.
        String chunk = "{\"id\":\"gen-1\",\"object\":\"chat.completion.chunk\",\"model\":\"openai/gpt-4o\",\"choices\":";
        server.enqueue(new ChatReply.Malformed(events(
                chunk + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"東京の\"},\"finish_reason\":null}]}",
                chunk + "[{\"index\":0,\"delta\":{\"content\":\"\"},\"finish_reason\":null,"
                        + "\"error\":{\"code\":502,\"message\":\"Provider disconnected unexpectedly\"}}]}",
                "[DONE]")));
        dev.rein.model.ModelException streamed = org.assertj.core.api.Assertions.catchThrowableOfType(
                dev.rein.model.ModelException.class, () -> call(request("x")));
        assertThat(streamed).as("a failed generation is no answer").isNotNull();
        assertThat(streamed.getMessage()).contains("Provider disconnected unexpectedly");
        assertThat(streamed.retryable()).isTrue();

        // The whole-body form, with finish_reason error: the provider's message, not only the finish reason.
        server.enqueue(new ChatReply.Malformed("{\"id\":\"gen-2\",\"object\":\"chat.completion\",\"model\":\"openai/gpt-4o\","
                + "\"choices\":[{\"index\":0,\"finish_reason\":\"error\",\"native_finish_reason\":\"error\","
                + "\"message\":{\"role\":\"assistant\",\"content\":\"\"},"
                + "\"error\":{\"code\":429,\"message\":\"Rate limit exceeded: upstream provider\"}}]}"));
        dev.rein.model.ModelException whole = org.assertj.core.api.Assertions.catchThrowableOfType(
                dev.rein.model.ModelException.class, () -> call(request("x")));
        assertThat(whole).isNotNull();
        assertThat(whole.getMessage()).contains("Rate limit exceeded: upstream provider");
        assertThat(whole.kind()).isEqualTo(dev.rein.model.ModelException.Kind.RATE_LIMITED);
        assertThat(whole.retryable()).isTrue();

        // A code that is a final status stays final, as for an error chunk.
        server.enqueue(new ChatReply.Malformed(events(
                chunk + "[{\"index\":0,\"delta\":{\"content\":\"\"},\"finish_reason\":\"error\","
                        + "\"error\":{\"code\":400,\"message\":\"Input too long for the provider\"}}]}",
                "[DONE]")));
        dev.rein.model.ModelException invalid = org.assertj.core.api.Assertions.catchThrowableOfType(
                dev.rein.model.ModelException.class, () -> call(request("x")));
        assertThat(invalid).isNotNull();
        assertThat(invalid.getMessage()).contains("Input too long for the provider");
        assertThat(invalid.retryable()).isFalse();
    }

    @Test
    void anAnswerSentAsAListOfContentBlocksIsReadFromItsTextBlocks() throws Exception {
        // Mistral's reasoning models (magistral, mistral-small with reasoning_effort) send content as a list of
        // blocks, thinking first ({"type":"thinking","thinking":[{"type":"text",...}]}) then the answer
        // ({"type":"text"}), streamed and whole. Read as text only when a string, the answer was lost and the
        // run ended FAILED/empty_answer, blaming the model. The thinking is not the answer and is left out.
        String chunk = "{\"id\":\"m2\",\"object\":\"chat.completion.chunk\",\"model\":\"magistral-medium-latest\",\"choices\":";
        server.enqueue(new ChatReply.Malformed(events(
                chunk + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":[{\"type\":\"thinking\",\"thinking\":"
                        + "[{\"type\":\"text\",\"text\":\"17かける23は\"}]}]},\"finish_reason\":null}]}",
                chunk + "[{\"index\":0,\"delta\":{\"content\":[{\"type\":\"text\",\"text\":\"答えは\"}]},\"finish_reason\":null}]}",
                chunk + "[{\"index\":0,\"delta\":{\"content\":\"391です。\"},\"finish_reason\":\"stop\"}]}",
                "[DONE]")));

        ModelResponse streamed = call(request("17*23?"));

        assertThat(streamed.text()).isEqualTo("答えは391です。");
        assertThat(streamed.stopReason()).isEqualTo(StopReason.END_TURN);
        assertThat(stream.text()).as("the answer reaches the live view, the thinking does not").isEqualTo("答えは391です。");

        ModelResponse whole = callPlainServer("application/json", "{\"id\":\"m3\",\"object\":\"chat.completion\",\"choices\":"
                + "[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"thinking\",\"thinking\":"
                + "[{\"type\":\"text\",\"text\":\"考える\"}]},{\"type\":\"text\",\"text\":\"大阪は雨\"}]},\"finish_reason\":\"stop\"}]}");
        assertThat(whole.text()).isEqualTo("大阪は雨");
    }

    @Test
    void parallelToolCallsAreAssembledByIndexInCallOrder() throws Exception {
        server.enqueue(ChatReply.completion().text("Looking.")
                .toolCall("call_a", "search", "{\"q\":\"first long query text\"}")
                .toolCall("call_b", "search", "{\"q\":\"二番目\"}").build());

        ModelResponse response = call(request("x").tools(List.of(tool("search"))));

        assertThat(response.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(response.content().get(0)).isEqualTo(new TextBlock("Looking."));
        List<ToolUseBlock> uses = response.toolUses();
        assertThat(uses).extracting(ToolUseBlock::id).containsExactly("call_a", "call_b");
        assertThat(uses.get(0).input().get("q").asText()).isEqualTo("first long query text");
        assertThat(uses.get(1).input().get("q").asText()).isEqualTo("二番目");
        assertThat(stream.events).contains("start:call_a:search", "start:call_b:search");
        assertThat(String.join("", stream.events.stream().filter(e -> e.startsWith("input:call_b:"))
                .map(e -> e.substring("input:call_b:".length())).toList())).isEqualTo("{\"q\":\"二番目\"}");
    }

    @Test
    void anAzurePromptFilterChunkWithEmptyIdAndModelDoesNotNameTheResponse() throws Exception {
        // Azure OpenAI streams the prompt's content-filter results first: no choices, id and model "".
        server.enqueue(new ChatReply.Malformed(events(
                "{\"choices\":[],\"created\":0,\"id\":\"\",\"model\":\"\",\"object\":\"\",\"prompt_filter_results\":"
                        + "[{\"prompt_index\":0,\"content_filter_results\":{}}]}",
                "{\"id\":\"chatcmpl-az1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o-2024-08-06\","
                        + "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hi\"},\"finish_reason\":null}]}",
                "{\"id\":\"chatcmpl-az1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o-2024-08-06\","
                        + "\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}",
                "[DONE]")));

        ModelResponse response = call(request("x"));

        assertThat(response.text()).isEqualTo("Hi");
        assertThat(response.id()).isEqualTo("chatcmpl-az1");
        assertThat(response.model()).isEqualTo("gpt-4o-2024-08-06");
    }

    @Test
    void finishReasonsMapToStopReasons() throws Exception {
        assertStop(ChatReply.completion().text("x").finishReason("stop").build(), StopReason.END_TURN);
        assertStop(ChatReply.completion().text("x").finishReason("length").build(), StopReason.MAX_TOKENS);
        assertStop(ChatReply.completion().text("x").finishReason("content_filter").build(), StopReason.REFUSAL);
        assertStop(ChatReply.completion().refusal("I can't help with that.").finishReason("stop").build(),
                StopReason.REFUSAL);
        assertStop(ChatReply.completion().toolCall("c1", "search", "{}").finishReason("tool_calls").build(),
                StopReason.TOOL_USE);
        // Some compatible servers say "stop" while sending tool calls.
        assertStop(ChatReply.completion().toolCall("c2", "search", "{}").finishReason("stop").build(),
                StopReason.TOOL_USE);
    }

    @Test
    void aRefusalKeepsItsText() throws Exception {
        server.enqueue(ChatReply.completion().refusal("I can't help with that.").build());
        ModelResponse response = call(request("x"));
        assertThat(response.text()).isEqualTo("I can't help with that.");
    }

    @Test
    void aContentFilterStopSaysSoRatherThanPassingTheCutTextOffAsTheModelsReason() throws Exception {
        // finish_reason content_filter: the provider's filter cut the output, the model did not refuse;
        // the run's message showed the cut text as if it were the model's reason for refusing.
        server.enqueue(ChatReply.completion().text("Step 1: mix the").finishReason("content_filter").build());
        RunResult result = Agent.builder().model(model).modelName("m")
                .prices(PriceTable.empty().with("m", ModelPrice.of("0", "0", "0"))).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo("refusal");
        assertThat(result.message()).contains("content filter").contains("finish_reason content_filter")
                .doesNotContain("Step 1: mix the");

        // The model's own refusal keeps its text as the reason.
        server.enqueue(ChatReply.completion().refusal("I can't help with that.").build());
        assertThat(call(request("x")).stopDetail()).isNull();
    }

    @Test
    void azuresContentFilterStopNamesTheCategoriesItFiltered() throws Exception {
        // Azure OpenAI says on the choice which of its filter categories cut the output (content_filter_results, each
        // with "filtered"); the stop said only that a filter did, leaving the user to guess what to change.
        String chunk = "{\"id\":\"chatcmpl-az2\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o\",\"choices\":";
        server.enqueue(new ChatReply.Malformed(events(
                chunk + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Step 1: \"},\"finish_reason\":null,"
                        + "\"content_filter_results\":{\"hate\":{\"filtered\":false,\"severity\":\"safe\"}}}]}",
                chunk + "[{\"index\":0,\"delta\":{},\"finish_reason\":\"content_filter\",\"content_filter_results\":{"
                        + "\"hate\":{\"filtered\":false,\"severity\":\"safe\"},\"self_harm\":{\"filtered\":false,\"severity\":\"safe\"},"
                        + "\"violence\":{\"filtered\":true,\"severity\":\"medium\"},"
                        + "\"protected_material_text\":{\"filtered\":true,\"detected\":true}}}]}",
                "[DONE]")));

        ModelResponse response = call(request("x"));

        assertThat(response.stopReason()).isEqualTo(StopReason.REFUSAL);
        assertThat(response.stopDetail()).isEqualTo("the provider's content filter stopped the response (finish_reason"
                + " content_filter; filtered: violence (severity medium), protected_material_text)");
    }

    @Test
    void aRefusalStreamsToTheObserverAsText() throws Exception {
        server.enqueue(ChatReply.completion().refusal("I can't help with that.").build());
        call(request("x"));
        assertThat(stream.text()).isEqualTo("I can't help with that.");
    }

    @Test
    void argumentsThatAreNotJsonReachTheToolAsText() throws Exception {
        server.enqueue(ChatReply.toolCall("call_x", "search", "{\"q\": oops"));
        ToolUseBlock use = call(request("x").tools(List.of(tool("search")))).toolUses().get(0);
        assertThat(use.input().isTextual()).isTrue();
        assertThat(use.input().asText()).isEqualTo("{\"q\": oops");
    }

    @Test
    void argumentsThatAreNotJsonAreRefusedToTheModelSayingSo() {
        // docs/openai.md: the tool's input validation tells the model what was wrong. "$: string found,
        // object expected" did not: the model meant an object and never learnt its text was not JSON.
        server.enqueue(ChatReply.toolCall("call_x", "search", "{\"q\": \"東京"), ChatReply.text("done"));
        dev.rein.tool.Tool search = dev.rein.tool.Tool.builder("search").description("s")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}")
                .handler((args, ctx) -> "ok").build();
        RunResult result = Agent.builder().model(model).modelName("m")
                .prices(PriceTable.empty().with("m", ModelPrice.of("0", "0", "0"))).tools(search).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        String toolMessage = lastBody().path("messages").get(2).path("content").asText();
        // the text is the model's: fenced as data in Rein's refusal (core45)
        assertThat(toolMessage).startsWith("Error: Invalid arguments for tool 'search': the arguments are not a JSON"
                + " object but this text:\n<untrusted_data ").contains("\n{\"q\": \"東京\n</untrusted_data>")
                .contains("The tool was not called");
    }

    @Test
    void argumentsThatAreNotJsonAreEchoedBackAsAnEmptyObjectWhichEveryServerReads() {
        // vLLM parses the arguments of every assistant tool call a request replays (chat_utils._postprocess_messages,
        // json.loads): text that is not JSON is refused with 400 ("Unterminated string starting at ...", vllm#47761) at
        // that step and every later one, since the history keeps the call. The tool result quotes what the model sent.
        for (String arguments : new String[] {"{\"q\": \"東京", "q=東京"}) {
            server.enqueue(ChatReply.toolCall("call_x", "search", arguments), ChatReply.text("done"));
            dev.rein.tool.Tool search = dev.rein.tool.Tool.builder("search").description("s")
                    .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}")
                    .handler((args, ctx) -> "ok").build();
            RunResult result = Agent.builder().model(model).modelName("m")
                    .prices(PriceTable.empty().with("m", ModelPrice.of("0", "0", "0"))).tools(search).build().run("go");
            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            com.fasterxml.jackson.databind.JsonNode messages = lastBody().path("messages");
            assertThat(messages.at("/1/tool_calls/0/function/arguments").asText()).as(arguments).isEqualTo("{}");
            assertThat(messages.get(2).path("content").asText()).as("what the model sent is in the result")
                    .startsWith("Error: Invalid arguments for tool 'search'").contains(arguments);
        }
    }

    @Test
    void argumentsWithTextAfterTheJsonValueReachTheToolAsTextNotAsTheirFirstValue() throws Exception {
        // Two objects in one call (a model's glitch, or two calls a server joined): the first alone
        // would run the tool with half of what the model asked for, and nobody would know.
        for (String arguments : new String[] {"{\"q\":\"a\"}{\"q\":\"b\"}", "{\"q\":\"a\"}}", "{\"q\":\"a\"} then more"}) {
            server.enqueue(ChatReply.toolCall("call_x", "search", arguments));
            ToolUseBlock use = call(request("x").tools(List.of(tool("search")))).toolUses().get(0);
            assertThat(use.input().isTextual()).as(arguments).isTrue();
            assertThat(use.input().asText()).isEqualTo(arguments);
        }
        server.enqueue(ChatReply.toolCall("call_y", "search", " {\"q\":\"a\"}\n"));
        assertThat(call(request("x").tools(List.of(tool("search")))).toolUses().get(0).input().path("q").asText())
                .as("white space around the value is fine").isEqualTo("a");
    }

    @Test
    void aServerThatIgnoresStreamIsReadFromItsJsonBody() throws Exception {
        // A server that ignores "stream" answers with a chat.completion, read as one chunk whose delta is the message.
        ChunkAssembler assembler = new ChunkAssembler(stream, null);
        assembler.accept(dev.rein.json.Json.parse("{\"id\":\"x\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"whole\","
                + "\"tool_calls\":[{\"id\":\"c9\",\"type\":\"function\",\"function\":{\"name\":\"search\",\"arguments\":\"{}\"}}]},"
                + "\"finish_reason\":\"tool_calls\"}],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":3}}"));
        ModelResponse response = assembler.response("m");
        assertThat(response.text()).isEqualTo("whole");
        assertThat(response.toolUses()).hasSize(1);
        assertThat(response.usage().inputTokens()).isEqualTo(9);
    }

    @Test
    void aStreamOrACompletionIsToldApartByItsBodyNotByItsContentType() throws Exception {
        // The official SDKs read a streamed request's body as an event stream whatever its content type;
        // a server or proxy that labels its chunks application/json (or sends none) is still a stream.
        String chunk = "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,";
        ModelResponse streamed = callPlainServer("application/json", events(
                chunk + "\"delta\":{\"role\":\"assistant\",\"content\":\"東京は\"},\"finish_reason\":null}]}",
                chunk + "\"delta\":{\"content\":\"晴れ\"},\"finish_reason\":\"stop\"}]}",
                "[DONE]"));
        assertThat(streamed.text()).isEqualTo("東京は晴れ");
        assertThat(streamed.stopReason()).isEqualTo(StopReason.END_TURN);

        // And a server that ignores "stream" but labels its one chat.completion as an event stream is read too.
        ModelResponse whole = callPlainServer("text/event-stream", "\n{\"id\":\"c2\",\"object\":\"chat.completion\",\"choices\":"
                + "[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"大阪は雨\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2}}");
        assertThat(whole.text()).isEqualTo("大阪は雨");
        assertThat(whole.usage()).isEqualTo(Usage.of(5, 2, 0, 0));
    }

    @Test
    void aServerThatSendsEveryCallWithIndexZeroStillGivesEachCallItsOwnArguments() throws Exception {
        // Ollama's /v1 streams each call of a turn whole, every one with "index": 0 (ollama#15457);
        // the ids tell the calls apart. A fragment without an id belongs to the call before it.
        String head = "{\"id\":\"chatcmpl-o1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"qwen3:8b\","
                + "\"choices\":[{\"index\":0,\"delta\":";
        server.enqueue(new ChatReply.Malformed(events(
                head + "{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"id\":\"call_h\",\"index\":0,"
                        + "\"type\":\"function\",\"function\":{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":\\\"hello\\\"}\"}}]},"
                        + "\"finish_reason\":null}]}",
                head + "{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"id\":\"call_w\",\"index\":0,"
                        + "\"type\":\"function\",\"function\":{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":\"}}]},"
                        + "\"finish_reason\":null}]}",
                head + "{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\"world\\\"}\"}}]},\"finish_reason\":null}]}",
                head + "{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":\"tool_calls\"}]}",
                "[DONE]")));

        ModelResponse response = call(request("x").tools(List.of(tool("search"))));

        assertThat(response.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(response.toolUses()).extracting(ToolUseBlock::id, u -> u.input().path("q").asText())
                .containsExactly(tuple("call_h", "hello"), tuple("call_w", "world"));
        assertThat(response.content()).as("each text is JSON as sent: nothing kept aside").hasSize(2);
        assertThat(stream.events).containsSubsequence("start:call_h:search", "start:call_w:search",
                "input:call_w:\"world\"}");
    }

    @Test
    void fragmentsThatBringAnotherIdButNoNameStillBelongToTheirCall() throws Exception {
        // Some servers (poolsideai/pool#9) give a call's later fragments another id than its first delta;
        // a new call starts with its name, as every server sends it, so these are more of the same call.
        String head = "{\"id\":\"chatcmpl-p1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\","
                + "\"choices\":[{\"index\":0,\"delta\":";
        server.enqueue(new ChatReply.Malformed(events(
                head + "{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,\"id\":\"call_first\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"search\",\"arguments\":\"\"}}]},\"finish_reason\":null}]}",
                head + "{\"tool_calls\":[{\"index\":0,\"id\":\"call_other1\",\"type\":\"function\",\"function\":"
                        + "{\"arguments\":\"{\\\"q\\\":\"}}]},\"finish_reason\":null}]}",
                head + "{\"tool_calls\":[{\"index\":0,\"id\":\"call_other2\",\"type\":\"function\",\"function\":"
                        + "{\"arguments\":\"\\\"東京\\\"}\"}}]},\"finish_reason\":null}]}",
                head + "{},\"finish_reason\":\"tool_calls\"}]}",
                "[DONE]")));

        ModelResponse response = call(request("x").tools(List.of(tool("search"))));

        assertThat(response.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(response.toolUses()).extracting(ToolUseBlock::id, ToolUseBlock::name, u -> u.input().path("q").asText())
                .containsExactly(tuple("call_first", "search", "東京"));
        assertThat(stream.events).containsExactly("start:call_first:search", "input:call_first:{\"q\":",
                "input:call_first:\"東京\"}");
    }

    @Test
    void fragmentsWithNeitherIdNorNameAtAnIndexNoCallStartedAtBelongToTheCallBefore() throws Exception {
        // A server that leaves the index out of later fragments, or moves it on with each one (dirac#215:
        // Nebius, Cerebras): a fragment without id or name starts no call (a call starts with both).
        String head = "{\"id\":\"chatcmpl-n1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\","
                + "\"choices\":[{\"index\":0,\"delta\":";
        server.enqueue(new ChatReply.Malformed(events(
                head + "{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,\"id\":\"call_c\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"search\",\"arguments\":\"\"}}]},\"finish_reason\":null}]}",
                head + "{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\"{\\\"q\\\":\"}}]},\"finish_reason\":null}]}",
                head + "{\"tool_calls\":[{\"function\":{\"arguments\":\"\\\"大阪\\\"}\"}}]},\"finish_reason\":null}]}",
                head + "{\"tool_calls\":[{\"index\":1,\"id\":\"call_d\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"fetch\",\"arguments\":\"{}\"}}]},\"finish_reason\":null}]}",
                head + "{},\"finish_reason\":\"tool_calls\"}]}",
                "[DONE]")));

        ModelResponse response = call(request("x").tools(List.of(tool("search"), tool("fetch"))));

        assertThat(response.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(response.toolUses()).extracting(ToolUseBlock::id, ToolUseBlock::name, u -> u.input().toString())
                .containsExactly(tuple("call_c", "search", "{\"q\":\"大阪\"}"), tuple("call_d", "fetch", "{}"));
    }

    @Test
    void aNameStreamedInPiecesIsJoinedAndOneRestatedWithEveryFragmentIsKeptOnce() throws Exception {
        // Name deltas join as argument deltas do (the official Python SDK's accumulator concatenates them);
        // a server that repeats the whole name with every fragment (MiniMax on NVIDIA NIM) means it once.
        String head = "{\"id\":\"chatcmpl-f1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\","
                + "\"choices\":[{\"index\":0,\"delta\":";
        server.enqueue(new ChatReply.Malformed(events(
                head + "{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,\"id\":\"call_g\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"get_\",\"arguments\":\"\"}}]},\"finish_reason\":null}]}",
                head + "{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"weather\"}}]},\"finish_reason\":null}]}",
                head + "{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"city\\\":\\\"京都\\\"}\"}}]},"
                        + "\"finish_reason\":null}]}",
                head + "{\"tool_calls\":[{\"index\":1,\"id\":\"call_s\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"search\",\"arguments\":\"\"}}]},\"finish_reason\":null}]}",
                head + "{\"tool_calls\":[{\"index\":1,\"function\":{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":\"}}]},"
                        + "\"finish_reason\":null}]}",
                head + "{\"tool_calls\":[{\"index\":1,\"function\":{\"name\":\"search\",\"arguments\":\"\\\"x\\\"}\"}}]},"
                        + "\"finish_reason\":null}]}",
                head + "{},\"finish_reason\":\"tool_calls\"}]}",
                "[DONE]")));

        ModelResponse response = call(request("x").tools(List.of(tool("get_weather"), tool("search"))));

        assertThat(response.toolUses()).extracting(ToolUseBlock::id, ToolUseBlock::name, u -> u.input().toString())
                .containsExactly(tuple("call_g", "get_weather", "{\"city\":\"京都\"}"), tuple("call_s", "search", "{\"q\":\"x\"}"));
        assertThat(stream.events).containsExactly("start:call_g:get_weather", "input:call_g:{\"city\":\"京都\"}",
                "start:call_s:search", "input:call_s:{\"q\":", "input:call_s:\"x\"}");
    }

    @Test
    void aLegacyFunctionCallIsToolCallZeroWithAGeneratedId() throws Exception {
        server.enqueue(new ChatReply.Malformed(events(
                "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,"
                        + "\"function_call\":{\"name\":\"search\",\"arguments\":\"\"}}}]}",
                "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"function_call\":{\"arguments\":\"{\\\"q\\\":\"}}}]}",
                "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"function_call\":{\"arguments\":\"\\\"x\\\"}\"}}}]}",
                "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"function_call\"}]}",
                "[DONE]")));
        ModelResponse streamed = call(request("x").tools(List.of(tool("search"))));
        assertThat(streamed.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(streamed.toolUses()).extracting(ToolUseBlock::id, ToolUseBlock::name).containsExactly(tuple("call_0", "search"));
        assertThat(streamed.toolUses().get(0).input().get("q").asText()).isEqualTo("x");
        assertThat(stream.events).startsWith("start:call_0:search");

        ModelResponse whole = callPlainServer("application/json", "{\"id\":\"c2\",\"choices\":[{\"index\":0,\"message\":"
                + "{\"role\":\"assistant\",\"content\":null,\"function_call\":{\"name\":\"search\",\"arguments\":\"{}\"}},"
                + "\"finish_reason\":\"function_call\"}]}");
        assertThat(whole.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(whole.toolUses()).extracting(ToolUseBlock::id, ToolUseBlock::name).containsExactly(tuple("call_0", "search"));
    }

    @Test
    void aFinishReasonAskingForToolsWithoutAnyCallIsAnEndOfTurn() throws Exception {
        assertStop(ChatReply.completion().text("x").finishReason("tool_calls").build(), StopReason.END_TURN);
        assertStop(ChatReply.completion().text("x").finishReason("function_call").build(), StopReason.END_TURN);
    }

    @Test
    void toolCallsWithoutIndexOrIdGetConsecutiveIds() throws Exception {
        ModelResponse response = callPlainServer("application/json", "{\"id\":\"c\",\"choices\":[{\"index\":0,\"message\":"
                + "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":["
                + "{\"type\":\"function\",\"function\":{\"name\":\"search\",\"arguments\":\"{}\"}},"
                + "{\"type\":\"function\",\"function\":{\"name\":\"fetch\",\"arguments\":\"{}\"}}]},"
                + "\"finish_reason\":\"tool_calls\"}]}");
        assertThat(response.toolUses()).extracting(ToolUseBlock::id, ToolUseBlock::name)
                .containsExactly(tuple("call_0", "search"), tuple("call_1", "fetch"));
        // The run's listeners hear each call under the id it runs with, as they hear a call the server named.
        assertThat(stream.events).containsSubsequence("start:call_0:search", "input:call_0:{}", "start:call_1:fetch",
                "input:call_1:{}");
    }

    @Test
    void aStreamedToolCallWithoutAnIdIsHeardUnderTheIdItRunsWith() throws Exception {
        String chunk = "{\"id\":\"c2\",\"object\":\"chat.completion.chunk\",\"model\":\"local\",\"choices\":";
        server.enqueue(new ChatReply.Malformed(events(
                chunk + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,\"type\":\"function\","
                        + "\"function\":{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":\"}}]},\"finish_reason\":null}]}",
                chunk + "[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\"東京\\\"}\"}}]},"
                        + "\"finish_reason\":\"tool_calls\"}]}",
                "[DONE]")));

        ModelResponse response = call(request("x").tools(List.of(tool("search"))));

        assertThat(response.toolUses()).extracting(ToolUseBlock::id).containsExactly("call_0");
        assertThat(stream.events).containsSubsequence("start:call_0:search", "input:call_0:{\"q\":\"東京\"}");
    }

    private void assertStop(ChatReply.Completion reply, StopReason expected) throws Exception {
        server.enqueue(reply);
        assertThat(call(request("x").tools(List.of(tool("search")))).stopReason())
                .as(reply.finishReason() + " / refusal " + reply.refusal()).isEqualTo(expected);
    }
    @Test
    void theServiceTierThatServedTheCallIsOnTheResponseForItsPriceButNotTheStandardOne() throws Exception {
        // "the processing mode actually used to serve the request" (Chat Completions reference): flex is cheaper and
        // priority dearer than the standard rate, so the run prices the call by it; every chunk carries it.
        String chunk = "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"gpt-5\",\"service_tier\":";
        // "auto" (the schema allows it; a gateway may echo the tier asked for) is the project's tier, "default" unless
        // configured otherwise (the service_tier reference): the base price, as the standard tier
        for (String tier : List.of("priority", "flex", "default", "auto")) {
            server.enqueue(new ChatReply.Malformed(events(
                    chunk + "\"" + tier + "\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"ok\"},"
                            + "\"finish_reason\":\"stop\"}]}",
                    chunk + "\"" + tier + "\",\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1,"
                            + "\"total_tokens\":4}}",
                    "[DONE]")));
            ModelResponse response = call(request("x"));
            assertThat(response.serviceTier()).as(tier).isEqualTo(tier.equals("default") || tier.equals("auto") ? null : tier);
            // as the server named it, for telemetry (the conventions' openai.response.service_tier has "default" too)
            assertThat(response.providerServiceTier()).as(tier).isEqualTo(tier);
        }
        // a whole chat.completion (a server that ignored stream) says it too; a server that sends none names none
        server.enqueue(new ChatReply.Malformed("{\"id\":\"m3\",\"object\":\"chat.completion\",\"service_tier\":\"flex\","
                + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}"));
        assertThat(call(request("x")).serviceTier()).isEqualTo("flex");
        server.enqueue(ChatReply.text("no tier"));
        ModelResponse standard = call(request("x")); // the fake server says "default", as OpenAI does
        assertThat(standard.serviceTier()).isNull();
        assertThat(standard.providerServiceTier()).isEqualTo("default");
        server.enqueue(new ChatReply.Malformed("{\"id\":\"m4\",\"object\":\"chat.completion\",\"service_tier\":null,"
                + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}"));
        ModelResponse none = call(request("x"));
        assertThat(none.serviceTier()).isNull();
        assertThat(none.providerServiceTier()).isNull();
    }

    @Test
    void groqsFlexTierIsPricedAsItsStandardTierWhereverTheChunkThatShowsItIsGroqsComes() throws Exception {
        // Groq's Flex Processing page: "Pricing matches the on-demand tier"; OpenAI's flex is cheaper, so only a
        // response that is recognisably Groq's (x_groq: its first and final chunks, every whole chat.completion) is
        // priced at the base price, the name it sent kept for telemetry.
        String chunk = "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"llama-3.3-70b-versatile\","
                + "\"service_tier\":\"flex\",";
        String usage = "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1,\"total_tokens\":4}";
        // x_groq.id in the first chunk, with the tier
        server.enqueue(new ChatReply.Malformed(events(
                chunk + "\"x_groq\":{\"id\":\"req_01\"},\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
                        + "\"content\":\"ok\"},\"finish_reason\":null}]}",
                chunk + "\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],\"x_groq\":{\"id\":\"req_01\","
                        + usage + "}}",
                "[DONE]")));
        ModelResponse first = call(request("x"));
        assertThat(first.serviceTier()).isNull();
        assertThat(first.providerServiceTier()).isEqualTo("flex");
        // the tier in chunks before the only one that shows the response is Groq's (its last)
        server.enqueue(new ChatReply.Malformed(events(
                chunk + "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"ok\"}}]}",
                "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},"
                        + "\"finish_reason\":\"stop\"}],\"x_groq\":{" + usage + "}}",
                "[DONE]")));
        ModelResponse last = call(request("x"));
        assertThat(last.serviceTier()).isNull();
        assertThat(last.providerServiceTier()).isEqualTo("flex");
        // a whole chat.completion of Groq's carries x_groq.id
        server.enqueue(new ChatReply.Malformed("{\"id\":\"m3\",\"object\":\"chat.completion\",\"service_tier\":\"flex\","
                + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"ok\"},\"finish_reason\":\"stop\"}],"
                + usage + ",\"x_groq\":{\"id\":\"req_02\"}}"));
        ModelResponse whole = call(request("x"));
        assertThat(whole.serviceTier()).isNull();
        assertThat(whole.providerServiceTier()).isEqualTo("flex");
        // another Groq tier keeps its name for pricing
        server.enqueue(new ChatReply.Malformed("{\"id\":\"m4\",\"object\":\"chat.completion\",\"service_tier\":\"performance\","
                + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"ok\"},\"finish_reason\":\"stop\"}],"
                + usage + ",\"x_groq\":{\"id\":\"req_03\"}}"));
        assertThat(call(request("x")).serviceTier()).isEqualTo("performance");
    }

    /**
     * Chat Completions' system_fingerprint ("the backend configuration that the model runs with") is on the response as
     * the server sent it, for telemetry: every chunk of OpenAI's streams carries it (the usage chunk too), but Azure
     * OpenAI's first chunk (the prompt's filter results) has none and many compatible servers send null, so the first
     * chunk that names one gives it. A whole chat.completion says it too; a server that sends none names none.
     */
    @Test
    void theSystemFingerprintIsOnTheResponseAsTheServerSentIt() throws Exception {
        server.enqueue(ChatReply.text("ok"));
        assertThat(call(request("x")).systemFingerprint()).isEqualTo(FakeChatCompletionsServer.SYSTEM_FINGERPRINT);

        String chunk = "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"gpt-4o\",";
        server.enqueue(new ChatReply.Malformed(events(
                "{\"id\":\"\",\"object\":\"\",\"model\":\"\",\"choices\":[],\"prompt_filter_results\":[]}",
                chunk + "\"system_fingerprint\":null,\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
                        + "\"content\":\"ok\"},\"finish_reason\":null}]}",
                chunk + "\"system_fingerprint\":\"fp_44709d6fcb\",\"choices\":[{\"index\":0,\"delta\":{},"
                        + "\"finish_reason\":\"stop\"}]}",
                chunk + "\"system_fingerprint\":\"fp_44709d6fcb\",\"choices\":[],\"usage\":{\"prompt_tokens\":3,"
                        + "\"completion_tokens\":1,\"total_tokens\":4}}",
                "[DONE]")));
        assertThat(call(request("x")).systemFingerprint()).isEqualTo("fp_44709d6fcb");

        server.enqueue(new ChatReply.Malformed(events(
                chunk + "\"system_fingerprint\":null,\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
                        + "\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}",
                "[DONE]")));
        assertThat(call(request("x")).systemFingerprint()).isNull();

        server.enqueue(new ChatReply.Malformed("{\"id\":\"m3\",\"object\":\"chat.completion\",\"system_fingerprint\":"
                + "\"fp_whole\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"ok\"},"
                + "\"finish_reason\":\"stop\"}]}"));
        assertThat(call(request("x")).systemFingerprint()).isEqualTo("fp_whole");
        server.enqueue(new ChatReply.Malformed("{\"id\":\"m4\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
                + "\"message\":{\"role\":\"assistant\",\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}"));
        assertThat(call(request("x")).systemFingerprint()).isNull();
    }
}
