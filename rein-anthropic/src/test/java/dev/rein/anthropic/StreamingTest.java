package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.model.ModelException;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.ToolUseBlock;
import dev.rein.testkit.FakeReply;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/** Every call streams: fragments reach the observer as they arrive and add up to the final message. */
class StreamingTest extends FakeApi {

    @Test
    void everyCallIsAStreamingRequest() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        call(request("hi"));
        assertThat(last().isStream()).isTrue();
        assertThat(last().path()).isEqualTo("/v1/messages");
        // The documented x-api-key header, and no bearer token next to it unless one is configured.
        assertThat(last().header("x-api-key")).isEqualTo("test-key");
        if (System.getenv("ANTHROPIC_AUTH_TOKEN") == null) {
            assertThat(last().header("authorization")).isNull();
        }
        assertThat(last().header("anthropic-version")).isNotBlank();
    }

    @Test
    void textDeltasAreForwardedInOrderAndAddUpToTheText() throws Exception {
        String longText = "最初の文です。".repeat(30) + " and some ASCII at the end 🎉";
        server.enqueue(FakeReply.text(longText));

        ModelResponse response = call(request("hi"));

        assertThat(response.text()).isEqualTo(longText);
        long textEvents = stream.events.stream().filter(e -> e.startsWith("text:")).count();
        assertThat(textEvents).as("the fake server splits long text into several deltas").isGreaterThan(1);
        assertThat(stream.text()).isEqualTo(longText);
    }

    @Test
    void thinkingDeltasReachTheObserverApartFromTheText() throws Exception {
        // The newest models write their notes between tool calls in thinking blocks: a live view hears them.
        String thinking = "まず天気を調べる。".repeat(20);
        server.enqueue(FakeReply.message().thinking(thinking, "sig_1").text("晴れです。").build());

        ModelResponse response = call(request("hi"));

        assertThat(response.text()).isEqualTo("晴れです。");
        assertThat(stream.events.stream().filter(e -> e.startsWith("thinking:")).count()).isGreaterThan(1);
        StringBuilder heard = new StringBuilder();
        stream.events.stream().filter(e -> e.startsWith("thinking:")).forEach(e -> heard.append(e.substring(9)));
        assertThat(heard.toString()).isEqualTo(thinking);
        assertThat(stream.text()).as("thinking is never text").isEqualTo("晴れです。");
        assertThat(stream.events.get(0)).startsWith("thinking:");
    }

    @Test
    void theThinkingTokensTheApiReportsApartAreTheUsagesReasoningTokens() throws Exception {
        // usage.output_tokens_details.thinking_tokens: the part of output_tokens spent thinking, final in message_delta.
        server.enqueue(FakeReply.malformed(new Sse()
                .messageStart("{\"input_tokens\":10,\"output_tokens\":1,\"output_tokens_details\":{\"thinking_tokens\":0}}")
                .block(0, "{\"type\":\"thinking\",\"thinking\":\"\"}", "{\"type\":\"thinking_delta\",\"thinking\":\"考える\"}",
                        "{\"type\":\"signature_delta\",\"signature\":\"sig\"}")
                .block(1, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"晴れ\"}")
                .end("end_turn", "{\"output_tokens\":40,\"output_tokens_details\":{\"thinking_tokens\":31}}").build()));

        ModelResponse response = call(request("hi"));

        assertThat(response.usage().outputTokens()).isEqualTo(40);
        assertThat(response.usage().reasoningOutputTokens()).isEqualTo(31);
    }

    @Test
    void whatContentBlockStartAlreadyCarriesReachesTheListenersToo() throws Exception {
        // A server may open a block with its first text, or a tool call with its whole input (as in a
        // whole message), instead of an empty one filled by deltas: listeners see what the answer holds.
        server.enqueue(FakeReply.malformed(new Sse()
                .messageStart("{\"input_tokens\":10,\"output_tokens\":1}")
                .block(0, "{\"type\":\"text\",\"text\":\"東京は\"}", "{\"type\":\"text_delta\",\"text\":\"晴れです。\"}")
                .block(1, "{\"type\":\"tool_use\",\"id\":\"toolu_9\",\"name\":\"search\",\"input\":{\"q\":\"天気\"}}")
                .end("tool_use", "{\"output_tokens\":12}").build()));

        ModelResponse response = call(request("hi"));

        assertThat(response.text()).isEqualTo("東京は晴れです。");
        assertThat(stream.text()).isEqualTo(response.text());
        assertThat(response.toolUses().get(0).input()).isEqualTo(Json.parse("{\"q\":\"天気\"}"));
        assertThat(Json.parse(stream.input("toolu_9"))).isEqualTo(Json.parse("{\"q\":\"天気\"}"));
    }

    @Test
    void aBlockOpenedWithNullTextOrThinkingStartsEmptyNotWithTheWordNull() throws Exception {
        // A gateway whose JSON writer keeps null fields opens blocks with "text": null (or "thinking": null):
        // no text yet, as the API's "" says, where Jackson's asText() of a null node is the word "null".
        server.enqueue(FakeReply.malformed(new Sse()
                .messageStart("{\"input_tokens\":10,\"output_tokens\":1}")
                .block(0, "{\"type\":\"thinking\",\"thinking\":null,\"signature\":null}",
                        "{\"type\":\"thinking_delta\",\"thinking\":\"考える\"}", "{\"type\":\"signature_delta\",\"signature\":\"sig\"}")
                .block(1, "{\"type\":\"text\",\"text\":null,\"citations\":null}", "{\"type\":\"text_delta\",\"text\":\"晴れです。\"}")
                .end("end_turn", "{\"output_tokens\":12}").build()));

        ModelResponse response = call(request("hi"));

        assertThat(response.text()).isEqualTo("晴れです。");
        assertThat(stream.text()).isEqualTo("晴れです。");
        assertThat(response.content().get(0)).isEqualTo(new dev.rein.model.ThinkingBlock("考える", "sig"));
    }

    @Test
    void aThinkingBlockWithoutASignatureIsKeptAndSentBackWithAnEmptyOne() throws Exception {
        // Anthropic-compatible endpoints of other models (DeepSeek's /anthropic, Fireworks, Kimi) stream
        // thinking blocks with no signature at all, and want the thinking of a tool-use turn sent back. They
        // verify no signature, unlike the API the fake plays (UnsignedThinkingTest has a Claude model's side).
        server.validateRequests(false);
        server.enqueue(FakeReply.malformed(new Sse()
                .messageStart("{\"input_tokens\":10,\"output_tokens\":1}")
                .block(0, "{\"type\":\"thinking\",\"thinking\":\"\"}", "{\"type\":\"thinking_delta\",\"thinking\":\"天気を調べる\"}")
                .block(1, "{\"type\":\"tool_use\",\"id\":\"toolu_7\",\"name\":\"search\",\"input\":{}}",
                        "{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"q\\\":\\\"天気\\\"}\"}")
                .end("tool_use", "{\"output_tokens\":12}").build()));
        server.enqueue(FakeReply.text("晴れです。"));

        ModelResponse response = call(request("hi").tools(java.util.List.of(tool("search"))).build().withModel("deepseek-chat"));

        assertThat(response.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(response.content().get(0)).isEqualTo(new dev.rein.model.ThinkingBlock("天気を調べる", ""));
        call(request("hi").tools(java.util.List.of(tool("search"))).messages(java.util.List.of(dev.rein.model.Message.user("hi"),
                dev.rein.model.Message.assistant(response.content()), dev.rein.model.Message.user(java.util.List.of(
                        new dev.rein.model.ToolResultBlock("toolu_7", "晴れ", false))))).build().withModel("deepseek-chat"));
        assertThat(lastBody().at("/messages/1/content/0")).isEqualTo(
                Json.parse("{\"type\":\"thinking\",\"thinking\":\"天気を調べる\",\"signature\":\"\"}"));
    }

    @Test
    void aBlockOpenedWithNullTextAndNoDeltaIsEmptyNotAnUnreadableAnswer() throws Exception {
        // The same gateways open an empty block so too (no text before a tool call, thinking whose display
        // is omitted): a block with nothing in it, not a response Rein cannot read.
        server.enqueue(FakeReply.malformed(new Sse()
                .messageStart("{\"input_tokens\":10,\"output_tokens\":1}")
                .block(0, "{\"type\":\"thinking\",\"thinking\":null}", "{\"type\":\"signature_delta\",\"signature\":\"sig\"}")
                .block(1, "{\"type\":\"text\",\"text\":null}")
                .block(2, "{\"type\":\"tool_use\",\"id\":\"toolu_8\",\"name\":\"search\",\"input\":{\"q\":\"天気\"}}")
                .end("tool_use", "{\"output_tokens\":12}").build()));

        ModelResponse response = call(request("hi").tools(java.util.List.of(tool("search"))));

        assertThat(response.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(response.content().get(0)).isEqualTo(new dev.rein.model.ThinkingBlock("", "sig"));
        assertThat(response.content().get(1)).isEqualTo(new dev.rein.model.TextBlock(""));
        assertThat(response.toolUses().get(0).input()).isEqualTo(Json.parse("{\"q\":\"天気\"}"));
    }

    @Test
    void aDeltaWhoseTextOrJsonIsNullAddsNothing() throws Exception {
        // A proxy that turns OpenAI chunks into Messages events carries their "content": null over as
        // "text": null (or "partial_json": null): nothing to add, where asText() of a null is "null".
        server.enqueue(FakeReply.malformed(new Sse()
                .messageStart("{\"input_tokens\":10,\"output_tokens\":1}")
                .block(0, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":null}",
                        "{\"type\":\"text_delta\",\"text\":\"調べます。\"}")
                .block(1, "{\"type\":\"tool_use\",\"id\":\"toolu_5\",\"name\":\"search\",\"input\":{}}",
                        "{\"type\":\"input_json_delta\",\"partial_json\":null}",
                        "{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"q\\\":\\\"天気\\\"}\"}",
                        "{\"type\":\"input_json_delta\",\"partial_json\":null}")
                .end("tool_use", "{\"output_tokens\":12}").build()));

        ModelResponse response = call(request("hi").tools(java.util.List.of(tool("search"))));

        assertThat(response.text()).isEqualTo("調べます。");
        assertThat(stream.text()).isEqualTo("調べます。");
        assertThat(response.toolUses().get(0).input()).isEqualTo(Json.parse("{\"q\":\"天気\"}"));
        assertThat(stream.input("toolu_5")).isEqualTo("{\"q\":\"天気\"}");
    }

    @Test
    void toolUseStartsAndInputFragmentsAreForwardedAndTheInputIsAssembled() throws Exception {
        String input = "{\"q\":\"" + "検索語".repeat(40) + "\",\"limit\":10,\"filters\":{\"lang\":\"ja\",\"tags\":[\"a\",\"b\"]}}";
        server.enqueue(FakeReply.message().text("Let me look.").toolUse("toolu_7", "search", input).build());

        ModelResponse response = call(request("find"));

        ToolUseBlock use = response.toolUses().get(0);
        assertThat(use.input()).isEqualTo(Json.parse(input));
        assertThat(stream.events).first().isEqualTo("text:Let me look.");
        assertThat(stream.events).contains("tool:toolu_7:search");
        int start = stream.events.indexOf("tool:toolu_7:search");
        assertThat(stream.events.subList(start + 1, stream.events.size())).allMatch(e -> e.startsWith("input:toolu_7:"));
        assertThat(stream.events.size() - start - 1).as("the input arrives in several fragments").isGreaterThan(2);
        assertThat(Json.parse(stream.input("toolu_7"))).isEqualTo(Json.parse(input));
    }

    @Test
    void anEmptyInputFragmentIsNotForwarded() throws Exception {
        // The API opens every tool_use block with "partial_json": "" (Messages streaming docs); a listener
        // hears fragments of the arguments, and an empty one carries none, as an empty text delta is not forwarded.
        server.enqueue(FakeReply.malformed(new Sse()
                .messageStart("{\"input_tokens\":10,\"output_tokens\":1}")
                .block(0, "{\"type\":\"tool_use\",\"id\":\"toolu_6\",\"name\":\"search\",\"input\":{}}",
                        "{\"type\":\"input_json_delta\",\"partial_json\":\"\"}",
                        "{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"q\\\":\\\"天気\\\"}\"}")
                .end("tool_use", "{\"output_tokens\":12}").build()));

        ModelResponse response = call(request("hi").tools(java.util.List.of(tool("search"))));

        assertThat(response.toolUses().get(0).input()).isEqualTo(Json.parse("{\"q\":\"天気\"}"));
        assertThat(stream.events).containsExactly("tool:toolu_6:search", "input:toolu_6:{\"q\":\"天気\"}");
    }

    @Test
    void aToolWithoutArgumentsGetsAnEmptyObject() throws Exception {
        server.enqueue(FakeReply.toolUse("toolu_1", "now", "{}"));
        assertThat(call(request("time?")).toolUses().get(0).input()).isEqualTo(Json.object());
    }

    /** A stream whose tool input is cut after {@code {"q":"wea}, ending with {@code stopReason}. */
    private static String cutToolInput(String stopReason) {
        return """
                event: message_start
                data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}}

                event: content_block_start
                data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"search","input":{}}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\\"q\\": \\"wea"}}

                event: content_block_stop
                data: {"type":"content_block_stop","index":0}

                event: message_delta
                data: {"type":"message_delta","delta":{"stop_reason":"%s","stop_sequence":null},"usage":{"output_tokens":256}}

                event: message_stop
                data: {"type":"message_stop"}

                """.formatted(stopReason);
    }

    @Test
    void aToolInputCutOffAtMaxTokensIsAMaxTokensResponseNotAMalformedOne() throws Exception {
        // The stop reasons page: a response cut at max_tokens may end in an incomplete tool_use block.
        server.enqueue(FakeReply.malformed(cutToolInput("max_tokens")));
        ModelResponse response = call(request("weather?").tools(java.util.List.of(tool("search"))));
        assertThat(response.stopReason()).isEqualTo(StopReason.MAX_TOKENS);
        assertThat(response.toolUses()).singleElement().satisfies(use -> {
            assertThat(use.id()).isEqualTo("toolu_1");
            assertThat(use.input()).isEqualTo(Json.object());
        });
    }

    @Test
    void aToolInputCutOffByAStreamingRefusalIsARefusalNotAMalformedResponse() throws Exception {
        // Handle streaming refusals: the classifier stops the stream where it intervenes, which can be
        // inside a tool call's input; the response is a refusal (with its stop_details), not unreadable.
        String refused = cutToolInput("refusal").replace("\"stop_sequence\":null}",
                "\"stop_sequence\":null,\"stop_details\":{\"type\":\"refusal\",\"category\":\"cyber\",\"explanation\":\"拒否されました\"}}");
        assertThat(refused).contains("拒否されました");
        server.enqueue(FakeReply.malformed(refused));
        ModelResponse response = call(request("weather?").tools(java.util.List.of(tool("search"))));
        assertThat(response.stopReason()).isEqualTo(StopReason.REFUSAL);
        assertThat(response.stopDetail()).isEqualTo("拒否されました (category cyber)");
        assertThat(response.toolUses()).singleElement().satisfies(use -> assertThat(use.input()).isEqualTo(Json.object()));
    }

    @Test
    void aToolInputThatIsNotJsonInACompleteTurnIsStillMalformed() {
        server.enqueue(FakeReply.malformed(cutToolInput("tool_use")));
        ModelException e = Assertions.catchThrowableOfType(ModelException.class,
                () -> call(request("weather?").tools(java.util.List.of(tool("search")))));
        assertThat(e.kind()).isEqualTo(ModelException.Kind.MALFORMED_RESPONSE);
        assertThat(e.getMessage()).contains("not valid JSON");
    }

    /**
     * Fragments that join to two JSON values: the input is not one JSON value, so it is unreadable like any other input
     * that is not JSON (docs/anthropic.md: MALFORMED_RESPONSE), not read as its first value with the rest dropped, which
     * would run the tool with arguments the model did not send as a whole.
     */
    @Test
    void aToolInputWithMoreAfterItsJsonValueIsMalformedNotCutToTheFirstValue() {
        for (String more : new String[] {"{\\\"q\\\":\\\"b\\\"}", "}"}) {
            server.enqueue(FakeReply.malformed(new Sse()
                    .messageStart("{\"input_tokens\":10,\"output_tokens\":1}")
                    .block(0, "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"search\",\"input\":{}}",
                            "{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"q\\\":\\\"a\\\"}\"}",
                            "{\"type\":\"input_json_delta\",\"partial_json\":\"" + more + "\"}")
                    .end("tool_use", "{\"output_tokens\":12}").build()));
            ModelException e = Assertions.catchThrowableOfType(ModelException.class,
                    () -> call(request("weather?").tools(java.util.List.of(tool("search")))));
            assertThat(e).as("not run with {\"q\":\"a\"} alone").isNotNull();
            assertThat(e.kind()).isEqualTo(ModelException.Kind.MALFORMED_RESPONSE);
            assertThat(e.getMessage()).contains("the input of tool_use block 0 is not valid JSON")
                    .contains("more text follows after the JSON value").doesNotContain("JSON: not valid JSON");
        }
    }

    @Test
    void aToolInputWhoseBlockWasNeverStoppedIsStillAssembledNotDropped() throws Exception {
        // message_stop came, so the message is complete; a server (or proxy) that left out one
        // content_block_stop must not turn the call's arguments into {} and run the tool with them.
        String stream = cutToolInput("tool_use")
                .replace("{\\\"q\\\": \\\"wea\"", "{\\\"q\\\": \\\"天気\\\"}\"")
                .replace("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n", "");
        assertThat(stream).doesNotContain("content_block_stop").contains("天気");
        server.enqueue(FakeReply.malformed(stream));
        ModelResponse response = call(request("weather?").tools(java.util.List.of(tool("search"))));
        assertThat(response.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(response.toolUses()).singleElement()
                .satisfies(use -> assertThat(use.input()).isEqualTo(Json.parse("{\"q\":\"天気\"}")));
    }
}
