package dev.rein.openai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.Budget;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.model.ModelResponse;
import dev.rein.model.Usage;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.openai.ChatReply;
import dev.rein.tool.Tool;
import dev.rein.trace.TraceEvent;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/**
 * A server that ignores {@code stream_options.include_usage} (an older llama.cpp or vLLM, some
 * proxies) sends no usage chunk: the response has no usage, not zero tokens, and a run's token and
 * money limits still bind on Rein's estimate.
 */
class UnreportedUsageTest extends FakeChat {
    private static final String LONG_PROMPT = "Answer carefully. ".repeat(222); // about 1,000 estimated tokens

    private final RecordingListener trace = new RecordingListener();

    private Agent.Builder agent(String inputPrice, Budget budget) {
        Tool search = Tool.builder("search").description("s")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}")
                .handler((args, ctx) -> "ok").build();
        return Agent.builder().model(model).modelName("local-model").systemPrompt(LONG_PROMPT)
                .prices(PriceTable.empty().with("local-model", ModelPrice.of(inputPrice, "0", "0")))
                .tools(search).listener(trace).budget(budget);
    }

    private void enqueueSearches(int n) {
        for (int i = 0; i < n; i++) {
            server.enqueue(ChatReply.completion().toolCall("call_" + i, "search", "{\"q\":\"" + i + "\"}").build());
        }
        server.enqueue(ChatReply.text("summary"));
    }

    @Test
    void aStreamWithoutTheUsageChunkHasNoUsageRatherThanZero() throws Exception {
        server.reportUsage(false).enqueue(ChatReply.completion().text("配送は遅れています。").build());
        ModelResponse response = call(request("why?"));
        assertThat(response.text()).isEqualTo("配送は遅れています。");
        assertThat(response.usage()).isEqualTo(Usage.NOT_REPORTED);
        assertThat(response.usage().notReported()).isTrue();
        assertThat(server.lastRequest().body().at("/stream_options/include_usage").asBoolean()).isTrue();

        // a JSON body without "usage" (a server that ignores stream too) is the same
        ModelResponse whole = callPlainServer("application/json", "{\"id\":\"c\",\"choices\":[{\"index\":0,\"message\":"
                + "{\"role\":\"assistant\",\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}");
        assertThat(whole.usage().notReported()).isTrue();

        // a reported zero stays a report
        server.reportUsage(true).enqueue(ChatReply.completion().text("ok").usage(0, 0, 0).build());
        assertThat(call(request("x")).usage()).isEqualTo(Usage.ZERO);
    }

    @Test
    void groqsUsageInXGroqIsTheUsageWhenNoUsageChunkCame() throws Exception {
        // Groq's chunk schema: x_groq.usage, "usage information for the stream, only sent in the final chunk", whether or
        // not include_usage was honoured (a server that refused stream_options gets none else). It was left unread, so the
        // reported tokens were replaced by an estimate.
        String xGroq = "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],"
                + "\"x_groq\":{\"id\":\"req_g\",\"usage\":{\"prompt_tokens\":120,\"completion_tokens\":7,"
                + "\"total_tokens\":127,\"prompt_tokens_details\":{\"cached_tokens\":100}}}}";
        String text = "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"はい\"},\"finish_reason\":null}]}";
        server.enqueue(new ChatReply.Malformed(events(text, xGroq, "[DONE]")));
        ModelResponse response = call(request("x"));
        assertThat(response.text()).isEqualTo("はい");
        assertThat(response.usage()).isEqualTo(Usage.of(20, 7, 100, 0));

        // The standard usage chunk, when it came, is the report.
        server.enqueue(new ChatReply.Malformed(events(text, xGroq, "{\"id\":\"c1\",\"choices\":[],\"usage\":{"
                + "\"prompt_tokens\":130,\"completion_tokens\":8,\"total_tokens\":138}}", "[DONE]")));
        assertThat(call(request("x")).usage()).isEqualTo(Usage.of(130, 8, 0, 0));
    }

    @Test
    void theInputTokenLimitBindsOnAnEstimateWhenTheServerSendsNoUsage() {
        server.reportUsage(false);
        enqueueSearches(15);
        RunResult result = agent("0", Budget.builder().maxSteps(15).maxInputTokens(3_000L).build()).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("max_input_tokens");
        assertThat(server.requestCount()).isEqualTo(4); // three steps of about 1,000 tokens, then the summary
        assertThat(result.usage().estimated()).isTrue();
        assertThat(trace.events(TraceEvent.UsageEstimated.class)).hasSize(1);
        assertThat(trace.events(TraceEvent.ModelResponded.class)).allSatisfy(r -> assertThat(r.usage().estimated()).isTrue());
    }

    @Test
    void theMoneyLimitBindsOnAnEstimateForAPricedModel() {
        server.reportUsage(false);
        enqueueSearches(15);
        // USD 1,000 per million input tokens: about USD 1 a call
        RunResult result = agent("1000", Budget.builder().maxSteps(15).maxCostUsd("2.50").build()).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("max_cost");
        assertThat(result.costUsd()).isGreaterThanOrEqualTo(new BigDecimal("2.50"));
    }

    @Test
    void aServerThatReportsUsageIsChargedWhatItReported() {
        server.enqueue(ChatReply.completion().toolCall("call_0", "search", "{\"q\":\"a\"}").usage(1200, 30, 1000).build(),
                ChatReply.completion().text("done").usage(1300, 10, 1200).build());
        RunResult result = agent("1", Budget.defaults()).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.usage()).isEqualTo(Usage.of(300, 40, 2200, 0));
        assertThat(result.usage().estimated()).isFalse();
        assertThat(trace.events(TraceEvent.UsageEstimated.class)).isEmpty();
    }
}
