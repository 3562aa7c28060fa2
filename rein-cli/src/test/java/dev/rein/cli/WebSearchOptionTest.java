package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.testkit.FakeMessagesServer;
import dev.rein.testkit.FakeReply;
import dev.rein.testkit.openai.ChatReply;
import dev.rein.testkit.openai.FakeChatCompletionsServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code rein run --web-search N}: Claude's web search server tool (AnthropicServerTools.webSearch)
 * from the command line, sent as the Messages docs write it, kept for {@code rein reply} and
 * {@code rein resume}, and refused with one line for a bad N or another provider.
 */
class WebSearchOptionTest {
    private final FakeMessagesServer server = FakeMessagesServer.start();
    private final InProcessCli cli = new InProcessCli().models(ProviderModels::create)
            .env("ANTHROPIC_API_KEY", "sk-ant-test").env("ANTHROPIC_BASE_URL", server.baseUrl());

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void webSearchIsDeclaredAsTheApisServerToolBeforeTheFunctionToolsAndKeptForReply() {
        server.enqueue(FakeReply.message().text("今日の東京は晴れです。").build());
        InProcessCli.Outcome outcome = cli.run("run", "--web-search", "3", "--json", "今日の東京の天気は?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();

        JsonNode tools = server.requests().get(0).body().get("tools");
        assertThat(tools.get(0)).isEqualTo(Json.parse("{\"type\": \"web_search_20250305\", \"name\": \"web_search\", \"max_uses\": 3}"));
        assertThat(tools.get(1).get("name").asText()).isEqualTo("calculate");

        server.enqueue(FakeReply.message().text("明日も晴れです。").build());
        String id = Json.parse(outcome.stdout()).get("run_id").asText();
        InProcessCli.Outcome reply = cli.run("reply", "--json", id, "明日は?");
        assertThat(reply.exitCode()).as(reply.stderr()).isZero();
        assertThat(server.requests().get(1).body().get("tools").get(0).get("type").asText()).isEqualTo("web_search_20250305");
    }

    @Test
    void aReplyOnAnotherProviderSaysInOneLineThatItGoesOnWithoutWebSearch() {
        server.enqueue(FakeReply.message().text("今日の東京は晴れです。").build());
        InProcessCli.Outcome outcome = cli.run("run", "--web-search", "3", "--json", "今日の東京の天気は?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        String id = Json.parse(outcome.stdout()).get("run_id").asText();

        try (FakeChatCompletionsServer chat = FakeChatCompletionsServer.start()) {
            chat.enqueue(ChatReply.completion().text("明日も晴れでしょう。").build());
            InProcessCli.Outcome reply = cli.env("OPENAI_API_KEY", "sk-test").run("reply", "--json", "--provider", "openai",
                    "--base-url", chat.baseUrl(), "--price", "0,0", id, "明日は?");
            assertThat(reply.exitCode()).as(reply.stderr()).isZero();
            assertThat(reply.stderrLines()).filteredOn(l -> l.contains("web")).singleElement().asString()
                    .startsWith("rein reply: run " + id + " was started with --web-search 3")
                    .contains("provider 'openai'").endsWith("goes on without web search");
            assertThat(chat.requests().get(0).body().toString()).doesNotContain("web_search");
        }
    }

    @Test
    void withoutTheOptionNoServerToolIsSent() {
        server.enqueue(FakeReply.message().text("391").build());
        InProcessCli.Outcome outcome = cli.run("run", "--tools", "", "17 * 23?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(server.requests().get(0).body().has("tools")).isFalse();
    }

    @Test
    void aCountThatIsNotAWholeNumberOfAtLeastOneIsAUsageErrorAndNothingIsSent() {
        for (String bad : new String[] {"0", "-1", "many", "", "99999999999"}) {
            InProcessCli.Outcome outcome = cli.run("run", "--web-search", bad, "天気は?");
            assertThat(outcome.exitCode()).as(bad + ": " + outcome.stderr()).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stderr()).as(bad).contains("--web-search").contains("e.g. --web-search 5");
        }
        assertThat(server.requestCount()).isZero();
    }

    @Test
    void anotherProviderIsAUsageErrorSayingWebSearchIsAnAnthropicServerTool() {
        InProcessCli.Outcome outcome = cli.env("OPENAI_API_KEY", "sk-test").run("run", "--provider", "openai",
                "--web-search", "2", "天気は?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderrLines()).singleElement().asString().contains("--web-search")
                .contains("Anthropic").contains("--provider anthropic");
    }

    @Test
    void aSearchTheApiRanIsCountedAndPricedInTheJsonResult() throws Exception {
        // A streamed answer shaped as the web search tool docs show it: the API's search, its results, cited text.
        String sse = String.join("\n\n",
                "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\","
                        + "\"role\":\"assistant\",\"model\":\"claude-sonnet-5\",\"content\":[],\"stop_reason\":null,"
                        + "\"stop_sequence\":null,\"usage\":{\"input_tokens\":1000,\"output_tokens\":1}}}",
                "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
                        + "{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_1\",\"name\":\"web_search\",\"input\":{}}}",
                "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                        + "{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"query\\\": \\\"東京 天気\\\"}\"}}",
                "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}",
                "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":"
                        + "{\"type\":\"web_search_tool_result\",\"tool_use_id\":\"srvtoolu_1\",\"content\":[{\"type\":"
                        + "\"web_search_result\",\"url\":\"https://weather.example/tokyo\",\"title\":\"東京の天気\","
                        + "\"encrypted_content\":\"EqgfCioIARgB\",\"page_age\":null}]}}",
                "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}",
                "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":2,\"content_block\":"
                        + "{\"type\":\"text\",\"text\":\"\"}}",
                "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":2,\"delta\":"
                        + "{\"type\":\"text_delta\",\"text\":\"今日の東京は晴れです。\"}}",
                "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":2}",
                "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\","
                        + "\"stop_sequence\":null},\"usage\":{\"output_tokens\":100,\"server_tool_use\":{\"web_search_requests\":1}}}",
                "event: message_stop\ndata: {\"type\":\"message_stop\"}") + "\n\n";
        com.sun.net.httpserver.HttpServer api = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        java.util.List<JsonNode> bodies = new java.util.concurrent.CopyOnWriteArrayList<>();
        api.createContext("/v1/messages", exchange -> {
            bodies.add(Json.parse(new String(exchange.getRequestBody().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)));
            byte[] bytes = sse.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("content-type", "text/event-stream");
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        api.start();
        try {
            InProcessCli.Outcome outcome = cli.env("ANTHROPIC_BASE_URL", "http://127.0.0.1:" + api.getAddress().getPort())
                    .run("run", "--web-search", "2", "--json", "今日の東京の天気は?");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            JsonNode json = Json.parse(outcome.stdout());
            assertThat(json.get("answer").asText()).isEqualTo("今日の東京は晴れです。");
            assertThat(json.at("/usage/server_tool_uses/web_search").asLong()).isEqualTo(1);
            // 1,000 input at USD 2 and 100 output at USD 10 per million, and the search at USD 0.01
            assertThat(json.get("cost_usd").decimalValue()).isEqualByComparingTo("0.013");
            assertThat(bodies).hasSize(1);
            assertThat(bodies.get(0).at("/tools/0/max_uses").asInt()).isEqualTo(2);
        } finally {
            api.stop(0);
        }
    }
}
