package dev.rein.openai.loop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.anthropic.AnthropicModel;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.model.ModelInterceptor;
import dev.rein.openai.OpenAiModel;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FakeMessagesServer;
import dev.rein.testkit.FakeReply;
import dev.rein.testkit.openai.ChatReply;
import dev.rein.testkit.openai.FakeChatCompletionsServer;
import dev.rein.tool.Tool;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A run whose calls go to both providers (a fallback provider, {@code ModelCall.withModel}): the
 * history one provider's module wrote must reach the other in that other's protocol.
 */
class CrossProviderHistoryTest {
    /** The content block types a Messages API request may carry (the pinned SDK's ContentBlockParam). */
    private static final Set<String> MESSAGES_API_BLOCKS = Set.of("text", "image", "document", "search_result", "thinking",
            "redacted_thinking", "tool_use", "tool_result", "server_tool_use", "web_search_tool_result", "web_fetch_tool_result",
            "code_execution_tool_result", "bash_code_execution_tool_result", "tool_search_tool_result", "container_upload");

    @Test
    void aChatCompletionsTurnContinuedOnTheMessagesApiSendsOnlyMessagesApiBlocks() {
        try (FakeChatCompletionsServer chat = FakeChatCompletionsServer.start();
             FakeMessagesServer messages = FakeMessagesServer.start();
             OpenAiModel openai = OpenAiModel.builder().baseUrl(chat.baseUrl()).build();
             AnthropicModel anthropic = AnthropicModel.builder().apiKey("test-key").baseUrl(messages.baseUrl()).build()) {
            // Argument text with spaces, as many models write it: rein-openai keeps it next to the call.
            chat.enqueue(ChatReply.completion().toolCall("call_1", "lookup_order", "{\"id\": \"A-104\"}").build());
            messages.enqueue(FakeReply.text("Order A-104 is delayed."));
            AtomicInteger calls = new AtomicInteger();
            ModelInterceptor firstOnOpenAi = (call, chain) -> chain.proceed(calls.getAndIncrement() == 0 ? call.withModel(openai)
                    : call.withModel(anthropic));
            Tool lookup = Tool.builder("lookup_order").description("Looks up an order by id.")
                    .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                    .handler((args, ctx) -> "order " + args.get("id").asText() + ": delayed").build();

            RunResult result = Agent.builder().model(anthropic).modelName("m").prices(PriceTable.empty().with("m",
                            ModelPrice.of("1.00", "0.10", "2.00")))
                    .modelInterceptor(firstOnOpenAi).tools(lookup).build().run("Why is A-104 late?");

            assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
            List<String> types = new ArrayList<>();
            for (JsonNode message : messages.lastRequest().body().get("messages")) {
                message.path("content").forEach(block -> types.add(block.path("type").asText()));
            }
            assertThat(types).as("block types sent to the Messages API").allMatch(MESSAGES_API_BLOCKS::contains);
        }
    }
}
