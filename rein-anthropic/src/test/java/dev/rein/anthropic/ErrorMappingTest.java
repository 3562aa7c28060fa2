package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelException.Kind;
import dev.rein.model.Usage;
import dev.rein.testkit.ApiErrorType;
import dev.rein.testkit.FakeReply;
import dev.rein.testkit.Interrupting;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** API failures become ModelExceptions with the right kind, status, retryability and wait hint. */
class ErrorMappingTest extends FakeApi {

    private ModelException failure(FakeReply reply) {
        server.enqueue(reply);
        return catchThrowableOfType(ModelException.class, () -> call(request("hi")));
    }

    @ParameterizedTest
    @CsvSource({
            "INVALID_REQUEST, 400, INVALID_REQUEST, false",
            "AUTHENTICATION, 401, AUTHENTICATION, false",
            "PERMISSION, 403, PERMISSION, false",
            "NOT_FOUND, 404, NOT_FOUND, false",
            "REQUEST_TOO_LARGE, 413, REQUEST_TOO_LARGE, false",
            "RATE_LIMIT, 429, RATE_LIMITED, true",
            "API, 500, SERVER_ERROR, true",
            "OVERLOADED, 529, OVERLOADED, true"})
    void httpErrorsMapToKindStatusAndRetryability(ApiErrorType type, int status, Kind kind, boolean retryable) {
        ModelException e = failure(FakeReply.error(type, "the API's own words"));
        assertThat(e.kind()).isEqualTo(kind);
        assertThat(e.httpStatus()).isEqualTo(status);
        assertThat(e.retryable()).isEqualTo(retryable);
        // a 413 adds what to do (aRequestTooLargeSaysHowLargeItWasAndHowToMakeTheConversationSmaller)
        assertThat(e.getMessage()).isEqualTo(status == 413 ? e.getMessage() : "the API's own words").startsWith("the API's own words");
        assertThat(e.requestId()).startsWith("req_fake_");
        assertThat(e.retryAfter()).isNull();
    }

    @ParameterizedTest
    @CsvSource({"408, TIMEOUT, true", "409, CONFLICT, true", "502, SERVER_ERROR, true", "504, TIMEOUT, true",
            "402, OTHER, false", "422, INVALID_REQUEST, false"})
    void otherStatusesFollowTheSameRules(int status, Kind kind, boolean retryable) {
        ModelException e = failure(FakeReply.error(status, "some_error", "status " + status));
        assertThat(e.kind()).isEqualTo(kind);
        assertThat(e.httpStatus()).isEqualTo(status);
        assertThat(e.retryable()).isEqualTo(retryable);
    }

    @Test
    void aRefusedConnectionNamesTheServerAndItsAddress() throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort(); // closed again: nothing listens there
        }
        AnthropicModel gateway = AnthropicModel.builder().apiKey("test-key").baseUrl("http://127.0.0.1:" + port).build();
        ModelException e = catchThrowableOfType(ModelException.class,
                () -> gateway.call(request("hi").build(), ModelCallContext.until(Instant.now().plusSeconds(30))));
        assertThat(e.kind()).isEqualTo(Kind.CONNECTION);
        assertThat(e.retryable()).isTrue();
        assertThat(e.getMessage()).startsWith("the connection to the server at http://127.0.0.1:" + port
                + " failed: nothing accepted a connection at 127.0.0.1:" + port);
    }

    @Test
    void anErrorStatusWithoutABodyNamesTheServerThatAnsweredIt() throws Exception {
        // A gateway or proxy in front of the API (a 502 with nothing in it): the message must not blame the API.
        com.sun.net.httpserver.HttpServer proxy = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        proxy.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(502, -1);
            exchange.close();
        });
        proxy.start();
        String base = "http://127.0.0.1:" + proxy.getAddress().getPort();
        try (AnthropicModel gateway = AnthropicModel.builder().apiKey("test-key").baseUrl(base).build()) {
            ModelException e = catchThrowableOfType(ModelException.class,
                    () -> gateway.call(request("hi").build(), ModelCallContext.until(Instant.now().plusSeconds(30))));
            assertThat(e.kind()).isEqualTo(Kind.SERVER_ERROR);
            assertThat(e.getMessage()).isEqualTo("HTTP 502 from the server at " + base);
        } finally {
            proxy.stop(0);
        }
    }

    @Test
    void aNotFoundFromABaseUrlEndingInV1SaysWhereRequestsWentAndToLeaveV1Out() throws Exception {
        // ANTHROPIC_BASE_URL=http://host/v1 (as OpenAI-style servers want it): requests go to /v1/v1/messages
        com.sun.net.httpserver.HttpServer proxy = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        proxy.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] page = "404 page not found".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(404, page.length);
            exchange.getResponseBody().write(page);
            exchange.close();
        });
        proxy.start();
        String base = "http://127.0.0.1:" + proxy.getAddress().getPort();
        try (AnthropicModel withV1 = AnthropicModel.builder().apiKey("test-key").baseUrl(base + "/v1/").build();
                AnthropicModel without = AnthropicModel.builder().apiKey("test-key").baseUrl(base).build()) {
            ModelException e = catchThrowableOfType(ModelException.class,
                    () -> withV1.call(request("hi").build(), ModelCallContext.until(Instant.now().plusSeconds(30))));
            assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND);
            assertThat(e.getMessage()).contains("404 page not found").endsWith(" (requests go to " + base
                    + "/v1/v1/messages: leave /v1 out of the base URL, Rein adds it)");
            ModelException plain = catchThrowableOfType(ModelException.class,
                    () -> without.call(request("hi").build(), ModelCallContext.until(Instant.now().plusSeconds(30))));
            assertThat(plain.getMessage()).doesNotContain("leave /v1 out");
        } finally {
            proxy.stop(0);
        }
    }

    @Test
    void aNotFoundFromABaseUrlThatIsTheWholeEndpointSaysToLeaveV1MessagesOut() {
        // The endpoint pasted from a curl example (ANTHROPIC_BASE_URL=https://api.anthropic.com/v1/messages):
        // the API answers 404 not_found_error "Not Found", which alone does not say what is wrong.
        byte[] body = "{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"message\":\"Not Found\"}}"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        java.net.http.HttpHeaders none = java.net.http.HttpHeaders.of(java.util.Map.of(), (name, value) -> true);
        ModelException e = new ErrorMapper(java.time.Clock.systemUTC(), "https://api.anthropic.com/v1/messages/")
                .httpError(404, none, "req_1", body);
        assertThat(e.getMessage()).isEqualTo("Not Found (requests go to https://api.anthropic.com/v1/messages/v1/messages:"
                + " leave /v1/messages out of the base URL, Rein adds it)");
    }

    @Test
    void anUnknownHostIsNamedAsSuchNotAsARefusedConnection() {
        // .invalid never resolves (RFC 2606): the JDK reports an UnresolvedAddressException under a ConnectException
        AnthropicModel gateway = AnthropicModel.builder().apiKey("test-key").baseUrl("http://rein-no-such-host.invalid:8080").build();
        ModelException e = catchThrowableOfType(ModelException.class,
                () -> gateway.call(request("hi").build(), ModelCallContext.until(Instant.now().plusSeconds(30))));
        assertThat(e.kind()).isEqualTo(Kind.CONNECTION);
        assertThat(e.getMessage()).startsWith("the connection to the server at http://rein-no-such-host.invalid:8080 failed:"
                + " the host 'rein-no-such-host.invalid' is not known (DNS found no address for it; check the host name and the network)");
        assertThat(e.getMessage()).doesNotContain("nothing accepted a connection");
    }

    @Test
    void anHttpsBaseUrlForAServerThatSpeaksPlainHttpSaysToUseHttpAndIsNotRetried() throws Exception {
        // ANTHROPIC_BASE_URL=https://127.0.0.1:4000 for a local gateway that serves http (the mirror of
        // an http:// URL for an https-only server): it answers the TLS hello in plain HTTP, every time.
        try (java.net.ServerSocket plain = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                while (!plain.isClosed()) {
                    try (java.net.Socket s = plain.accept()) {
                        s.getInputStream().read(new byte[1024]);
                        s.getOutputStream().write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                                .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    } catch (java.io.IOException closed) {
                        return;
                    }
                }
            });
            int port = plain.getLocalPort();
            try (AnthropicModel gateway = AnthropicModel.builder().apiKey("test-key").baseUrl("https://127.0.0.1:" + port + "/anthropic")
                    .build()) {
                ModelException e = catchThrowableOfType(ModelException.class,
                        () -> gateway.call(request("hi").build(), ModelCallContext.until(Instant.now().plusSeconds(30))));
                assertThat(e.kind()).isEqualTo(Kind.CONNECTION);
                assertThat(e.retryable()).as("the same address answers the same way to every attempt").isFalse();
                assertThat(e.getMessage()).startsWith("the connection to the server at https://127.0.0.1:" + port + "/anthropic failed:"
                        + " it does not speak TLS (https) at 127.0.0.1:" + port + ": set the base URL to http://127.0.0.1:" + port
                        + "/anthropic (SSLException: ");
            }
        }
    }

    @Test
    void aRedirectSaysWhereTheServerSendsRequestsAndWhichBaseUrlToSet() throws Exception {
        // ANTHROPIC_BASE_URL=http://... for a server that only speaks https (or moved): it answers 301
        // with a Location, which Rein does not follow (a POST body is not re-sent on a redirect).
        com.sun.net.httpserver.HttpServer proxy = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        proxy.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().set("location", "https://gateway.example.com/anthropic/v1/messages");
            byte[] page = "<html><head><title>301 Moved Permanently</title></head><body>moved</body></html>"
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(301, page.length);
            exchange.getResponseBody().write(page);
            exchange.close();
        });
        proxy.start();
        String base = "http://127.0.0.1:" + proxy.getAddress().getPort();
        try (AnthropicModel moved = AnthropicModel.builder().apiKey("test-key").baseUrl(base).build()) {
            ModelException e = catchThrowableOfType(ModelException.class,
                    () -> moved.call(request("hi").build(), ModelCallContext.until(Instant.now().plusSeconds(30))));
            assertThat(e.httpStatus()).isEqualTo(301);
            assertThat(e.retryable()).isFalse();
            assertThat(e.getMessage()).startsWith("301 Moved Permanently (an HTML page of ")
                    .endsWith(" (the server redirects requests to https://gateway.example.com/anthropic/v1/messages, and Rein"
                            + " does not follow redirects: set the base URL to https://gateway.example.com/anthropic)");
        } finally {
            proxy.stop(0);
        }
    }

    @Test
    void aRedirectWhoseLocationLacksTheEndpointStillNamesTheBaseUrlToSet() {
        // http:// for a server that sends every request to its https:// front page (or a relative
        // location): no /v1/messages to cut at, but the scheme, host and port to use are known.
        byte[] page = "moved".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        ModelException toRoot = new ErrorMapper(java.time.Clock.systemUTC(), "http://gateway.example.com/anthropic")
                .httpError(301, location("https://gateway.example.com/"), null, page);
        assertThat(toRoot.getMessage()).endsWith(" (the server redirects requests to https://gateway.example.com/, and Rein"
                + " does not follow redirects: set the base URL to https://gateway.example.com/anthropic)");

        ModelException otherPort = new ErrorMapper(java.time.Clock.systemUTC(), "http://127.0.0.1:8080")
                .httpError(308, location("https://127.0.0.1:8443"), null, page);
        assertThat(otherPort.getMessage()).endsWith("set the base URL to https://127.0.0.1:8443)");

        ModelException relative = new ErrorMapper(java.time.Clock.systemUTC(), "http://gateway.example.com")
                .httpError(302, location("/anthropic/v1/messages"), null, page);
        assertThat(relative.getMessage()).endsWith(" (the server redirects requests to /anthropic/v1/messages, and Rein"
                + " does not follow redirects: set the base URL to http://gateway.example.com/anthropic)");
    }

    private static java.net.http.HttpHeaders location(String where) {
        return java.net.http.HttpHeaders.of(java.util.Map.of("location", java.util.List.of(where)), (name, value) -> true);
    }

    @Test
    void theRequestIdInTheErrorBodyIsKeptWhenNoHeaderCarriesIt() {
        // The errors page: every error body carries request_id; a proxy may drop the request-id header.
        byte[] body = "{\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"内部エラー\"},\"request_id\":\"req_011CBody\"}"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        java.net.http.HttpHeaders none = java.net.http.HttpHeaders.of(java.util.Map.of(), (name, value) -> true);
        ModelException e = new ErrorMapper(java.time.Clock.systemUTC()).httpError(500, none, null, body);
        assertThat(e.requestId()).isEqualTo("req_011CBody");
        assertThat(e.getMessage()).isEqualTo("内部エラー");
        assertThat(new ErrorMapper(java.time.Clock.systemUTC()).httpError(500, none, "req_header", body).requestId())
                .as("the header wins").isEqualTo("req_header");
    }

    @Test
    void theRequestIdInAnErrorEventOrA200ErrorBodyIsKeptWhenNoHeaderCarriesIt() {
        // The errors page: an error object carries request_id; a proxy may drop the request-id header of the 200.
        JsonNode error = Json.parse("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"過負荷\"},"
                + "\"request_id\":\"req_011CEvent\"}");
        java.net.http.HttpHeaders none = java.net.http.HttpHeaders.of(java.util.Map.of(), (name, value) -> true);
        ErrorMapper errors = new ErrorMapper(java.time.Clock.systemUTC());
        assertThat(errors.streamError(error, none, null).requestId()).isEqualTo("req_011CEvent");
        assertThat(errors.bodyError(error, none, null).requestId()).isEqualTo("req_011CEvent");
        assertThat(errors.streamError(error, none, "req_header").requestId()).as("the header wins").isEqualTo("req_header");
    }

    @Test
    void anInvalidRequestRelayedAfterHttp200GetsTheSameAdviceAsItsHttp400() {
        // A gateway that answers 200 and relays the API's 400 as an error event (or a 200 JSON error body): the same
        // request is refused the same way at every later step, so it says what to change as the 400 would.
        java.net.http.HttpHeaders none = java.net.http.HttpHeaders.of(java.util.Map.of(), (name, value) -> true);
        ErrorMapper errors = new ErrorMapper(java.time.Clock.systemUTC());
        JsonNode tooLong = Json.parse("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":"
                + "\"prompt is too long: 208310 tokens > 200000 maximum\"}}");
        ModelException relayed = errors.streamError(tooLong, none, null);
        assertThat(relayed.kind()).isEqualTo(Kind.INVALID_REQUEST);
        assertThat(relayed.retryable()).isFalse();
        assertThat(relayed.getMessage()).isEqualTo("error event in the response stream (invalid_request_error): prompt is too"
                + " long: 208310 tokens > 200000 maximum (the conversation no longer fits the model's context window: make it"
                + " smaller with a ContextPolicy (tool result clearing or compaction, a lower toolOutputLimit), or leave large"
                + " documents and images out of it)");
        JsonNode signature = Json.parse("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":"
                + "\"messages.1.content.0: Invalid `signature` in `thinking` block\"}}");
        assertThat(errors.bodyError(signature, none, null).getMessage())
                .contains("(the thinking block at messages[1].content[0] of the request carries a signature");
        // Another type keeps the API's words alone.
        JsonNode overloaded = Json.parse("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":"
                + "\"prompt is too long: 208310 tokens > 200000 maximum\"}}");
        assertThat(errors.streamError(overloaded, none, null).getMessage()).endsWith("200000 maximum");
    }

    @Test
    void anHtmlErrorPageFromAProxyIsSummedUpByItsTitleNotPrintedWhole() {
        // The errors page: a 413 comes from Cloudflare before the request reaches the API, so its body need not be the API's JSON
        String page = "<html>\n<head><title>413 Request Entity Too Large</title></head>\n<body>\n"
                + "<center><h1>413 Request Entity Too Large</h1></center>\n<hr><center>cloudflare</center>\n"
                + "<!-- a padding comment -->\n".repeat(200) + "</body>\n</html>\n";
        ModelException e = new ErrorMapper(java.time.Clock.systemUTC()).httpError(413,
                java.net.http.HttpHeaders.of(java.util.Map.of(), (name, value) -> true), null,
                page.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(e.kind()).isEqualTo(Kind.REQUEST_TOO_LARGE);
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).isEqualTo("413 Request Entity Too Large (an HTML page of " + page.strip().length()
                + " characters instead of the API's JSON error) (the Anthropic API takes at most 32 MB per request, and a"
                + " gateway or proxy may take less: make the conversation smaller with a ContextPolicy (a lower"
                + " toolOutputLimit, tool result clearing or compaction), or leave large documents and images out of it)");
    }

    @Test
    void aRequestTooLargeSaysHowLargeItWasAndHowToMakeTheConversationSmaller() {
        // The errors page: request_too_large (413) when a request exceeds 32 MB for the Messages API.
        // The API's words say what happened; the run's message must also say what to do about it.
        ModelException e = failure(FakeReply.error(ApiErrorType.REQUEST_TOO_LARGE));
        assertThat(e.kind()).isEqualTo(Kind.REQUEST_TOO_LARGE);
        assertThat(e.retryable()).isFalse();
        long sent = server.lastRequest().rawBody().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        assertThat(e.getMessage()).startsWith("Request exceeds the maximum allowed number of bytes.")
                .contains("the request was " + sent + " bytes")
                .contains("32 MB")
                .contains("ContextPolicy");
    }

    @Test
    void aModelTheApiDoesNotKnowIsNamedAsSuchWithWhereItsNameIsSet() {
        // The API's 404 for a model name it does not know (a typo, a retired model, 'sonnet4') says only
        // "model: sonnet4": the run's message says what that means and where the name comes from.
        ModelException e = failure(FakeReply.error(ApiErrorType.NOT_FOUND, "model: sonnet4"));
        assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND);
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).isEqualTo("model: sonnet4 (the API knows no model of that name, or this key may not"
                + " use it: check the model name, --model for the rein command (modelName in the library); GET /v1/models"
                + " lists the models the key can use)");
        // Any other 404 keeps the API's words alone.
        assertThat(failure(FakeReply.error(ApiErrorType.NOT_FOUND, "Not Found")).getMessage()).isEqualTo("Not Found");
    }

    @Test
    void aPromptTooLongForTheContextWindowSaysHowToMakeTheConversationSmaller() {
        // The API's 400 when the conversation itself outgrew the model's context window: it only grows,
        // so the run's message must say what to change, as the model_context_window_exceeded ending does.
        ModelException e = failure(FakeReply.error(ApiErrorType.INVALID_REQUEST, "prompt is too long: 208310 tokens > 200000 maximum"));
        assertThat(e.kind()).isEqualTo(Kind.INVALID_REQUEST);
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).isEqualTo("prompt is too long: 208310 tokens > 200000 maximum (the conversation no longer"
                + " fits the model's context window: make it smaller with a ContextPolicy (tool result clearing or compaction,"
                + " a lower toolOutputLimit), or leave large documents and images out of it)");
    }

    @Test
    void anInputAndMaxTokensBeyondTheContextWindowSaysWhichSettingIsTheRuns() {
        ModelException e = failure(FakeReply.error(ApiErrorType.INVALID_REQUEST, "input length and `max_tokens` exceed context"
                + " limit: 195000 + 8192 > 200000, decrease input length or `max_tokens` and try again"));
        assertThat(e.getMessage()).endsWith("and try again (max_tokens is the run's output limit: lower it with"
                + " --max-tokens (maxTokens in the library, max_tokens in a suite file), or make the conversation smaller with a"
                + " ContextPolicy)");
    }

    @Test
    void aMaxTokensAboveTheModelsOutputLimitSaysWhichSettingToLower() {
        ModelException e = failure(FakeReply.error(ApiErrorType.INVALID_REQUEST, "max_tokens: 100000 > 64000, which is the"
                + " maximum allowed number of output tokens for claude-sonnet-4-5-20250929"));
        assertThat(e.getMessage()).endsWith("for claude-sonnet-4-5-20250929 (max_tokens is the run's output limit: lower it to"
                + " 64000 or less with --max-tokens (maxTokens in the library, max_tokens in a suite file))");
        // Any other invalid request keeps the API's words alone.
        ModelException other = failure(FakeReply.error(ApiErrorType.INVALID_REQUEST, "messages.0.content: Field required"));
        assertThat(other.getMessage()).isEqualTo("messages.0.content: Field required");
    }

    @Test
    void aThinkingSignatureTheApiCannotVerifySaysWhyAndWhatToDo() {
        // The API's 400 names a position and nothing else; every later request of the run sends the block again.
        ModelException e = failure(FakeReply.error(ApiErrorType.INVALID_REQUEST,
                "messages.1.content.0: Invalid `signature` in `thinking` block"));
        assertThat(e.kind()).isEqualTo(Kind.INVALID_REQUEST);
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).startsWith("messages.1.content.0: Invalid `signature` in `thinking` block (the thinking"
                        + " block at messages[1].content[0] of the request carries a signature the API cannot verify")
                .contains("changed after the model made it").contains("another provider's Anthropic-compatible endpoint")
                .contains("every later request of the run sends it again")
                .contains("leave that thinking out of the history");
        // The preserved-thinking refusal says its own cause (and the docs name what Rein does about it): left as it is.
        String bound = "messages.1.content.0: Invalid `signature` in `thinking` block. The block is bound to a different"
                + " conversation. Send the conversation back exactly as it was returned.";
        assertThat(failure(FakeReply.error(ApiErrorType.INVALID_REQUEST, bound)).getMessage()).isEqualTo(bound);
    }

    @Test
    void aThinkingSignatureRefusalAGatewayWrapsGetsTheSameAdviceButTheBindingRefusalStillDoesNot() {
        String words = "messages.1.content.0: Invalid `signature` in `thinking` block";
        String advice = " (the thinking block at messages[1].content[0] of the request carries a signature the API cannot verify";
        // Vertex AI behind a proxy nests the API's whole error JSON in its message (Antigravity's 400)
        String nested = "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"" + words
                + "\"},\"request_id\":\"req_vrtx_011CWjiGZLBLG94VPEzcPYbk\"}";
        assertThat(failure(FakeReply.error(ApiErrorType.INVALID_REQUEST, nested)).getMessage()).startsWith(nested + advice);
        // A gateway that puts words of its own (no known prefix) before the API's, and the upstream's JSON after them:
        // only a message that is such JSON is read for it, as JSON further into a message may be quoted (rev20)
        String wrapped = "400: invalid_request_error: " + words + " | Upstream: " + nested;
        assertThat(failure(FakeReply.error(ApiErrorType.INVALID_REQUEST, wrapped)).getMessage()).isEqualTo(wrapped);
        // A gateway whose error object has no message of its own, only the upstream's error nested in it
        java.net.http.HttpHeaders none = java.net.http.HttpHeaders.of(java.util.Map.of(), (name, value) -> true);
        String body = "{\"type\":\"error\",\"error\":{\"type\":\"request_fail\",\"upstream_error\":{\"type\":\"error\",\"error\":"
                + "{\"type\":\"invalid_request_error\",\"message\":\"" + words + "\"},\"request_id\":\"req_011CWk\"}},"
                + "\"request_id\":\"req_011CWk\"}";
        ModelException upstream = new ErrorMapper(java.time.Clock.systemUTC()).httpError(400, none, null,
                body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(upstream.getMessage()).contains(advice).contains("leave that thinking out of the history");
        // Relayed after HTTP 200 with Amazon Bedrock's words before the API's
        JsonNode event = Json.mapper().createObjectNode().set("error", Json.mapper().createObjectNode()
                .put("type", "invalid_request_error").put("message", "The model returned the following errors: " + words));
        assertThat(new ErrorMapper(java.time.Clock.systemUTC()).streamError(event, none, null).getMessage()).contains(advice);
        // The preserved-thinking refusal, wrapped the same ways, still keeps its own words alone
        String bound = words + ". The block is bound to a different conversation. Remove the block, or set"
                + " `thinking.block_binding.prefix_mismatch_behavior` to \"drop_block\".";
        String boundNested = "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"" + bound
                + "\"},\"request_id\":\"req_vrtx_1\"}";
        assertThat(failure(FakeReply.error(ApiErrorType.INVALID_REQUEST, boundNested)).getMessage()).isEqualTo(boundNested);
        assertThat(failure(FakeReply.error(ApiErrorType.INVALID_REQUEST, "The model returned the following errors: " + bound))
                .getMessage()).isEqualTo("The model returned the following errors: " + bound);
        // Other words about a signature are not this refusal
        assertThat(failure(FakeReply.error(ApiErrorType.INVALID_REQUEST, "messages.1.content.0.thinking.signature: Field required"))
                .getMessage()).isEqualTo("messages.1.content.0.thinking.signature: Field required");
    }

    @Test
    void aContextRefusalAGatewayWrapsGetsTheSameAdvice() {
        // Vertex AI behind a proxy nests the API's error JSON in its message; LiteLLM prefixes its own words
        String tooLong = "prompt is too long: 208310 tokens > 200000 maximum";
        String nested = "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"" + tooLong
                + "\"},\"request_id\":\"req_vrtx_011\"}";
        assertThat(failure(FakeReply.error(ApiErrorType.INVALID_REQUEST, nested)).getMessage())
                .isEqualTo(nested + " (the conversation no longer fits the model's context window: make it smaller with a"
                        + " ContextPolicy (tool result clearing or compaction, a lower toolOutputLimit), or leave large"
                        + " documents and images out of it)");
        String prefixed = "litellm.BadRequestError: AnthropicException - " + nested;
        assertThat(failure(FakeReply.error(ApiErrorType.INVALID_REQUEST, prefixed)).getMessage())
                .startsWith(prefixed + " (the conversation no longer fits the model's context window");
        // Amazon Bedrock puts its own words before the API's
        String output = "The model returned the following errors: max_tokens: 100000 > 64000, which is the maximum allowed"
                + " number of output tokens for claude-sonnet-4-5-20250929";
        assertThat(failure(FakeReply.error(ApiErrorType.INVALID_REQUEST, output)).getMessage())
                .isEqualTo(output + " (max_tokens is the run's output limit: lower it to 64000 or less with --max-tokens"
                        + " (maxTokens in the library, max_tokens in a suite file))");
        String both = "The model returned the following errors: input length and `max_tokens` exceed context limit: 195000 +"
                + " 8192 > 200000, decrease input length or `max_tokens` and try again";
        assertThat(failure(FakeReply.error(ApiErrorType.INVALID_REQUEST, both)).getMessage())
                .startsWith(both + " (max_tokens is the run's output limit: lower it with --max-tokens");
        // A gateway's error object without a message of its own, the API's nested in it
        java.net.http.HttpHeaders none = java.net.http.HttpHeaders.of(java.util.Map.of(), (name, value) -> true);
        String body = "{\"type\":\"error\",\"error\":{\"type\":\"request_fail\",\"upstream_error\":{\"type\":\"error\","
                + "\"error\":{\"type\":\"invalid_request_error\",\"message\":\"" + tooLong + "\"}}}}";
        assertThat(new ErrorMapper(java.time.Clock.systemUTC()).httpError(400, none, null,
                body.getBytes(java.nio.charset.StandardCharsets.UTF_8)).getMessage())
                .endsWith(" (the conversation no longer fits the model's context window: make it smaller with a ContextPolicy"
                        + " (tool result clearing or compaction, a lower toolOutputLimit), or leave large documents and images out"
                        + " of it)");
        // Relayed after HTTP 200 with LiteLLM's words before the API's
        JsonNode event = Json.mapper().createObjectNode().set("error", Json.mapper().createObjectNode()
                .put("type", "invalid_request_error")
                .put("message", "litellm.ContextWindowExceededError: AnthropicError - " + tooLong));
        assertThat(new ErrorMapper(java.time.Clock.systemUTC()).streamError(event, none, null).getMessage())
                .contains("(the conversation no longer fits the model's context window");
    }

    @Test
    void aSettingRefusalAGatewayWrapsGetsTheSameAdvice() {
        // Vertex AI behind a proxy nests the API's error JSON in its message, the API's quotes escaped in it
        java.util.function.Function<String, String> nested = words -> "{\"type\":\"error\",\"error\":{\"type\":"
                + "\"invalid_request_error\",\"message\":\"" + words.replace("\"", "\\\"") + "\"},\"request_id\":\"req_vrtx_1\"}";
        String off = "\"thinking.type.disabled\" is not supported for this model. Use \"thinking.type.adaptive\" and"
                + " \"output_config.effort\" to control thinking behavior.";
        assertThat(failure(FakeReply.error(ApiErrorType.INVALID_REQUEST, nested.apply(off))).getMessage())
                .isEqualTo(nested.apply(off) + ErrorMapper.ALWAYS_THINKS_ADVICE);
        String budget = "\"thinking.type.enabled\" is not supported for this model. Use \"thinking.type.adaptive\" and"
                + " \"output_config.effort\" to control thinking behavior.";
        assertThat(failure(FakeReply.error(ApiErrorType.INVALID_REQUEST, "The model returned the following errors: " + budget))
                .getMessage()).isEqualTo("The model returned the following errors: " + budget + ErrorMapper.NO_BUDGET_ADVICE);
        String forced = "tool_choice: type \"tool\" and \"any\" are not supported for this model.";
        assertThat(failure(FakeReply.error(ApiErrorType.INVALID_REQUEST, nested.apply(forced))).getMessage())
                .isEqualTo(nested.apply(forced) + ErrorMapper.NO_FORCED_TOOL_CHOICE_ADVICE);
        String sampling = "top_p: Extra inputs are not permitted";
        assertThat(failure(FakeReply.error(ApiErrorType.INVALID_REQUEST, nested.apply(sampling))).getMessage())
                .isEqualTo(nested.apply(sampling) + ErrorMapper.NO_SAMPLING_ADVICE);
        // A field of that name elsewhere in the request is another refusal
        assertThat(failure(FakeReply.error(ApiErrorType.INVALID_REQUEST, "metadata.top_p: Extra inputs are not permitted"))
                .getMessage()).isEqualTo("metadata.top_p: Extra inputs are not permitted");
    }

    @Test
    void theApisWordsAGatewayQuotesFromTheConversationGetNoAdvice() {
        // A guardrail gateway quotes the text it flagged: a conversation about a failed run holds the API's words, which
        // are not this request's refusal (the reviewer's bodies)
        java.net.http.HttpHeaders none = java.net.http.HttpHeaders.of(java.util.Map.of(), (name, value) -> true);
        String flagged = "{\"error\":{\"type\":\"guardrail_violation\",\"flagged_text\":\"Why did my run fail with 'prompt is too"
                + " long: 208310 tokens > 200000 maximum' \u2026 messages.1.content.0: Invalid `signature` in `thinking` block\"}}";
        ModelException guarded = new ErrorMapper(Clock.systemUTC()).httpError(400, none, null,
                flagged.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(guarded.getMessage()).isEqualTo(flagged);
        String blocked = "Request blocked by content policy: input contained \"temperature: Extra inputs are not permitted\"";
        assertThat(failure(FakeReply.error(ApiErrorType.INVALID_REQUEST, blocked)).getMessage()).isEqualTo(blocked);
        // The same after HTTP 200, and the API's words further into a gateway's message or in a field it echoes
        JsonNode event = Json.mapper().createObjectNode().set("error", Json.mapper().createObjectNode()
                .put("type", "invalid_request_error").put("message", blocked));
        assertThat(new ErrorMapper(Clock.systemUTC()).streamError(event, none, null).getMessage())
                .isEqualTo("error event in the response stream (invalid_request_error): " + blocked);
        String quoted = "Blocked: the prompt repeats \"prompt is too long: 208310 tokens > 200000 maximum\" and"
                + " \"tool_choice: type \\\"tool\\\" and \\\"any\\\" are not supported for this model.\"";
        assertThat(failure(FakeReply.error(ApiErrorType.INVALID_REQUEST, quoted)).getMessage()).isEqualTo(quoted);
        String echoed = "{\"error\":{\"type\":\"guardrail_violation\",\"message\":\"Request blocked\",\"input\":\"max_tokens:"
                + " 100000 > 64000, which is the maximum allowed number of output tokens\",\"prompt\":\"top_k: Extra inputs are"
                + " not permitted\"}}";
        assertThat(new ErrorMapper(Clock.systemUTC()).httpError(400, none, null,
                echoed.getBytes(java.nio.charset.StandardCharsets.UTF_8)).getMessage()).isEqualTo("Request blocked");
        // An error JSON the conversation holds, quoted inside a gateway's own words, is no relayed error (rev20)
        String pasted = "Request blocked by content policy: input contained 'why did my run fail with {\"message\":\"prompt"
                + " is too long: 208310 tokens > 200000 maximum\"}'";
        assertThat(failure(FakeReply.error(ApiErrorType.INVALID_REQUEST, pasted)).getMessage()).isEqualTo(pasted);
    }

    @Test
    void theApisWordsRelayedInTheShapesGatewaysUseGetTheAdvice() {
        java.net.http.HttpHeaders none = java.net.http.HttpHeaders.of(java.util.Map.of(), (name, value) -> true);
        java.util.function.Function<String, String> mapped = body -> new ErrorMapper(Clock.systemUTC()).httpError(400, none,
                null, body.getBytes(java.nio.charset.StandardCharsets.UTF_8)).getMessage();
        String fits = " (the conversation no longer fits the model's context window";
        // Vertex AI behind a proxy (Antigravity): the API's error JSON as the text of a Google error's message
        String vertex = "{\"error\":{\"code\":400,\"message\":\"{\\\"type\\\":\\\"error\\\",\\\"error\\\":{\\\"type\\\":"
                + "\\\"invalid_request_error\\\",\\\"message\\\":\\\"prompt is too long: 208310 tokens > 200000 maximum\\\"}}\","
                + "\"status\":\"INVALID_ARGUMENT\"}}";
        assertThat(mapped.apply(vertex)).contains(fits);
        // LiteLLM's proxy: its exception's words, the API's JSON, then its own text after it
        String litellm = "{\"error\":{\"message\":\"litellm.BadRequestError: litellm.ContextWindowExceededError: AnthropicError"
                + " - {\\\"type\\\":\\\"error\\\",\\\"error\\\":{\\\"type\\\":\\\"invalid_request_error\\\",\\\"message\\\":"
                + "\\\"prompt is too long: 209303 tokens > 200000 maximum\\\"}}\\nReceived Model Group=claude\",\"type\":null,"
                + "\"code\":\"400\"}}";
        assertThat(mapped.apply(litellm)).contains(fits);
        // Amazon Bedrock's own body, and a relay that prints the upstream's JSON as Python bytes (not JSON as it stands)
        assertThat(mapped.apply("{\"message\":\"The model returned the following errors: top_k: Extra inputs are not"
                + " permitted\"}")).endsWith(ErrorMapper.NO_SAMPLING_ADVICE);
        String bytes = "{\"error\":{\"type\":\"upstream_error\",\"message\":\"b'{\\\\n  \\\"error\\\": {\\\\n    \\\"message\\\":"
                + " \\\"prompt is too long: 208310 tokens > 200000 maximum\\\"\\\\n  }\\\\n}'\"}}";
        assertThat(mapped.apply(bytes)).contains(fits);
        // A proxy built on FastAPI relays the upstream's words as its 'detail' (rev20: they got the advice before 6471dfcc)
        assertThat(mapped.apply("{\"detail\":\"prompt is too long: 208310 tokens > 200000 maximum\"}")).contains(fits);
        // A body that is not JSON is the gateway's message
        assertThat(mapped.apply("litellm.BadRequestError: AnthropicException - prompt is too long: 208310 tokens > 200000"
                + " maximum")).contains(fits);
    }

    @Test
    void anErrorAfterHttp200WithoutAMessageOfItsOwnShowsWhatItHoldsInstead() {
        // A gateway that nests the upstream's error in its own error object, with no message of its own, relays it after
        // its HTTP 200: the upstream's words are the only account of the failure, as in the body of an HTTP error.
        java.net.http.HttpHeaders none = java.net.http.HttpHeaders.of(java.util.Map.of(), (name, value) -> true);
        ErrorMapper errors = new ErrorMapper(java.time.Clock.systemUTC());
        JsonNode nested = Json.parse("{\"type\":\"error\",\"error\":{\"type\":\"request_fail\",\"upstream_error\":{\"type\":"
                + "\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}}}");
        assertThat(errors.streamError(nested, none, null).getMessage()).isEqualTo("error event in the response stream"
                + " (request_fail): " + nested);
        JsonNode invalid = Json.parse("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"upstream_error\":"
                + "{\"message\":\"prompt is too long: 208310 tokens > 200000 maximum\"}}}");
        assertThat(errors.bodyError(invalid, none, null).getMessage()).startsWith("error object in the HTTP 200 response body"
                + " (invalid_request_error): " + invalid + " (the conversation no longer fits the model's context window");
        // An error given as text alone is its message
        assertThat(errors.streamError(Json.parse("{\"type\":\"error\",\"error\":\"upstream timeout\"}"), none, null)
                .getMessage()).isEqualTo("error event in the response stream (no type): upstream timeout");
        // An error object of its type alone still says it has no message
        JsonNode bare = Json.parse("{\"type\":\"error\",\"error\":{\"type\":\"api_error\"}}");
        assertThat(errors.streamError(bare, none, null).getMessage())
                .isEqualTo("error event in the response stream (api_error): no message");
    }

    @Test
    void aLongPlainTextErrorBodyIsShownOnOneLineAndShortened() {
        String body = "upstream connect error or disconnect/reset before headers.\n" + "x".repeat(2_000);
        ModelException e = new ErrorMapper(java.time.Clock.systemUTC()).httpError(503,
                java.net.http.HttpHeaders.of(java.util.Map.of(), (name, value) -> true), null,
                body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(e.getMessage()).startsWith("upstream connect error or disconnect/reset before headers. xxx")
                .endsWith("… (+1559 characters)")
                .doesNotContain("\n");
        // A short one is kept as it is
        ModelException shortOne = new ErrorMapper(java.time.Clock.systemUTC()).httpError(502,
                java.net.http.HttpHeaders.of(java.util.Map.of(), (name, value) -> true), null,
                "Bad Gateway".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(shortOne.getMessage()).isEqualTo("Bad Gateway");
    }

    @Test
    void aReachedMonthlySpendLimitIsNotRetried() {
        // A 429 whose error.details.error_code is enforced_spend_limit_reached: retries fail until next month.
        ModelException e = failure(FakeReply.spendLimitReached());
        assertThat(e.kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(e.httpStatus()).isEqualTo(429);
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).contains("usage limits");
    }

    @ParameterizedTest
    @CsvSource({"contract_spend_limit_reached", "linked_organization_spend_limit_reached"})
    void aReachedContractOrLinkedOrganizationSpendLimitIsNotRetriedEither(String errorCode) {
        // The SDKs' ContractSpendLimitReachedError is a RateLimitError (429): like the monthly cap, a
        // spend limit holds until someone raises it, so every retry would fail the same way.
        ModelException e = failure(new FakeReply.HttpError(429, "rate_limit_error",
                "Your organization has reached the spend limit of its contract.", java.util.Map.of(), errorCode));
        assertThat(e.kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).startsWith("Your organization has reached the spend limit of its contract.");
    }

    @Test
    void anOrdinaryRateLimitWithAnotherErrorCodeIsStillRetried() {
        // ramp_limit_exceeded caps how fast usage grows: the SDKs' docs say to retry after retry-after.
        ModelException e = failure(new FakeReply.HttpError(429, "rate_limit_error", "Ramp limit exceeded.",
                java.util.Map.of("retry-after", "2"), "ramp_limit_exceeded"));
        assertThat(e.retryable()).isTrue();
        assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void retryAfterSecondsIsHonoured() {
        ModelException e = failure(FakeReply.rateLimited(Duration.ofSeconds(7)));
        assertThat(e.kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void retryAfterMsWinsOverRetryAfter() {
        ModelException e = failure(FakeReply.error(ApiErrorType.RATE_LIMIT)
                .withHeader("retry-after", "30").withHeader("retry-after-ms", "1500.5"));
        assertThat(e.retryAfter()).isEqualTo(Duration.ofNanos(1_500_500_000));
    }

    @Test
    void retryAfterAsAnHttpDateIsMeasuredFromNow() {
        Instant now = Instant.parse("2026-12-01T10:00:00Z");
        model.close();
        model = AnthropicModel.builder().apiKey("k").baseUrl(server.baseUrl()).clock(Clock.fixed(now, ZoneOffset.UTC)).build();
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.ofInstant(now.plusSeconds(42), ZoneOffset.UTC));
        ModelException e = failure(FakeReply.overloaded().withHeader("retry-after", date));
        assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(42));
    }

    @Test
    void a429WithoutRetryAfterWaitsForTheRateLimitThatRanOutToReset() {
        // The API's rate-limit headers (RFC 3339 times): a proxy that drops retry-after may keep them.
        Instant now = Instant.parse("2026-12-01T10:00:00Z");
        model.close();
        model = AnthropicModel.builder().apiKey("k").baseUrl(server.baseUrl()).clock(Clock.fixed(now, ZoneOffset.UTC)).build();
        ModelException tokens = failure(FakeReply.error(ApiErrorType.RATE_LIMIT)
                .withHeader("anthropic-ratelimit-requests-remaining", "49")
                .withHeader("anthropic-ratelimit-requests-reset", "2026-12-01T10:00:01Z")
                .withHeader("anthropic-ratelimit-input-tokens-remaining", "0")
                .withHeader("anthropic-ratelimit-input-tokens-reset", "2026-12-01T10:00:12Z")
                .withHeader("anthropic-ratelimit-output-tokens-remaining", "0")
                .withHeader("anthropic-ratelimit-output-tokens-reset", "2026-12-01T10:00:07.5Z"));
        assertThat(tokens.retryable()).isTrue();
        assertThat(tokens.retryAfter()).as("the later of the limits that ran out").isEqualTo(Duration.ofSeconds(12));

        ModelException requests = failure(FakeReply.error(ApiErrorType.RATE_LIMIT)
                .withHeader("anthropic-ratelimit-requests-remaining", "0")
                .withHeader("anthropic-ratelimit-requests-reset", "2026-12-01T19:00:03+09:00"));
        assertThat(requests.retryAfter()).as("an offset other than Z").isEqualTo(Duration.ofSeconds(3));

        ModelException retryAfterWins = failure(FakeReply.error(ApiErrorType.RATE_LIMIT).withHeader("retry-after", "4")
                .withHeader("anthropic-ratelimit-tokens-remaining", "0")
                .withHeader("anthropic-ratelimit-tokens-reset", "2026-12-01T10:00:30Z"));
        assertThat(retryAfterWins.retryAfter()).isEqualTo(Duration.ofSeconds(4));

        ModelException noneRanOut = failure(FakeReply.error(ApiErrorType.RATE_LIMIT)
                .withHeader("anthropic-ratelimit-tokens-remaining", "1200")
                .withHeader("anthropic-ratelimit-tokens-reset", "2026-12-01T10:00:30Z"));
        assertThat(noneRanOut.retryAfter()).as("the headers do not say what the 429 waits for: the backoff applies").isNull();

        ModelException farOff = failure(FakeReply.error(ApiErrorType.RATE_LIMIT)
                .withHeader("anthropic-ratelimit-tokens-remaining", "0")
                .withHeader("anthropic-ratelimit-tokens-reset", "2026-12-01T10:05:00Z"));
        assertThat(farOff.retryAfter()).as("a full reset minutes away is no hint: the backoff applies").isNull();
        assertThat(farOff.retryable()).isTrue();
    }

    @Test
    void xShouldRetryOverridesTheDefaultBothWaysLikeTheOfficialSdks() {
        ModelException notRetried = failure(FakeReply.overloaded().withHeader("x-should-retry", "false"));
        assertThat(notRetried.kind()).isEqualTo(Kind.OVERLOADED);
        assertThat(notRetried.retryable()).isFalse();

        ModelException retried = failure(FakeReply.error(422, "invalid_request_error", "try later").withHeader("x-should-retry", "true"));
        assertThat(retried.retryable()).isTrue();

        for (ApiErrorType type : new ApiErrorType[] {ApiErrorType.INVALID_REQUEST, ApiErrorType.AUTHENTICATION,
                ApiErrorType.PERMISSION, ApiErrorType.NOT_FOUND, ApiErrorType.REQUEST_TOO_LARGE}) {
            assertThat(failure(FakeReply.error(type)).retryable()).as(type.name() + " without the header").isFalse();
            ModelException told = failure(FakeReply.error(type).withHeader("x-should-retry", "true"));
            assertThat(told.retryable()).as(type.name() + " with x-should-retry: true").isTrue();
        }
    }

    @Test
    void anErrorEventAfterHttp200IsAnErrorResponse() {
        server.enqueue(FakeReply.overloadedMidStream());
        ModelException e = catchThrowableOfType(ModelException.class, () -> call(request("hi")));
        assertThat(e.kind()).isEqualTo(Kind.OVERLOADED);
        assertThat(e.retryable()).isTrue();
        assertThat(e.httpStatus()).as("the HTTP exchange itself succeeded").isZero();
        assertThat(e.getMessage()).contains("overloaded_error").contains("Overloaded");
        assertThat(e.requestId()).startsWith("req_fake_");
        assertThat(stream.text()).as("the deltas before the error were still forwarded").isNotEmpty();
    }

    @Test
    void aFailureAfterMessageStartSaysTheUsageItReportedWhichTheBudgetsDoNotCount() {
        // message_start reports the input (its output_tokens is a placeholder); an error event after it fails the
        // call, and a failure charges the run nothing, so the message is where the reported tokens show.
        String stream = new Sse().messageStart("{\"input_tokens\":120,\"cache_read_input_tokens\":1000,"
                        + "\"cache_creation_input_tokens\":300,\"output_tokens\":1}")
                .block(0, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"par\"}")
                .build()
                + "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
        ModelException e = failure(FakeReply.malformed(stream));

        assertThat(e.kind()).isEqualTo(Kind.OVERLOADED);
        assertThat(e.retryable()).isTrue();
        assertThat(e.requestId()).startsWith("req_fake_");
        assertThat(e.getMessage()).startsWith("error event in the response stream (overloaded_error): Overloaded; the server at "
                        + server.baseUrl().replaceAll("/$", "") + " reported usage for it (1420 input tokens, 1000 of them read"
                        + " from the cache and 300 written to it; no output count came before the failure), which the run's"
                        + " token and money budgets do not count, as a failed call charges nothing");
        // and as data, for the trace and telemetry: the counts as reported, the output (never reported) an estimate
        assertThat(e.reportedUsage()).hasValueSatisfying(usage -> {
            assertThat(usage.inputTokens()).isEqualTo(120);
            assertThat(usage.cacheReadInputTokens()).isEqualTo(1000);
            assertThat(usage.cacheWriteInputTokens()).isEqualTo(300);
            assertThat(usage.totalInputTokens()).isEqualTo(1420);
            assertThat(usage.outputTokens()).as("the text that came, estimated").isPositive();
            assertThat(usage.estimated()).isTrue();
        });
    }

    /**
     * A compacting call's usage.iterations add the compaction's own sampling to what the request was billed: the usage
     * the failure carries counted it, but its message said only the top-level counts (23,000 input tokens where the
     * data said 203,000).
     */
    @Test
    void aStreamCutAfterACompactionsUsageSaysTheSameCountsItCarries() {
        String cut = new Sse().messageStart("{\"input_tokens\":23000,\"output_tokens\":1}")
                .block(0, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"ok\"}")
                .build()
                + "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\","
                + "\"stop_sequence\":null},\"usage\":{\"input_tokens\":23000,\"output_tokens\":1000,\"iterations\":["
                + "{\"type\":\"compaction\",\"input_tokens\":180000,\"output_tokens\":3500,\"cache_read_input_tokens\":1000},"
                + "{\"type\":\"message\",\"input_tokens\":23000,\"output_tokens\":1000}]}}\n\n";
        ModelException e = failure(FakeReply.malformed(cut));

        assertThat(e.reportedUsage()).contains(Usage.of(203_000, 4_500, 1_000, 0));
        assertThat(e.getMessage()).contains("reported usage for it (204000 input tokens, 1000 of them read from the cache,"
                + " and 4500 output tokens)");
    }

    @Test
    void aStreamCutAfterMessageDeltaSaysItsCumulativeUsageToo() {
        // message_delta's counts are cumulative: its output_tokens is the output the call reported.
        String cut = new Sse().messageStart("{\"input_tokens\":50,\"output_tokens\":1}")
                .block(0, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"done\"}")
                .build()
                + "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\","
                + "\"stop_sequence\":null},\"usage\":{\"output_tokens\":42}}\n\n";
        ModelException e = failure(FakeReply.malformed(cut));

        assertThat(e.kind()).isEqualTo(Kind.CONNECTION);
        assertThat(e.retryable()).isTrue();
        assertThat(e.getMessage()).contains("ended before message_stop")
                .contains("reported usage for it (50 input tokens and 42 output tokens), which the run's token and money"
                        + " budgets do not count");
        assertThat(e.reportedUsage()).contains(Usage.of(50, 42, 0, 0));
    }

    @Test
    void aFailureBeforeMessageStartSaysNoUsage() {
        ModelException e = failure(FakeReply.malformed("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":"
                + "\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"));
        assertThat(e.kind()).isEqualTo(Kind.OVERLOADED);
        assertThat(e.getMessage()).isEqualTo("error event in the response stream (overloaded_error): Overloaded");
        assertThat(e.reportedUsage()).isEmpty();
    }

    @Test
    void anInvalidRequestErrorEventIsNotRetryable() {
        ModelException e = failure(FakeReply.streamError(FakeReply.text("x"), 1, ApiErrorType.INVALID_REQUEST));
        assertThat(e.kind()).isEqualTo(Kind.INVALID_REQUEST);
        assertThat(e.retryable()).isFalse();
    }

    @Test
    void aSpendLimitReachedInAnErrorEventIsNotRetriedEither() {
        // The same error object after HTTP 200 (an event in a stream, as a gateway may relay it) means the
        // same thing as with a 429: every retry would meet the limit again.
        String stream = new Sse().messageStart("{\"input_tokens\":1,\"output_tokens\":1}").build()
                + "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"You have"
                + " reached your API usage limits.\",\"details\":{\"error_code\":\"enforced_spend_limit_reached\"}}}\n\n";
        ModelException e = failure(FakeReply.malformed(stream));
        assertThat(e.kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).contains("You have reached your API usage limits.");
    }

    @Test
    void aConnectionDroppedBeforeAnyByteIsARetryableConnectionError() {
        ModelException e = failure(FakeReply.disconnect());
        assertThat(e.kind()).isEqualTo(Kind.CONNECTION);
        assertThat(e.retryable()).isTrue();
        assertThat(e.httpStatus()).isZero();
    }

    @Test
    void aConnectionDroppedMidStreamIsARetryableConnectionError() {
        ModelException e = failure(FakeReply.disconnectMidStream(FakeReply.text("a long answer that is cut"), 4));
        assertThat(e.kind()).isEqualTo(Kind.CONNECTION);
        assertThat(e.retryable()).isTrue();
        assertThat(e.requestId()).as("the request-id header came with the 200").startsWith("req_fake_");
        // message_start came before the cut: the input it reported is on the failure, its output an estimate
        assertThat(e.getMessage()).contains("reported usage for it");
        assertThat(e.reportedUsage()).hasValueSatisfying(usage -> assertThat(usage.estimated()).isTrue());
    }

    @Test
    void aStreamThatEndsWithoutMessageStopIsARetryableConnectionError() {
        String truncated = new Sse().messageStart("{\"input_tokens\":1,\"output_tokens\":1}")
                .block(0, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"par\"}")
                .build();
        ModelException e = failure(FakeReply.malformed(truncated));
        assertThat(e.kind()).isEqualTo(Kind.CONNECTION);
        assertThat(e.retryable()).isTrue();
        assertThat(e.getMessage()).contains("message_stop");
        assertThat(e.requestId()).startsWith("req_fake_");
    }

    @Test
    void anEventCutOffByTheEndOfTheStreamIsDroppedAsTheSseStandardSays() {
        // The body ends inside an event, before the blank line that would dispatch it.
        String cut = new Sse().messageStart("{\"input_tokens\":1,\"output_tokens\":1}")
                .block(0, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"par\"}")
                .build() + "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_re";
        ModelException e = failure(FakeReply.malformed(cut));
        assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.CONNECTION); // a cut stream, not a malformed event
        assertThat(e.retryable()).isTrue();
        assertThat(e.getMessage()).contains("message_stop");
        assertThat(e.requestId()).startsWith("req_fake_");
    }

    @Test
    void aMalformedBodyIsAMalformedResponseAndNotRetried() {
        ModelException e = failure(FakeReply.malformed());
        assertThat(e.kind()).isEqualTo(Kind.MALFORMED_RESPONSE);
        assertThat(e.retryable()).isFalse();
    }

    @Test
    void aBodyThatIsNotAnEventStreamIsMalformed() {
        server.enqueue(FakeReply.malformed("<html>Bad gateway</html>"));
        ModelException e = catchThrowableOfType(ModelException.class, () -> call(request("hi")));
        assertThat(e.kind()).isEqualTo(Kind.MALFORMED_RESPONSE);
        assertThat(e.retryable()).isFalse();
    }

    @Test
    void missingCredentialsAreAnAuthenticationErrorFromTheServer() throws Exception {
        server.enqueue(FakeReply.error(ApiErrorType.AUTHENTICATION, "invalid x-api-key"));
        ModelException e = catchThrowableOfType(ModelException.class, () -> call(request("hi")));
        assertThat(e.kind()).isEqualTo(Kind.AUTHENTICATION);
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).isEqualTo("invalid x-api-key");
    }

    @Test
    void aRequestSentWithoutAnyCredentialSaysWhereToSetTheKey() throws Exception {
        // No key and no token anywhere (a library user who did not set ANTHROPIC_API_KEY): the API's
        // 401 names its header, not where Rein reads the key from.
        model.close();
        model = AnthropicModel.builder().apiKey(null).authToken(null).baseUrl(server.baseUrl()).build();
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv("ANTHROPIC_API_KEY") == null
                && System.getenv("ANTHROPIC_AUTH_TOKEN") == null, "a credential in the environment");
        ModelException e = catchThrowableOfType(ModelException.class, () -> call(request("hi")));
        assertThat(e.kind()).isEqualTo(Kind.AUTHENTICATION);
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).isEqualTo("x-api-key header is required (no API key was sent: set ANTHROPIC_API_KEY,"
                + " or give one with AnthropicModel.builder().apiKey(...); for a gateway that takes a bearer token,"
                + " ANTHROPIC_AUTH_TOKEN or authToken(...))");

        // With a key, a 401 is the API's word alone: the key was sent, and refused.
        server.enqueue(FakeReply.error(ApiErrorType.AUTHENTICATION, "invalid x-api-key"));
        try (AnthropicModel keyed = AnthropicModel.builder().apiKey("sk-wrong").baseUrl(server.baseUrl()).build()) {
            ModelException refused = catchThrowableOfType(ModelException.class, () -> keyed.call(request("hi").build(),
                    new dev.rein.model.ModelCallContext(Instant.now().plusSeconds(30), stream)));
            assertThat(refused.getMessage()).isEqualTo("invalid x-api-key");
        }
    }

    @Test
    void interruptingTheCallerAbortsAHangingCallPromptly() throws Exception {
        server.enqueue(FakeReply.hang());
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        // A platform thread on purpose: the abort must not depend on the caller being virtual.
        Thread caller = new Thread(() -> {
            try {
                model.call(request("hi").build(), ModelCallContext.until(Instant.now().plusSeconds(60)));
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        });
        caller.start();
        server.takeRequest();
        caller.interrupt();
        Throwable thrown = outcome.get(10, TimeUnit.SECONDS);
        assertThat(thrown).isInstanceOf(InterruptedException.class);
        caller.join(5000);
        assertThat(caller.isAlive()).isFalse();
        assertThat(workerEnds()).as("the HTTP exchange itself was aborted, not left running").isTrue();
    }

    /** Whether the model holds no open exchange within a few seconds. */
    private boolean workerEnds() throws Exception {
        for (int i = 0; i < 50; i++) {
            if (model.transport().openExchanges() == 0) {
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }

    @Test
    void interruptingTheCallerAbortsAStreamInProgress() throws Exception {
        server.enqueue(FakeReply.delayed(Duration.ofSeconds(30), FakeReply.text("too late")));
        Throwable thrown = Interrupting.interruptOnceReached(() -> call(request("hi")), server::takeRequest, Duration.ofSeconds(10));
        assertThat(thrown).isInstanceOf(InterruptedException.class);
    }

    @Test
    void countTokensFailuresAreMappedToo() {
        server.enqueueCountTokens(FakeReply.overloaded());
        ModelException e = catchThrowableOfType(ModelException.class, () -> model.countTokens(request("hi").build()));
        assertThat(e.kind()).isEqualTo(Kind.OVERLOADED);
        assertThat(e.retryable()).isTrue();
    }

    @Test
    void aGatewaysErrorFromTheProviderBehindItSaysWhatThatProviderSaid() {
        // OpenRouter (its Anthropic-compatible endpoint too) puts the upstream provider's error in error.metadata.raw, a
        // string that is often the provider's JSON, under its own message 'Provider returned error' (its errors page).
        java.net.http.HttpHeaders none = java.net.http.HttpHeaders.of(java.util.Map.of(), (name, value) -> true);
        ErrorMapper mapper = new ErrorMapper(java.time.Clock.systemUTC(), "https://openrouter.ai/api");
        String tooLong = "prompt is too long: 208310 tokens > 200000 maximum";
        String raw = "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"" + tooLong + "\"}}";
        String body = Json.mapper().createObjectNode().set("error", Json.mapper().createObjectNode()
                .put("message", "Provider returned error").put("code", 400).set("metadata", Json.mapper().createObjectNode()
                        .put("raw", raw).put("provider_name", "Anthropic"))).toString();
        ModelException refused = mapper.httpError(400, none, null, body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        // what the provider said, and the advice its words get when the API's 400 comes directly
        assertThat(refused.getMessage()).startsWith("Provider returned error (Anthropic: " + raw + ")")
                .contains("(the conversation no longer fits the model's context window");
        assertThat(refused.retryable()).isFalse();

        // After HTTP 200, as an error event; its control characters escaped, its white space on one line
        com.fasterxml.jackson.databind.node.ObjectNode event = Json.mapper().createObjectNode();
        event.put("type", "error").set("error", Json.mapper().createObjectNode().put("message", "Provider returned error")
                .put("code", 502).set("metadata", Json.mapper().createObjectNode()
                        .put("raw", "upstream\n  overloaded \u001b[2J\u202e").put("provider_name", "Example")));
        assertThat(mapper.streamError(event, none, null).getMessage())
                .contains("Provider returned error (Example: upstream overloaded \\x1b[2J\\u202e)");

        // A long one is cut, saying so
        String longRaw = "x".repeat(1500);
        String longBody = Json.mapper().createObjectNode().set("error", Json.mapper().createObjectNode()
                .put("message", "Provider returned error").put("code", 502).set("metadata", Json.mapper().createObjectNode()
                        .put("raw", longRaw).put("provider_name", "Example"))).toString();
        assertThat(mapper.httpError(502, none, null, longBody.getBytes(java.nio.charset.StandardCharsets.UTF_8)).getMessage())
                .contains("(Example: " + "x".repeat(1000) + "... (1500 characters, cut to 1000))");
    }

    @Test
    void aGatewaysErrorEventIsClassifiedByItsCodeAsItsHttpErrorWouldBe() {
        // OpenRouter's errors page: after HTTP 200 an error is sent in the stream as {error: {code, message, metadata}},
        // code being the status its HTTP error would carry (402: out of credits, 401: a bad key, ...), no Anthropic type.
        java.net.http.HttpHeaders none = java.net.http.HttpHeaders.of(java.util.Map.of(), (name, value) -> true);
        ErrorMapper mapper = new ErrorMapper(java.time.Clock.systemUTC(), "https://openrouter.ai/api");
        java.util.function.Function<Object, JsonNode> event = code -> Json.parse("{\"type\":\"error\",\"error\":{\"code\":"
                + (code instanceof String text ? "\"" + text + "\"" : code) + ",\"message\":\"Insufficient credits\"}}");
        ModelException credits = mapper.streamError(event.apply(402), none, null);
        assertThat(credits.kind()).isEqualTo(Kind.OTHER);
        assertThat(credits.retryable()).as("a retry meets the same empty account").isFalse();
        assertThat(credits.getMessage()).isEqualTo("error event in the response stream (code 402): Insufficient credits");
        assertThat(mapper.bodyError(event.apply(401), none, null).kind()).isEqualTo(Kind.AUTHENTICATION);
        assertThat(mapper.streamError(event.apply(403), none, null).retryable()).isFalse();
        assertThat(mapper.streamError(event.apply("400"), none, null).kind()).isEqualTo(Kind.INVALID_REQUEST);
        ModelException limited = mapper.streamError(event.apply(429), none, null);
        assertThat(limited.kind()).isEqualTo(Kind.RATE_LIMITED);
        assertThat(limited.retryable()).isTrue();
        assertThat(mapper.streamError(event.apply(408), none, null).kind()).isEqualTo(Kind.TIMEOUT);
        ModelException down = mapper.streamError(event.apply(502), none, null);
        assertThat(down.kind()).isEqualTo(Kind.SERVER_ERROR);
        assertThat(down.retryable()).isTrue();
        // A relayed 400 gets its advice
        JsonNode tooLong = Json.parse("{\"type\":\"error\",\"error\":{\"code\":400,\"message\":"
                + "\"prompt is too long: 208310 tokens > 200000 maximum\"}}");
        assertThat(mapper.streamError(tooLong, none, null).getMessage())
                .contains("(the conversation no longer fits the model's context window");
        // The API's own type still decides, and a code that is no status is no status
        JsonNode typed = Json.parse("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"code\":402,"
                + "\"message\":\"Overloaded\"}}");
        assertThat(mapper.streamError(typed, none, null).kind()).isEqualTo(Kind.OVERLOADED);
        assertThat(mapper.streamError(event.apply("server_busy"), none, null).kind()).isEqualTo(Kind.SERVER_ERROR);
    }

    @Test
    void aGatewaysErrorEventWithATypeOfItsOwnIsClassifiedByItsCode() {
        // A gateway's error may carry a type of its own beside the status code ({"type": "provider_error", "code": 402});
        // the type says nothing Rein knows, the code does: classified as its HTTP error would be.
        java.net.http.HttpHeaders none = java.net.http.HttpHeaders.of(java.util.Map.of(), (name, value) -> true);
        ErrorMapper mapper = new ErrorMapper(java.time.Clock.systemUTC(), "https://gateway.example/api");
        java.util.function.BiFunction<String, Object, JsonNode> event = (type, code) -> Json.parse("{\"type\":\"error\","
                + "\"error\":{\"type\":\"" + type + "\",\"code\":" + (code instanceof String text ? "\"" + text + "\"" : code)
                + ",\"message\":\"Insufficient credits\"}}");
        ModelException credits = mapper.streamError(event.apply("provider_error", 402), none, null);
        assertThat(credits.kind()).isEqualTo(Kind.OTHER);
        assertThat(credits.retryable()).as("a retry meets the same empty account").isFalse();
        assertThat(credits.getMessage())
                .isEqualTo("error event in the response stream (provider_error, code 402): Insufficient credits");
        assertThat(mapper.bodyError(event.apply("gateway_error", "401"), none, null).kind()).isEqualTo(Kind.AUTHENTICATION);
        assertThat(mapper.streamError(event.apply("upstream_error", 429), none, null).kind()).isEqualTo(Kind.RATE_LIMITED);
        // The API's own types still decide, api_error too; an unknown type with no status for a code is a server error
        assertThat(mapper.streamError(event.apply("api_error", 402), none, null).kind()).isEqualTo(Kind.SERVER_ERROR);
        assertThat(mapper.streamError(event.apply("billing_error", 429), none, null).kind()).isEqualTo(Kind.OTHER);
        ModelException busy = mapper.streamError(event.apply("provider_error", "busy"), none, null);
        assertThat(busy.kind()).isEqualTo(Kind.SERVER_ERROR);
        assertThat(busy.getMessage()).startsWith("error event in the response stream (provider_error): ");
    }
}
