package dev.rein.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class FailureRepliesTest extends FakeServerTestBase {


    @ParameterizedTest
    @EnumSource(ApiErrorType.class)
    void everyErrorTypeHasItsStatusAndTheRealBodyShape(ApiErrorType type) throws Exception {
        server.enqueue(FakeReply.error(type, "scripted " + type.wireName()));

        HttpResponse<String> response = api.messages(Api.userRequest("x", false));

        assertThat(response.statusCode()).isEqualTo(type.status());
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        String requestId = response.headers().firstValue("request-id").orElseThrow();
        assertThat(requestId).startsWith("req_");
        JsonNode body = Api.json(response);
        assertThat(body.path("type").asText()).isEqualTo("error");
        assertThat(body.path("error").path("type").asText()).isEqualTo(type.wireName());
        assertThat(body.path("error").path("message").asText()).isEqualTo("scripted " + type.wireName());
        assertThat(body.path("request_id").asText()).isEqualTo(requestId);
    }

    @Test
    void errorHeadersAreSent() throws Exception {
        server.enqueue(FakeReply.rateLimited(Duration.ofMillis(1500))
                .withHeader("retry-after-ms", "1500")
                .withHeader("x-should-retry", "true"));

        HttpResponse<String> response = api.messages(Api.userRequest("x", false));

        assertThat(response.statusCode()).isEqualTo(429);
        assertThat(response.headers().firstValue("retry-after")).hasValue("2");
        assertThat(response.headers().firstValue("retry-after-ms")).hasValue("1500");
        assertThat(response.headers().firstValue("x-should-retry")).hasValue("true");
        assertThat(Api.json(response).at("/error/type").asText()).isEqualTo("rate_limit_error");
    }

    @Test
    void anyStatusAndTypeCanBeScripted() throws Exception {
        server.enqueue(FakeReply.error(402, "billing_error", "Your credit balance is too low."));

        HttpResponse<String> response = api.messages(Api.userRequest("x", false));

        assertThat(response.statusCode()).isEqualTo(402);
        assertThat(Api.json(response).at("/error/type").asText()).isEqualTo("billing_error");
    }

    @Test
    void anHttpErrorAnswersAStreamingRequestAsJson() throws Exception {
        server.enqueue(FakeReply.overloaded());

        HttpResponse<String> response = api.messages(Api.userRequest("x", true));

        assertThat(response.statusCode()).isEqualTo(529);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(Api.json(response).at("/error/type").asText()).isEqualTo("overloaded_error");
    }

    @Test
    void errorEventAfterTheStreamStarted() throws Exception {
        server.enqueue(FakeReply.overloadedMidStream());

        HttpResponse<String> response = api.messages(Api.userRequest("x", true));

        assertThat(response.statusCode()).isEqualTo(200);
        List<Api.Event> events = Api.events(response.body());
        assertThat(events).extracting(Api.Event::name)
                .containsExactly("message_start", "content_block_start", "ping", "content_block_delta", "error");
        JsonNode error = events.get(4).data();
        assertThat(error.path("type").asText()).isEqualTo("error");
        assertThat(error.path("error").path("type").asText()).isEqualTo("overloaded_error");
        assertThat(error.path("error").path("message").asText()).isEqualTo("Overloaded");
    }

    @Test
    void streamErrorAnswersANonStreamingRequestWithTheHttpError() throws Exception {
        server.enqueue(FakeReply.overloadedMidStream());

        HttpResponse<String> response = api.messages(Api.userRequest("x", false));

        assertThat(response.statusCode()).isEqualTo(529);
        assertThat(Api.json(response).at("/error/type").asText()).isEqualTo("overloaded_error");
    }

    @Test
    void droppedConnectionIsAnIoErrorAndTheServerGoesOn() throws Exception {
        server.enqueue(FakeReply.disconnect(), FakeReply.text("after"));

        assertThatThrownBy(() -> api.messages(Api.userRequest("x", false))).isInstanceOf(IOException.class);

        HttpResponse<String> next = api.messages(Api.userRequest("y", false));
        assertThat(next.statusCode()).isEqualTo(200);
        assertThat(server.requestCount()).isEqualTo(2);
    }

    @Test
    void connectionDroppedMidStreamIsAnIoErrorAfterA200() throws Exception {
        server.enqueue(FakeReply.disconnectMidStream(FakeReply.text("This answer is cut short by the network."), 4));

        HttpResponse<InputStream> response = api.client().send(
                api.request("/v1/messages", Api.userRequest("x", true)).build(),
                HttpResponse.BodyHandlers.ofInputStream());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThatThrownBy(() -> {
                    try (InputStream in = response.body()) {
                        in.transferTo(OutputStream.nullOutputStream());
                    }
                })
                .isInstanceOf(IOException.class);
    }

    /**
     * HttpClient discards what it buffered once the connection fails, so what was on the wire
     * before the drop is checked with a raw socket.
     */
    @Test
    void connectionDroppedMidStreamAfterTheScriptedEvents() throws Exception {
        server.enqueue(FakeReply.disconnectMidStream(FakeReply.text("This answer is cut short by the network."), 4));
        byte[] body = Api.userRequest("x", true).getBytes(StandardCharsets.UTF_8);

        String wire;
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(5_000); // a connection that is not dropped fails the test instead of hanging it
            OutputStream out = socket.getOutputStream();
            out.write(("POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: k\r\n"
                            + "anthropic-version: 2023-06-01\r\ncontent-type: application/json\r\n"
                            + "content-length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            try {
                socket.getInputStream().transferTo(received);
            } catch (SocketException reset) {
                // a reset is as much a drop as an early end of stream
            }
            wire = received.toString(StandardCharsets.UTF_8);
        }

        assertThat(wire).startsWith("HTTP/1.1 200").containsIgnoringCase("transfer-encoding: chunked");
        assertThat(wire).contains("event: message_start", "event: content_block_start", "event: ping",
                "event: content_block_delta");
        assertThat(wire).doesNotContain("content_block_stop", "message_stop");
        assertThat(wire).as("no final chunk: the body never ends properly").doesNotEndWith("0\r\n\r\n");
    }

    @Test
    void connectionDroppedInTheMiddleOfAJsonBody() throws Exception {
        server.enqueue(FakeReply.disconnectMidStream(FakeReply.text("cut"), 0));

        assertThatThrownBy(() -> api.messages(Api.userRequest("x", false))).isInstanceOf(IOException.class);
    }

    @Test
    void malformedJsonBody() throws Exception {
        server.enqueue(FakeReply.malformed(), FakeReply.malformed("not json at all"));

        HttpResponse<String> first = api.messages(Api.userRequest("x", false));
        HttpResponse<String> second = api.messages(Api.userRequest("x", false));

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("content-type")).hasValue("application/json");
        assertThatThrownBy(() -> Api.json(first)).isInstanceOf(JsonProcessingException.class);
        assertThat(second.body()).isEqualTo("not json at all");
    }

    @Test
    void malformedStreamHasAnEventWithBrokenData() throws Exception {
        server.enqueue(FakeReply.malformed());

        HttpResponse<String> response = api.messages(Api.userRequest("x", true));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("text/event-stream; charset=utf-8");
        assertThat(response.body()).startsWith("event: message_start\ndata: ");
        assertThatThrownBy(() -> Api.events(response.body())).isInstanceOf(JsonProcessingException.class);
    }

    @Test
    void delayedReplyArrivesAfterTheDelay() throws Exception {
        server.enqueue(FakeReply.delayed(Duration.ofMillis(300), FakeReply.text("late")));

        long started = System.nanoTime();
        HttpResponse<String> response = api.messages(Api.userRequest("x", false));

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(Api.json(response).at("/content/0/text").asText()).isEqualTo("late");
    }

    @Test
    void delayLongerThanTheClientTimeoutTimesOut() {
        server.enqueue(FakeReply.delayed(Duration.ofSeconds(30), FakeReply.text("too late")));

        assertThatThrownBy(() -> api.send(api.request("/v1/messages", Api.userRequest("x", false))
                        .timeout(Duration.ofMillis(200))
                        .build()))
                .isInstanceOf(HttpTimeoutException.class);
    }

    @Test
    void hangEndsWithADroppedConnectionWhenTheServerCloses() throws Exception {
        server.enqueue(FakeReply.hang());

        CompletableFuture<HttpResponse<String>> pending = api.client().sendAsync(
                api.request("/v1/messages", Api.userRequest("x", false)).build(), HttpResponse.BodyHandlers.ofString());
        server.takeRequest(); // the request has arrived and is hanging
        Thread.sleep(100);
        assertThat(pending).isNotDone();

        server.close();

        assertThatThrownBy(() -> pending.get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(IOException.class);
    }

    @Test
    void exhaustedScriptFailsLoudlyWithoutInvitingRetries() throws Exception {
        HttpResponse<String> response = api.messages(Api.userRequest("x", false));

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.headers().firstValue("x-should-retry")).hasValue("false");
        JsonNode body = Api.json(response);
        assertThat(body.at("/error/type").asText()).isEqualTo("api_error");
        assertThat(body.at("/error/message").asText()).contains("script exhausted").contains("req_fake_001");
    }

    @Test
    void unknownPathIsNotFound() throws Exception {
        HttpResponse<String> response = api.post("/v1/complete", "{}");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(Api.json(response).at("/error/type").asText()).isEqualTo("not_found_error");
        assertThat(server.requestCount()).isEqualTo(1);
    }

    @Test
    void tokenCountReplyOnTheMessagesQueueIsAScriptError() throws Exception {
        server.enqueue(FakeReply.tokenCount(3));

        HttpResponse<String> response = api.messages(Api.userRequest("x", false));

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(Api.json(response).at("/error/message").asText()).contains("enqueueCountTokens");
    }
}
