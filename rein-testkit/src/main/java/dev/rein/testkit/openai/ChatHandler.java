package dev.rein.testkit.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.rein.testkit.RecordedRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The HTTP entry point: records each request, routes and validates it, and carries out the next
 * scripted reply as JSON, as a chunk stream or as a failure.
 */
final class ChatHandler implements HttpHandler {
    static final String PATH = "/v1/chat/completions";

    /** What answering one request needs to know about it. */
    private record Call(RecordedRequest request, String requestId, String completionId, boolean reportsUsage) {
        boolean stream() {
            return request.isStream();
        }

        boolean includeUsage() {
            return reportsUsage && request.body().path("stream_options").path("include_usage").asBoolean(false);
        }

        String model() {
            return request.model().orElse("gpt-fake");
        }
    }

    /** Thrown to make the JDK server drop the connection without completing the response. */
    static final class ConnectionDrop extends RuntimeException {
        ConnectionDrop() {
            super("connection dropped by script", null, false, false);
        }
    }

    private final FakeChatCompletionsServer server;

    ChatHandler(FakeChatCompletionsServer server) {
        this.server = server;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        byte[] raw;
        try (InputStream in = exchange.getRequestBody()) {
            raw = in.readAllBytes();
        }
        RecordedRequest request = record(exchange, raw);
        server.record(request);
        Call call = new Call(request, server.nextRequestId(), server.nextCompletionId(), server.reportsUsage());
        if (!request.method().equals("POST") || !request.path().equals(PATH)) {
            json(exchange, call, 404, ChatEncoder.errorBody("invalid_request_error", "unknown_url",
                    "Unknown request URL: " + request.method() + " " + request.path()
                            + ". Please check the URL for typos, or see the docs at https://platform.openai.com/docs/api-reference/.",
                    null), Map.of());
            return;
        }
        String key = server.requiredApiKey();
        if (key != null && !("Bearer " + key).equals(request.header("authorization"))) {
            // The public API's two 401 bodies: no key at all has no code; a wrong one is named, masked.
            String sent = bearerKey(request.header("authorization"));
            ObjectNode error = sent == null
                    ? ChatEncoder.errorBody("invalid_request_error", null, "You didn't provide an API key. You need to"
                    + " provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer"
                    + " YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your"
                    + " browser and are prompted for a username and password. You can obtain an API key from"
                    + " https://platform.openai.com/account/api-keys.", null)
                    : ChatEncoder.errorBody("invalid_request_error", "invalid_api_key", "Incorrect API key provided: "
                    + masked(sent) + ". You can find your API key at https://platform.openai.com/account/api-keys.", null);
            json(exchange, call, 401, error, Map.of());
            return;
        }
        if (server.validatesRequests()) {
            // A rejected request consumes no reply, as the real API rejects it before generating one.
            Optional<ChatRequestValidator.Violation> violation = ChatRequestValidator.validate(request);
            if (violation.isPresent()) {
                ChatRequestValidator.Violation v = violation.get();
                json(exchange, call, 400, ChatEncoder.errorBody("invalid_request_error", v.code(), v.message(), v.param()),
                        Map.of());
                return;
            }
        }
        ChatReply reply = server.nextReply();
        if (reply == null) {
            json(exchange, call, 500, ChatEncoder.errorBody("server_error", null, "FakeChatCompletionsServer: script"
                    + " exhausted: no reply queued for request " + call.requestId() + " (POST " + PATH + ")", null),
                    Map.of("x-should-retry", "false"));
            return;
        }
        answer(exchange, call, reply);
    }

    private void answer(HttpExchange exchange, Call call, ChatReply reply) throws IOException {
        switch (reply) {
            case ChatReply.Completion completion -> completion(exchange, call, completion, true);
            case ChatReply.NoDone noDone -> completion(exchange, call, noDone.completion(), false);
            case ChatReply.HttpError error -> error(exchange, call, error);
            case ChatReply.StreamError error -> streamError(exchange, call, error);
            case ChatReply.Disconnect disconnect -> disconnect(exchange, call, disconnect);
            case ChatReply.Malformed malformed -> malformed(exchange, call, malformed);
            case ChatReply.Delayed delayed -> {
                server.waitOrDrop(delayed.delay());
                answer(exchange, call, delayed.reply());
            }
            case ChatReply.Hang hang -> {
                server.waitOrDrop(null);
                throw new ConnectionDrop();
            }
        }
    }

    private void completion(HttpExchange exchange, Call call, ChatReply.Completion completion, boolean done)
            throws IOException {
        ChatReply.Usage usage = usage(call, completion);
        if (!call.stream()) {
            ObjectNode body = ChatEncoder.completion(completion, call.completionId(), call.model(), usage);
            if (!call.reportsUsage()) {
                body.remove("usage");
            }
            json(exchange, call, 200, body, Map.of());
            return;
        }
        OutputStream out = startStream(exchange, call);
        for (ObjectNode chunk : ChatEncoder.chunks(completion, call.completionId(), call.model(), usage, call.includeUsage())) {
            data(out, write(chunk));
        }
        if (done) {
            data(out, "[DONE]");
        }
        exchange.close();
    }

    private void error(HttpExchange exchange, Call call, ChatReply.HttpError error) throws IOException {
        byte[] body = error.rawBody() != null ? error.rawBody().getBytes(StandardCharsets.UTF_8)
                : bytes(ChatEncoder.errorBody(error.type(), error.code(), error.message(), null));
        send(exchange, call, error.status(), error.rawBody() != null && !error.rawBody().startsWith("{")
                ? "text/html; charset=utf-8" : "application/json", body, error.headers());
    }

    private void streamError(HttpExchange exchange, Call call, ChatReply.StreamError error) throws IOException {
        ObjectNode body = ChatEncoder.errorBody(error.type(), null, error.message(), null);
        if (!call.stream()) {
            json(exchange, call, 500, body, Map.of());
            return;
        }
        OutputStream out = startStream(exchange, call);
        for (ObjectNode chunk : partial(call, error.partial(), error.afterChunks())) {
            data(out, write(chunk));
        }
        data(out, write(body));
        exchange.close();
    }

    private void disconnect(HttpExchange exchange, Call call, ChatReply.Disconnect disconnect) throws IOException {
        if (disconnect.partial() == null) {
            throw new ConnectionDrop();
        }
        if (call.stream()) {
            OutputStream out = startStream(exchange, call);
            for (ObjectNode chunk : partial(call, disconnect.partial(), disconnect.afterChunks())) {
                data(out, write(chunk));
            }
            throw new ConnectionDrop();
        }
        byte[] body = bytes(ChatEncoder.completion(disconnect.partial(), call.completionId(), call.model(),
                usage(call, disconnect.partial())));
        headers(exchange, call, "application/json");
        exchange.sendResponseHeaders(200, body.length);
        OutputStream out = exchange.getResponseBody();
        out.write(body, 0, body.length / 2);
        out.flush();
        throw new ConnectionDrop();
    }

    private void malformed(HttpExchange exchange, Call call, ChatReply.Malformed malformed) throws IOException {
        String body = malformed.body();
        if (body == null) {
            body = call.stream() ? "data: {\"id\":\"chatcmpl-fake\",\"object\":\"chat.completion.chunk\",\"choi\n\n"
                    : "{\"id\":\"chatcmpl-fake\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"mess";
        }
        send(exchange, call, 200, call.stream() ? "text/event-stream; charset=utf-8" : "application/json",
                body.getBytes(StandardCharsets.UTF_8), Map.of());
    }

    private List<ObjectNode> partial(Call call, ChatReply.Completion partial, int count) {
        List<ObjectNode> all = ChatEncoder.chunks(partial, call.completionId(), call.model(), usage(call, partial),
                call.includeUsage());
        return all.subList(0, Math.min(count, all.size()));
    }

    /** The key of an {@code Authorization: Bearer KEY} header; null when there is none (no header, another scheme, no key). */
    private static String bearerKey(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String key = authorization.substring(7).strip();
        return key.isEmpty() ? null : key;
    }

    /**
     * A wrong key as the public API shows it: its first 8 and last 4 characters, the rest as {@code *}; a key too short
     * for that is all {@code *}, so the fake never echoes a whole key.
     */
    private static String masked(String key) {
        return key.length() < 16 ? "*".repeat(key.length())
                : key.substring(0, 8) + "*".repeat(key.length() - 12) + key.substring(key.length() - 4);
    }

    private static OutputStream startStream(HttpExchange exchange, Call call) throws IOException {
        headers(exchange, call, "text/event-stream; charset=utf-8");
        exchange.getResponseHeaders().set("cache-control", "no-cache");
        exchange.sendResponseHeaders(200, 0); // chunked: a stream's length is not known up front
        return exchange.getResponseBody();
    }

    /** One {@code data:} event, flushed so a client sees it at once and a later drop is really mid-stream. */
    private static void data(OutputStream out, String data) throws IOException {
        out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void json(HttpExchange exchange, Call call, int status, ObjectNode body, Map<String, String> headers)
            throws IOException {
        send(exchange, call, status, "application/json", bytes(body), headers);
    }

    private static void send(HttpExchange exchange, Call call, int status, String contentType, byte[] body,
                             Map<String, String> headers) throws IOException {
        headers(exchange, call, contentType);
        headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static void headers(HttpExchange exchange, Call call, String contentType) {
        exchange.getResponseHeaders().set("content-type", contentType);
        exchange.getResponseHeaders().set("x-request-id", call.requestId());
        exchange.getResponseHeaders().set("openai-processing-ms", "1");
    }

    private static ChatReply.Usage usage(Call call, ChatReply.Completion completion) {
        if (completion.usage() != null) {
            return completion.usage();
        }
        return new ChatReply.Usage(Math.max(1, call.request().rawBody().length() / 4),
                ChatEncoder.estimateOutputTokens(completion), 0);
    }

    private static String write(JsonNode json) {
        try {
            return ChatEncoder.MAPPER.writeValueAsString(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize a chunk", e);
        }
    }

    private static byte[] bytes(JsonNode json) {
        return write(json).getBytes(StandardCharsets.UTF_8);
    }

    private static RecordedRequest record(HttpExchange exchange, byte[] raw) {
        String rawBody = new String(raw, StandardCharsets.UTF_8);
        JsonNode body;
        try {
            body = rawBody.isBlank() ? MissingNode.getInstance() : ChatEncoder.MAPPER.readTree(rawBody);
        } catch (JsonProcessingException e) {
            body = MissingNode.getInstance();
        }
        return new RecordedRequest(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                exchange.getRequestURI().getRawQuery(), exchange.getRequestHeaders(), body, rawBody);
    }
}
