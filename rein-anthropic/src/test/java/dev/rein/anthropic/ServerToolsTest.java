package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.json.Json;
import dev.rein.model.ModelException;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FakeReply;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Server tools (web search, web fetch, code execution) are declared in the request's {@code tools}
 * with a {@code type} and a {@code name}, and the API runs them itself.
 */
class ServerToolsTest extends FakeApi {

    @Test
    void serverToolsAreSentInTheToolsListBeforeTheFunctionTools() throws Exception {
        server.enqueue(FakeReply.text("a"), FakeReply.text("b"));
        call(request("東京の天気は？").tools(List.of(tool("lookup"))).option(AnthropicServerTools.webSearch(5)));

        assertThat(lastBody().get("tools")).isEqualTo(Json.parse("[{\"type\":\"web_search_20250305\",\"name\":\"web_search\","
                + "\"max_uses\":5},{\"name\":\"lookup\",\"description\":\"The lookup tool.\",\"input_schema\":{\"type\":\"object\","
                + "\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}}]"));

        // Any server tool as the API's documentation writes it, without function tools too.
        call(request("hi").option(AnthropicServerTools.of(
                "{\"type\":\"web_fetch_20250910\",\"name\":\"web_fetch\",\"max_uses\":2,\"allowed_domains\":[\"example.jp\"]}")));
        assertThat(lastBody().get("tools")).isEqualTo(Json.parse(
                "[{\"type\":\"web_fetch_20250910\",\"name\":\"web_fetch\",\"max_uses\":2,\"allowed_domains\":[\"example.jp\"]}]"));
    }

    @Test
    void countTokensCountsTheServerToolsToo() throws Exception {
        server.enqueue(FakeReply.tokenCount(42));
        model.countTokens(request("hi").option(AnthropicServerTools.webSearch(null)).build());
        assertThat(lastBody().get("tools")).isEqualTo(Json.parse("[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}]"));
    }

    @Test
    void aServerToolWithoutATypeOrANameIsRefusedWhenTheOptionIsMade() {
        assertThatThrownBy(() -> AnthropicServerTools.of("{\"name\":\"web_search\"}")).isInstanceOf(ReinException.class)
                .hasMessageContaining("\"type\"").hasMessageContaining("web_search_20250305");
        assertThatThrownBy(() -> AnthropicServerTools.of("{\"type\":\"web_search_20250305\"}")).isInstanceOf(ReinException.class)
                .hasMessageContaining("\"name\"");
        assertThatThrownBy(() -> AnthropicServerTools.of("[1]")).isInstanceOf(ReinException.class).hasMessageContaining("object");
        assertThatThrownBy(() -> AnthropicServerTools.webSearch(0)).isInstanceOf(ReinException.class).hasMessageContaining("maxUses");
    }

    @Test
    void aServerToolNamedLikeAFunctionToolIsRefusedBeforeTheRequestIsSent() {
        ModelException e = catchThrowableOfType(ModelException.class,
                () -> call(request("hi").tools(List.of(tool("web_search"))).option(AnthropicServerTools.webSearch(3))));
        assertThat(e.kind()).isEqualTo(ModelException.Kind.INVALID_REQUEST);
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).contains("web_search").contains("function tool");
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void aRunWithWebSearchEndsWithTheAnswerAndSendsTheSearchBack() {
        server.enqueue(FakeReply.malformed(new Sse().messageStart("{\"input_tokens\":1000,\"output_tokens\":1}")
                .block(0, "{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_1\",\"name\":\"web_search\",\"input\":{}}",
                        "{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"query\\\":\\\"東京 天気\\\"}\"}")
                .block(1, "{\"type\":\"web_search_tool_result\",\"tool_use_id\":\"srvtoolu_1\",\"content\":[]}")
                .block(2, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"晴れです。\"}")
                .end("end_turn", "{\"input_tokens\":1000,\"output_tokens\":100,\"server_tool_use\":{\"web_search_requests\":1}}")
                .build()));
        RunResult result = Agent.builder().model(model).modelName("claude-sonnet-5")
                .modelOption(AnthropicServerTools.webSearch(5)).build().run("東京の天気は？");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("晴れです。");
        assertThat(result.usage().serverToolUses()).containsEntry("web_search", 1L);
        assertThat(lastBody().get("tools").get(0).get("type").asText()).isEqualTo("web_search_20250305");
    }

    @Test
    void anAgentWhoseServerToolIsNamedLikeOneOfItsToolsFailsToBuild() {
        assertThatThrownBy(() -> Agent.builder().model(model).tools(dev.rein.tool.builtin.BuiltinTools.all())
                .modelOption(AnthropicServerTools.of("{\"type\":\"custom_20250101\",\"name\":\"calculate\"}")).build())
                .isInstanceOf(ReinException.class).hasMessageContaining("'calculate'").hasMessageContaining("function tool");
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void theWebFetchToolIsSentWithTheBetaItsDocsRequireOnTheCallAndOnCountTokens() throws Exception {
        // The web fetch tool docs: web_fetch_20250910 is in beta, enabled by "anthropic-beta: web-fetch-2025-09-10";
        // without it the API refuses the tool (HTTP 400) at every step.
        var fetch = AnthropicServerTools.of("{\"type\":\"web_fetch_20250910\",\"name\":\"web_fetch\",\"max_uses\":2}");
        server.enqueue(FakeReply.text("ok"));
        call(request("https://example.jp を読んで").option(fetch));
        assertThat(last().header("anthropic-beta")).isEqualTo("web-fetch-2025-09-10");

        server.enqueueCountTokens(FakeReply.tokenCount(9));
        model.countTokens(request("hi").option(fetch).build());
        assertThat(last().header("anthropic-beta")).isEqualTo("web-fetch-2025-09-10");

        // Named once when the user also gave it, before the user's own as the betas of server-side edits are; web search needs none.
        server.enqueue(FakeReply.text("ok"), FakeReply.text("ok"));
        call(request("hi").option(fetch).option(AnthropicBetas.of("context-1m-2025-08-07", "web-fetch-2025-09-10")));
        assertThat(last().header("anthropic-beta")).isEqualTo("web-fetch-2025-09-10,context-1m-2025-08-07");
        call(request("hi").option(AnthropicServerTools.webSearch(1)));
        assertThat(last().header("anthropic-beta")).isNull();
    }

    @Test
    void noToolChoiceWithServerToolsAloneIsSentSoTheModelSearchesNoMore() throws Exception {
        // A budget's summary asks for no tools: with web search the only tool, tool_choice none must
        // still be sent, or the model may go on searching (each search billed) instead of answering.
        server.enqueue(FakeReply.text("a"), FakeReply.text("b"));

        call(request("Summarise").toolChoice(dev.rein.model.ToolChoice.none()).option(AnthropicServerTools.webSearch(3)));
        assertThat(lastBody().path("tool_choice").path("type").asText()).isEqualTo("none");
        call(request("Search").toolChoice(dev.rein.model.ToolChoice.any()).option(AnthropicServerTools.webSearch(3)));
        assertThat(lastBody().path("tool_choice").path("type").asText()).isEqualTo("any");
    }
}
