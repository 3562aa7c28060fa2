package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FakeReply;
import dev.rein.testkit.RecordedRequest;
import dev.rein.testkit.RecordingListener;
import dev.rein.tool.Tool;
import dev.rein.trace.TraceEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An Agent with AnthropicModel against the fake server: a tool call, then the answer. */
class AgentEndToEndTest extends FakeApi {

    private static Tool lookup() {
        return Tool.builder("lookup_order").description("Looks up an order by id.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .handler((args, ctx) -> "order " + args.get("id").asText() + ": 配送遅延 (weather)")
                .build();
    }

    @Test
    void aToolCallThenAnAnswerOverTheWire() {
        server.enqueue(
                FakeReply.message().text("Let me check.").toolUse("toolu_A104", "lookup_order", "{\"id\":\"A-104\"}").build(),
                FakeReply.text("Order A-104 is delayed by weather."));
        RecordingListener trace = new RecordingListener();

        RunResult result = Agent.builder()
                .model(model)
                .systemPrompt("You investigate orders.")
                .tools(lookup())
                .listener(trace)
                .build()
                .run("Why is order A-104 late?");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("Order A-104 is delayed by weather.");
        assertThat(trace.streamedText()).as("text deltas reached the run's listeners").contains("Let me check.");
        assertThat(server.pendingReplies()).isZero();

        List<RecordedRequest> requests = server.requests();
        assertThat(requests).hasSize(2).allMatch(RecordedRequest::isStream);
        JsonNode first = requests.get(0).body();
        assertThat(first.get("model").asText()).isEqualTo(AnthropicProvider.DEFAULT_MODEL);
        assertThat(first.at("/system/0/text").asText()).isEqualTo("You investigate orders.");
        assertThat(first.at("/tools/0/name").asText()).isEqualTo("lookup_order");
        assertThat(first.at("/messages/0/content/0/text").asText()).contains("A-104");

        JsonNode second = requests.get(1).body();
        JsonNode messages = second.get("messages");
        assertThat(messages).hasSize(3);
        assertThat(messages.at("/1/role").asText()).isEqualTo("assistant");
        assertThat(messages.at("/1/content/0/text").asText()).isEqualTo("Let me check.");
        assertThat(messages.at("/1/content/1/type").asText()).isEqualTo("tool_use");
        assertThat(messages.at("/1/content/1/id").asText()).isEqualTo("toolu_A104");
        JsonNode result0 = messages.at("/2/content/0");
        assertThat(result0.get("type").asText()).isEqualTo("tool_result");
        assertThat(result0.get("tool_use_id").asText()).isEqualTo("toolu_A104");
        assertThat(result0.get("is_error").asBoolean()).isFalse();
        assertThat(result0.get("content").toString()).contains("配送遅延");
        assertThat(second.at("/system/0/cache_control").isObject()).as("caching is on by default").isTrue();
        assertThat(second.at("/messages/2/content/0/cache_control").isObject()).isTrue();
        assertThat(second.has("temperature")).isFalse();
    }

    /**
     * Probe: with a thinking budget the API refuses tool results after an assistant turn that does not start with its
     * thinking (400 "Expected `thinking` or `redacted_thinking`, but found `tool_use`"), and refuses cache_control on a
     * thinking block; the fake plays both. Rein sends the turn's thinking back first, unmarked, through two tool steps
     * (the model thinks once, at the start of the turn), with prompt caching on.
     */
    @Test
    void aBudgetedTurnSendsItsThinkingBackFirstThroughEveryToolStep() {
        server.enqueue(
                FakeReply.message().thinking("注文を調べる", "sig-1").redactedThinking("RED/acted+==")
                        .toolUse("toolu_A104", "lookup_order", "{\"id\":\"A-104\"}").build(),
                FakeReply.message().toolUse("toolu_A105", "lookup_order", "{\"id\":\"A-105\"}").build(),
                FakeReply.text("A-104 と A-105 は天候で遅れています。"));

        RunResult result = Agent.builder().model(model).modelName("claude-sonnet-4-5").tools(lookup())
                .modelOption(AnthropicThinking.budget(2_000)).maxTokens(4_096).build()
                .run("A-104 と A-105 はなぜ遅い?");

        assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("A-104 と A-105 は天候で遅れています。");
        JsonNode last = server.requests().get(2).body();
        assertThat(last.at("/thinking/type").asText()).isEqualTo("enabled");
        assertThat(last.at("/messages/1/content/0/type").asText()).isEqualTo("thinking");
        assertThat(last.at("/messages/1/content/1/type").asText()).isEqualTo("redacted_thinking");
        assertThat(last.at("/messages/1/content/0").has("cache_control")).isFalse();
        assertThat(last.at("/messages/1/content/1").has("cache_control")).isFalse();
    }

    @Test
    void anAgentsThinkingEffortAndOneCallOptionsGoOnEveryStepAndItsThinkingGoesBack() {
        server.enqueue(
                FakeReply.message().thinking("注文を調べる", "sig-1").toolUse("toolu_A104", "lookup_order", "{\"id\":\"A-104\"}").build(),
                FakeReply.text("Order A-104 is delayed by weather."));

        RunResult result = Agent.builder()
                .model(model)
                .tools(lookup())
                .modelOption(AnthropicThinking.adaptive())
                .modelOption(AnthropicEffort.LOW)
                .modelOption(dev.rein.model.ParallelToolCalls.DISABLED)
                .build()
                .run("Why is order A-104 late?");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(server.requests()).hasSize(2).allSatisfy(request -> {
            assertThat(request.body().get("thinking").toString()).isEqualTo("{\"type\":\"adaptive\"}");
            assertThat(request.body().get("output_config").toString()).isEqualTo("{\"effort\":\"low\"}");
            assertThat(request.body().get("tool_choice").toString())
                    .isEqualTo("{\"type\":\"auto\",\"disable_parallel_tool_use\":true}");
        });
        JsonNode echoed = server.requests().get(1).body().at("/messages/1/content/0");
        assertThat(echoed.get("type").asText()).isEqualTo("thinking");
        assertThat(echoed.get("thinking").asText()).isEqualTo("注文を調べる");
        assertThat(echoed.get("signature").asText()).isEqualTo("sig-1");
    }

    @Test
    void theRuntimeRetriesATransientFailureAndTheSdkDoesNot() {
        server.enqueue(FakeReply.overloaded().withHeader("retry-after-ms", "20"), FakeReply.text("fine"));
        RecordingListener trace = new RecordingListener();

        RunResult result = Agent.builder().model(model).listener(trace).build().run("hello");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("fine");
        assertThat(server.requestCount()).as("one failed attempt, one retry by the runtime").isEqualTo(2);
        List<TraceEvent.ModelRetry> retries = trace.events(TraceEvent.ModelRetry.class);
        assertThat(retries).hasSize(1);
        assertThat(retries.get(0).errorKind()).isEqualTo("OVERLOADED");
        assertThat(retries.get(0).httpStatus()).isEqualTo(529);
        assertThat(retries.get(0).delayMillis()).as("the server's retry-after-ms").isEqualTo(20);
    }

    @Test
    void anOverloadMidStreamIsRetriedAndTheAnswerIsTheRetrysAloneIntact() {
        // The streaming docs: an error event (overloaded_error) can arrive after the stream began with
        // HTTP 200; the text streamed before it belongs to no answer.
        server.enqueue(FakeReply.overloadedMidStream(), FakeReply.text("東京は晴れ、最高気温は２５℃です。🌤"));
        RecordingListener trace = new RecordingListener();

        RunResult result = Agent.builder().model(model).listener(trace).build().run("東京の天気は？");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("東京は晴れ、最高気温は２５℃です。🌤");
        assertThat(server.requestCount()).isEqualTo(2);
        List<TraceEvent.ModelRetry> retries = trace.events(TraceEvent.ModelRetry.class);
        assertThat(retries).singleElement().satisfies(retry -> {
            assertThat(retry.errorKind()).isEqualTo("OVERLOADED");
            assertThat(retry.httpStatus()).as("the HTTP exchange itself succeeded").isZero();
            // message_start had reported the input: the retry event carries it as data, not only in its message
            assertThat(retry.reportedUsage()).isNotNull();
            assertThat(retry.reportedUsage().totalInputTokens()).isPositive();
        });
        // and no budget counts it: the run's usage is the answer's alone
        assertThat(result.usage()).isEqualTo(trace.events(TraceEvent.ModelResponded.class).getFirst().usage());
        assertThat(server.requests().get(1).body().at("/messages/0/content/0/text").asText())
                .as("the retry asks the same question, nothing of the cut answer in it").isEqualTo("東京の天気は？");
        assertThat(server.requests().get(1).body().get("messages")).hasSize(1);
    }

    @Test
    void aNonRetryableFailureEndsTheRunWithTheApiMessage() {
        server.enqueue(FakeReply.error(dev.rein.testkit.ApiErrorType.INVALID_REQUEST, "messages: text content blocks must be non-empty"));

        RunResult result = Agent.builder().model(model).build().run("hello");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.message()).contains("HTTP 400").contains("text content blocks must be non-empty");
        assertThat(server.requestCount()).isEqualTo(1);
    }

    @Test
    void aFailedRunNamesTheRequestIdOfTheFailedCall() {
        // The API's error docs: every response carries a request-id header, to quote when asking support.
        server.enqueue(FakeReply.error(dev.rein.testkit.ApiErrorType.INVALID_REQUEST, "messages.0.content: Input should be a valid list"));

        RunResult result = Agent.builder().model(model).build().run("hello");

        assertThat(result.message()).matches("the model provider failed \\(HTTP 400, request-id req_\\w+\\): "
                + "messages\\.0\\.content: Input should be a valid list");
    }

    @Test
    void theTraceOfAFailedCallCarriesItsRequestId() {
        server.enqueue(FakeReply.error(dev.rein.testkit.ApiErrorType.OVERLOADED, "Overloaded"),
                FakeReply.error(dev.rein.testkit.ApiErrorType.INVALID_REQUEST, "bad"));
        RecordingListener trace = new RecordingListener();

        Agent.builder().model(model).listener(trace)
                .retryPolicy(new dev.rein.retry.RetryPolicy(1, java.time.Duration.ZERO, java.time.Duration.ZERO, 0))
                .build().run("hello");

        assertThat(trace.events(TraceEvent.ModelRetry.class)).singleElement()
                .satisfies(retry -> assertThat(retry.requestId()).matches("req_\\w+"));
        TraceEvent.ModelFailed failed = trace.events(TraceEvent.ModelFailed.class).getFirst();
        assertThat(failed.requestId()).matches("req_\\w+")
                .isNotEqualTo(trace.events(TraceEvent.ModelRetry.class).getFirst().requestId());
        // and a stored trace line has it under its JSON name, absent when there is none
        assertThat(dev.rein.json.Json.write(failed)).contains("\"request_id\":\"" + failed.requestId() + "\"");
        assertThat(dev.rein.json.Json.write(new TraceEvent.ModelFailed("r", 1, java.time.Instant.EPOCH, "X", 0, "m")))
                .doesNotContain("request_id");
    }

    @Test
    void aBadRequestTheServerSaysToRetryIsRetried() {
        server.enqueue(FakeReply.error(dev.rein.testkit.ApiErrorType.INVALID_REQUEST, "try again").withHeader("x-should-retry", "true")
                .withHeader("retry-after-ms", "10"), FakeReply.text("fine"));

        RunResult result = Agent.builder().model(model).build().run("hello");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(server.requestCount()).isEqualTo(2);
    }
}
