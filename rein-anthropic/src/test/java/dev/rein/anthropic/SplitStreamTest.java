package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpServer;
import dev.rein.model.Message;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A stream delivered a few bytes at a time, so that reads end inside UTF-8 sequences: text split
 * inside a surrogate pair, tool input split inside a unicode escape and after a multi-byte
 * character, empty {@code partial_json} fragments, thinking with its signature, a ping, usage from
 * {@code message_start} and the cumulative {@code message_delta}; an error event mid-stream.
 */
class SplitStreamTest {
    private HttpServer server;
    private AnthropicModel model;
    private final FakeApi.Recorded stream = new FakeApi.Recorded();

    private void answer(int status, Map<String, String> headers, String body, int chunk) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/messages", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            headers.forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
            exchange.getResponseHeaders().set("request-id", "req_probe");
            exchange.sendResponseHeaders(status, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < bytes.length; i += chunk) {
                    out.write(bytes, i, Math.min(chunk, bytes.length - i));
                    out.flush();
                }
            }
        });
        server.start();
        model = AnthropicModel.builder().apiKey("test-key").baseUrl("http://127.0.0.1:" + server.getAddress().getPort()).build();
    }

    @AfterEach
    void stop() {
        if (model != null) {
            model.close();
        }
        if (server != null) {
            server.stop(0);
        }
    }

    private ModelResponse call() throws ModelException, InterruptedException {
        ModelRequest request = ModelRequest.builder("claude-test").maxTokens(256).addMessage(Message.user("hi")).build();
        return model.call(request, new ModelCallContext(Instant.now().plusSeconds(30), stream));
    }

    static final Map<String, String> SSE = Map.of("content-type", "text/event-stream");

    @Test
    void aStreamReadByteByByteAssemblesEveryBlockIntact() throws Exception {
        String sse = new FakeApi.Sse()
                .messageStart("{\"input_tokens\":10,\"cache_creation_input_tokens\":5,\"cache_read_input_tokens\":7,\"output_tokens\":1}")
                .event("ping", "{\"type\":\"ping\"}")
                .block(0, "{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}",
                        "{\"type\":\"thinking_delta\",\"thinking\":\"考え\"}",
                        "{\"type\":\"thinking_delta\",\"thinking\":\"中\"}",
                        "{\"type\":\"signature_delta\",\"signature\":\"EqQBCgIYAhIM+/sig==\"}")
                .block(1, "{\"type\":\"text\",\"text\":\"\"}",
                        "{\"type\":\"text_delta\",\"text\":\"東京\\ud83d\"}",
                        "{\"type\":\"text_delta\",\"text\":\"\\ude00です\"}")
                .block(2, "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"search\",\"input\":{}}",
                        "{\"type\":\"input_json_delta\",\"partial_json\":\"\"}",
                        "{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"q\\\": \\\"\\\\u67\"}",
                        "{\"type\":\"input_json_delta\",\"partial_json\":\"71京\"}",
                        "{\"type\":\"input_json_delta\",\"partial_json\":\"\"}",
                        "{\"type\":\"input_json_delta\",\"partial_json\":\"\\\"}\"}")
                .event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\",\"stop_sequence\":null},"
                        + "\"usage\":{\"output_tokens\":42}}")
                .event("message_stop", "{\"type\":\"message_stop\"}")
                .build();
        answer(200, SSE, sse, 1);
        ModelResponse r = call();
        assertThat(r.content().get(0)).isEqualTo(new dev.rein.model.ThinkingBlock("考え中", "EqQBCgIYAhIM+/sig=="));
        assertThat(stream.text()).isEqualTo("東京😀です");
        assertThat(stream.input("toolu_1")).isEqualTo("{\"q\": \"\\u6771京\"}");
        assertThat(r.text()).isEqualTo("東京😀です");
        assertThat(r.toolUses().get(0).input().get("q").asText()).isEqualTo("東京");
        assertThat(r.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(r.usage().outputTokens()).isEqualTo(42);
        assertThat(r.usage().inputTokens()).isEqualTo(10);
        assertThat(r.usage().cacheReadInputTokens()).isEqualTo(7);
        assertThat(r.usage().cacheWriteInputTokens()).isEqualTo(5);
    }

    @Test
    void anOverloadedErrorEventAfterTextIsARetryableOverloadWithTheRequestId() throws Exception {
        String sse = new FakeApi.Sse()
                .messageStart("{\"input_tokens\":10,\"output_tokens\":1}")
                .block(0, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"部分\"}")
                .event("error", "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}")
                .build();
        answer(200, SSE, sse, 7);
        ModelException e = catchThrowableOfType(ModelException.class, this::call);
        assertThat(e.kind()).isEqualTo(ModelException.Kind.OVERLOADED);
        assertThat(e.retryable()).isTrue();
        assertThat(e.requestId()).isEqualTo("req_probe");
        // message_start reported the input before the error: the message says it, as no budget counts it.
        assertThat(e.getMessage()).startsWith("error event in the response stream (overloaded_error): Overloaded; ")
                .endsWith(" reported usage for it (10 input tokens; no output count came before the failure), which the run's"
                + " token and money budgets do not count, as a failed call charges nothing");
    }

    @Test
    void aByteOrderMarkAndCrLfLineEndsAreRead() throws Exception {
        String sse = "\uFEFF" + new FakeApi.Sse()
                .messageStart("{\"input_tokens\":10,\"output_tokens\":1}")
                .block(0, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"やあ\"}")
                .end("end_turn", "{\"output_tokens\":3}").build().replace("\n", "\r\n");
        answer(200, SSE, sse, 3);
        ModelResponse r = call();
        assertThat(r.text()).isEqualTo("やあ");
    }
    @Test
    void anEventOfATypeReinDoesNotReadIsSkippedWhateverItsData() throws Exception {
        // The API may add event types; the official SDKs skip events they do not know by name, before
        // reading their data, so an unknown event (here a gateway's end marker) must not fail a whole answer.
        String sse = new FakeApi.Sse()
                .messageStart("{\"input_tokens\":10,\"output_tokens\":1}")
                .event("ping", "")
                .block(0, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"日本語のまま\"}")
                .event("upstream_notice", "rate limits apply")
                .end("end_turn", "{\"output_tokens\":3}").build()
                + "event: done\ndata: [DONE]\n\n";
        answer(200, SSE, sse, 5);
        ModelResponse r = call();
        assertThat(r.text()).isEqualTo("日本語のまま");
        assertThat(r.stopReason()).isEqualTo(StopReason.END_TURN);
    }

    @Test
    void anUnnamedDoneMarkerAfterMessageStopDoesNotFailTheWholeAnswer() throws Exception {
        // vLLM's Anthropic endpoint (before vllm#37510) and copilot-api end a Messages stream with an
        // OpenAI-style 'data: [DONE]' without an event name, after message_stop: the message is whole,
        // and the official SDKs never read an event they do not know by name.
        String sse = new FakeApi.Sse()
                .messageStart("{\"input_tokens\":10,\"output_tokens\":1}")
                .block(0, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"全部届いた\"}")
                .end("end_turn", "{\"output_tokens\":3}").build()
                + "data: [DONE]\n\n";
        answer(200, SSE, sse, 7);
        ModelResponse r = call();
        assertThat(r.text()).isEqualTo("全部届いた");
        assertThat(r.stopReason()).isEqualTo(StopReason.END_TURN);
        assertThat(r.usage().outputTokens()).isEqualTo(3);
    }

    @Test
    void aDoneMarkerInPlaceOfMessageStopEndsTheMessageAsMessageStopWould() throws Exception {
        // GitHub Copilot's Anthropic-compatible proxy ends a stream with the OpenAI-style 'data: [DONE]'
        // instead of message_stop: an explicit end, not a cut connection, so the message is whole.
        String sse = new FakeApi.Sse()
                .messageStart("{\"input_tokens\":10,\"output_tokens\":1}")
                .block(0, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"終わりの印\"}")
                .event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\","
                        + "\"stop_sequence\":null},\"usage\":{\"output_tokens\":4}}")
                .build()
                + "data: [DONE]\n\n";
        answer(200, SSE, sse, 9);
        ModelResponse r = call();
        assertThat(r.text()).isEqualTo("終わりの印");
        assertThat(r.stopReason()).isEqualTo(StopReason.END_TURN);
        assertThat(r.usage().outputTokens()).isEqualTo(4);
    }

    @Test
    void anErrorEventWhoseDataIsNotJsonIsARetryableServerErrorThatQuotesIt() throws Exception {
        // "an error event after HTTP 200 is handled like an error response" (issue 3), and one of no
        // known type counts as a server error: not as an unreadable answer that is never retried.
        String sse = new FakeApi.Sse()
                .messageStart("{\"input_tokens\":10,\"output_tokens\":1}")
                .block(0, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"部分\"}")
                .build() + "event: error\ndata: upstream connect error or disconnect/reset before headers\n\n";
        answer(200, SSE, sse, 11);
        ModelException e = catchThrowableOfType(ModelException.class, this::call);
        assertThat(e.kind()).isEqualTo(ModelException.Kind.SERVER_ERROR);
        assertThat(e.retryable()).isTrue();
        assertThat(e.requestId()).isEqualTo("req_probe");
        assertThat(e.getMessage()).startsWith("error event in the response stream (no type): "
                + "upstream connect error or disconnect/reset before headers; ")
                .endsWith(" reported usage for it (10 input tokens; no output count came before the failure), which the run's"
                + " token and money budgets do not count, as a failed call charges nothing");
    }

    @Test
    void aByteOrderMarkBeforeAStreamOfDataLinesOnlyIsSkippedAsTheSseStandardSays() throws Exception {
        // The SSE standard strips one leading BOM; a stream without event: lines (each event named by
        // its data's type) must not lose its first event, message_start, to it.
        String sse = "\uFEFF" + new FakeApi.Sse()
                .messageStart("{\"input_tokens\":10,\"output_tokens\":1}")
                .block(0, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"データのみ\"}")
                .end("end_turn", "{\"output_tokens\":3}").build().replaceAll("(?m)^event: .*\n", "");
        assertThat(sse).doesNotContain("event:");
        answer(200, SSE, sse, 2);
        ModelResponse r = call();
        assertThat(r.text()).isEqualTo("データのみ");
        assertThat(r.usage().inputTokens()).isEqualTo(10);
    }
}
