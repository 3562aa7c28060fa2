package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.Budget;
import dev.rein.budget.ModelPrice;
import dev.rein.model.ModelResponse;
import dev.rein.model.Usage;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FakeReply;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Server tools billed per use: the API reports them in {@code usage.server_tool_use} (web searches
 * at USD 10 per 1,000, on top of the tokens), and the run's cost and money limit count them.
 */
class WebSearchPricingTest extends FakeApi {

    /** A streamed answer that searched the web {@code searches} times (and fetched a page once, which is free). */
    private static String searchedAnswer(int searches) {
        return new Sse().messageStart("{\"input_tokens\":1000,\"output_tokens\":1}")
                .block(0, "{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_1\",\"name\":\"web_search\",\"input\":{}}",
                        "{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"query\\\":\\\"東京 天気\\\"}\"}")
                .block(1, "{\"type\":\"web_search_tool_result\",\"tool_use_id\":\"srvtoolu_1\",\"content\":[]}")
                .block(2, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"晴れです。\"}")
                .end("end_turn", "{\"input_tokens\":1000,\"output_tokens\":100,"
                        + "\"server_tool_use\":{\"web_search_requests\":" + searches + ",\"web_fetch_requests\":1}}")
                .build();
    }

    @Test
    void webSearchesInTheUsageAreKeptAndPricedPerSearch() throws Exception {
        server.enqueue(FakeReply.malformed(searchedAnswer(3)));
        ModelResponse response = call(request("東京の天気は？"));

        assertThat(response.usage().serverToolUses()).isEqualTo(Map.of("web_search", 3L, "web_fetch", 1L));
        ModelPrice sonnet = AnthropicProvider.PRICES.find("claude-sonnet-5").orElseThrow();
        // 1,000 input at 2.00 and 100 output at 10.00 per million, and 3 searches at 0.01; fetches cost nothing more.
        assertThat(sonnet.cost(response.usage())).isEqualByComparingTo(new BigDecimal("0.003").add(new BigDecimal("0.03")));
        assertThat(sonnet.cost(Usage.of(1000, 100, 0, 0))).as("without searches, the tokens alone")
                .isEqualByComparingTo("0.003");
    }

    @Test
    void aRunsCostAndMoneyLimitCountTheSearches() {
        server.enqueue(FakeReply.malformed(searchedAnswer(20)));
        RunResult result = Agent.builder().model(model).budget(Budget.builder().maxCostUsd(new BigDecimal("5")).build())
                .build().run("東京の天気は？");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("晴れです。");
        assertThat(result.costUsd()).isEqualByComparingTo("0.203");
        assertThat(result.usage().serverToolUses()).containsEntry("web_search", 20L);
    }
}
