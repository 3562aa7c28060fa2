package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.testkit.FakeMessagesServer;
import dev.rein.testkit.FakeReply;
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
}
