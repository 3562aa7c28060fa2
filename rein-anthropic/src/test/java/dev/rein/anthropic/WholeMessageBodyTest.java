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
import dev.rein.model.StreamObserver;
import dev.rein.model.ToolUseBlock;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A server that ignores {@code "stream": true} and answers with the whole message as JSON (a
 * gateway that does not stream, or a test server written from the Messages API's non-streaming
 * example): the message is read as it is, instead of failing the run as a stream without events.
 */
class WholeMessageBodyTest {
    private HttpServer server;
    private AnthropicModel model;

    private void answer(int status, String contentType, String body) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/messages", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("content-type", contentType);
            exchange.getResponseHeaders().set("request-id", "req_whole");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
        model = AnthropicModel.builder().apiKey("test-key")
                .baseUrl("http://127.0.0.1:" + server.getAddress().getPort()).build();
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
        return model.call(request, new ModelCallContext(Instant.now().plusSeconds(30), StreamObserver.NONE));
    }

    @Test
    void aWholeJsonMessagesTextAndToolCallsReachTheListenersAsTheStreamedOnesDo() throws Exception {
        // The CLI's live view and agent.stream's text_delta events are fed by the listeners: a server
        // that does not stream still answers text they must show, in the order of the blocks.
        answer(200, "application/json", """
                {"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-5",
                 "content":[{"type":"text","text":"東京は晴れ。"},
                            {"type":"tool_use","id":"toolu_01","name":"calculate","input":{"expression":"17 * 23"}}],
                 "stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":7}}""");
        FakeApi.Recorded listener = new FakeApi.Recorded();
        ModelRequest request = ModelRequest.builder("claude-test").maxTokens(256).addMessage(Message.user("hi")).build();

        ModelResponse response = model.call(request, new ModelCallContext(Instant.now().plusSeconds(30), listener));

        assertThat(listener.text()).isEqualTo(response.text()).isEqualTo("東京は晴れ。");
        assertThat(listener.events).containsExactly("text:東京は晴れ。", "tool:toolu_01:calculate",
                "input:toolu_01:{\"expression\":\"17 * 23\"}");
    }

    @Test
    void aWholeJsonMessageIsReadAsTheResponse() throws Exception {
        answer(200, "application/json", """
                {"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-5",
                 "content":[{"type":"text","text":"Let me compute."},
                            {"type":"tool_use","id":"toolu_01","name":"calculate","input":{"expression":"17 * 23"}}],
                 "stop_reason":"tool_use","stop_sequence":null,
                 "usage":{"input_tokens":12,"output_tokens":7,"cache_read_input_tokens":3,"cache_creation_input_tokens":2}}""");

        ModelResponse response = call();

        assertThat(response.text()).isEqualTo("Let me compute.");
        assertThat(response.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(response.toolUses()).extracting(ToolUseBlock::name).containsExactly("calculate");
        assertThat(response.toolUses().get(0).input().get("expression").asText()).isEqualTo("17 * 23");
        assertThat(response.usage().inputTokens()).isEqualTo(12);
        assertThat(response.usage().outputTokens()).isEqualTo(7);
        assertThat(response.usage().cacheReadInputTokens()).isEqualTo(3);
        assertThat(response.usage().cacheWriteInputTokens()).isEqualTo(2);
    }

    @Test
    void aJsonErrorBodyAfterHttp200IsTheErrorItReports() throws Exception {
        answer(200, "application/json; charset=utf-8",
                "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}");

        ModelException e = catchThrowableOfType(ModelException.class, this::call);

        assertThat(e.kind()).isEqualTo(ModelException.Kind.OVERLOADED);
        assertThat(e.retryable()).isTrue();
        assertThat(e.getMessage()).isEqualTo("error object in the HTTP 200 response body (overloaded_error): Overloaded");
        assertThat(e.requestId()).isEqualTo("req_whole");
    }

    @Test
    void aWholeMessageThatCannotBeReadSaysAndCarriesTheUsageItReported() throws Exception {
        // The body reported its usage, but a content block cannot be read: the call fails, charging no budget, so the
        // failure says those tokens and carries them for the trace, as a stream's failure after message_start does.
        answer(200, "application/json", """
                {"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-5",
                 "content":[{"text":"no type"}],"stop_reason":"end_turn","stop_sequence":null,
                 "usage":{"input_tokens":12,"output_tokens":7,"cache_read_input_tokens":3}}""");

        ModelException e = catchThrowableOfType(ModelException.class, this::call);

        assertThat(e.getMessage()).startsWith("a content block of the response has no type: ")
                .endsWith(" reported usage for it (15 input tokens, 3 of them read from the cache, and 7 output tokens),"
                        + " which the run's token and money budgets do not count, as a failed call charges nothing");
        assertThat(e.requestId()).isEqualTo("req_whole");
        assertThat(e.reportedUsage()).hasValueSatisfying(usage -> {
            assertThat(usage.inputTokens()).isEqualTo(12);
            assertThat(usage.cacheReadInputTokens()).isEqualTo(3);
            assertThat(usage.outputTokens()).isEqualTo(7);
            assertThat(usage.estimated()).isFalse();
        });
    }

    @Test
    void aWholeMessageWithoutUsageIsMarkedNotReportedNotZero() throws Exception {
        answer(200, "application/json", """
                {"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-5",
                 "content":[{"type":"text","text":"答え"}],"stop_reason":"end_turn","stop_sequence":null}""");

        ModelResponse response = call();

        assertThat(response.text()).isEqualTo("答え");
        assertThat(response.usage().notReported()).isTrue();
    }

    @Test
    void anEventStreamLabelledAsJsonIsStillReadAsAStream() throws Exception {
        answer(200, "application/json", """
                event: message_start
                data: {"type":"message_start","message":{"id":"msg_02","type":"message","role":"assistant","model":"claude-sonnet-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}}

                event: content_block_start
                data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Streamed."}}

                event: content_block_stop
                data: {"type":"content_block_stop","index":0}

                event: message_delta
                data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":3}}

                event: message_stop
                data: {"type":"message_stop"}

                """);

        ModelResponse response = call();

        assertThat(response.text()).isEqualTo("Streamed.");
        assertThat(response.usage().outputTokens()).isEqualTo(3);
    }

    @Test
    void jsonThatIsNeitherAMessageNorAnErrorIsStillMalformed() throws Exception {
        answer(200, "application/json", "{\"hello\":\"world\"}");

        ModelException e = catchThrowableOfType(ModelException.class, this::call);

        assertThat(e.kind()).isEqualTo(ModelException.Kind.MALFORMED_RESPONSE);
        assertThat(e.retryable()).isFalse();
    }

    @Test
    void anUnreadableAnswerFromAGatewayNamesTheGatewayNotTheApi() throws Exception {
        // A proxy at ANTHROPIC_BASE_URL answering 200 with its own page: the API never saw the request.
        answer(200, "text/html", "<html><body>Login required</body></html>");
        String gateway = "the server at http://127.0.0.1:" + server.getAddress().getPort();

        ModelException e = catchThrowableOfType(ModelException.class, this::call);

        assertThat(e.kind()).isEqualTo(ModelException.Kind.MALFORMED_RESPONSE);
        assertThat(e.getMessage()).isEqualTo(gateway + " answered HTTP 200 (text/html) without a message_start event");
    }

    @Test
    void anEventThatIsNotJsonFromAGatewayNamesTheGateway() throws Exception {
        answer(200, "text/event-stream", "event: message_start\ndata: {oops\n\n");
        String gateway = "the server at http://127.0.0.1:" + server.getAddress().getPort();

        ModelException e = catchThrowableOfType(ModelException.class, this::call);

        assertThat(e.kind()).isEqualTo(ModelException.Kind.MALFORMED_RESPONSE);
        assertThat(e.getMessage()).startsWith(gateway + " sent an event Rein could not read: ");
    }
}
