package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.model.ServerContextEdit;
import dev.rein.model.ServerContextEdits;
import dev.rein.model.ToolChoice;
import dev.rein.model.TraceContextHeaders;
import dev.rein.testkit.FakeReply;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The request body and headers sent for a ModelRequest. */
class RequestBodyTest extends FakeApi {

    /**
     * API version 2026-10-21, which Rein speaks, refuses {@code temperature}, {@code top_p} and {@code top_k} (400
     * "temperature: Extra inputs are not permitted"), so Rein sends none unless the request sets one; one set is sent
     * as set (a gateway may still take it, docs/anthropic.md) and the API's refusal says, in Rein's terms, to leave it
     * unset, as its own words name a wire field, not the setting it came from.
     */
    @Test
    void noSamplingParametersAreSentUnlessTheRequestSetsThem() throws Exception {
        server.enqueue(FakeReply.text("a"), FakeReply.text("b"));
        call(request("hi"));
        JsonNode body = lastBody();
        assertThat(body.has("temperature")).isFalse();
        assertThat(body.has("top_p")).isFalse();
        assertThat(body.has("top_k")).isFalse();

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> call(request("hi").temperature(0.25).topP(0.9).topK(40)))
                .isInstanceOfSatisfying(dev.rein.model.ModelException.class, e -> {
                    assertThat(e.kind()).isEqualTo(dev.rein.model.ModelException.Kind.INVALID_REQUEST);
                    assertThat(e.retryable()).isFalse();
                    assertThat(e.getMessage()).startsWith("temperature: Extra inputs are not permitted (")
                            .contains("2026-10-21").contains("Agent.Builder.temperature").contains("topP").contains("topK");
                });
        body = lastBody();
        assertThat(body.get("temperature").doubleValue()).isEqualTo(0.25);
        assertThat(body.get("top_p").doubleValue()).isEqualTo(0.9);
        assertThat(body.get("top_k").intValue()).isEqualTo(40);
        assertThat(server.pendingReplies()).as("refused before a reply").isEqualTo(1);
    }

    /**
     * A turn a fallback provider answered (an OpenAI-compatible server through {@code ModelCall.withModel}) may carry
     * tool call ids the Messages API refuses ({@code ^[a-zA-Z0-9_-]+$}: Kimi's "functions.lookup:0", an empty id), and
     * the refused history would fail every later step. Such an id is sent in a form the API takes, the same for the
     * call and its result (so they still pair), distinct for ids that differ only in the characters replaced; an id
     * the API takes is sent as it is.
     */
    @Test
    void aToolCallIdTheApiRefusesIsSentInAFormItTakesTheSameForTheCallAndItsResult() throws Exception {
        server.enqueue(FakeReply.text("晴れです"));
        List<String> ids = List.of("functions.lookup:0", "functions.lookup.0", "", "toolu_01");
        List<dev.rein.model.ContentBlock> calls = new java.util.ArrayList<>();
        List<dev.rein.model.ContentBlock> results = new java.util.ArrayList<>();
        for (String id : ids) {
            calls.add(new dev.rein.model.ToolUseBlock(id, "search", Json.object()));
            results.add(new dev.rein.model.ToolResultBlock(id, "晴れ " + id, false));
        }
        List<dev.rein.model.Message> history = List.of(dev.rein.model.Message.user("四都市の天気は？"),
                dev.rein.model.Message.assistant(calls), dev.rein.model.Message.user(results));

        call(request("x").tools(List.of(tool("search"))).messages(history));

        JsonNode messages = lastBody().get("messages");
        java.util.Set<String> sent = new java.util.HashSet<>();
        for (int i = 0; i < ids.size(); i++) {
            String id = messages.at("/1/content/" + i + "/id").asText();
            assertThat(id).as(ids.get(i)).matches("^[a-zA-Z0-9_-]+$");
            assertThat(messages.at("/2/content/" + i + "/tool_use_id").asText()).as("its result").isEqualTo(id);
            sent.add(id);
        }
        assertThat(sent).as("distinct").hasSize(ids.size());
        assertThat(messages.at("/1/content/3/id").asText()).as("an id the API takes").isEqualTo("toolu_01");
    }

    /**
     * The API refuses a request in which two {@code tool_use} blocks share an id (400 "`tool_use` ids must be unique"),
     * and the refused history would fail every later step. An OpenAI-compatible fallback server may number its calls
     * {@code call_0} at every turn, and give two calls of one turn an empty id. Each call is sent under an id no other
     * call of the request has, its result under the same one; the first call keeps its id, a later step sends the
     * earlier turns as before (the prompt cache's prefix), and a request whose older turns were dropped still pairs
     * each result with its call though the messages' wire forms were cached; the history keeps the model's ids.
     */
    @Test
    void aToolCallIdRepeatedInTheHistoryIsSentUnderAnIdOfItsOwnPairedWithItsResult() throws Exception {
        server.enqueue(FakeReply.text("a"), FakeReply.text("b"), FakeReply.text("c"));
        List<dev.rein.model.Message> history = List.of(dev.rein.model.Message.user("天気は？"),
                dev.rein.model.Message.assistant(List.of(new dev.rein.model.ToolUseBlock("call_0", "search", Json.object().put("q", "東京")))),
                dev.rein.model.Message.user(List.of(new dev.rein.model.ToolResultBlock("call_0", "晴れ", false))),
                dev.rein.model.Message.assistant(List.of(new dev.rein.model.ToolUseBlock("call_0", "search", Json.object().put("q", "大阪")))),
                dev.rein.model.Message.user(List.of(new dev.rein.model.ToolResultBlock("call_0", "雨", false))),
                dev.rein.model.Message.assistant(List.of(new dev.rein.model.ToolUseBlock("", "search", Json.object().put("q", "京都")),
                        new dev.rein.model.ToolUseBlock("", "search", Json.object().put("q", "奈良")))),
                dev.rein.model.Message.user(List.of(new dev.rein.model.ToolResultBlock("", "曇り", false),
                        new dev.rein.model.ToolResultBlock("", "雪", false))));

        call(request("x").tools(List.of(tool("search"))).messages(history.subList(0, 5)));
        List<String> first = pairedIds(lastBody());
        assertThat(first).hasSize(2).first().as("the first call keeps its id").isEqualTo("call_0");

        call(request("x").tools(List.of(tool("search"))).messages(history));
        List<String> second = pairedIds(lastBody());
        assertThat(second).hasSize(4).startsWith(first.toArray(String[]::new));

        // The older turns dropped (a context edit): the rest still pair, and no id repeats.
        List<dev.rein.model.Message> kept = List.of(history.get(0), history.get(3), history.get(4), history.get(5), history.get(6));
        call(request("x").tools(List.of(tool("search"))).messages(kept));
        assertThat(pairedIds(lastBody())).hasSize(3);
        assertThat(((dev.rein.model.ToolUseBlock) history.get(3).content().get(0)).id()).as("the history").isEqualTo("call_0");
    }

    /**
     * A message whose repeated id goes out under another one keeps that wire form; when older turns are dropped (a
     * context edit) its ids change once, and the form written then is kept for the steps after. Before, the form
     * first written stayed, so from then on the message was written afresh at every step.
     */
    @Test
    void aRenamedMessageWhoseIdsChangedWhenOlderTurnsWereDroppedIsWrittenOnceInItsNewForm() throws Exception {
        server.enqueue(FakeReply.text("a"), FakeReply.text("b"), FakeReply.text("c"));
        List<dev.rein.model.Message> history = new java.util.ArrayList<>(List.of(dev.rein.model.Message.user("四都市の天気は？")));
        for (String city : List.of("東京", "大阪", "京都", "奈良")) {
            history.add(dev.rein.model.Message.assistant(List.of(new dev.rein.model.ToolUseBlock("call_0", "search",
                    Json.object().put("q", city)))));
            history.add(dev.rein.model.Message.user(List.of(new dev.rein.model.ToolResultBlock("call_0", "晴れ", false))));
        }
        call(request("x").tools(List.of(tool("search"))).messages(history));
        dev.rein.model.Message third = history.get(5);
        List<String> before = model.requests().renamedIds(third);
        assertThat(before).as("the third call_0 goes under an id of its own").isNotNull().doesNotContain("call_0");

        List<dev.rein.model.Message> kept = new java.util.ArrayList<>(history);
        kept.remove(1);
        kept.remove(1); // the first turn dropped: the third call_0 is now the second
        call(request("x").tools(List.of(tool("search"))).messages(kept));
        List<String> after = model.requests().renamedIds(third);
        assertThat(after).as("its form with the new ids is kept").isNotNull().isNotEqualTo(before);
        assertThat(pairedIds(lastBody())).contains(after.get(0));
        call(request("x").tools(List.of(tool("search"))).messages(kept));
        assertThat(model.requests().renamedIds(third)).isSameAs(after);
    }

    /**
     * The API refuses a {@code tool_use} name longer than 200 characters in a message (400 "messages.1.content.0.tool_use.name:
     * String should have at most 200 characters"). A model may call a tool it made up, with a shell command as its
     * name; Rein refuses the call and the history keeps it with its refusal, so every later step was refused. Such a
     * name is sent cut to 200 characters, the end a digest of the whole name so two long names stay apart; a name of
     * 200 characters (emoji counted as one) is sent as it is, and the history keeps the name as the model gave it.
     */
    @Test
    void aToolCallNameLongerThanTheApiTakesIsSentCutSoLaterStepsAreNotRefused() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        String command = "git diff --stat HEAD~1 -- src/main/java ".repeat(8);
        List<String> names = List.of(command + "a", command + "b", "😀".repeat(200), "search");
        List<dev.rein.model.ContentBlock> calls = new java.util.ArrayList<>();
        List<dev.rein.model.ContentBlock> results = new java.util.ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            calls.add(new dev.rein.model.ToolUseBlock("toolu_0" + i, names.get(i), Json.object()));
            results.add(new dev.rein.model.ToolResultBlock("toolu_0" + i, "unknown tool", true));
        }
        List<dev.rein.model.Message> history = List.of(dev.rein.model.Message.user("差分は？"),
                dev.rein.model.Message.assistant(calls), dev.rein.model.Message.user(results));

        call(request("x").tools(List.of(tool("search"))).messages(history));

        JsonNode sent = lastBody().at("/messages/1/content");
        String first = sent.at("/0/name").asText();
        String second = sent.at("/1/name").asText();
        assertThat(first.codePointCount(0, first.length())).isEqualTo(200);
        assertThat(first).startsWith(command.substring(0, 150)).isNotEqualTo(second);
        assertThat(second.codePointCount(0, second.length())).isEqualTo(200);
        assertThat(sent.at("/2/name").asText()).as("200 emoji").isEqualTo(names.get(2));
        assertThat(sent.at("/3/name").asText()).isEqualTo("search");
        assertThat(((dev.rein.model.ToolUseBlock) history.get(1).content().get(0)).name()).as("the history").isEqualTo(names.get(0));
    }

    /** The tool_use ids of a request body, after checking they are distinct, valid and answered in order by the next message. */
    private static List<String> pairedIds(JsonNode body) {
        List<String> ids = new java.util.ArrayList<>();
        JsonNode messages = body.get("messages");
        for (int m = 0; m < messages.size(); m++) {
            List<String> uses = new java.util.ArrayList<>();
            for (JsonNode block : messages.get(m).get("content")) {
                if (block.path("type").asText().equals("tool_use")) {
                    uses.add(block.get("id").asText());
                }
            }
            if (uses.isEmpty()) {
                continue;
            }
            List<String> results = new java.util.ArrayList<>();
            for (JsonNode block : messages.get(m + 1).get("content")) {
                results.add(block.get("tool_use_id").asText());
            }
            assertThat(results).as("the results of message " + m).isEqualTo(uses);
            ids.addAll(uses);
        }
        assertThat(ids).doesNotHaveDuplicates().allMatch(id -> id.matches("^[a-zA-Z0-9_-]+$"));
        return ids;
    }

    @Test
    void modelMaxTokensSystemAndToolsAreSentInTheApiShape() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        call(request("こんにちは").system("規則").tools(List.of(tool("search"))).maxTokens(777));
        JsonNode body = lastBody();
        assertThat(body.get("model").asText()).isEqualTo("claude-test");
        assertThat(body.get("max_tokens").asInt()).isEqualTo(777);
        assertThat(body.get("system")).isEqualTo(Json.parse("[{\"type\":\"text\",\"text\":\"規則\"}]"));
        assertThat(body.get("tools")).isEqualTo(Json.parse("[{\"name\":\"search\",\"description\":\"The search tool.\","
                + "\"input_schema\":{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}}]"));
        assertThat(body.get("messages")).isEqualTo(Json.parse(
                "[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"こんにちは\"}]}]"));
        assertThat(body.has("tool_choice")).as("auto is the default and is left out").isFalse();
    }

    @Test
    void toolChoicesAreMapped() throws Exception {
        server.enqueue(FakeReply.text("a"), FakeReply.text("b"), FakeReply.text("c"), FakeReply.text("d"));
        call(request("x").tools(List.of(tool("search"))).toolChoice(ToolChoice.any()));
        assertThat(lastBody().get("tool_choice")).isEqualTo(Json.parse("{\"type\":\"any\"}"));
        call(request("x").tools(List.of(tool("search"))).toolChoice(ToolChoice.tool("search")));
        assertThat(lastBody().get("tool_choice")).isEqualTo(Json.parse("{\"type\":\"tool\",\"name\":\"search\"}"));
        call(request("x").tools(List.of(tool("search"))).toolChoice(ToolChoice.none()));
        assertThat(lastBody().get("tool_choice")).isEqualTo(Json.parse("{\"type\":\"none\"}"));
        call(request("x").toolChoice(ToolChoice.none()));
        assertThat(lastBody().has("tool_choice")).as("none without tools says nothing").isFalse();
    }

    @Test
    void serverContextEditsAreSentWithTheBetaHeader() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        call(request("hi").option(edits(
                new ServerContextEdit.ClearToolUses(30000, 3, 5000, List.of("memory"), true),
                new ServerContextEdit.Compact(150000, "Keep every order number."))));

        assertThat(lastBody().get("context_management")).isEqualTo(Json.parse("""
                {"edits": [
                  {"type": "clear_tool_uses_20250919",
                   "trigger": {"type": "input_tokens", "value": 30000},
                   "keep": {"type": "tool_uses", "value": 3},
                   "clear_at_least": {"type": "input_tokens", "value": 5000},
                   "exclude_tools": ["memory"],
                   "clear_tool_inputs": true},
                  {"type": "compact_20260112",
                   "trigger": {"type": "input_tokens", "value": 150000},
                   "instructions": "Keep every order number."}]}"""));
        assertThat(String.join(",", last().headerValues("anthropic-beta")))
                .contains("context-management-2025-06-27").contains("compact-2026-01-12");
    }

    @Test
    void defaultEditsSendOnlyTheirType() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        call(request("hi").option(edits(ServerContextEdit.ClearToolUses.defaults())));
        assertThat(lastBody().get("context_management")).isEqualTo(
                Json.parse("{\"edits\":[{\"type\":\"clear_tool_uses_20250919\"}]}"));
        assertThat(last().header("anthropic-beta")).isEqualTo("context-management-2025-06-27");
    }

    @Test
    void withoutEditsThereIsNoContextManagementAndNoBetaHeader() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        call(request("hi"));
        assertThat(lastBody().has("context_management")).isFalse();
        assertThat(last().header("anthropic-beta")).isNull();
    }

    @Test
    void countTokensPostsThePromptToTheCountEndpoint() throws Exception {
        server.enqueueCountTokens(FakeReply.tokenCount(1234));
        long count = model.countTokens(request("数えて").system("rules").tools(List.of(tool("search"))).build());
        assertThat(count).isEqualTo(1234);
        assertThat(last().path()).isEqualTo("/v1/messages/count_tokens");
        JsonNode body = lastBody();
        assertThat(body.get("model").asText()).isEqualTo("claude-test");
        assertThat(body.get("system").get(0).get("text").asText()).isEqualTo("rules");
        assertThat(body.get("tools").get(0).get("name").asText()).isEqualTo("search");
        assertThat(body.has("max_tokens")).isFalse();
        assertThat(body.toString()).doesNotContain("cache_control");
    }

    @Test
    void countTokensCarriesTheBetasTheMessagesCallDoes() throws Exception {
        // A prompt with server-side edits can hold what only those betas define (a compaction block
        // sent back): the count must be asked with the same anthropic-beta header as the call.
        var withEdits = request("数えて").option(edits(ServerContextEdit.ClearToolUses.defaults(),
                new ServerContextEdit.Compact(150_000, null))).build();
        server.enqueue(FakeReply.text("ok"));
        call(request("数えて").option(edits(ServerContextEdit.ClearToolUses.defaults(), new ServerContextEdit.Compact(150_000, null))));
        String callBetas = last().header("anthropic-beta");
        assertThat(callBetas).isNotNull();

        server.enqueueCountTokens(FakeReply.tokenCount(12));
        assertThat(model.countTokens(withEdits)).isEqualTo(12);
        assertThat(last().path()).isEqualTo("/v1/messages/count_tokens");
        assertThat(last().header("anthropic-beta")).isEqualTo(callBetas);

        server.enqueueCountTokens(FakeReply.tokenCount(3));
        model.countTokens(request("hi").build());
        assertThat(last().header("anthropic-beta")).as("no betas without edits").isNull();
    }

    @Test
    void countTokensCarriesTheThinkingAndOutputConfigTheMessagesCallDoes() throws Exception {
        // The token counting endpoint takes the request's thinking and output_config, and they change
        // the count (earlier turns' thinking is not counted with thinking on; a format adds its schema).
        var options = request("数えて").maxTokens(4096).option(AnthropicThinking.budget(2048)).option(AnthropicEffort.MEDIUM)
                .option(dev.rein.model.OutputSchema.fromJson("Verdict", "{\"type\":\"object\",\"properties\":{}}"))
                .option(AnthropicStructuredOutput.ENABLED);
        server.enqueue(FakeReply.text("ok"));
        call(options);
        JsonNode callBody = lastBody();

        server.enqueueCountTokens(FakeReply.tokenCount(42));
        assertThat(model.countTokens(options.build())).isEqualTo(42);
        JsonNode body = lastBody();
        assertThat(body.get("thinking")).isEqualTo(callBody.get("thinking")).isNotNull();
        assertThat(body.get("output_config")).isEqualTo(callBody.get("output_config")).isNotNull();
        assertThat(body.has("max_tokens")).isFalse();
        assertThat(body.has("stream")).isFalse();
    }

    private static ServerContextEdits edits(ServerContextEdit... edits) {
        return new ServerContextEdits(List.of(edits));
    }

    @Test
    void traceContextHeadersGoOnTheRequestAndNeverIntoTheBody() throws Exception {
        server.enqueue(FakeReply.text("a"), FakeReply.text("b"));
        String traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        call(request("hi").option(new TraceContextHeaders(java.util.Map.of("traceparent", traceparent))));
        assertThat(server.lastRequest().header("traceparent")).isEqualTo(traceparent);
        assertThat(lastBody().toString()).doesNotContain("traceparent");

        call(request("hi"));
        assertThat(server.lastRequest().header("traceparent")).as("only when the option is set").isNull();
    }

    /**
     * Text outside the Basic Multilingual Plane (an emoji, 𠮷) is sent as its 4-byte UTF-8 form in every part of the
     * body: the system prompt, a history message written on an earlier request and kept as bytes, and a message new to
     * this request. The JSON escape of its UTF-16 pair ({@code \\uD83D\\uDE00}, 12 bytes) would be read alike by the API
     * but is three times longer, and was what the body's generator wrote while a message's kept bytes held the raw form.
     */
    @Test
    void textOutsideTheBasicPlaneIsSentAsItsUtf8BytesInEveryPart() throws Exception {
        server.enqueue(FakeReply.text("a"), FakeReply.text("b"));
        dev.rein.model.Message first = dev.rein.model.Message.user("絵文字 😀 と 𠮷");
        call(request("x").system("規則 😀").messages(List.of(first)));
        List<dev.rein.model.Message> history = List.of(first, dev.rein.model.Message.assistant(List.of(new dev.rein.model.TextBlock("はい 𝄞"))),
                dev.rein.model.Message.user("次 😀"));
        call(request("x").system("規則 😀").messages(history));

        String raw = last().rawBody();
        assertThat(raw).as("no escaped UTF-16 half").doesNotContainPattern("(?i)\\\\ud[89a-f]");
        String messages = raw.substring(raw.indexOf("\"messages\":"), raw.indexOf("]}]", raw.indexOf("\"messages\":")) + 3);
        assertThat(messages.getBytes(java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(("\"messages\":["
                + "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"絵文字 😀 と 𠮷\"}]},"
                + "{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"はい 𝄞\"}]},"
                + "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"次 😀\"}]}]")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(raw).contains("\"text\":\"規則 😀\"");
    }
}
