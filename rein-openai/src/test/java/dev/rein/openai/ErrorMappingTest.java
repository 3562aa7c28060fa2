package dev.rein.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.rein.ReinException;
import dev.rein.model.Message;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelException.Kind;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.Usage;
import dev.rein.testkit.openai.ChatReply;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Failures carry the server's own message; 408/409/429/5xx and broken streams are retryable, 4xx final. */
class ErrorMappingTest extends FakeChat {

    @Test
    void finalStatusesKeepTheApiMessage() {
        for (int status : new int[] {400, 401, 403, 404, 422}) {
            server.enqueue(ChatReply.error(status, "invalid_request_error", "message for " + status));
            ModelException e = failure();
            assertThat(e.httpStatus()).isEqualTo(status);
            assertThat(e.retryable()).as("%d is final", status).isFalse();
            assertThat(e.getMessage()).isEqualTo("message for " + status);
        }
    }

    @Test
    void eachDocumentedStatusHasItsKindAndA503sRetryAfterIsTheWait() {
        // Probe: the API's error-codes guide (401 authentication, 403 region or permission, 404, 409, 422, 429, 500,
        // 503 overloaded or "Slow Down"); a 503's retry-after (seconds or an HTTP date) is its wait too.
        Object[][] statuses = {{400, Kind.INVALID_REQUEST, false}, {401, Kind.AUTHENTICATION, false},
            {403, Kind.PERMISSION, false}, {404, Kind.NOT_FOUND, false}, {409, Kind.CONFLICT, true},
            {422, Kind.INVALID_REQUEST, false}, {429, Kind.RATE_LIMITED, true}, {500, Kind.SERVER_ERROR, true},
            {503, Kind.OVERLOADED, true}};
        for (Object[] row : statuses) {
            server.enqueue(ChatReply.error((int) row[0], "x", "状態 " + row[0]));
            ModelException e = failure();
            assertThat(e.kind()).as("%s", row[0]).isEqualTo(row[1]);
            assertThat(e.retryable()).as("%s", row[0]).isEqualTo(row[2]);
            assertThat(e.getMessage()).isEqualTo("状態 " + row[0]);
            assertThat(e.httpStatus()).isEqualTo(row[0]);
        }
        server.enqueue(ChatReply.error(503, "server_error", "Slow Down").withHeader("retry-after", "7"));
        assertThat(failure().retryAfter()).isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void transientStatusesAreRetryableWithTheServersWaitHint() {
        for (int status : new int[] {408, 409, 429, 500, 502, 503}) {
            server.enqueue(ChatReply.error(status, "server_error", "busy " + status));
            ModelException e = failure();
            assertThat(e.retryable()).as("%d is retryable", status).isTrue();
            assertThat(e.getMessage()).isEqualTo("busy " + status);
        }
        server.enqueue(ChatReply.rateLimited(2));
        ModelException limited = failure();
        assertThat(limited.kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(limited.retryAfter()).isEqualTo(Duration.ofSeconds(2));
        assertThat(limited.requestId()).startsWith("req_fake_");

        server.enqueue(ChatReply.rateLimited(2).withHeader("retry-after-ms", "1500"));
        assertThat(failure().retryAfter()).as("retry-after-ms wins").isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void a429ForAnExhaustedQuotaIsNotRetried() {
        // OpenAI's error codes guide: 429 "You exceeded your current quota" means buying credits, not waiting.
        server.enqueue(new ChatReply.HttpError(429, "insufficient_quota", "insufficient_quota",
                "You exceeded your current quota, please check your plan and billing details.", Map.of(), null));
        ModelException quota = failure();
        assertThat(quota.httpStatus()).isEqualTo(429);
        assertThat(quota.retryable()).isFalse();
        assertThat(quota.getMessage()).contains("exceeded your current quota");

        server.enqueue(ChatReply.rateLimited(1));
        assertThat(failure().retryable()).as("a rate limit still is").isTrue();

        server.enqueue(new ChatReply.Malformed(events("{\"error\":{\"message\":\"You exceeded your current quota.\","
                + "\"type\":\"insufficient_quota\",\"param\":null,\"code\":\"insufficient_quota\"}}")));
        assertThat(failure().retryable()).as("as an error chunk too").isFalse();
    }

    @Test
    void a429ForARequestLargerThanTheTokensPerMinuteLimitIsNotRetried() {
        // The public API's 429 when one request alone needs more tokens than the organization's tokens-per-minute limit
        // (its messages plus its output limit): "The input or output tokens must be reduced", which no wait changes.
        String tooLarge = "Request too large for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000,"
                + " Requested 36278. The input or output tokens must be reduced in order to run successfully. Visit"
                + " https://platform.openai.com/account/rate-limits to learn more.";
        server.enqueue(new ChatReply.HttpError(429, "tokens", "rate_limit_exceeded", tooLarge,
                Map.of("x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "6s"), null));
        ModelException e = failure();
        assertThat(e.httpStatus()).isEqualTo(429);
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).startsWith(tooLarge).contains("no wait helps", "--max-tokens", "ContextPolicy");

        // A rate limit the request only has to wait for is still retried.
        server.enqueue(new ChatReply.HttpError(429, "tokens", "rate_limit_exceeded", "Rate limit reached for gpt-4o in"
                + " organization org-abc on tokens per min (TPM): Limit 30000, Used 29000, Requested 5000. Please try again"
                + " in 8s.", Map.of(), null));
        assertThat(failure().retryable()).isTrue();
    }

    @Test
    void openRoutersRefusalOfAnOutputLimitTheCreditsDoNotCoverSaysWhichSettingThatIs() {
        // OpenRouter checks the credits against the request's max_tokens before sending it on: 402 "This request requires
        // more credits, or fewer max_tokens": the max_tokens it names is the run's output limit, set with --max-tokens.
        String refused = "This request requires more credits, or fewer max_tokens. You requested up to 16384 tokens, but"
                + " can only afford 3919. To increase, visit https://openrouter.ai/settings/credits and upgrade to a paid account";
        server.enqueue(new ChatReply.HttpError(402, "x", null, "x", Map.of(), "{\"error\":{\"message\":\"" + refused
                + "\",\"code\":402,\"metadata\":{\"provider_name\":null}}}"));
        ModelException e = failure();
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).isEqualTo(refused + " (16384 is the run's output limit, more than the 3919 the credits"
                + " cover: lower it with --max-tokens (maxTokens in the library, max_tokens in a suite file), or add credits)");

        // Credits for no output at all: no output limit helps, and the message says what does.
        String none = "This request requires more credits, or fewer max_tokens. You requested up to 32000 tokens, but can"
                + " only afford 0. To increase, visit https://openrouter.ai/settings/keys and create a key with a higher"
                + " monthly limit";
        server.enqueue(new ChatReply.HttpError(402, "x", null, "x", Map.of(), "{\"error\":{\"message\":\"" + none
                + "\",\"code\":402}}"));
        assertThat(failure().getMessage()).isEqualTo(none);
    }

    @Test
    void azuresRefusalOfAFilteredPromptNamesWhatItFiltered() {
        // Azure OpenAI refuses a request its content filter flags with 400, code content_filter, and says which category
        // in innererror.content_filter_result; in a run the flagged text may be a tool's result (indirect_attack).
        String refused = "The response was filtered due to the prompt triggering Azure OpenAI's content management policy."
                + " Please modify your prompt and retry. To learn more about our content filtering policies please read our"
                + " documentation: https://go.microsoft.com/fwlink/?linkid=2198766";
        server.enqueue(new ChatReply.HttpError(400, "x", null, "x", Map.of(), "{\"error\":{\"message\":\"" + refused
                + "\",\"type\":null,\"param\":\"prompt\",\"code\":\"content_filter\",\"status\":400,\"innererror\":{"
                + "\"code\":\"ResponsibleAIPolicyViolation\",\"content_filter_result\":{\"hate\":{\"filtered\":false,"
                + "\"severity\":\"safe\"},\"indirect_attack\":{\"filtered\":true,\"detected\":true},\"violence\":{"
                + "\"filtered\":false,\"severity\":\"safe\"}}}}}"));
        ModelException e = failure();
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).isEqualTo(refused + " (filtered: indirect_attack; the flagged text, the task's or a tool"
                + " result's, stays in the conversation, so every later step would be refused the same way)");
    }

    @Test
    void azuresFilteredPromptRelayedByAGatewayAfterHttp200NamesWhatItFiltered() throws Exception {
        // OpenRouter relays Azure's content-filter refusal as "Provider returned error" (code 400), Azure's error JSON in
        // metadata.raw; sent after HTTP 200 as an error chunk it gets the advice it gets as an HTTP error.
        String refused = "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.";
        String raw = dev.rein.json.Json.mapper().writeValueAsString("{\"error\":{\"message\":\"" + refused
                + "\",\"type\":null,\"param\":\"prompt\",\"code\":\"content_filter\",\"status\":400,\"innererror\":{"
                + "\"code\":\"ResponsibleAIPolicyViolation\",\"content_filter_result\":{\"indirect_attack\":{"
                + "\"filtered\":true,\"detected\":true}}}}}");
        String relayed = "{\"error\":{\"message\":\"Provider returned error\",\"code\":400,\"metadata\":{\"raw\":" + raw
                + ",\"provider_name\":\"Azure\"}}}";
        String advice = " (filtered: indirect_attack; the flagged text, the task's or a tool result's, stays in the"
                + " conversation, so every later step would be refused the same way)";
        server.enqueue(new ChatReply.HttpError(400, "x", null, "x", Map.of(), relayed));
        assertThat(failure().getMessage()).startsWith("Provider returned error (Azure: ").endsWith(advice);

        server.enqueue(new ChatReply.Malformed(events(relayed)));
        ModelException chunk = failure();
        assertThat(chunk.kind()).isEqualTo(Kind.INVALID_REQUEST);
        assertThat(chunk.retryable()).isFalse();
        assertThat(chunk.getMessage()).contains("Provider returned error (Azure: ").endsWith(advice);
    }

    @Test
    void azuresContentFilterErrorAfterHttp200WithNoStatusCodeIsAFinalRefusalNotAServerError() throws Exception {
        // Azure's error shape (type null, code content_filter, its status only as "status", which is no status code Rein
        // reads, or none at all) sent after HTTP 200, as an error chunk or as the whole body: it was retried as a server
        // error, though the same flagged text meets the same filter; it is refused as the HTTP 400 is, with its advice.
        String refused = "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.";
        String advice = " (filtered: violence (severity high); the flagged text, the task's or a tool result's, stays in"
                + " the conversation, so every later step would be refused the same way)";
        String filter = ",\"innererror\":{\"code\":\"ResponsibleAIPolicyViolation\",\"content_filter_result\":{\"violence\":{"
                + "\"filtered\":true,\"severity\":\"high\"}}}}}";
        for (String status : List.of("", ",\"status\":400")) {
            String error = "{\"error\":{\"message\":\"" + refused + "\",\"type\":null,\"param\":\"prompt\",\"code\":"
                    + "\"content_filter\"" + status + filter;
            server.enqueue(new ChatReply.Malformed(events(error)));
            ModelException chunk = failure();
            assertThat(chunk.kind()).as("chunk" + status).isEqualTo(Kind.INVALID_REQUEST);
            assertThat(chunk.retryable()).as("chunk" + status).isFalse();
            assertThat(chunk.getMessage()).as("chunk" + status).contains(refused).endsWith(advice);

            ModelException body = assertThrows(ModelException.class, () -> callPlainServer("application/json", error));
            assertThat(body.kind()).as("body" + status).isEqualTo(Kind.INVALID_REQUEST);
            assertThat(body.retryable()).as("body" + status).isFalse();
            assertThat(body.getMessage()).as("body" + status).contains(refused).endsWith(advice);
        }
    }

    @Test
    void aFilterOfTheModelsAnswerAndKimisContentFilterAreFinalWithAdviceThatFits() throws Exception {
        // A filter error naming param "completion" (no public Azure source shows one; its examples show "prompt", and its
        // output filter normally ends the answer with finish_reason content_filter) is about the model's answer, which
        // the conversation does not keep, so "the flagged text stays in the conversation" was wrong advice.
        // Moonshot/Kimi documents its refusal as 400 {"error":{"type":"content_filter",...}} ("your input or generated
        // content"); after HTTP 200 it was retried as a server error.
        String completion = "{\"error\":{\"message\":\"The response was filtered\",\"type\":null,\"param\":"
                + "\"completion\",\"code\":\"content_filter\",\"status\":400}}";
        String answer = " (the model's answer was filtered, not the conversation: rephrase the task so that it asks for"
                + " something else)";
        String kimi = "{\"error\":{\"message\":\"The request was rejected because it was considered high risk\","
                + "\"type\":\"content_filter\"}}";
        String either = " (the input or the model's answer holds what the content filter refuses; if it is the input,"
                + " the task's or a tool result's, it stays in the conversation, so every later step would be refused the"
                + " same way)";
        for (String[] c : List.of(new String[] {completion, answer}, new String[] {kimi, either})) {
            server.enqueue(new ChatReply.Malformed(events(c[0])));
            ModelException chunk = failure();
            assertThat(chunk.kind()).as(c[0]).isEqualTo(Kind.INVALID_REQUEST);
            assertThat(chunk.retryable()).as(c[0]).isFalse();
            assertThat(chunk.getMessage()).as(c[0]).endsWith(c[1]);

            server.enqueue(new ChatReply.HttpError(400, "x", null, "x", Map.of(), c[0]));
            ModelException http = failure();
            assertThat(http.retryable()).as(c[0]).isFalse();
            assertThat(http.getMessage()).as(c[0]).endsWith(c[1]);
        }
    }

    @Test
    void aContentFilterErrorWithNoMessageStillGetsTheAdvice() throws Exception {
        // The advice was added only when the error had a message: {"error":{"type":"content_filter"}} said only
        // what the error was, after HTTP 200 and at HTTP 400 alike, and nothing on why a retry or a later step fails too.
        String either = " (the input or the model's answer holds what the content filter refuses; if it is the input,"
                + " the task's or a tool result's, it stays in the conversation, so every later step would be refused the"
                + " same way)";
        String bare = "{\"error\":{\"type\":\"content_filter\"}}";
        server.enqueue(new ChatReply.Malformed(events(bare)));
        ModelException chunk = failure();
        assertThat(chunk.kind()).isEqualTo(Kind.INVALID_REQUEST);
        assertThat(chunk.retryable()).isFalse();
        assertThat(chunk.getMessage()).contains("content_filter").endsWith(either);

        server.enqueue(new ChatReply.HttpError(400, "x", null, "x", Map.of(), bare));
        ModelException http = failure();
        assertThat(http.retryable()).isFalse();
        assertThat(http.getMessage()).contains("content_filter").endsWith(either);
    }

    @Test
    void xShouldRetryOverridesTheStatusEitherWayAsTheSdkDoes() {
        // openai-java RetryingHttpClient.shouldRetry: "If the server explicitly says whether to retry, obey".
        server.enqueue(ChatReply.error(500, "server_error", "broken for good").withHeader("x-should-retry", "false"));
        assertThat(failure().retryable()).isFalse();
        server.enqueue(ChatReply.error(418, "teapot", "short and stout").withHeader("x-should-retry", "true"));
        assertThat(failure().retryable()).isTrue();
        for (int status : new int[] {400, 401, 403, 404, 413, 422}) {
            server.enqueue(ChatReply.error(status, "invalid_request_error", "try again").withHeader("x-should-retry", "true"));
            ModelException e = failure();
            assertThat(e.retryable()).as("%d with x-should-retry: true", status).isTrue();
            assertThat(e.kind()).isEqualTo(ErrorMapper.kindOfStatus(status));
        }
        server.enqueue(new ChatReply.HttpError(429, "insufficient_quota", "insufficient_quota", "You exceeded your current quota.",
                Map.of("x-should-retry", "true"), null));
        assertThat(failure().retryable()).as("an exhausted quota stays final: no retry buys credits").isFalse();
    }

    @Test
    void otherServersErrorShapesStillGiveTheirMessage() {
        server.enqueue(new ChatReply.HttpError(404, "x", null, "x", Map.of(), "{\"error\":\"model 'qwen3:8b' not found\"}"));
        assertThat(failure().getMessage()).isEqualTo("model 'qwen3:8b' not found");
        server.enqueue(new ChatReply.HttpError(400, "x", null, "x", Map.of(),
                "{\"object\":\"error\",\"message\":\"max_tokens is too large\",\"code\":400}"));
        assertThat(failure().getMessage()).isEqualTo("max_tokens is too large");
        // FastAPI's validation error shape (servers built on it, such as llama-cpp-python).
        server.enqueue(new ChatReply.HttpError(422, "x", null, "x", Map.of(), "{\"detail\":[{\"type\":\"missing\","
                + "\"loc\":[\"body\",\"messages\",0,\"content\"],\"msg\":\"Field required\",\"input\":null},"
                + "{\"type\":\"float_type\",\"loc\":[\"body\",\"temperature\"],\"msg\":\"Input should be a valid number\"}]}"));
        assertThat(failure().getMessage()).isEqualTo("body.messages.0.content: Field required; "
                + "body.temperature: Input should be a valid number");
        server.enqueue(new ChatReply.HttpError(502, "x", null, "x", Map.of(), "<html>Bad Gateway</html>"));
        ModelException gateway = failure();
        assertThat(gateway.retryable()).isTrue();
        assertThat(gateway.getMessage()).contains("HTTP 502");
    }

    @Test
    void anErrorBodyThatIsAListOfErrorsGivesTheirMessage() {
        // Google's OpenAI-compatible endpoint (generativelanguage.googleapis.com/v1beta/openai) wraps
        // its error in a list: [{"error":{"code":400,"message":...,"status":"INVALID_ARGUMENT"}}].
        server.enqueue(new ChatReply.HttpError(400, "x", null, "x", Map.of(), "[{\"error\":{\"code\":400,\"message\":"
                + "\"Invalid JSON payload received. Unknown name \\\"reasoning_effort\\\": Cannot find field.\","
                + "\"status\":\"INVALID_ARGUMENT\"}}]"));
        ModelException invalid = failure();
        assertThat(invalid.getMessage())
                .isEqualTo("Invalid JSON payload received. Unknown name \"reasoning_effort\": Cannot find field.");
        assertThat(invalid.retryable()).isFalse();

        server.enqueue(new ChatReply.HttpError(429, "x", null, "x", Map.of(), "[{\"error\":{\"code\":429,\"message\":"
                + "\"リソースが枯渇しました\",\"status\":\"RESOURCE_EXHAUSTED\"}}]"));
        ModelException limited = failure();
        assertThat(limited.getMessage()).isEqualTo("リソースが枯渇しました");
        assertThat(limited.retryable()).isTrue();
    }

    @Test
    void aJsonErrorBodyLongerThanWhatIsPeekedStillGivesItsMessage() {
        // FastAPI's validation errors echo the offending input: with a long history the body passes
        // the 64 KB looked at to tell JSON from a proxy's page, and it was shown as cut text.
        String input = "長い履歴".repeat(20_000);
        server.enqueue(new ChatReply.HttpError(422, "x", null, "x", Map.of(), "{\"detail\":[{\"type\":\"missing\","
                + "\"loc\":[\"body\",\"messages\",0,\"content\"],\"msg\":\"Field required\",\"input\":\"" + input + "\"}]}"));
        assertThat(failure().getMessage()).isEqualTo("body.messages.0.content: Field required");
    }

    @Test
    void groqsRefusalOfAFailedToolCallGenerationShowsTheGenerationItPointsTo() {
        // Groq answers a tool call its parser could not read with 400 tool_use_failed, whose message sends the reader to
        // failed_generation (what the model wrote); shown without it, the message pointed to a field nobody could see.
        server.enqueue(new ChatReply.HttpError(400, "x", null, "x", Map.of(), "{\"error\":{\"message\":\"Failed to call a"
                + " function. Please adjust your prompt. See 'failed_generation' for more details.\",\"type\":"
                + "\"invalid_request_error\",\"code\":\"tool_use_failed\",\"failed_generation\":"
                + "\"<function=search{\\\"q\\\": \\\"東京\\\"}</function>\"}}"));
        ModelException failed = failure();
        assertThat(failed.getMessage()).isEqualTo("Failed to call a function. Please adjust your prompt. See"
                + " 'failed_generation' for more details. (the model wrote a call or JSON the server could not read; another"
                + " sampling of the same request may not, so it is retried under the agent's RetryPolicy)"
                + " (failed_generation: <function=search{\"q\": \"東京\"}</function>)");

        // A long one is cut, saying so; the same for json_validate_failed (JSON mode) and for an error sent in the stream.
        String longGeneration = "x".repeat(3000);
        server.enqueue(new ChatReply.Malformed(events("{\"error\":{\"message\":\"Failed to generate JSON. Please adjust"
                + " your prompt. See 'failed_generation' for more details.\",\"type\":\"invalid_request_error\","
                + "\"code\":\"json_validate_failed\",\"failed_generation\":\"" + longGeneration + "\"}}", "[DONE]")));
        String streamed = failure().getMessage();
        assertThat(streamed).contains("the agent's RetryPolicy) (failed_generation: " + "x".repeat(1000)
                + "... (3000 characters, cut to 1000))");
    }

    @Test
    void groqsFailedToolCallGenerationIsRetriedAsASampledGeneration() {
        // Groq's tool_use_failed (and json_validate_failed) refuse what the model wrote, not the request: the same request
        // sampled again usually succeeds (pydantic-ai resends it). It was final, ending the run on one bad sample.
        String failed = "{\"error\":{\"message\":\"Failed to call a function. Please adjust your prompt. See"
                + " 'failed_generation' for more details.\",\"type\":\"invalid_request_error\",\"code\":\"tool_use_failed\","
                + "\"failed_generation\":\"<function=search{\\\"q\\\": 1}</function>\"}}";
        server.enqueue(new ChatReply.HttpError(400, "x", null, "x", Map.of(), failed));
        ModelException http = failure();
        assertThat(http.kind()).isEqualTo(Kind.INVALID_REQUEST);
        assertThat(http.httpStatus()).isEqualTo(400);
        assertThat(http.retryable()).isTrue();
        assertThat(http.getMessage()).isEqualTo("Failed to call a function. Please adjust your prompt. See 'failed_generation'"
                + " for more details. (the model wrote a call or JSON the server could not read; another sampling of the same"
                + " request may not, so it is retried under the agent's RetryPolicy)"
                + " (failed_generation: <function=search{\"q\": 1}</function>)");

        // In the stream, and for JSON mode's json_validate_failed, the same.
        server.enqueue(new ChatReply.Malformed(events(failed.replace("tool_use_failed", "json_validate_failed"))));
        ModelException streamed = failure();
        assertThat(streamed.retryable()).isTrue();
        assertThat(streamed.getMessage()).contains("it is retried under the agent's RetryPolicy) (failed_generation: ");

        // The server's x-should-retry still wins, and any other 400 stays final.
        server.enqueue(new ChatReply.HttpError(400, "x", null, "x", Map.of("x-should-retry", "false"), failed));
        assertThat(failure().retryable()).isFalse();
        server.enqueue(new ChatReply.HttpError(400, "x", null, "x", Map.of(), failed.replace("tool_use_failed", "other")));
        ModelException other = failure();
        assertThat(other.retryable()).isFalse();
        assertThat(other.getMessage()).doesNotContain("RetryPolicy");
    }

    @Test
    void groqsJsonCutAtTheOutputLimitIsFinalWithAdvice() {
        // Groq's json_validate_failed for a document the output limit cut off says so ("max completion tokens reached
        // before generating a valid document", in the message or as the failed_generation): every resend is cut the same
        // way, so retrying it as a bad sample spent the retries and ended with no hint of the limit.
        String cut = "{\"error\":{\"message\":\"Failed to validate JSON: max completion tokens reached before generating a"
                + " valid document: the output was truncated to fit max_completion_tokens\",\"type\":\"invalid_request_error\","
                + "\"code\":\"json_validate_failed\",\"failed_generation\":\"{\\\"items\\\": [\\\"a\\\", \\\"b\"}}";
        server.enqueue(new ChatReply.HttpError(400, "x", null, "x", Map.of(), cut));
        ModelException http = failure();
        assertThat(http.kind()).isEqualTo(Kind.INVALID_REQUEST);
        assertThat(http.retryable()).isFalse();
        assertThat(http.getMessage()).startsWith("Failed to validate JSON: max completion tokens reached")
                .contains("(the model's output reached the output limit before it was whole, so every resend is cut the"
                        + " same way: raise the output limit with --max-tokens (maxTokens in the library, max_tokens in a suite"
                        + " file), or ask the model for shorter output; for a reasoning model, a lower reasoning effort"
                        + " (--reasoning-effort) leaves more of the limit to the answer)")
                .doesNotContain("RetryPolicy")
                .endsWith("(failed_generation: {\"items\": [\"a\", \"b)");

        // The wording as the failed_generation itself, and in the stream: the same.
        String inGeneration = "{\"error\":{\"message\":\"Failed to generate JSON. Please adjust your prompt. See"
                + " 'failed_generation' for more details.\",\"type\":\"invalid_request_error\",\"code\":\"json_validate_failed\","
                + "\"failed_generation\":\"max completion tokens reached before generating a valid document\"}}";
        server.enqueue(new ChatReply.Malformed(events(inGeneration)));
        ModelException streamed = failure();
        assertThat(streamed.retryable()).isFalse();
        assertThat(streamed.getMessage()).contains("raise the output limit with --max-tokens").doesNotContain("RetryPolicy");

        // A document the schema refused, not the limit, is still a bad sample, retried.
        server.enqueue(new ChatReply.HttpError(400, "x", null, "x", Map.of(), "{\"error\":{\"message\":\"Generated JSON does"
                + " not match the expected schema. Please adjust your prompt. See 'failed_generation' for more details.\","
                + "\"type\":\"invalid_request_error\",\"code\":\"json_validate_failed\",\"failed_generation\":\"{}\"}}"));
        ModelException schema = failure();
        assertThat(schema.retryable()).isTrue();
        assertThat(schema.getMessage()).doesNotContain("output limit");

        // The model's own output that quotes those words (a generation about token limits) is no cut: still a bad sample.
        server.enqueue(new ChatReply.HttpError(400, "x", null, "x", Map.of(), "{\"error\":{\"message\":\"Failed to generate"
                + " JSON. Please adjust your prompt. See 'failed_generation' for more details.\",\"type\":\"invalid_request_error\","
                + "\"code\":\"json_validate_failed\",\"failed_generation\":\"{\\\"log\\\": \\\"warn: max completion tokens"
                + " reached before generating a valid document\"}}"));
        ModelException quoted = failure();
        assertThat(quoted.retryable()).isTrue();
        assertThat(quoted.getMessage()).doesNotContain("raise the output limit");
    }

    @Test
    void aRateLimitErrorInTheStreamIsARateLimitWithItsWait() {
        // The public API and Groq send a rate limit met after HTTP 200 as an error chunk with code rate_limit_exceeded
        // (its type the limit's, "tokens"); it was a SERVER_ERROR, traced and retried as one without the wait it names.
        server.enqueue(new ChatReply.Malformed(events("{\"error\":{\"message\":\"Rate limit reached for model `m` on"
                + " tokens per minute (TPM): Limit 6000, Used 5800, Requested 400. Please try again in 2.5s.\","
                + "\"type\":\"tokens\",\"code\":\"rate_limit_exceeded\"}}")));
        ModelException limited = failure();
        assertThat(limited.kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(limited.retryable()).isTrue();
        assertThat(limited.retryAfter()).isEqualTo(Duration.ofMillis(2500));
        assertThat(limited.getMessage()).contains("(tokens): Rate limit reached for model `m`");

        // One request beyond the minute's limit is final, as for HTTP 429: no wait helps.
        server.enqueue(new ChatReply.Malformed(events("{\"error\":{\"message\":\"Request too large for gpt-4o in"
                + " organization org-x on tokens per min (TPM): Limit 30000, Requested 36278. The input or output tokens must be"
                + " reduced in order to run successfully.\",\"type\":\"tokens\",\"code\":\"rate_limit_exceeded\"}}")));
        ModelException tooLarge = failure();
        assertThat(tooLarge.kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(tooLarge.retryable()).isFalse();
        assertThat(tooLarge.getMessage()).contains("so no wait helps");

        // Groq's words for the same (its HTTP 413 with code rate_limit_exceeded), should they come after HTTP 200.
        server.enqueue(new ChatReply.Malformed(events("{\"error\":{\"message\":\"Request too large for model `llama-3.3-70b-versatile`"
                + " in organization `org_x` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Requested 14810, please"
                + " reduce your message size and try again. Visit https://console.groq.com/docs/rate-limits for more information.\","
                + "\"type\":\"tokens\",\"code\":\"rate_limit_exceeded\"}}")));
        ModelException groqTooLarge = failure();
        assertThat(groqTooLarge.retryable()).isFalse();
        assertThat(groqTooLarge.getMessage()).contains("so no wait helps");

        // Out of credits is a rate limit's kind too, but final, as for HTTP 429.
        server.enqueue(new ChatReply.Malformed(events("{\"error\":{\"message\":\"You exceeded your current quota\","
                + "\"type\":\"insufficient_quota\",\"code\":\"insufficient_quota\"}}")));
        ModelException quota = failure();
        assertThat(quota.kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(quota.retryable()).isFalse();
    }

    @Test
    void aGroqStreamStoppedEarlyWithXGroqErrorIsNoAnswer() {
        // Groq's chunk schema (groq-python ChatCompletionChunk): x_groq.error, "an error string indicating why a stream
        // was stopped early" (over_capacity), on its last chunk before data: [DONE]. Unread, the text cut off there was
        // taken as the whole answer.
        server.enqueue(new ChatReply.Malformed(events(
                "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"llama-3.3-70b-versatile\",\"choices\":"
                        + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"答えは途\"},\"finish_reason\":null}],"
                        + "\"x_groq\":{\"id\":\"req_g1\"}}",
                "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"llama-3.3-70b-versatile\",\"choices\":"
                        + "[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],\"x_groq\":{\"id\":\"req_g1\","
                        + "\"error\":\"over_capacity\"}}",
                "[DONE]")));
        ModelException stopped = failure();
        assertThat(stopped.retryable()).isTrue();
        assertThat(stopped.kind()).isEqualTo(Kind.OVERLOADED);
        assertThat(stopped.getMessage()).isEqualTo("the response stream from the server at " + server.baseUrl()
                + " was stopped early (x_groq.error: over_capacity): what came is no answer");

        // Any other reason is a server error, retried too; a chunk whose x_groq has no error is read as before.
        server.enqueue(new ChatReply.Malformed(events("{\"id\":\"c2\",\"choices\":[{\"index\":0,\"delta\":{\"content\":"
                + "\"x\"},\"finish_reason\":null}],\"x_groq\":{\"error\":\"internal_error\"}}", "[DONE]")));
        ModelException other = failure();
        assertThat(other.kind()).isEqualTo(Kind.SERVER_ERROR);
        assertThat(other.retryable()).isTrue();
    }

    @Test
    void aGroqStreamStoppedEarlySaysTheUsageItsLastChunkReportedAndAStatusCodeInAnErrorIsItsStatus() {
        // Groq's last chunk carries the stream's usage in x_groq.usage beside x_groq.error: the server billed it, but a
        // failed call charges no budget, and the message did not say it, so it was lost unsaid.
        server.enqueue(new ChatReply.Malformed(events(
                "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"途中\"},\"finish_reason\":null}]}",
                "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],\"x_groq\":{\"id\":\"req_g1\","
                        + "\"usage\":{\"prompt_tokens\":120,\"completion_tokens\":7,\"total_tokens\":127},"
                        + "\"error\":\"over_capacity\"}}",
                "[DONE]")));
        ModelException stopped = failure();
        assertThat(stopped.kind()).isEqualTo(Kind.OVERLOADED);
        assertThat(stopped.getMessage()).isEqualTo("the response stream from the server at " + server.baseUrl()
                + " was stopped early (x_groq.error: over_capacity): what came is no answer; it reported usage for it (120"
                + " input tokens and 7 output tokens), which the run's token and money budgets do not count, as a failed"
                + " call charges nothing");
        // and as data, for the trace and telemetry
        assertThat(stopped.reportedUsage()).contains(Usage.of(120, 7, 0, 0));

        // The same for an error chunk that carries usage.
        server.enqueue(new ChatReply.Malformed(events("{\"error\":{\"message\":\"internal error\",\"type\":\"server_error\"},"
                + "\"x_groq\":{\"usage\":{\"prompt_tokens\":50,\"completion_tokens\":3,\"total_tokens\":53}}}")));
        ModelException errorChunk = failure();
        assertThat(errorChunk.getMessage()).endsWith("(server_error): internal error; it reported usage for it (50 input"
                + " tokens and 3 output tokens), which the run's token and money budgets do not count, as a failed call"
                + " charges nothing");
        assertThat(errorChunk.reportedUsage()).contains(Usage.of(50, 3, 0, 0));

        // An error sent after HTTP 200 may carry its HTTP status as status_code (Groq's, beside a code that is no status):
        // it was read by its type alone, a 404 retried as a server error.
        server.enqueue(new ChatReply.Malformed(events("{\"error\":{\"message\":\"The model `m` does not exist\","
                + "\"type\":\"not_found_error\",\"code\":\"model_not_found\",\"status_code\":404}}")));
        ModelException notFound = failure();
        assertThat(notFound.kind()).isEqualTo(Kind.NOT_FOUND);
        assertThat(notFound.retryable()).isFalse();
        server.enqueue(new ChatReply.Malformed(events("{\"error\":{\"message\":\"Service Unavailable\",\"type\":"
                + "\"internal_server_error\",\"status_code\":503}}")));
        ModelException unavailable = failure();
        assertThat(unavailable.kind()).isEqualTo(Kind.OVERLOADED);
        assertThat(unavailable.retryable()).isTrue();
        // Groq's failed tool call with its status beside it is still a bad sample, retried.
        server.enqueue(new ChatReply.Malformed(events("{\"error\":{\"message\":\"tool call validation failed\","
                + "\"type\":\"invalid_request_error\",\"code\":\"tool_use_failed\",\"status_code\":400}}")));
        ModelException toolCall = failure();
        assertThat(toolCall.kind()).isEqualTo(Kind.INVALID_REQUEST);
        assertThat(toolCall.retryable()).isTrue();

        // An x_groq.error that is an error object rather than its documented string is read as an error object.
        server.enqueue(new ChatReply.Malformed(events("{\"id\":\"c3\",\"choices\":[],\"x_groq\":{\"error\":{\"message\":"
                + "\"rate limited\",\"type\":\"tokens\",\"status_code\":429}}}", "[DONE]")));
        ModelException limited = failure();
        assertThat(limited.kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(limited.getMessage()).contains("(tokens): rate limited");
    }

    @Test
    void groqsFlexTierAtCapacityIsAnOverloadToRetry() {
        // Groq's error codes: 498, its own, "Flex Tier Capacity Exceeded ... You can try again later" (flex processing:
        // "fail quickly with status 498 and error capacity_exceeded. Add jittered backoff and retries"). It was OTHER, final.
        server.enqueue(ChatReply.error(498, "capacity_exceeded", "flex tier capacity exceeded"));
        ModelException busy = failure();
        assertThat(busy.kind()).isEqualTo(Kind.OVERLOADED);
        assertThat(busy.retryable()).isTrue();
        assertThat(busy.httpStatus()).isEqualTo(498);
    }

    @Test
    void anErrorBodyThatIsNotJsonGivesItsTextAsTheMessage() {
        // The official Python SDK (_make_status_error_from_response) makes a non-JSON error body's
        // text the message; the Java SDK drops it, which left only "HTTP 401 from the server at ...".
        server.enqueue(new ChatReply.HttpError(401, "x", null, "x", Map.of("x-request-id", "req_proxy"),
                "Unauthorized: the proxy token has expired"));
        ModelException proxy = failure();
        assertThat(proxy.kind()).isEqualTo(Kind.AUTHENTICATION);
        assertThat(proxy.getMessage()).isEqualTo("HTTP 401 from the server at " + server.baseUrl()
                + ": Unauthorized: the proxy token has expired");
        assertThat(proxy.requestId()).isEqualTo("req_proxy");

        server.enqueue(new ChatReply.HttpError(502, "x", null, "x", Map.of(),
                "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1>\n<hr>nginx</body></html>"));
        ModelException gateway = failure();
        assertThat(gateway.retryable()).isTrue();
        assertThat(gateway.getMessage()).isEqualTo("HTTP 502 from the server at " + server.baseUrl()
                + ": 502 Bad Gateway 502 Bad Gateway nginx");

        // Ollama addressed without /v1: a plain-text 404 for a path it does not serve.
        server.enqueue(new ChatReply.HttpError(404, "x", null, "x", Map.of(), "404 page not found"));
        assertThat(failure().getMessage()).isEqualTo("HTTP 404 from the server at " + server.baseUrl()
                + ": 404 page not found (requests go to " + server.baseUrl() + "/chat/completions; most servers want"
                + " a base URL ending in /v1)");
    }

    @Test
    void aServerBuiltOnFastApiAddressedWithoutV1SaysWhereRequestsWent() {
        // vLLM (and other FastAPI servers) answer a path they do not serve with FastAPI's own 404,
        // {"detail":"Not Found"}: "Not Found" alone does not say that the base URL lacks /v1.
        server.enqueue(new ChatReply.HttpError(404, "x", null, "x", Map.of(), "{\"detail\":\"Not Found\"}"));
        ModelException noRoute = failure();
        assertThat(noRoute.kind()).isEqualTo(Kind.NOT_FOUND);
        assertThat(noRoute.retryable()).isFalse();
        assertThat(noRoute.getMessage()).isEqualTo("HTTP 404 from the server at " + server.baseUrl()
                + ": Not Found (requests go to " + server.baseUrl() + "/chat/completions; most servers want"
                + " a base URL ending in /v1)");

        // A 404 of the API itself (a model the server does not have) keeps its own message.
        server.enqueue(new ChatReply.HttpError(404, "x", null, "x", Map.of(), "{\"object\":\"error\",\"message\":"
                + "\"The model `qwen3` does not exist.\",\"type\":\"NotFoundError\",\"param\":null,\"code\":404}"));
        assertThat(failure().getMessage()).isEqualTo("The model `qwen3` does not exist.");
        server.enqueue(ChatReply.error(404, "invalid_request_error", "The model `gpt-9` does not exist or you do not have access to it."));
        assertThat(failure().getMessage()).isEqualTo("The model `gpt-9` does not exist or you do not have access to it.");
    }

    @Test
    void brokenStreamsAreRetryable() {
        server.enqueue(ChatReply.disconnect());
        assertThat(failure().kind()).isEqualTo(Kind.CONNECTION);

        server.enqueue(new ChatReply.Disconnect(ChatReply.text("a partial answer that is cut"), 3));
        ModelException midway = failure();
        assertThat(midway.retryable()).isTrue();

        server.enqueue(new ChatReply.NoDone(ChatReply.text("complete but unterminated")));
        ModelException noDone = failure();
        assertThat(noDone.retryable()).isTrue();
        assertThat(noDone.getMessage()).contains("[DONE]");

        server.enqueue(new ChatReply.StreamError(ChatReply.text("partial"), 2, "server_error", "The server had an error"));
        ModelException inStream = failure();
        assertThat(inStream.retryable()).isTrue();
        assertThat(inStream.getMessage()).contains("The server had an error");
    }

    @Test
    void aStreamCutAfterItsUsageChunkSaysTheUsageTheBudgetCannotCount() {
        // A server that never sends data: [DONE] (or a connection closed just before it) after the whole generation and
        // its usage chunk: the call fails, retried, and the tokens billed for it were lost unsaid with the failure.
        String chunk = "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":";
        server.enqueue(new ChatReply.Malformed(events(
                chunk + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"全部\"},\"finish_reason\":\"stop\"}]}",
                chunk + "[],\"usage\":{\"prompt_tokens\":300,\"completion_tokens\":20,\"total_tokens\":320}}")));
        ModelException cut = failure();
        assertThat(cut.retryable()).isTrue();
        assertThat(cut.getMessage()).isEqualTo("the response stream from the server at " + server.baseUrl()
                + " ended before data: [DONE] (after 2 chunks; finish_reason stop had arrived: if the server never ends its"
                + " streams with data: [DONE], as OpenAI-compatible streaming does, every call fails so); it reported usage"
                + " for it (300 input tokens and 20 output tokens), which the run's token and money budgets do not count, as"
                + " a failed call charges nothing");
        assertThat(cut.reportedUsage()).contains(Usage.of(300, 20, 0, 0));
    }

    @Test
    void aConnectionBrokenAfterTheUsageChunkSaysTheUsageTheBudgetCannotCount() {
        // The whole generation and its usage chunk came, then the connection broke before data: [DONE]: the read fails
        // with an IOException, not a clean end, and the tokens billed for the request were lost unsaid with it.
        server.enqueue(new ChatReply.Disconnect(new ChatReply.Completion("全部", null, List.of(), ChatReply.STOP,
                new ChatReply.Usage(300, 20, 0)), 100));
        ModelException broken = failure();
        assertThat(broken.kind()).isEqualTo(Kind.CONNECTION);
        assertThat(broken.retryable()).isTrue();
        assertThat(broken.getMessage()).startsWith("the connection to the server at " + server.baseUrl() + " failed: ")
                .endsWith("; it reported usage for it (300 input tokens and 20 output tokens), which the run's token and"
                        + " money budgets do not count, as a failed call charges nothing");
        assertThat(broken.reportedUsage()).contains(Usage.of(300, 20, 0, 0));

        // Broken before the usage chunk: nothing more to say.
        server.enqueue(new ChatReply.Disconnect(ChatReply.text("a partial answer that is cut"), 2));
        ModelException early = failure();
        assertThat(early.getMessage()).doesNotContain("reported usage");
        assertThat(early.reportedUsage()).isEmpty();
    }

    @Test
    void anUnreadableLineAfterTheUsageChunkSaysTheUsageTheBudgetCannotCount() {
        // A data: line that is not JSON (or not an object) after the usage chunk fails the call as malformed; the tokens
        // the usage chunk reported are said with it and carried, as with every other failure after it.
        String chunk = "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":";
        String answer = chunk + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"全部\"},\"finish_reason\":\"stop\"}]}";
        String usage = chunk + "[],\"usage\":{\"prompt_tokens\":300,\"completion_tokens\":20,\"total_tokens\":320}}";
        String note = "; it reported usage for it (300 input tokens and 20 output tokens), which the run's token and money"
                + " budgets do not count, as a failed call charges nothing";
        server.enqueue(new ChatReply.Malformed(events(answer, usage, "{\"id\":\"c1\",\"choi", "[DONE]")));
        ModelException notJson = failure();
        assertThat(notJson.getMessage()).startsWith("the server sent a response that is not valid JSON (").endsWith(note);
        assertThat(notJson.reportedUsage()).contains(Usage.of(300, 20, 0, 0));

        server.enqueue(new ChatReply.Malformed(events(answer, usage, "42", "[DONE]")));
        ModelException notObject = failure();
        assertThat(notObject.getMessage()).contains("where a chat.completion.chunk object belongs").endsWith(note);
        assertThat(notObject.reportedUsage()).contains(Usage.of(300, 20, 0, 0));

        // Before the usage chunk: nothing more to say.
        server.enqueue(new ChatReply.Malformed(events(answer, "{\"id\":\"c1\",\"choi", usage, "[DONE]")));
        ModelException early = failure();
        assertThat(early.getMessage()).doesNotContain("reported usage");
        assertThat(early.reportedUsage()).isEmpty();
    }

    @Test
    void aStreamEndingAfterItsFinishReasonWithoutDoneSaysTheServerMayNeverSendIt() {
        // Some servers end every stream without data: [DONE] (ik_llama.cpp#467, older TGI and mistral.rs):
        // each call then fails after all retries, and "ended before data: [DONE]" read like a network fault.
        server.enqueue(new ChatReply.NoDone(ChatReply.text("complete but unterminated")));
        ModelException whole = failure();
        assertThat(whole.retryable()).isTrue();
        assertThat(whole.getMessage()).contains("ended before data: [DONE] (after")
                .contains("; finish_reason stop had arrived: if the server never ends its streams with data: [DONE],"
                        + " as OpenAI-compatible streaming does, every call fails so");

        // Cut before the finish reason: a broken stream, nothing more to say; one chunk is "1 chunk".
        server.enqueue(new ChatReply.Malformed(events(
                "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"途中\"},\"finish_reason\":null}]}")));
        assertThat(failure().getMessage()).endsWith("ended before data: [DONE] (after 1 chunk)");
    }

    @Test
    void aCallPastItsRequestTimeoutIsATimeoutNotABrokenConnection() throws Exception {
        // OkHttp ends a call past its limit with InterruptedIOException("timeout") caused by the socket it
        // closed: read from the root cause, it was "the connection ... failed: SocketException: Socket closed".
        try (OpenAiModel limited = OpenAiModel.builder().baseUrl(server.baseUrl()).requestTimeout(Duration.ofMillis(500))
                .environment(name -> null).build()) {
            server.enqueue(new ChatReply.Hang());
            ModelException late = null;
            try {
                limited.call(request("x").build(), new ModelCallContext(Instant.now().plusSeconds(30), stream));
            } catch (ModelException e) {
                late = e;
            }
            assertThat(late).as("the call failed").isNotNull();
            assertThat(late.kind()).isEqualTo(Kind.TIMEOUT);
            assertThat(late.retryable()).isTrue();
            assertThat(late.getMessage()).startsWith("the server at " + server.baseUrl() + " did not answer in time")
                    .doesNotContain("Socket closed");
        }
    }

    @Test
    void aChunkCutOffByTheEndOfTheStreamIsACutStreamNotAMalformedOne() {
        // The SSE standard: at the end of the body, an event without its closing blank line is
        // discarded. The connection broke inside a chunk; that is worth a retry like any cut stream.
        server.enqueue(new ChatReply.Malformed(events(
                "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hel\"}}]}")
                + "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo"));
        ModelException cut = failure();
        assertThat(cut.kind()).isEqualTo(Kind.CONNECTION);
        assertThat(cut.retryable()).isTrue();
        assertThat(cut.getMessage()).contains("ended before data: [DONE]");
        assertThat(cut.requestId()).isEqualTo("req_fake_001");

        // A [DONE] cut inside its line is no [DONE].
        server.enqueue(new ChatReply.Malformed(events(
                "{\"id\":\"c2\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}")
                + "data: [DON"));
        assertThat(failure().retryable()).isTrue();
    }

    @Test
    void aGatewaysProviderErrorGivesTheUpstreamReasonItCarries() {
        // OpenRouter's error for a failure of the provider behind it: the reason is in metadata.raw,
        // the message only says 'Provider returned error'.
        String raw = "Gemini models require OpenRouter reasoning details to be preserved in each request.";
        server.enqueue(new ChatReply.HttpError(400, "x", null, "x", Map.of(), "{\"error\":{\"message\":\"Provider returned error\","
                + "\"code\":400,\"metadata\":{\"raw\":\"" + raw + "\",\"provider_name\":\"Google AI Studio\"}},\"user_id\":\"u\"}"));
        ModelException e = failure();
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).contains("Provider returned error (Google AI Studio: " + raw + ")");

        // The same after HTTP 200, as an error chunk.
        server.enqueue(new ChatReply.Malformed(events("{\"error\":{\"message\":\"Provider returned error\",\"code\":502,"
                + "\"metadata\":{\"raw\":\"上流のエラー\",\"provider_name\":\"Example\"}}}")));
        assertThat(failure().getMessage()).contains("Provider returned error (Example: 上流のエラー)");
    }

    @Test
    void aRefusalRelayedByAGatewayGetsTheAdviceItGetsWhenTheProviderSendsIt() throws Exception {
        // OpenRouter relays the provider's 400 under its own words: {"message": "Provider returned error", "code": 400,
        // "metadata": {"raw": "<the provider's error JSON>", "provider_name": ...}}. The provider's error is the same
        // one, so it gets the same advice as when the provider itself answers.
        String refusal = "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value"
                + " is supported.";
        String raw = dev.rein.json.Json.mapper().writeValueAsString(dev.rein.json.Json.mapper().readTree("{\"error\":{\"message\":\"" + refusal
                + "\",\"type\":\"invalid_request_error\",\"param\":\"temperature\",\"code\":\"unsupported_value\"}}")
                .toPrettyString());
        server.enqueue(new ChatReply.HttpError(400, "x", null, "x", Map.of(), "{\"error\":{\"message\":\"Provider returned"
                + " error\",\"code\":400,\"metadata\":{\"raw\":" + raw + ",\"provider_name\":\"OpenAI\"}},\"user_id\":\"u\"}"));
        ModelException e = assertThrows(ModelException.class, () -> call(ModelRequest.builder("my-model").maxTokens(256)
                .addMessage(Message.user("x")).temperature(0.2)));
        assertThat(e.getMessage()).startsWith("Provider returned error (OpenAI: {").endsWith("} }) (this model takes only its"
                + " own default temperature: leave the agent's temperature unset (Agent.Builder.temperature(null)) to run it)");

        // Groq's words for an output limit above the model's maximum, which the advice reads from their start
        String groq = "`max_tokens` must be less than or equal to `16384`, the maximum value for `max_tokens` is less than"
                + " the `context_window` for this model";
        String groqRaw = dev.rein.json.Json.mapper().writeValueAsString("{\"error\":{\"message\":\"" + groq
                + "\",\"type\":\"invalid_request_error\",\"param\":\"max_tokens\"}}");
        server.enqueue(new ChatReply.HttpError(400, "x", null, "x", Map.of(), "{\"error\":{\"message\":\"Provider returned"
                + " error\",\"code\":400,\"metadata\":{\"raw\":" + groqRaw + ",\"provider_name\":\"Groq\"}}}"));
        ModelException limit = assertThrows(ModelException.class, () -> call(request("x").maxTokens(65536)));
        assertThat(limit.getMessage()).endsWith(" (65536 is the run's output limit, more than the 16384 this model can write:"
                + " lower it with --max-tokens (maxTokens in the library, max_tokens in a suite file))");
    }

    @Test
    void aRefusalRelayedByAGatewayAfterHttp200GetsTheAdviceItGetsWhenTheProviderSendsIt() throws Exception {
        // The same relaying as an error chunk after HTTP 200 (OpenRouter's errors page: an error met once the model
        // started is sent as an SSE data event, its code the HTTP status it would have had)
        String groq = "Please reduce the length of the messages or completion.";
        String raw = dev.rein.json.Json.mapper().writeValueAsString("{\"error\":{\"message\":\"" + groq
                + "\",\"type\":\"invalid_request_error\",\"code\":\"context_length_exceeded\"}}");
        server.enqueue(new ChatReply.Malformed(events("{\"error\":{\"message\":\"Provider returned error\",\"code\":400,"
                + "\"metadata\":{\"raw\":" + raw + ",\"provider_name\":\"Groq\"}}}")));
        ModelException e = failure();
        assertThat(e.kind()).isEqualTo(Kind.INVALID_REQUEST);
        assertThat(e.getMessage()).contains("Provider returned error (Groq: ").endsWith(" (the messages and the run's output"
                + " limit together are more than the model's context window: lower the output limit with --max-tokens"
                + " (maxTokens in the library, max_tokens in a suite file), or make the conversation smaller with a"
                + " ContextPolicy (tool result clearing or compaction, a lower toolOutputLimit))");
    }

    @Test
    void groqsFailedGenerationRelayedByAGatewayIsRetriedAsWhenGroqSendsIt() throws Exception {
        // OpenRouter relays Groq's tool_use_failed as "Provider returned error" (code 400), Groq's error JSON in
        // metadata.raw: it was final, without the note or the failed_generation, where Groq's own is resampled.
        String groq = "{\"error\":{\"message\":\"Failed to call a function. Please adjust your prompt. See"
                + " 'failed_generation' for more details.\",\"type\":\"invalid_request_error\",\"code\":\"tool_use_failed\","
                + "\"failed_generation\":\"<function=search{\\\"q\\\": 1}</function>\"}}";
        String raw = dev.rein.json.Json.mapper().writeValueAsString(groq);
        String relayed = "{\"error\":{\"message\":\"Provider returned error\",\"code\":400,\"metadata\":{\"raw\":" + raw
                + ",\"provider_name\":\"Groq\"}}}";
        server.enqueue(new ChatReply.HttpError(400, "x", null, "x", Map.of(), relayed));
        ModelException http = failure();
        assertThat(http.kind()).isEqualTo(Kind.INVALID_REQUEST);
        assertThat(http.retryable()).isTrue();
        assertThat(http.getMessage()).startsWith("Provider returned error (Groq: ").endsWith(" (the model wrote a call or JSON"
                + " the server could not read; another sampling of the same request may not, so it is retried under the"
                + " agent's RetryPolicy) (failed_generation: <function=search{\"q\": 1}</function>)");

        // After HTTP 200, as an error chunk, the same
        server.enqueue(new ChatReply.Malformed(events(relayed)));
        ModelException chunk = failure();
        assertThat(chunk.kind()).isEqualTo(Kind.INVALID_REQUEST);
        assertThat(chunk.retryable()).isTrue();
        assertThat(chunk.getMessage()).contains("Provider returned error (Groq: ").endsWith(" (the model wrote a call or JSON"
                + " the server could not read; another sampling of the same request may not, so it is retried under the"
                + " agent's RetryPolicy) (failed_generation: <function=search{\"q\": 1}</function>)");

        // The generation is shown once, after the note: the provider's error shown before it goes without it
        for (ModelException e : List.of(http, chunk)) {
            assertThat(e.getMessage().split("function=search", -1)).as(e.getMessage()).hasSize(2);
            assertThat(e.getMessage()).contains("(Groq: {\"error\":{\"message\":\"Failed to call a function. Please adjust"
                    + " your prompt. See 'failed_generation' for more details.\",\"type\":\"invalid_request_error\","
                    + "\"code\":\"tool_use_failed\"}})");
        }
        // At another status too: taken out of the provider's error, it is still shown after the message
        server.enqueue(new ChatReply.HttpError(422, "x", null, "x", Map.of(), relayed));
        assertThat(failure().getMessage()).endsWith("\"code\":\"tool_use_failed\"}}) (failed_generation:"
                + " <function=search{\"q\": 1}</function>)");
    }

    @Test
    void aGatewaysUpstreamReasonIsShownOnOneLineEscapedAndCutSayingSo() {
        // What the provider said (OpenRouter's metadata.raw) as rein-anthropic shows it: its control characters escaped,
        // its white space on one line (the provider's JSON is often printed over lines), a long one cut saying so.
        String raw = "{\\n  \\\"error\\\": \\\"overloaded \\u001b[2J\\u202e\\\"\\n}";
        server.enqueue(new ChatReply.HttpError(502, "x", null, "x", Map.of(), "{\"error\":{\"message\":\"Provider returned"
                + " error\",\"code\":502,\"metadata\":{\"raw\":\"" + raw + "\",\"provider_name\":\"Example\"}}}"));
        assertThat(failure().getMessage())
                .contains("Provider returned error (Example: { \"error\": \"overloaded \\x1b[2J\\u202e\" })");
        server.enqueue(new ChatReply.HttpError(502, "x", null, "x", Map.of(), "{\"error\":{\"message\":\"Provider returned"
                + " error\",\"code\":502,\"metadata\":{\"raw\":\"" + "x".repeat(1500) + "\",\"provider_name\":\"Example\"}}}"));
        assertThat(failure().getMessage())
                .contains("(Example: " + "x".repeat(1000) + "... (1500 characters, cut to 1000))");
        // raw is typed 'unknown': the provider's error as a JSON object is shown as its JSON
        server.enqueue(new ChatReply.HttpError(400, "x", null, "x", Map.of(), "{\"error\":{\"message\":\"Provider returned"
                + " error\",\"code\":400,\"metadata\":{\"raw\":{\"error\":{\"message\":\"bad tool\"}},"
                + "\"provider_name\":\"Example\"}}}"));
        assertThat(failure().getMessage()).contains("Provider returned error (Example: {\"error\":{\"message\":\"bad tool\"}})");
    }

    @Test
    void aConversationBeyondTheContextWindowSaysHowToMakeItSmaller() {
        // The public API's 400 context_length_exceeded when the messages alone outgrew the model's context (in its
        // older and its newer words), and llama.cpp's exceed_context_size_error: the conversation only grows, so every
        // later call fails the same way; the message says what to change in Rein's terms, as rein-anthropic's does.
        String advice = "(the conversation no longer fits the model's context window: make it smaller with a"
                + " ContextPolicy (tool result clearing or compaction, a lower toolOutputLimit))";
        String older = "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512"
                + " tokens. Please reduce the length of the messages.";
        server.enqueue(new ChatReply.HttpError(400, "invalid_request_error", "context_length_exceeded", older, Map.of(), null));
        ModelException e = failure();
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).isEqualTo(older + " " + advice);

        String newer = "Your input exceeds the context window of this model. Please adjust your input and try again.";
        server.enqueue(new ChatReply.HttpError(400, "invalid_request_error", "context_length_exceeded", newer, Map.of(), null));
        assertThat(failure().getMessage()).isEqualTo(newer + " " + advice);

        server.enqueue(new ChatReply.HttpError(400, "exceed_context_size_error", null, "x", Map.of(),
                "{\"error\":{\"code\":400,\"message\":\"the request exceeds the available context size, try increasing it\","
                        + "\"type\":\"exceed_context_size_error\",\"n_prompt_tokens\":9000,\"n_ctx\":8192}}"));
        assertThat(failure().getMessage()).endsWith("try increasing it " + advice);

        server.enqueue(new ChatReply.Malformed("error: {\"code\":400,\"message\":\"the request exceeds the available context"
                + " size, try increasing it\",\"type\":\"exceed_context_size_error\"}\n\ndata: [DONE]\n\n"));
        assertThat(failure().getMessage()).as("after HTTP 200 too").endsWith(advice);

        // MiniMax's API (MiniMax-AI/MiniMax-M2#119): 400 bad_request_error, no code, its own words and error number
        String miniMax = "invalid params, context window exceeds limit (2013)";
        server.enqueue(new ChatReply.HttpError(400, "bad_request_error", null, miniMax, Map.of(), null));
        assertThat(failure().getMessage()).isEqualTo(miniMax + " " + advice);

        // The completion's share named: that advice, not this one.
        String both = "This model's maximum context length is 4096 tokens. However, you requested 8242 tokens"
                + " (50 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.";
        server.enqueue(new ChatReply.HttpError(400, "invalid_request_error", "context_length_exceeded", both, Map.of(), null));
        assertThat(failure().getMessage()).contains("--max-tokens").doesNotContain("ContextPolicy");
    }

    @Test
    void aContextOverflowThatCountsTheOutputLimitSaysWhichSettingIsThatLimit() {
        // vLLM (and the public API in the same words) refuses messages + max_tokens beyond the model's
        // context; the completion's share is Rein's output limit, which the user may not know is sent.
        String vllm = "This model's maximum context length is 4096 tokens. However, you requested 8242 tokens"
                + " (50 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.";
        server.enqueue(new ChatReply.HttpError(400, "BadRequestError", null, "x", Map.of(),
                "{\"object\":\"error\",\"message\":\"" + vllm + "\",\"type\":\"BadRequestError\",\"param\":null,\"code\":400}"));
        ModelException overflow = failure();
        assertThat(overflow.retryable()).isFalse();
        assertThat(overflow.getMessage()).contains(vllm)
                .contains("8192 in the completion is the run's output limit: lower it with --max-tokens (maxTokens in the library");

        String newer = "'max_tokens' or 'max_completion_tokens' is too large: 8192. This model's maximum context length is"
                + " 4096 tokens and your request has 50 input tokens (8192 > 4096 - 50).";
        server.enqueue(new ChatReply.HttpError(400, "BadRequestError", null, "x", Map.of(),
                "{\"object\":\"error\",\"message\":\"" + newer + "\",\"type\":\"BadRequestError\",\"param\":null,\"code\":400}"));
        assertThat(failure().getMessage()).contains(newer).contains("lower it with --max-tokens (maxTokens in the library");

        // Groq's words for the same name no numbers: messages and completion together; lowering the output limit is the
        // first fix (its default can be most of a small model's context), and the message said nothing of it.
        String groq = "Please reduce the length of the messages or completion.";
        server.enqueue(new ChatReply.HttpError(400, "invalid_request_error", "context_length_exceeded", groq, Map.of(), null));
        assertThat(failure().getMessage()).isEqualTo(groq + " (the messages and the run's output limit together are more"
                + " than the model's context window: lower the output limit with --max-tokens (maxTokens in the library,"
                + " max_tokens in a suite file), or make the conversation smaller with a ContextPolicy (tool result clearing"
                + " or compaction, a lower toolOutputLimit))");

        // Another 400 is left as it is.
        server.enqueue(ChatReply.error(400, "invalid_request_error", "Invalid value for 'temperature'."));
        assertThat(failure().getMessage()).doesNotContain("--max-tokens");
    }

    @Test
    void anOutputLimitAboveWhatTheModelCanWriteSaysWhichSettingIsThatLimit() {
        // The public API refuses an output limit above the model's own maximum (gpt-4-turbo and gpt-3.5-turbo
        // write at most 4096 tokens), whatever the messages: every call of a run with Rein's default 8192
        // failed with a message naming a field the user never set.
        for (String field : new String[] {"max_completion_tokens", "max_tokens"}) {
            String api = field + " is too large: 8192. This model supports at most 4096 completion tokens, whereas you"
                    + " provided 8192.";
            server.enqueue(new ChatReply.HttpError(400, "invalid_request_error", "invalid_value", api, Map.of(), null));
            ModelException e = failure();
            assertThat(e.retryable()).isFalse();
            assertThat(e.getMessage()).as(field).startsWith(api)
                    .contains("8192 is the run's output limit, more than the 4096 this model can write: lower it with"
                            + " --max-tokens (maxTokens in the library, max_tokens in a suite file)");
        }
        assertThat(model.requests().maxTokensField()).as("no refusal of the field").isEqualTo(RequestMapper.MaxTokensField.MAX_TOKENS);
    }

    @Test
    void groqsRefusalOfAnOutputLimitAboveTheModelsMaximumSaysWhichSettingIsThatLimit() throws Exception {
        // Groq refuses an output limit above what the model writes in its own words ("`max_tokens` must be less than or
        // equal to `16384`, the maximum value for `max_tokens` is less than the `context_window` for this model"; also
        // without backticks, and for max_completion_tokens): the message named a request field, not the run's setting.
        String[] refusals = {
                "`max_tokens` must be less than or equal to `16384`, the maximum value for `max_tokens` is less than the"
                        + " `context_window` for this model",
                "max_completion_tokens must be less than or equal to 40960, the maximum value for max_completion_tokens is"
                        + " less than the context_window for this model"};
        for (String refused : refusals) {
            server.enqueue(new ChatReply.HttpError(400, "x", null, "x", Map.of(), "{\"error\":{\"message\":\""
                    + refused.replace("`", "\\u0060") + "\",\"type\":\"invalid_request_error\",\"param\":\""
                    + (refused.contains("completion") ? "max_completion_tokens" : "max_tokens") + "\"}}"));
            ModelException e = assertThrows(ModelException.class, () -> call(request("x").maxTokens(65536)));
            assertThat(e.retryable()).isFalse();
            String most = refused.contains("16384") ? "16384" : "40960";
            assertThat(e.getMessage()).isEqualTo(refused + " (65536 is the run's output limit, more than the " + most
                    + " this model can write: lower it with --max-tokens (maxTokens in the library, max_tokens in a suite"
                    + " file))");
        }
    }

    @Test
    void aReasoningModelRefusingTheTemperatureSaysWhichSettingItIsAndToLeaveItUnset() {
        // o1, o3, o4-mini and the gpt-5 family take only their default sampling: a temperature set on the agent was
        // refused at every call in the API's words alone, naming a request field rather than the setting to change.
        String[][] refusals = {
                {"Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is"
                        + " supported.", "temperature", "unsupported_value"},
                {"Unsupported parameter: 'temperature' is not supported with this model.", "temperature",
                        "unsupported_parameter"},
                {"Unsupported value: 'top_p' does not support 0.9 with this model. Only the default (1) value is supported.",
                        "top_p", "unsupported_value"}};
        for (String[] refusal : refusals) {
            server.enqueue(new ChatReply.HttpError(400, "invalid_request_error", refusal[2], "x", Map.of(),
                    "{\"error\":{\"message\":\"" + refusal[0] + "\",\"type\":\"invalid_request_error\",\"param\":\""
                            + refusal[1] + "\",\"code\":\"" + refusal[2] + "\"}}"));
            ModelException e = failure();
            assertThat(e.retryable()).isFalse();
            assertThat(e.getMessage()).startsWith(refusal[0]);
            if (refusal[1].equals("temperature")) {
                assertThat(e.getMessage()).contains("(this model takes only its own default temperature: leave the"
                        + " agent's temperature unset (Agent.Builder.temperature(null)) to run it)");
            } else {
                assertThat(e.getMessage()).contains("(this model takes only its own default top_p: leave the request's"
                        + " topP unset (ModelRequest.Builder.topP(null)) to run it)");
            }
        }
        server.enqueue(ChatReply.error(400, "invalid_request_error", "Invalid value for 'temperature'."));
        assertThat(failure().getMessage()).as("a value out of range is not this refusal").isEqualTo("Invalid value for 'temperature'.");
    }

    @Test
    void aLaterGpt5RefusingTheTemperatureForItsReasoningEffortSaysItTakesOneWithEffortNone() throws Exception {
        // gpt-5.1 and later take a temperature or top_p only with reasoning effort none (the fake refuses it as the API
        // does): "this model takes only its own default" was not so, and named one of the two ways to run it.
        for (String[] setting : new String[][] {{"temperature", "leave the agent's temperature unset"
                + " (Agent.Builder.temperature(null))"}, {"top_p", "leave the request's topP unset (ModelRequest.Builder.topP(null))"}}) {
            ModelRequest.Builder hot = ModelRequest.builder("gpt-5.2").maxTokens(256).addMessage(Message.user("x"))
                    .option(OpenAiReasoningEffort.LOW);
            ModelRequest.Builder sampled = setting[0].equals("temperature") ? hot.temperature(0.2) : hot.topP(0.9);
            ModelException e = assertThrows(ModelException.class, () -> call(sampled));
            assertThat(e.getMessage()).startsWith("Unsupported value: '" + setting[0] + "' does not support");
            assertThat(e.getMessage()).endsWith(" (gpt-5.1 and later take a " + setting[0] + " only with reasoning effort"
                    + " none, and this request asked for low: " + setting[1] + ", or ask for no reasoning with"
                    + " modelOption(OpenAiReasoningEffort.NONE) (--reasoning-effort none on the command line))");
        }
        // Without that effort the refusal is the model's own (an o3 takes only its default) and keeps its advice.
        ModelException own = assertThrows(ModelException.class, () -> call(ModelRequest.builder("o3").maxTokens(256)
                .addMessage(Message.user("x")).option(OpenAiReasoningEffort.LOW).temperature(0.2)));
        assertThat(own.getMessage()).endsWith("(this model takes only its own default temperature: leave the agent's"
                + " temperature unset (Agent.Builder.temperature(null)) to run it)");
    }

    @Test
    void aReasoningModelRefusingStopSequencesSaysWhichSettingItIsAndToLeaveThemOut() {
        // The API reference: stop is "not supported with latest reasoning models o3 and o4-mini" (400
        // unsupported_parameter, param stop; the fake refuses it as the API does). The message named a request field
        // alone, not the request's stop sequences to leave out.
        ModelException e = assertThrows(ModelException.class, () -> call(ModelRequest.builder("o3").maxTokens(256)
                .addMessage(Message.user("x")).stopSequences(List.of("END"))));
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).isEqualTo("Unsupported parameter: 'stop' is not supported with this model. (this model"
                + " takes no stop sequences: leave the request's stop sequences out (ModelRequest.Builder.stopSequences) to run it)");
    }

    @Test
    void aReasoningModelRefusingParallelToolCallsSaysWhichOptionItIsAndToLeaveItOut() {
        // o1, o3, o3-mini and o4-mini refuse the field whatever its value (400 unsupported_parameter, param
        // parallel_tool_calls; the fake refuses it as the API does): with ParallelToolCalls.DISABLED every step failed
        // with a message naming a request field, not the model option the user set.
        ModelException e = assertThrows(ModelException.class, () -> call(ModelRequest.builder("o4-mini").maxTokens(256)
                .addMessage(Message.user("x")).tools(List.of(tool("search"))).option(dev.rein.model.ParallelToolCalls.DISABLED)));
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).isEqualTo("Unsupported parameter: 'parallel_tool_calls' is not supported with this model."
                + " (this model takes no parallel_tool_calls: leave out the ParallelToolCalls model option to run it; the"
                + " calls of a response that holds several are run in order as always)");
        // gpt-5 takes it
        server.enqueue(ChatReply.text("ok"));
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> call(ModelRequest.builder("gpt-5").maxTokens(256)
                .addMessage(Message.user("x")).tools(List.of(tool("search"))).option(dev.rein.model.ParallelToolCalls.DISABLED))))
                .isNull();
    }

    @Test
    void aRefusedReasoningEffortSaysWhichOptionItIs() {
        // A model that does not reason (gpt-4.1-mini, Rein's default) refuses the field; one that does may refuse the
        // value ('minimal' on gpt-5.1). Both named a request field, not the option the user set.
        ModelException field = assertThrows(ModelException.class, () -> call(ModelRequest.builder("gpt-4.1-mini")
                .maxTokens(256).addMessage(Message.user("x")).option(OpenAiReasoningEffort.LOW)));
        assertThat(field.retryable()).isFalse();
        assertThat(field.getMessage()).isEqualTo("Unsupported parameter: 'reasoning_effort' is not supported with this"
                + " model. (this model does not reason: leave out the OpenAiReasoningEffort model option (--reasoning-effort) to"
                + " run it)");

        String value = "Unsupported value: 'minimal' is not supported with the 'gpt-5.1' model. Supported values are: 'none',"
                + " 'low', 'medium', and 'high'.";
        server.enqueue(new ChatReply.HttpError(400, "invalid_request_error", "unsupported_value", "x", Map.of(),
                "{\"error\":{\"message\":\"" + value + "\",\"type\":\"invalid_request_error\",\"param\":"
                        + "\"reasoning_effort\",\"code\":\"unsupported_value\"}}"));
        assertThat(failure().getMessage()).isEqualTo(value + " (the OpenAiReasoningEffort model option (--reasoning-effort)"
                + " asked for it: give it one of the values this model takes)");
    }

    @Test
    void aModelRefusingFunctionToolsWithReasoningSaysToAskForNoReasoning() {
        // gpt-5.4 and later refuse function tools with a reasoning effort on Chat Completions (400, param
        // reasoning_effort, code null), in two wordings seen so far. "use /v1/responses" is no setting of Rein,
        // which speaks Chat Completions: say what is.
        String[] wordings = {
            "Function tools with reasoning_effort are not supported for gpt-5.4 in /v1/chat/completions. Please use"
                    + " /v1/responses instead.",
            "Function tools with reasoning_effort are not supported for gpt-5.6 in /v1/chat/completions. To use function"
                    + " tools, use /v1/responses or set reasoning_effort to 'none'."};
        for (String wording : wordings) {
            for (String effort : new String[] {"high", null}) {
                server.enqueue(new ChatReply.HttpError(400, "invalid_request_error", null, "x", Map.of(),
                        "{\"error\":{\"message\":\"" + wording + "\",\"type\":\"invalid_request_error\",\"param\":"
                                + "\"reasoning_effort\",\"code\":null}}"));
                ModelRequest.Builder request = ModelRequest.builder("gpt-5.4").maxTokens(256).addMessage(Message.user("x"))
                        .tools(java.util.List.of(tool("search")));
                if (effort != null) {
                    request.option(new OpenAiReasoningEffort(effort));
                }
                ModelException e = assertThrows(ModelException.class, () -> call(request));
                assertThat(e.kind()).isEqualTo(Kind.INVALID_REQUEST);
                assertThat(e.retryable()).isFalse();
                assertThat(e.getMessage()).isEqualTo(wording + " (Rein speaks Chat Completions, where this model takes"
                        + " function tools only with reasoning effort none, and "
                        + (effort == null ? "without a reasoning effort the model reasons by default"
                        : "this request asked for " + effort)
                        + ": ask for no reasoning with modelOption(OpenAiReasoningEffort.NONE) (--reasoning-effort none on"
                        + " the command line), or run a model that"
                        + " takes function tools with reasoning on Chat Completions)");
            }
        }
    }

    @Test
    void theSamplingAdviceComesFromWhatTheRequestAskedFor() throws Exception {
        // The advice is chosen from the request's model and effort when the error is mapped: a gpt-5.2 that asked for no
        // reasoning (NONE said outright) and was refused all the same (a gateway's rule, say) gets the general advice; an
        // uppercase model name is the same model.
        String refusal = "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value"
                + " is supported.";
        String general = " (this model takes only its own default temperature: leave the agent's temperature unset"
                + " (Agent.Builder.temperature(null)) to run it)";
        for (String[] asked : new String[][] {{"gpt-5.2", "none"}, {"GPT-5.2", "high"}}) {
            server.enqueue(new ChatReply.HttpError(400, "invalid_request_error", "unsupported_value", refusal, Map.of(),
                    "{\"error\":{\"message\":\"" + refusal + "\",\"type\":\"invalid_request_error\",\"param\":"
                            + "\"temperature\",\"code\":\"unsupported_value\"}}"));
            ModelRequest.Builder request = ModelRequest.builder(asked[0]).maxTokens(256).addMessage(Message.user("x"))
                    .temperature(0.2).option(new OpenAiReasoningEffort(asked[1]));
            ModelException e = assertThrows(ModelException.class, () -> call(request));
            assertThat(e.getMessage()).as(String.join(" ", asked)).isEqualTo(refusal + (asked[0].equals("GPT-5.2")
                    ? " (gpt-5.1 and later take a temperature only with reasoning effort none, and this request asked for"
                    + " high: leave the agent's temperature unset (Agent.Builder.temperature(null)), or ask for no reasoning"
                    + " with modelOption(OpenAiReasoningEffort.NONE) (--reasoning-effort none on the command line))" : general));
        }
    }

    /** The default-model advice's copy of a failure keeps all it carried: the usage its server reported among it. */
    @Test
    void theDefaultModelAdviceKeepsTheUsageTheFailureCarried() {
        Usage reported = Usage.of(120, 0, 1000, 300);
        ModelException refused = new ModelException(Kind.INVALID_REQUEST, 404, "model \"" + OpenAiProvider.DEFAULT_MODEL
                + "\" not found", false, null, "req_1", reported, null);

        ModelException advised = ErrorMapper.defaultModelAdvice(refused, OpenAiProvider.DEFAULT_MODEL, false);

        assertThat(advised).isNotSameAs(refused);
        assertThat(advised.getMessage()).contains("is Rein's default model");
        assertThat(advised.reportedUsage()).containsSame(reported);
        assertThat(advised.requestId()).isEqualTo("req_1");
    }

    @Test
    void aLocalServerRefusingTheDefaultModelIsToldToBeGivenItsOwnModel() throws Exception {
        // Without --model (modelName) the request names gpt-4.1-mini, the OpenAI API's default, which Ollama,
        // vLLM or LM Studio do not serve: Ollama said to pull it, which no one can.
        server.enqueue(new ChatReply.HttpError(404, "api_error", null, "x", Map.of(),
                "{\"error\":{\"message\":\"model \\\"gpt-4.1-mini\\\" not found, try pulling it first\",\"type\":\"api_error\","
                        + "\"param\":null,\"code\":null}}"));
        ModelException e = catchModelException(requestFor(OpenAiProvider.DEFAULT_MODEL));
        assertThat(e.retryable()).isFalse();
        assertThat(e.httpStatus()).isEqualTo(404);
        assertThat(e.getMessage()).startsWith("model \"gpt-4.1-mini\" not found, try pulling it first")
                .contains("(gpt-4.1-mini is Rein's default model, for the OpenAI API: name a model this server serves with"
                        + " --model (modelName in the library), e.g. --model qwen3:8b)");

        // vLLM's 404 for a model it does not serve, in its own shape.
        server.enqueue(new ChatReply.HttpError(404, "NotFoundError", null, "x", Map.of(),
                "{\"object\":\"error\",\"message\":\"The model `gpt-4.1-mini` does not exist.\",\"type\":\"NotFoundError\","
                        + "\"param\":null,\"code\":404}"));
        assertThat(catchModelException(requestFor(OpenAiProvider.DEFAULT_MODEL)).getMessage())
                .contains("gpt-4.1-mini is Rein's default model");

        // A model the user named is left as the server said.
        server.enqueue(new ChatReply.HttpError(404, "api_error", null, "x", Map.of(),
                "{\"error\":{\"message\":\"model \\\"qwen3:8b\\\" not found, try pulling it first\",\"type\":\"api_error\"}}"));
        assertThat(catchModelException(requestFor("qwen3:8b")).getMessage())
                .isEqualTo("model \"qwen3:8b\" not found, try pulling it first");
    }

    private static dev.rein.model.ModelRequest.Builder requestFor(String modelName) {
        return dev.rein.model.ModelRequest.builder(modelName).maxTokens(256).addMessage(dev.rein.model.Message.user("x"));
    }

    private ModelException catchModelException(dev.rein.model.ModelRequest.Builder request) throws InterruptedException {
        try {
            call(request);
        } catch (ModelException e) {
            return e;
        }
        throw new AssertionError("the call did not fail");
    }

    @Test
    void aDoneWhoseBlankLineNeverCameEndsTheStreamAsTheOfficialSdkEndsIt() throws Exception {
        // A server that closes the connection right after "data: [DONE]" (no blank line, or one
        // newline only): the whole completion and its end marker arrived. The official SDKs end such
        // a stream quietly; read as cut, the complete answer was thrown away and generated (and
        // billed) again, and a server that always ends so failed every call after the retries.
        String chunks = events(
                "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"東京は\"}}]}",
                "{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"晴れ\"},\"finish_reason\":\"stop\"}]}",
                "{\"id\":\"c1\",\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":3}}");
        for (String end : new String[] {"data: [DONE]", "data: [DONE]\n", "data:[DONE]\r\n"}) {
            server.enqueue(new ChatReply.Malformed(chunks + end));
            ModelResponse response = call(request("x"));
            assertThat(response.text()).as(end).isEqualTo("東京は晴れ");
            assertThat(response.stopReason()).isEqualTo(StopReason.END_TURN);
            assertThat(response.usage().outputTokens()).isEqualTo(3);
        }
        assertThat(server.requests()).as("no retry").hasSize(3);
    }

    @Test
    void failuresAfterHttp200CarryTheResponsesRequestId() {
        server.enqueue(new ChatReply.StreamError(ChatReply.text("partial"), 2, "server_error", "The server had an error"));
        assertThat(failure().requestId()).as("error chunk").isEqualTo("req_fake_001");
        server.enqueue(new ChatReply.NoDone(ChatReply.text("complete but unterminated")));
        assertThat(failure().requestId()).as("no [DONE]").isEqualTo("req_fake_002");
        server.enqueue(new ChatReply.Malformed(null));
        assertThat(failure().requestId()).as("malformed chunk").isEqualTo("req_fake_003");
        server.enqueue(new ChatReply.Disconnect(ChatReply.text("a partial answer that is cut"), 3));
        assertThat(failure().requestId()).as("broken mid-way").isEqualTo("req_fake_004");
    }

    @Test
    void anErrorChunkWhoseCodeIsAnHttpStatusIsClassifiedLikeThatStatus() {
        // vLLM's shape: the status as a number in error.code, an exception class name as the type.
        server.enqueue(new ChatReply.Malformed(events(
                "{\"error\":{\"message\":\"max_tokens is too large\",\"type\":\"BadRequestError\",\"param\":null,\"code\":400}}")));
        ModelException badRequest = failure();
        assertThat(badRequest.kind()).isEqualTo(Kind.INVALID_REQUEST);
        assertThat(badRequest.retryable()).isFalse();
        assertThat(badRequest.getMessage()).contains("max_tokens is too large");

        server.enqueue(new ChatReply.Malformed(events(
                "{\"error\":{\"message\":\"busy\",\"type\":\"ServiceUnavailableError\",\"param\":null,\"code\":503}}")));
        ModelException unavailable = failure();
        assertThat(unavailable.kind()).isEqualTo(Kind.OVERLOADED);
        assertThat(unavailable.retryable()).isTrue();

        server.enqueue(new ChatReply.Malformed(events("{\"error\":{\"message\":\"bad\",\"type\":\"BadRequestError\",\"code\":null}}")));
        ModelException byType = failure();
        assertThat(byType.kind()).isEqualTo(Kind.INVALID_REQUEST);
        assertThat(byType.retryable()).isFalse();
    }

    @Test
    void aLlamaCppErrorFieldFailsTheCallWithItsMessage() {
        // llama.cpp builds before the error became a data chunk write a failure after HTTP 200 as an
        // `error:` field, then data: [DONE]; read as the standard reads it, the call "succeeded" empty.
        server.enqueue(new ChatReply.Malformed("data: " + "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
                + "\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null}}]}\n\n"
                + "error: {\"code\":400,\"message\":\"the request exceeds the available context size, try increasing it\","
                + "\"type\":\"exceed_context_size_error\"}\n\n"
                + "data: [DONE]\n\n"));
        ModelException tooLong = failure();
        assertThat(tooLong.kind()).isEqualTo(Kind.INVALID_REQUEST);
        assertThat(tooLong.retryable()).isFalse();
        assertThat(tooLong.getMessage()).contains("exceed_context_size_error")
                .contains("the request exceeds the available context size, try increasing it");

        server.enqueue(new ChatReply.Malformed("error: {\"code\":500,\"message\":\"llama_decode failed\",\"type\":\"server_error\"}\n\n"
                + "data: [DONE]\n\n"));
        ModelException failed = failure();
        assertThat(failed.kind()).isEqualTo(Kind.SERVER_ERROR);
        assertThat(failed.retryable()).isTrue();
        assertThat(failed.getMessage()).contains("llama_decode failed");
    }

    @Test
    void anErrorEventWhoseDataIsTheBareErrorObjectFailsTheCallWithItsMessage() {
        // OpenAI-compatible servers name a failure after HTTP 200 with `event: error`, some with the
        // error object itself as data, not wrapped in {"error": ...}: as a chunk it had no choices
        // and was skipped, and the call "succeeded" empty.
        server.enqueue(new ChatReply.Malformed("data: " + "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
                + "\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n"
                + "event: error\n"
                + "data: {\"message\":\"コンテキストが長すぎます: the prompt is too long\",\"type\":\"invalid_request_error\",\"code\":null}\n\n"
                + "data: [DONE]\n\n"));
        ModelException tooLong = failure();
        assertThat(tooLong.kind()).isEqualTo(Kind.INVALID_REQUEST);
        assertThat(tooLong.retryable()).isFalse();
        assertThat(tooLong.getMessage()).contains("コンテキストが長すぎます: the prompt is too long");

        // The wrapped shape under the same event name is read as before.
        server.enqueue(new ChatReply.Malformed("event: error\n"
                + "data: {\"error\":{\"message\":\"upstream failed\",\"type\":\"server_error\"}}\n\n"
                + "data: [DONE]\n\n"));
        ModelException wrapped = failure();
        assertThat(wrapped.kind()).isEqualTo(Kind.SERVER_ERROR);
        assertThat(wrapped.getMessage()).contains("upstream failed");

        // Data that is not JSON is the message itself.
        server.enqueue(new ChatReply.Malformed("event: error\ndata: model overloaded, try again\n\n"));
        ModelException text = failure();
        assertThat(text.kind()).isEqualTo(Kind.SERVER_ERROR);
        assertThat(text.getMessage()).contains("model overloaded, try again");
    }

    @Test
    void aStreamThatEndsWithDoneBeforeAnyChunkIsAFailureNotAnEmptyAnswer() {
        // A proxy that lost its upstream (or a server that failed before generating) and closed the
        // stream properly: no chat.completion.chunk at all, which is no turn the model ended. Taken as
        // an empty answer, the run nudged the model and ended FAILED/empty_answer, blaming the model.
        server.enqueue(new ChatReply.Malformed(": keep-alive\n\ndata: [DONE]\n\n"));
        ModelException empty = failure();
        assertThat(empty.kind()).isEqualTo(Kind.SERVER_ERROR);
        assertThat(empty.retryable()).isTrue();
        assertThat(empty.getMessage()).isEqualTo("the response stream from the server at " + server.baseUrl()
                + " ended with data: [DONE] before any chunk: the server sent no completion");
        assertThat(empty.requestId()).isEqualTo("req_fake_001");
    }

    @Test
    void aStreamWhoseChunksHoldNoChoiceIsAFailureNotAnEmptyAnswer() {
        // Chunks without choices carry only usage (include_usage's last chunk) or Azure's prompt filter results: a stream
        // of only those, ended with [DONE], holds no completion, as one with no chunk at all.
        server.enqueue(new ChatReply.Malformed(events(
                "{\"id\":\"\",\"object\":\"\",\"created\":0,\"model\":\"\",\"choices\":[],\"prompt_filter_results\":"
                        + "[{\"prompt_index\":0,\"content_filter_results\":{}}]}",
                "{\"id\":\"chatcmpl-u\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o\",\"choices\":[],"
                        + "\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":0,\"total_tokens\":12}}",
                "[DONE]")));
        ModelException streamed = failure();
        assertThat(streamed.kind()).isEqualTo(Kind.SERVER_ERROR);
        assertThat(streamed.retryable()).isTrue();
        assertThat(streamed.getMessage()).isEqualTo("the response stream from the server at " + server.baseUrl()
                + " ended with data: [DONE] after 2 chunks without a choice: the server sent no completion; it reported usage"
                + " for it (12 input tokens and 0 output tokens), which the run's token and money budgets do not count, as a"
                + " failed call charges nothing");

        // A whole chat.completion with an empty choices list: no completion either.
        server.enqueue(new ChatReply.Malformed("{\"id\":\"chatcmpl-w\",\"object\":\"chat.completion\",\"created\":1,"
                + "\"model\":\"gpt-4o\",\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":0,\"total_tokens\":12}}"));
        ModelException whole = failure();
        assertThat(whole.kind()).isEqualTo(Kind.SERVER_ERROR);
        assertThat(whole.retryable()).isTrue();
        assertThat(whole.getMessage()).isEqualTo("the server at " + server.baseUrl()
                + " answered with a chat.completion without a choice: the server sent no completion; it reported usage for it"
                + " (12 input tokens and 0 output tokens), which the run's token and money budgets do not count, as a failed"
                + " call charges nothing");
        assertThat(streamed.reportedUsage()).contains(Usage.of(12, 0, 0, 0));
        assertThat(whole.reportedUsage()).contains(Usage.of(12, 0, 0, 0));
    }

    @Test
    void aFailedStreamSaysTheUsageItsUsageChunkReportedSinceTheBudgetCannotCountIt() {
        // stream_options.include_usage's last chunk has no choice but the tokens the server billed for the request. The
        // call fails (no completion), and a failed call's usage reaches no budget (ModelException carries none), so the
        // message is where those tokens are not lost: the trace and the run's failure say them.
        server.enqueue(new ChatReply.Malformed(events(
                "{\"id\":\"chatcmpl-u\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o\",\"choices\":[],"
                        + "\"usage\":{\"prompt_tokens\":1200,\"completion_tokens\":3,\"total_tokens\":1203,"
                        + "\"prompt_tokens_details\":{\"cached_tokens\":1024}}}",
                "[DONE]")));
        ModelException streamed = failure();
        assertThat(streamed.retryable()).isTrue();
        assertThat(streamed.getMessage()).isEqualTo("the response stream from the server at " + server.baseUrl()
                + " ended with data: [DONE] after 1 chunk without a choice: the server sent no completion; it reported"
                + " usage for it (1200 input tokens, 1024 of them cached, and 3 output tokens), which the run's token and"
                + " money budgets do not count, as a failed call charges nothing");
        assertThat(streamed.reportedUsage()).contains(Usage.of(176, 3, 1024, 0));

        // A generation that failed mid-way (finish_reason error), then the usage chunk: its tokens are said too.
        String chunk = "{\"id\":\"gen-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":";
        server.enqueue(new ChatReply.Malformed(events(
                chunk + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hal\"},\"finish_reason\":null}]}",
                chunk + "[{\"index\":0,\"delta\":{\"content\":\"\"},\"finish_reason\":\"error\"}]}",
                chunk + "[],\"usage\":{\"prompt_tokens\":40,\"completion_tokens\":2,\"total_tokens\":42}}",
                "[DONE]")));
        ModelException generation = failure();
        assertThat(generation.getMessage()).isEqualTo("the response ended with finish_reason error: the server failed while"
                + " generating it; it reported usage for it (40 input tokens and 2 output tokens), which the run's token"
                + " and money budgets do not count, as a failed call charges nothing");
        assertThat(generation.reportedUsage()).contains(Usage.of(40, 2, 0, 0));

        // Without a usage chunk nothing more is said.
        server.enqueue(new ChatReply.Malformed(events(
                "{\"id\":\"\",\"object\":\"\",\"created\":0,\"model\":\"\",\"choices\":[],\"prompt_filter_results\":[]}",
                "[DONE]")));
        ModelException unreported = failure();
        assertThat(unreported.getMessage()).endsWith("without a choice: the server sent no completion");
        assertThat(unreported.reportedUsage()).isEmpty();
    }

    @Test
    void anErrorChunkWhoseCodeIsAStatusWrittenAsTextIsClassifiedLikeThatStatus() {
        // LiteLLM's proxy writes its ProxyException's code as a string ("code": "400") in the error
        // chunk it streams after HTTP 200; read as no status, a refused request was retried.
        server.enqueue(new ChatReply.Malformed(events("{\"error\":{\"message\":\"litellm.ContextWindowExceededError: "
                + "プロンプトが長すぎます\",\"type\":\"None\",\"param\":\"None\",\"code\":\"400\"}}")));
        ModelException badRequest = failure();
        assertThat(badRequest.kind()).isEqualTo(Kind.INVALID_REQUEST);
        assertThat(badRequest.retryable()).isFalse();
        assertThat(badRequest.getMessage()).contains("プロンプトが長すぎます");

        server.enqueue(new ChatReply.Malformed(events(
                "{\"error\":{\"message\":\"Authentication Error\",\"type\":\"auth_error\",\"param\":\"None\",\"code\":\"401\"}}")));
        ModelException unauthorized = failure();
        assertThat(unauthorized.kind()).isEqualTo(Kind.AUTHENTICATION);
        assertThat(unauthorized.retryable()).isFalse();

        server.enqueue(new ChatReply.Malformed(events(
                "{\"error\":{\"message\":\"slow down\",\"type\":\"None\",\"param\":\"None\",\"code\":\"429\"}}")));
        ModelException limited = failure();
        assertThat(limited.kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(limited.retryable()).isTrue();
    }

    @Test
    void aTextGenerationInferenceValidationErrorChunkIsFinal() {
        // Hugging Face TGI streams a failure as {"error": TEXT, "error_type": KIND}; its "validation"
        // errors refuse the request itself, which no retry changes.
        server.enqueue(new ChatReply.Malformed(events("{\"error\":\"Input validation error: `inputs` tokens + `max_new_tokens`"
                + " must be <= 4096. Given: 4000 `inputs` tokens and 256 `max_new_tokens`\",\"error_type\":\"validation\"}")));
        ModelException invalid = failure();
        assertThat(invalid.kind()).isEqualTo(Kind.INVALID_REQUEST);
        assertThat(invalid.retryable()).isFalse();
        assertThat(invalid.getMessage()).contains("(validation): Input validation error: `inputs` tokens");

        server.enqueue(new ChatReply.Malformed(events("{\"error\":\"Request failed during generation: Server error: CUDA out of"
                + " memory\",\"error_type\":\"generation\"}")));
        ModelException generation = failure();
        assertThat(generation.kind()).isEqualTo(Kind.SERVER_ERROR);
        assertThat(generation.retryable()).isTrue();

        server.enqueue(new ChatReply.Malformed(events("{\"error\":\"Model is overloaded\"}")));
        assertThat(failure().getMessage()).isEqualTo("error in the response from the server at " + server.baseUrl()
                + ": Model is overloaded");
    }

    @Test
    void aJsonBodyWithHttp200IsCheckedForAnErrorAndForChoices() {
        ModelException overloaded = plainFailure("{\"error\":{\"message\":\"model overloaded\",\"type\":\"server_error\"}}");
        assertThat(overloaded.kind()).isEqualTo(Kind.SERVER_ERROR);
        assertThat(overloaded.retryable()).isTrue();
        assertThat(overloaded.getMessage()).contains("model overloaded");
        assertThat(overloaded.requestId()).isEqualTo("req_plain");

        ModelException badRequest = plainFailure("{\"error\":{\"message\":\"bad\",\"type\":\"BadRequestError\",\"code\":400}}");
        assertThat(badRequest.kind()).isEqualTo(Kind.INVALID_REQUEST);
        assertThat(badRequest.retryable()).isFalse();

        ModelException noChoices = plainFailure("{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\"}");
        assertThat(noChoices.kind()).isEqualTo(Kind.MALFORMED_RESPONSE);
        assertThat(noChoices.retryable()).isFalse();
        assertThat(noChoices.requestId()).isEqualTo("req_plain");
    }

    @Test
    void aJsonArrayAnsweredWithHttp200SaysWhatItWasAndWhereRequestsWent() {
        // No documented server answers a chat completion with a list; Google's endpoints send their errors as one
        // ([{"error":{...}}], with the error's status). Read as "not a JSON object", the message named neither the
        // server nor what to check, and an error inside the list was only a quoted fragment.
        ModelException list = assertThrows(ModelException.class, () -> callPlainServer("application/json",
                "[{\"id\":\"x\"}]"));
        assertThat(list.kind()).isEqualTo(Kind.MALFORMED_RESPONSE);
        assertThat(list.retryable()).isFalse();
        assertThat(list.getMessage()).matches("the server at http://127\\.0\\.0\\.1:\\d+/v1 answered HTTP 200 with a JSON"
                + " array where a chat\\.completion object belongs: \\[\\{\"id\":\"x\"}] \\(requests go to"
                + " http://127\\.0\\.0\\.1:\\d+/v1/chat/completions: the base URL must name an OpenAI-compatible API\\)");
        assertThat(list.requestId()).isEqualTo("req_plain");

        // An error inside the list is the error, classified by its status: the message is the server's own.
        ModelException error = assertThrows(ModelException.class, () -> callPlainServer("application/json",
                "[{\"error\":{\"code\":400,\"message\":\"モデルが見つかりません\",\"status\":\"INVALID_ARGUMENT\"}}]"));
        assertThat(error.kind()).isEqualTo(Kind.INVALID_REQUEST);
        assertThat(error.retryable()).isFalse();
        assertThat(error.getMessage()).endsWith(": モデルが見つかりません");
        ModelException busy = assertThrows(ModelException.class, () -> callPlainServer("application/json",
                "[{\"error\":{\"code\":503,\"message\":\"The model is overloaded.\",\"status\":\"UNAVAILABLE\"}}]"));
        assertThat(busy.kind()).isEqualTo(Kind.OVERLOADED);
        assertThat(busy.retryable()).isTrue();

        // The same inside an event stream: a data line that is a list.
        server.enqueue(new ChatReply.Malformed(events("[1,2]")));
        ModelException chunk = failure();
        assertThat(chunk.kind()).isEqualTo(Kind.MALFORMED_RESPONSE);
        assertThat(chunk.getMessage()).contains("answered HTTP 200 with a JSON array where a chat.completion.chunk object"
                + " belongs: [1,2]");
    }

    @Test
    void aPageAnsweredWithHttp200SaysWhatThePageSays() {
        // A proxy's sign-in or block page, sent with 200: final, and the message tells what the page says.
        ModelException page = assertThrows(ModelException.class, () -> callPlainServer("text/html; charset=utf-8",
                "<!DOCTYPE html>\n<html><head><title>プロキシ</title><style>p{color:red}</style></head>\n<body><h1>Access denied</h1>\n"
                        + "<p>Sign in at http://portal.example/ to continue.</p></body></html>\n"));
        assertThat(page.kind()).isEqualTo(Kind.MALFORMED_RESPONSE);
        assertThat(page.retryable()).isFalse();
        assertThat(page.getMessage()).contains("answered HTTP 200 (text/html; charset=utf-8) without a chat.completion.chunk")
                .endsWith(": プロキシ Access denied Sign in at http://portal.example/ to continue.");
        assertThat(page.requestId()).isEqualTo("req_plain");
    }

    @Test
    void thePublicApiAddressedWithoutV1SaysWhereRequestsWent() {
        // OPENAI_BASE_URL=https://api.openai.com: the API's 404 names the path, not what to change.
        server.enqueue(ChatReply.error(404, "invalid_request_error", "Invalid URL (POST /chat/completions)"));
        ModelException invalidUrl = failure();
        assertThat(invalidUrl.retryable()).isFalse();
        assertThat(invalidUrl.getMessage()).isEqualTo("HTTP 404 from the server at " + server.baseUrl()
                + ": Invalid URL (POST /chat/completions) (requests go to " + server.baseUrl() + "/chat/completions;"
                + " most servers want a base URL ending in /v1)");
        // the API's wording since (code unknown_url)
        server.enqueue(new ChatReply.HttpError(404, "x", null, "x", Map.of(), "{\"error\":{\"type\":\"invalid_request_error\","
                + "\"code\":\"unknown_url\",\"message\":\"Unknown request URL: POST /chat/completions. Please check the URL for"
                + " typos, or see the docs at https://platform.openai.com/docs/api-reference/.\",\"param\":null}}"));
        assertThat(failure().getMessage()).startsWith("HTTP 404 from the server at " + server.baseUrl() + ": Unknown request URL")
                .endsWith("(requests go to " + server.baseUrl() + "/chat/completions; most servers want a base URL ending in /v1)");
    }

    @Test
    void aBaseUrlWithTheEndpointOnItSaysToLeaveTheEndpointOut() throws Exception {
        // OPENAI_BASE_URL copied from a curl example: requests go to .../chat/completions/chat/completions.
        String copied = server.baseUrl() + "/chat/completions";
        try (OpenAiModel model = OpenAiModel.builder().baseUrl(copied).environment(name -> null).build()) {
            server.enqueue(ChatReply.error(404, "invalid_request_error", "Invalid URL (POST /v1/chat/completions/chat/completions)"));
            ModelException e = null;
            try {
                model.call(request("x").build(), new ModelCallContext(Instant.now().plusSeconds(30), stream));
            } catch (ModelException thrown) {
                e = thrown;
            }
            assertThat(e).as("the call failed").isNotNull();
            assertThat(e.retryable()).isFalse();
            assertThat(e.getMessage()).endsWith(" (requests go to " + copied + "/chat/completions: leave /chat/completions"
                    + " out of the base URL, Rein adds it)");
        }
    }

    @Test
    void llamaCppAskedForAPathItDoesNotServeSaysWhereRequestsWent() {
        // llama-server's answer to any path it does not serve (a base URL with a wrong path, say
        // http://localhost:8080/api/v1): the API's shape, with nothing about the path.
        server.enqueue(new ChatReply.HttpError(404, "x", null, "x", Map.of(),
                "{\"error\":{\"code\":404,\"message\":\"File Not Found\",\"type\":\"not_found_error\"}}"));
        ModelException notFound = failure();
        assertThat(notFound.retryable()).isFalse();
        assertThat(notFound.getMessage()).isEqualTo("HTTP 404 from the server at " + server.baseUrl()
                + ": File Not Found (requests go to " + server.baseUrl() + "/chat/completions;"
                + " most servers want a base URL ending in /v1)");
        // A model the server does not have is a 404 too, whose message says so itself.
        server.enqueue(new ChatReply.HttpError(404, "x", null, "x", Map.of(),
                "{\"error\":{\"code\":404,\"message\":\"model 'qwen3:8b' not found\",\"type\":\"not_found_error\"}}"));
        assertThat(failure().getMessage()).isEqualTo("model 'qwen3:8b' not found");
    }

    @Test
    void lmStudioAddressedWithoutV1IsFinalAndSaysWhereRequestsWent() {
        // LM Studio answers a path it does not serve with HTTP 200 and a bare error string
        // (lmstudio-bug-tracker#618): no retry reaches another path, and the fix is the base URL.
        ModelException e = plainFailure("{\"error\":\"Unexpected endpoint or method. (POST /chat/completions)\"}");
        assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND);
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).contains("Unexpected endpoint or method. (POST /chat/completions)")
                .contains("/chat/completions; most servers want a base URL ending in /v1)");
        assertThat(e.requestId()).isEqualTo("req_plain");
    }

    @Test
    void aMalformedBodyIsFinal() {
        server.enqueue(new ChatReply.Malformed(null));
        ModelException e = failure();
        assertThat(e.kind()).isEqualTo(Kind.MALFORMED_RESPONSE);
        assertThat(e.retryable()).isFalse();
    }

    @Test
    void anInterruptEndsAHangingCallAtOnce() throws Exception {
        server.enqueue(new ChatReply.Hang());
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread caller = Thread.ofVirtual().start(() -> {
            try {
                call(request("x"));
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        server.takeRequest();
        caller.interrupt();
        caller.join(Duration.ofSeconds(5));
        assertThat(caller.isAlive()).isFalse();
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    }

    @Test
    void thePublicApiWithoutAKeyIsRefusedBeforeAnyRequest() {
        assertThatThrownBy(() -> OpenAiModel.builder().environment(name -> null).build())
                .isInstanceOf(ReinException.class).hasMessageContaining("OPENAI_API_KEY");
        assertThatThrownBy(() -> OpenAiModel.builder().baseUrl("https://api.openai.com/v1/").environment(name -> null).build())
                .isInstanceOf(ReinException.class).hasMessageContaining("OPENAI_API_KEY");
        try (OpenAiModel local = OpenAiModel.builder().baseUrl("http://localhost:11434/v1").environment(name -> null).build()) {
            assertThat(local.baseUrl()).isEqualTo("http://localhost:11434/v1");
        }
    }

    @Test
    void aKeyIsSentAsBearer() throws Exception {
        server.requireApiKey("sk-local");
        try (OpenAiModel keyed = OpenAiModel.builder().baseUrl(server.baseUrl()).apiKey("sk-local").build()) {
            server.enqueue(ChatReply.text("ok"));
            keyed.call(request("x").build(), dev.rein.model.ModelCallContext.until(java.time.Instant.now().plusSeconds(9)));
        }
        assertThat(server.lastRequest().header("authorization")).isEqualTo("Bearer sk-local");
    }

    @Test
    void withoutAKeyNoAuthorizationIsSentAndTheOrganizationAndProjectTravelAsHeaders() throws Exception {
        // docs/openai.md, Configuration: no Authorization header at all without a key; OPENAI_ORG_ID and
        // OPENAI_PROJECT_ID as the OpenAI-Organization and OpenAI-Project headers.
        server.enqueue(ChatReply.text("ok"));
        call(request("x"));
        assertThat(server.lastRequest().header("authorization")).isNull();
        Map<String, String> env = Map.of("OPENAI_ORG_ID", "org-123", "OPENAI_PROJECT_ID", "proj_9");
        try (OpenAiModel scoped = OpenAiModel.builder().baseUrl(server.baseUrl()).environment(env::get).build()) {
            server.enqueue(ChatReply.text("ok"));
            scoped.call(request("x").build(), dev.rein.model.ModelCallContext.until(java.time.Instant.now().plusSeconds(9)));
        }
        assertThat(server.lastRequest().header("openai-organization")).isEqualTo("org-123");
        assertThat(server.lastRequest().header("openai-project")).isEqualTo("proj_9");
    }

    @Test
    void a429WithoutRetryAfterWaitsForTheRateLimitThatRanOutToReset() {
        // platform.openai.com/docs/guides/rate-limits, rate limits in headers: x-ratelimit-remaining-requests/-tokens
        // and x-ratelimit-reset-requests/-tokens, "the time until the rate limit resets", as "1s", "6m0s", "20ms".
        server.enqueue(new ChatReply.HttpError(429, "requests", "rate_limit_exceeded", "Rate limit reached for requests",
                Map.of("x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "1s",
                        "x-ratelimit-remaining-tokens", "149984", "x-ratelimit-reset-tokens", "6m0s"), null));
        assertThat(failure().retryAfter()).as("the requests limit ran out").isEqualTo(Duration.ofSeconds(1));

        server.enqueue(new ChatReply.HttpError(429, "tokens", "rate_limit_exceeded",
                "Rate limit reached for gpt-4.1 on tokens per min (TPM): Limit 30000, Used 29800, Requested 500.",
                Map.of("x-ratelimit-remaining-requests", "4999", "x-ratelimit-reset-requests", "12ms",
                        "x-ratelimit-remaining-tokens", "200", "x-ratelimit-reset-tokens", "1.8s"), null));
        assertThat(failure().retryAfter()).as("none ran out: the headers do not say what to wait for, the backoff applies")
                .isNull();

        server.enqueue(new ChatReply.HttpError(429, "tokens", "rate_limit_exceeded", "Rate limit reached",
                Map.of("x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "400ms",
                        "x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "2.5s"), null));
        assertThat(failure().retryAfter()).as("both ran out: the longer").isEqualTo(Duration.ofMillis(2500));

        server.enqueue(new ChatReply.HttpError(429, "tokens", "rate_limit_exceeded", "Rate limit reached",
                Map.of("x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "1m2.5s",
                        "x-ratelimit-reset-requests", "20ms"), null));
        assertThat(failure().retryAfter()).as("a full reset past 60 s is no wait to hold the run for: the backoff applies")
                .isNull();

        server.enqueue(new ChatReply.HttpError(429, "tokens", "rate_limit_exceeded", "Rate limit reached",
                Map.of("x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "20ms"), null));
        assertThat(failure().retryAfter()).isEqualTo(Duration.ofMillis(20));

        server.enqueue(new ChatReply.HttpError(429, "requests", "rate_limit_exceeded", "Rate limit reached",
                Map.of("retry-after", "3", "x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "1s"), null));
        assertThat(failure().retryAfter()).as("retry-after wins").isEqualTo(Duration.ofSeconds(3));

        server.enqueue(new ChatReply.HttpError(429, "requests", "rate_limit_exceeded", "Rate limit reached",
                Map.of("x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "soon"), null));
        assertThat(failure().retryAfter()).as("unreadable: no hint").isNull();

        server.enqueue(new ChatReply.HttpError(503, "server_error", null, "busy",
                Map.of("x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "1s"), null));
        assertThat(failure().retryAfter()).as("only a 429 is a rate limit").isNull();
    }

    @Test
    void a429WhoseMessageSaysWhenToTryAgainWaitsThatLong() {
        // The public API's 429 for a rate limit names the wait in its message ("Please try again in 1.8s."), also
        // when no x-ratelimit-remaining-* header reads 0 (a request needing more tokens than remain).
        server.enqueue(new ChatReply.HttpError(429, "tokens", "rate_limit_exceeded", "Rate limit reached for gpt-4.1 in"
                + " organization org-1 on tokens per min (TPM): Limit 30000, Used 29800, Requested 500. Please try again in"
                + " 1.8s. Visit https://platform.openai.com/account/rate-limits to learn more.",
                Map.of("x-ratelimit-remaining-tokens", "200", "x-ratelimit-reset-tokens", "1.8s"), null));
        assertThat(failure().retryAfter()).isEqualTo(Duration.ofMillis(1800));

        server.enqueue(new ChatReply.HttpError(429, "requests", "rate_limit_exceeded", "Rate limit reached for gpt-4.1 on"
                + " requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20ms. Visit"
                + " https://platform.openai.com/account/rate-limits to learn more.", Map.of(), null));
        assertThat(failure().retryAfter()).isEqualTo(Duration.ofMillis(20));

        server.enqueue(new ChatReply.HttpError(429, "tokens", "rate_limit_exceeded", "Rate limit reached for gpt-4.1 on"
                + " tokens per day (TPD): Limit 90000, Used 89000, Requested 3000. Please try again in 16m40s.", Map.of(), null));
        assertThat(failure().retryAfter()).as("past 60 s: the call is not held for it, the message says so")
                .isEqualTo(Duration.ofSeconds(1000));

        server.enqueue(new ChatReply.HttpError(429, "requests", "rate_limit_exceeded", "Please try again in 1s.",
                Map.of("retry-after", "4"), null));
        assertThat(failure().retryAfter()).as("retry-after wins").isEqualTo(Duration.ofSeconds(4));
    }

    @Test
    void azures429WhoseMessageSaysHowManySecondsToRetryAfterWaitsThatLong() {
        // Azure OpenAI names the wait of a spent rate limit in its message too ("Please retry after 6 seconds."); a
        // gateway in front of it (API Management) may pass the 429 on without the retry-after headers.
        server.enqueue(new ChatReply.HttpError(429, "x", "429", "x", Map.of(), "{\"error\":{\"code\":\"429\",\"message\":"
                + "\"Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have exceeded"
                + " token rate limit of your current OpenAI S0 pricing tier. Please retry after 6 seconds. Please go here:"
                + " https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit.\"}}"));
        assertThat(failure().retryAfter()).isEqualTo(Duration.ofSeconds(6));

        server.enqueue(new ChatReply.HttpError(429, "x", "429", "x", Map.of(), "{\"error\":{\"code\":\"429\",\"message\":"
                + "\"Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have exceeded"
                + " call rate limit of your current OpenAI S0 pricing tier. Please retry after 1 second.\"}}"));
        assertThat(failure().retryAfter()).isEqualTo(Duration.ofSeconds(1));

        server.enqueue(new ChatReply.HttpError(429, "x", "429", "x", Map.of(), "{\"error\":{\"code\":\"429\",\"message\":"
                + "\"Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have exceeded"
                + " token rate limit of your current OpenAI S0 pricing tier. Please retry after 86400 seconds.\"}}"));
        assertThat(failure().retryAfter()).as("a daily limit's: the call is not held for it, the message says so")
                .isEqualTo(Duration.ofSeconds(86400));
    }

    @Test
    void geminisA429WhoseMessageSaysWhenToRetryWaitsThatLong() {
        // Google's OpenAI-compatible endpoint answers a spent Gemini rate limit with 429 RESOURCE_EXHAUSTED, no
        // retry-after header, and the wait in its message ("Please retry in 36.429760048s.", as RetryInfo's retryDelay):
        // the policy's backoff from 0.5 s sent every retry into the same spent minute and the run failed within seconds.
        String message = "You exceeded your current quota, please check your plan and billing details. For more information"
                + " on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. \\n* Quota exceeded for metric:"
                + " generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 10, model: gemini-3-flash"
                + "\\nPlease retry in 36.429760048s.";
        server.enqueue(new ChatReply.HttpError(429, "x", null, "x", Map.of(), "[{\"error\":{\"code\":429,\"message\":\""
                + message + "\",\"status\":\"RESOURCE_EXHAUSTED\",\"details\":[{\"@type\":"
                + "\"type.googleapis.com/google.rpc.RetryInfo\",\"retryDelay\":\"36s\"}]}}]"));
        ModelException e = failure();
        assertThat(e.retryable()).as("a rate limit, not an account out of credits").isTrue();
        assertThat(e.getMessage()).contains("Please retry in 36.429760048s.");
        assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(36, 429_760_048));
    }

    @Test
    void aGemini429ForAQuotaOfZeroFailsAtOnceSayingSo() {
        // Google's OpenAI-compatible endpoint answers a model the project has no quota for at all (a free-tier project
        // and a model without a free tier) with 429 RESOURCE_EXHAUSTED whose quota is 0: in the message ("limit: 0") and
        // in the QuotaFailure detail (quotaValue "0"). It was retried as a spent rate limit, which no wait refills.
        String message = "You exceeded your current quota, please check your plan and billing details. For more information"
                + " on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. \\n* Quota exceeded for metric:"
                + " generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0, model: gemini-2.5-pro"
                + "\\nPlease retry in 36.429760048s.";
        String details = "\"details\":[{\"@type\":\"type.googleapis.com/google.rpc.QuotaFailure\",\"violations\":[{"
                + "\"quotaMetric\":\"generativelanguage.googleapis.com/generate_content_free_tier_requests\",\"quotaId\":"
                + "\"GenerateRequestsPerDayPerProjectPerModel-FreeTier\",\"quotaDimensions\":{\"location\":\"global\","
                + "\"model\":\"gemini-2.5-pro\"},\"quotaValue\":\"0\"}]},{\"@type\":"
                + "\"type.googleapis.com/google.rpc.RetryInfo\",\"retryDelay\":\"36s\"}]";
        String zero = " (the project's quota for this model is 0, so no wait helps: use a model the project has quota for,"
                + " or give the project one (on the Gemini API, enable billing for it: its free tier has no quota for some"
                + " models); see https://ai.google.dev/gemini-api/docs/rate-limits)";
        server.enqueue(new ChatReply.HttpError(429, "x", null, "x", Map.of(), "[{\"error\":{\"code\":429,\"message\":\""
                + message + "\",\"status\":\"RESOURCE_EXHAUSTED\"," + details + "}}]"));
        ModelException e = failure();
        assertThat(e.kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(e.retryable()).as("a quota of 0 is not refilled by waiting").isFalse();
        assertThat(e.retryAfter()).isNull();
        assertThat(e.getMessage()).startsWith("You exceeded your current quota").endsWith(zero);

        // The detail alone (a message without the limit) says it too; so does the message alone.
        server.enqueue(new ChatReply.HttpError(429, "x", null, "x", Map.of(), "{\"error\":{\"code\":429,\"message\":"
                + "\"Resource exhausted.\",\"status\":\"RESOURCE_EXHAUSTED\"," + details + "}}"));
        assertThat(failure().retryable()).isFalse();
        server.enqueue(new ChatReply.HttpError(429, "x", null, "x", Map.of(), "[{\"error\":{\"code\":429,\"message\":\""
                + message + "\",\"status\":\"RESOURCE_EXHAUSTED\"}}]"));
        assertThat(failure().getMessage()).endsWith(zero);
        // A proxy's x-should-retry: true does not make it one to wait out, as for insufficient_quota.
        server.enqueue(new ChatReply.HttpError(429, "x", null, "x", Map.of("x-should-retry", "true"), "{\"error\":{"
                + "\"code\":429,\"message\":\"Resource exhausted.\",\"status\":\"RESOURCE_EXHAUSTED\"," + details + "}}"));
        assertThat(failure().retryable()).isFalse();

        // A quota that is there but spent (limit: 10, quotaValue "10") is still waited out.
        server.enqueue(new ChatReply.HttpError(429, "x", null, "x", Map.of(), "[{\"error\":{\"code\":429,\"message\":\""
                + message.replace("limit: 0,", "limit: 10,") + "\",\"status\":\"RESOURCE_EXHAUSTED\","
                + details.replace("\"quotaValue\":\"0\"", "\"quotaValue\":\"10\"") + "}}]"));
        ModelException spent = failure();
        assertThat(spent.retryable()).isTrue();
        assertThat(spent.getMessage()).doesNotContain("quota for this model is 0");
    }

    @Test
    void aGoogle429WhoseRetryInfoSaysWhenToRetryWaitsThatLong() {
        // Vertex AI's OpenAI-compatible endpoint answers a spent quota with 429 RESOURCE_EXHAUSTED, no retry-after header
        // and no wait in its message, the wait in the error's details as google.rpc.RetryInfo (retryDelay, a protobuf
        // Duration in JSON: seconds with an "s"), which Google's error model says to wait before retrying.
        String vertex = "{\"error\":{\"code\":429,\"message\":\"Resource exhausted. Please try again later. Please refer to"
                + " https://cloud.google.com/vertex-ai/generative-ai/docs/error-code-429 for more details.\",\"status\":"
                + "\"RESOURCE_EXHAUSTED\",\"details\":[{\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\",\"reason\":"
                + "\"RATE_LIMIT_EXCEEDED\"},{\"@type\":\"type.googleapis.com/google.rpc.RetryInfo\",\"retryDelay\":\"36s\"}]}}";
        server.enqueue(new ChatReply.HttpError(429, "x", null, "x", Map.of(), vertex));
        ModelException e = failure();
        assertThat(e.retryable()).isTrue();
        assertThat(e.getMessage()).startsWith("Resource exhausted.");
        assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(36));

        // As a list (Google's OpenAI-compatible endpoints), with fractional seconds, on a 503 too.
        server.enqueue(new ChatReply.HttpError(503, "x", null, "x", Map.of(), "[{\"error\":{\"code\":503,\"message\":"
                + "\"The model is overloaded.\",\"status\":\"UNAVAILABLE\",\"details\":[{\"@type\":"
                + "\"type.googleapis.com/google.rpc.RetryInfo\",\"retryDelay\":\"1.500s\"}]}}]"));
        assertThat(failure().retryAfter()).isEqualTo(Duration.ofMillis(1500));

        // A retry-after header still wins.
        server.enqueue(new ChatReply.HttpError(429, "x", null, "x", Map.of("retry-after", "2"), vertex));
        assertThat(failure().retryAfter()).isEqualTo(Duration.ofSeconds(2));

        // A delay too long for a count of seconds is no hint (the call fails as a 429 does), not a parse error.
        server.enqueue(new ChatReply.HttpError(429, "x", null, "x", Map.of(), vertex.replace("\"36s\"",
                "\"99999999999999999999s\"")));
        ModelException endless = failure();
        assertThat(endless.kind()).isEqualTo(ModelException.Kind.RATE_LIMITED);
        assertThat(endless.retryAfter()).isNull();
    }

    @Test
    void openRoutersRateLimitWaitsUntilTheResetItsErrorNames() {
        // OpenRouter's 429 for a spent limit sends no retry-after; its error carries the limit's headers in metadata.headers,
        // X-RateLimit-Reset in epoch milliseconds. A per-minute limit is waited out to its reset; a per-day one is past
        // any wait Rein makes, so the call fails at once rather than retrying into the same spent limit.
        java.time.Instant now = java.time.Instant.parse("2026-12-03T10:00:00Z");
        try (OpenAiModel clocked = OpenAiModel.builder().baseUrl(server.baseUrl()).environment(name -> null)
                .clock(java.time.Clock.fixed(now, java.time.ZoneOffset.UTC)).build()) {
            server.enqueue(new ChatReply.HttpError(429, "x", null, "x", Map.of(), "{\"error\":{\"message\":\"Rate limit"
                    + " exceeded: free-models-per-min.\",\"code\":429,\"metadata\":{\"headers\":{\"X-RateLimit-Limit\":\"20\","
                    + "\"X-RateLimit-Remaining\":\"0\",\"X-RateLimit-Reset\":\"" + now.plusSeconds(12).toEpochMilli() + "\"},"
                    + "\"provider_name\":null}},\"user_id\":\"user_1\"}"));
            ModelException minute = failureOf(clocked);
            assertThat(minute.retryable()).isTrue();
            assertThat(minute.retryAfter()).isEqualTo(Duration.ofSeconds(12));

            server.enqueue(new ChatReply.HttpError(429, "x", null, "x", Map.of(), "{\"error\":{\"message\":\"Rate limit"
                    + " exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests per day\",\"code\":429,"
                    + "\"metadata\":{\"headers\":{\"X-RateLimit-Limit\":\"50\",\"X-RateLimit-Remaining\":\"0\","
                    + "\"X-RateLimit-Reset\":\"" + now.plus(Duration.ofHours(5)).toEpochMilli() + "\"},\"provider_name\":null}}}"));
            assertThat(failureOf(clocked).retryAfter()).isEqualTo(Duration.ofHours(5));

            // Requests still remaining: the headers do not say what the 429 waits for.
            server.enqueue(new ChatReply.HttpError(429, "x", null, "x", Map.of(), "{\"error\":{\"message\":\"Rate limit"
                    + " exceeded\",\"code\":429,\"metadata\":{\"headers\":{\"X-RateLimit-Remaining\":\"3\","
                    + "\"X-RateLimit-Reset\":\"" + now.plusSeconds(30).toEpochMilli() + "\"}}}}"));
            assertThat(failureOf(clocked).retryAfter()).isNull();

            // The same error sent after HTTP 200 (a chunk, "code": 429): the same wait; it was retried on the policy's
            // backoff, into the same spent limit. A request over the minute's limit is final as for HTTP 429.
            server.enqueue(new ChatReply.Malformed(events("{\"error\":{\"message\":\"Rate limit exceeded:"
                    + " free-models-per-min.\",\"code\":429,\"metadata\":{\"headers\":{\"X-RateLimit-Remaining\":\"0\","
                    + "\"X-RateLimit-Reset\":\"" + now.plusSeconds(12).toEpochMilli() + "\"}}}}")));
            ModelException streamed = failureOf(clocked);
            assertThat(streamed.kind()).isEqualTo(Kind.RATE_LIMITED);
            assertThat(streamed.retryable()).isTrue();
            assertThat(streamed.retryAfter()).isEqualTo(Duration.ofSeconds(12));
            server.enqueue(new ChatReply.Malformed(events("{\"error\":{\"message\":\"Request too large for gpt-4o in"
                    + " organization org-x on tokens per min (TPM): Limit 30000, Requested 36278. The input or output tokens"
                    + " must be reduced in order to run successfully.\",\"code\":\"429\"}}")));
            assertThat(failureOf(clocked).retryable()).isFalse();
        }
    }

    @Test
    void retryAfterAsAnHttpDateOrFractionalMillisecondsSetsTheWait() {
        // docs/openai.md, Errors and retries: retry-after-ms (wins) and retry-after (seconds or HTTP date).
        java.time.Instant now = java.time.Instant.parse("2026-12-03T10:00:00Z");
        try (OpenAiModel clocked = OpenAiModel.builder().baseUrl(server.baseUrl()).environment(name -> null)
                .clock(java.time.Clock.fixed(now, java.time.ZoneOffset.UTC)).build()) {
            server.enqueue(new ChatReply.HttpError(503, "server_error", null, "busy",
                    Map.of("retry-after", "Thu, 03 Dec 2026 10:00:07 GMT"), null));
            assertThat(failureOf(clocked).retryAfter()).isEqualTo(Duration.ofSeconds(7));
            server.enqueue(new ChatReply.HttpError(503, "server_error", null, "busy",
                    Map.of("retry-after", "Thu, 03 Dec 2026 09:59:00 GMT"), null));
            assertThat(failureOf(clocked).retryAfter()).as("a date in the past: now").isEqualTo(Duration.ZERO);
            server.enqueue(new ChatReply.HttpError(429, "rate_limit_error", null, "slow down",
                    Map.of("retry-after-ms", "1500.5", "retry-after", "9"), null));
            assertThat(failureOf(clocked).retryAfter()).isEqualTo(Duration.ofNanos(1_500_500_000));
            server.enqueue(new ChatReply.HttpError(429, "rate_limit_error", null, "slow down",
                    Map.of("retry-after", "soon"), null));
            assertThat(failureOf(clocked).retryAfter()).as("unreadable: no hint").isNull();
        }
    }

    /**
     * A server that redirects (an https-only gateway reached at http://) is not followed: OkHttp would
     * send the POST again as a GET without its body (a 301 or 302), which the server answers with a
     * 404 that never mentions the redirect. The failure says where the server sends requests and which
     * base URL to set.
     */
    @Test
    void aRedirectIsNotFollowedAndSaysWhichBaseUrlToSet() throws Exception {
        com.sun.net.httpserver.HttpServer http = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        java.util.List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        http.createContext("/", exchange -> {
            seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
            exchange.getRequestBody().readAllBytes();
            if (exchange.getRequestURI().getPath().startsWith("/v1/")) {
                exchange.getResponseHeaders().set("location", "https://gateway.example.com/openai"
                        + exchange.getRequestURI().getPath().substring(3));
                exchange.getResponseHeaders().set("content-type", "text/html");
                byte[] page = "<html><body>301 Moved Permanently</body></html>".getBytes(java.nio.charset.StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(301, page.length);
                exchange.getResponseBody().write(page);
            } else {
                exchange.sendResponseHeaders(404, -1);
            }
            exchange.close();
        });
        http.createContext("/openai", exchange -> {
            seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        http.start();
        try (OpenAiModel redirected = OpenAiModel.builder().baseUrl("http://127.0.0.1:" + http.getAddress().getPort() + "/v1")
                .environment(name -> null).build()) {
            ModelException e = failureOf(redirected);

            assertThat(e.retryable()).isFalse();
            assertThat(e.getMessage()).contains("HTTP 301")
                    .endsWith("(the server redirects requests to https://gateway.example.com/openai/chat/completions, and Rein"
                            + " does not follow redirects: set the base URL to https://gateway.example.com/openai)");
            assertThat(seen).containsExactly("POST /v1/chat/completions");
        } finally {
            http.stop(0);
        }
    }

    @Test
    void aRedirectWhoseLocationLacksTheEndpointStillNamesTheBaseUrlToSet() throws Exception {
        // An http:// base URL for a server that sends every request to its https:// front page: no
        // /chat/completions to cut at, but the scheme, host and port to use are known.
        com.sun.net.httpserver.HttpServer http = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().set("location", "https://llm.example.com/");
            exchange.sendResponseHeaders(301, -1);
            exchange.close();
        });
        http.start();
        try (OpenAiModel redirected = OpenAiModel.builder().baseUrl("http://127.0.0.1:" + http.getAddress().getPort() + "/v1")
                .environment(name -> null).build()) {
            assertThat(failureOf(redirected).getMessage()).endsWith("(the server redirects requests to https://llm.example.com/,"
                    + " and Rein does not follow redirects: set the base URL to https://llm.example.com/v1)");
        } finally {
            http.stop(0);
        }
    }

    private static ModelException failureOf(OpenAiModel model) {
        try {
            model.call(request("x").build(), dev.rein.model.ModelCallContext.until(java.time.Instant.now().plusSeconds(9)));
        } catch (ModelException e) {
            return e;
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("the call did not fail");
    }

    private ModelException plainFailure(String jsonBody) {
        try {
            callPlainServer("application/json", jsonBody);
        } catch (ModelException e) {
            return e;
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("the call did not fail");
    }

    private ModelException failure() {
        try {
            call(request("x"));
        } catch (ModelException e) {
            return e;
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("the call did not fail");
    }
    @Test
    void moreToolsOrStopSequencesThanOpenAiTakesAreRefusedBeforeSendingSayingWhatToDo() throws Exception {
        // OpenAI's documented limits (Chat Completions reference: at most 128 functions, up to 4 stop sequences): the
        // public API and Azure OpenAI answer 400 "Invalid 'tools': array too long. Expected an array with maximum
        // length 128, but got an array with length 129 instead." (code array_above_max_length) at every step.
        java.util.List<dev.rein.model.ToolDefinition> many = new java.util.ArrayList<>();
        for (int i = 0; i < 129; i++) {
            many.add(tool("tool_" + i));
        }
        for (String base : new String[] {"https://api.openai.com/v1", "https://contoso.openai.azure.com/openai/v1"}) {
            try (OpenAiModel openAi = OpenAiModel.builder().baseUrl(base).apiKey("sk-test").environment(name -> null).build()) {
                ModelException tools = assertThrows(ModelException.class, () -> openAi.call(request("hi").tools(many).build(),
                        new ModelCallContext(Instant.now().plusSeconds(30), stream)));
                assertThat(tools.kind()).isEqualTo(Kind.INVALID_REQUEST);
                assertThat(tools.retryable()).isFalse();
                assertThat(tools.getMessage()).contains("129 tools", "at most 128", "allow");
                ModelException stops = assertThrows(ModelException.class, () -> openAi.call(request("hi")
                        .stopSequences(java.util.List.of("a", "b", "c", "d", "e")).build(),
                        new ModelCallContext(Instant.now().plusSeconds(30), stream)));
                assertThat(stops.getMessage()).contains("5 stop sequences", "at most 4");
            }
        }
        // Another server takes what it takes (vLLM and Ollama set no such limits), and a proxy in front of OpenAI
        // (GitHub Copilot's, LiteLLM's) answers with the API's error: the same advice is added to it.
        server.enqueue(new ChatReply.HttpError(400, "invalid_request_error", "array_above_max_length", "Invalid 'tools': array"
                + " too long. Expected an array with maximum length 128, but got an array with length 129 instead.", Map.of(), null));
        ModelException proxied = assertThrows(ModelException.class, () -> call(request("hi").tools(many)));
        assertThat(server.requests()).hasSize(1);
        assertThat(proxied.getMessage()).contains("Invalid 'tools': array too long", "129 tools", "at most 128", "allow");
    }
    /**
     * Sampling values outside a server's documented range are refused before sending, saying which setting to change:
     * MiniMax's API takes a temperature and a top_p in (0, 1] (its API reference; 0, the usual "deterministic" value,
     * included, is refused), the public API and Azure OpenAI a temperature in [0, 2] and a top_p in [0, 1] (the Chat
     * Completions reference). At the range's ends they are sent; another server takes what it takes.
     */
    @Test
    void samplingValuesOutsideTheServersDocumentedRangeAreRefusedBeforeSending() throws Exception {
        for (String base : new String[] {"https://api.minimax.io/v1", "https://api.minimaxi.com/v1"}) {
            try (OpenAiModel miniMax = OpenAiModel.builder().baseUrl(base).apiKey("mm-test").environment(name -> null).build()) {
                ModelException zero = assertThrows(ModelException.class, () -> miniMax.call(request("hi").temperature(0.0).build(),
                        new ModelCallContext(Instant.now().plusSeconds(30), stream)));
                assertThat(zero.kind()).isEqualTo(Kind.INVALID_REQUEST);
                assertThat(zero.retryable()).isFalse();
                assertThat(zero.getMessage()).contains("temperature 0.0", "MiniMax's API", "(0, 1]",
                        "Agent.Builder.temperature", "not sent");
                assertThat(assertThrows(ModelException.class, () -> miniMax.call(request("hi").temperature(1.5).build(),
                        new ModelCallContext(Instant.now().plusSeconds(30), stream))).getMessage()).contains("temperature 1.5");
                assertThat(assertThrows(ModelException.class, () -> miniMax.call(request("hi").topP(0.0).build(),
                        new ModelCallContext(Instant.now().plusSeconds(30), stream))).getMessage())
                        .contains("top_p 0.0", "(0, 1]", "ModelRequest.Builder.topP");
            }
        }
        for (String base : new String[] {"https://api.openai.com/v1", "https://contoso.openai.azure.com/openai/v1"}) {
            try (OpenAiModel openAi = OpenAiModel.builder().baseUrl(base).apiKey("sk-test").environment(name -> null).build()) {
                assertThat(assertThrows(ModelException.class, () -> openAi.call(request("hi").temperature(2.5).build(),
                        new ModelCallContext(Instant.now().plusSeconds(30), stream))).getMessage())
                        .contains("temperature 2.5", "[0, 2]", "Agent.Builder.temperature", "not sent");
                // a top_p above 1 is no provider's: the request itself refuses it (0c9ba9dd), before any provider sees it
                assertThat(assertThrows(dev.rein.ReinException.class, () -> request("hi").topP(1.2).build()).getMessage())
                        .contains("topP", "from 0 to 1", "was 1.2");
            }
        }
        // the ends of a range are sent, and another server than MiniMax's takes a temperature 0 (the fake speaks as OpenAI)
        server.enqueue(ChatReply.text("ok"));
        server.enqueue(ChatReply.text("ok"));
        call(request("hi").temperature(2.0).topP(1.0));
        call(request("hi").temperature(0.0).topP(0.0));
        assertThat(server.requests()).hasSize(2);
        assertThat(server.requests().get(0).body().path("temperature").asDouble()).isEqualTo(2.0);
        assertThat(server.requests().get(1).body().path("temperature").asDouble()).isEqualTo(0.0);
    }
    @Test
    void azuresResourceNotFoundSaysWhereRequestsWentAndWhichBaseUrlAzureTakes() throws Exception {
        // Azure OpenAI answers a path it does not serve (a deployment's URL without ?api-version=, through a gateway on a
        // domain of its own) with 404 {"error":{"code":"404","message":"Resource not found"}}: nothing said where requests went.
        server.enqueue(new ChatReply.HttpError(404, "x", null, "x", Map.of(),
                "{\"error\":{\"code\":\"404\",\"message\":\"Resource not found\"}}"));
        ModelException e = assertThrows(ModelException.class, () -> call(request("hi")));
        assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND);
        assertThat(e.getMessage()).contains("Resource not found", "requests go to " + server.baseUrl() + "/chat/completions",
                "api-version", "https://RESOURCE.openai.azure.com/openai/v1");
    }
    @Test
    void aRequestTooLargeSaysTheConversationMustBeMadeSmaller() throws Exception {
        // A 413 (nginx in front of vLLM takes 1 MB by default; a gateway's limit; the public API's own): the conversation
        // only grows, so every later call is refused the same way, and the page's title alone said nothing of what to do.
        server.enqueue(new ChatReply.HttpError(413, "x", null, "x", Map.of(), "<html><head><title>413 Request Entity Too Large"
                + "</title></head><body><center><h1>413 Request Entity Too Large</h1></center><hr><center>nginx</center></body></html>"));
        ModelException e = assertThrows(ModelException.class, () -> call(request("hi")));
        assertThat(e.kind()).isEqualTo(Kind.REQUEST_TOO_LARGE);
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).contains("413 Request Entity Too Large", "make the conversation smaller with a ContextPolicy");
        server.enqueue(ChatReply.error(413, "invalid_request_error", "Request too large."));
        assertThat(assertThrows(ModelException.class, () -> call(request("hi"))).getMessage())
                .contains("Request too large.", "make the conversation smaller with a ContextPolicy");
    }

    @Test
    void groqsRequestTooLargeForTheMinutesLimitSaysTheOutputLimitCountsToo() throws Exception {
        // Groq answers one request beyond the tokens-per-minute limit with HTTP 413 (code rate_limit_exceeded): its limit
        // counts the output limit as well as the messages, so a lower --max-tokens fixes it, or higher rate limits; the
        // message said only to make the conversation smaller, as for a body too large for a proxy.
        String groq = "Request too large for model `llama-3.3-70b-versatile` in organization `org_x` service tier `on_demand`"
                + " on tokens per minute (TPM): Limit 6000, Requested 14810, please reduce your message size and try again."
                + " Visit https://console.groq.com/docs/rate-limits for more information.";
        server.enqueue(new ChatReply.HttpError(413, "x", null, "x", Map.of(), "{\"error\":{\"message\":\"" + groq.replace("`",
                "\\u0060") + "\",\"type\":\"tokens\",\"code\":\"rate_limit_exceeded\"}}"));
        ModelException e = assertThrows(ModelException.class, () -> call(request("hi")));
        assertThat(e.kind()).isEqualTo(Kind.REQUEST_TOO_LARGE);
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).startsWith(groq).contains("lower the output limit with --max-tokens",
                "raise the organization's rate limits").doesNotContain("the server takes no request this large");
    }
}
