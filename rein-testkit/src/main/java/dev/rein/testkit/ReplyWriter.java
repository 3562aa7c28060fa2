package dev.rein.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** Carries out one scripted reply on an HTTP exchange: JSON, a stream, an error or a failure. */
final class ReplyWriter {

    /** What the writer needs to know about the request being answered. */
    record Call(RecordedRequest request, String requestId, boolean countTokens) {

        boolean stream() {
            // count_tokens never streams, whatever the body says.
            return !countTokens && request.isStream();
        }

        /** The API echoes the requested model; a body without one gets a stand-in. */
        String model() {
            return request.model().orElse("claude-fake");
        }

        /** Characters / 4 of the JSON body: deterministic, and close enough to a tokenizer for tests. */
        int inputTokenEstimate() {
            return Math.max(1, request.rawBody().length() / 4);
        }
    }

    /**
     * Thrown to make the HTTP server drop the connection: the JDK server closes the socket of an
     * exchange whose handler throws before the response is complete, without writing the final
     * chunk. That is the only way HttpServer offers to fail a response the way a network does.
     */
    static final class ConnectionDrop extends RuntimeException {
        ConnectionDrop() {
            super("connection dropped by script", null, false, false);
        }
    }

    private final Supplier<String> messageIds;
    private final CountDownLatch closed;

    /**
     * @param messageIds the next message id on each call
     * @param closed released when the server closes, which ends every delay and hang
     */
    ReplyWriter(Supplier<String> messageIds, CountDownLatch closed) {
        this.messageIds = messageIds;
        this.closed = closed;
    }

    void answer(HttpExchange exchange, Call call, FakeReply reply) throws IOException {
        switch (reply) {
            case FakeReply.Message message -> message(exchange, call, message);
            case FakeReply.HttpError error ->
                    json(exchange, call, error.status(),
                            ReplyEncoder.errorBody(error.errorType(), error.message(), error.errorCode(), call.requestId()),
                            error.headers());
            case FakeReply.StreamError error -> streamError(exchange, call, error);
            case FakeReply.Disconnect disconnect -> disconnect(exchange, call, disconnect);
            case FakeReply.Malformed malformed -> malformed(exchange, call, malformed);
            case FakeReply.Delayed delayed -> {
                waitOrDrop(delayed.delay());
                answer(exchange, call, delayed.reply());
            }
            case FakeReply.Hang hang -> throw hangUntilClosed();
            case FakeReply.TokenCount count -> {
                if (!call.countTokens()) {
                    scriptError(exchange, call, "a token_count reply was queued for POST /v1/messages;"
                            + " enqueue it with enqueueCountTokens");
                    return;
                }
                json(exchange, call, 200, ReplyEncoder.tokenCount(count.inputTokens()), Map.of());
            }
        }
    }

    /** The answer when no reply is queued; 500 so the test fails loudly, not retried by SDKs. */
    void scriptError(HttpExchange exchange, Call call, String message) throws IOException {
        error(exchange, call, 500, "api_error", "FakeMessagesServer: " + message, Map.of("x-should-retry", "false"));
    }

    void error(HttpExchange exchange, Call call, int status, String type, String message, Map<String, String> headers)
            throws IOException {
        json(exchange, call, status, ReplyEncoder.errorBody(type, message, call.requestId()), headers);
    }

    private void message(HttpExchange exchange, Call call, FakeReply.Message message) throws IOException {
        if (call.countTokens()) {
            scriptError(exchange, call, "a message reply was queued for POST /v1/messages/count_tokens;"
                    + " use FakeReply.tokenCount");
            return;
        }
        String id = messageIds.get();
        FakeUsage usage = usage(call, message);
        rateLimitHeaders(exchange, usage);
        if (call.stream()) {
            List<SseWriter.Event> events = ReplyEncoder.streamEvents(message, id, call.model(), usage);
            SseWriter sse = startStream(exchange, call);
            for (SseWriter.Event event : events) {
                sse.write(event);
            }
            exchange.close();
        } else {
            json(exchange, call, 200, ReplyEncoder.message(message, id, call.model(), usage), Map.of());
        }
    }

    private void streamError(HttpExchange exchange, Call call, FakeReply.StreamError error) throws IOException {
        if (!call.stream()) {
            int status = ApiErrorType.fromWireName(error.errorType()).map(ApiErrorType::status).orElse(500);
            error(exchange, call, status, error.errorType(), error.message(), Map.of());
            return;
        }
        List<SseWriter.Event> events = partialEvents(call, error.partial(), error.afterEvents());
        rateLimitHeaders(exchange, usage(call, error.partial()));
        SseWriter sse = startStream(exchange, call);
        for (SseWriter.Event event : events) {
            sse.write(event);
        }
        sse.write(new SseWriter.Event("error", ReplyEncoder.errorEvent(error.errorType(), error.message())));
        exchange.close();
    }

    private void disconnect(HttpExchange exchange, Call call, FakeReply.Disconnect disconnect) throws IOException {
        if (disconnect.partial() == null) {
            throw new ConnectionDrop();
        }
        if (call.stream()) {
            List<SseWriter.Event> events = partialEvents(call, disconnect.partial(), disconnect.afterEvents());
            rateLimitHeaders(exchange, usage(call, disconnect.partial()));
            SseWriter sse = startStream(exchange, call);
            for (SseWriter.Event event : events) {
                sse.write(event);
            }
            throw new ConnectionDrop();
        }
        // Announce the whole body, send half: the client sees a premature end of the body.
        ObjectNode message = ReplyEncoder.message(
                disconnect.partial(), messageIds.get(), call.model(), usage(call, disconnect.partial()));
        byte[] body = bytes(message);
        commonHeaders(exchange, call, "application/json");
        exchange.sendResponseHeaders(200, body.length);
        OutputStream out = exchange.getResponseBody();
        out.write(body, 0, body.length / 2);
        out.flush();
        throw new ConnectionDrop();
    }

    private void malformed(HttpExchange exchange, Call call, FakeReply.Malformed malformed) throws IOException {
        String body = malformed.body();
        if (call.stream()) {
            if (body == null) {
                body = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_\n\n";
            }
            commonHeaders(exchange, call, "text/event-stream; charset=utf-8");
        } else {
            if (body == null) {
                body = "{\"id\":\"msg_fake\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"te";
            }
            commonHeaders(exchange, call, "application/json");
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private List<SseWriter.Event> partialEvents(Call call, FakeReply.Message partial, int count) {
        List<SseWriter.Event> all = ReplyEncoder.streamEvents(partial, messageIds.get(), call.model(), usage(call, partial));
        return all.subList(0, Math.min(count, all.size()));
    }

    private SseWriter startStream(HttpExchange exchange, Call call) throws IOException {
        commonHeaders(exchange, call, "text/event-stream; charset=utf-8");
        exchange.getResponseHeaders().set("cache-control", "no-cache");
        exchange.sendResponseHeaders(200, 0); // 0 = chunked: the length of a stream is not known up front
        return new SseWriter(exchange.getResponseBody());
    }

    private void json(HttpExchange exchange, Call call, int status, ObjectNode body, Map<String, String> headers)
            throws IOException {
        byte[] bytes = bytes(body);
        commonHeaders(exchange, call, "application/json");
        headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** The requests per minute of the organization this server plays, as the rate limits page's headers give it. */
    static final long REQUESTS_PER_MINUTE = 4_000;
    /** Its input tokens per minute. */
    static final long INPUT_TOKENS_PER_MINUTE = 2_000_000;
    /** Its output tokens per minute. */
    static final long OUTPUT_TOKENS_PER_MINUTE = 400_000;

    /**
     * The rate limits page's headers, which every response of the API carries: for requests, input tokens, output
     * tokens and the two together, the limit, what is left of it (tokens rounded to the nearest thousand, as the page
     * says) and when it is full again (RFC 3339). This server plays an organization well under its limits: what is left
     * is the limit less this request, and the bucket, which refills continuously, is full again within the second.
     * Sent with a message (whole or streamed, a stream that fails after it began too); a scripted error carries only the headers its script gives, so that a
     * test decides what a 429 says of the limits (a client may read a limit at 0 and its reset as the wait).
     */
    private static void rateLimitHeaders(HttpExchange exchange, FakeUsage usage) {
        // Tokens read from the cache do not count against the input tokens per minute (the rate limits page).
        long input = usage.inputTokens() + (long) usage.cacheCreationInputTokens();
        long output = usage.outputTokens();
        String reset = java.time.OffsetDateTime.now(java.time.ZoneOffset.UTC).withNano(0).plusSeconds(1)
                .format(java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        rateLimit(exchange, "requests", REQUESTS_PER_MINUTE, REQUESTS_PER_MINUTE - 1, reset);
        rateLimit(exchange, "tokens", INPUT_TOKENS_PER_MINUTE + OUTPUT_TOKENS_PER_MINUTE,
                leftInThousands(INPUT_TOKENS_PER_MINUTE + OUTPUT_TOKENS_PER_MINUTE, input + output), reset);
        rateLimit(exchange, "input-tokens", INPUT_TOKENS_PER_MINUTE, leftInThousands(INPUT_TOKENS_PER_MINUTE, input), reset);
        rateLimit(exchange, "output-tokens", OUTPUT_TOKENS_PER_MINUTE, leftInThousands(OUTPUT_TOKENS_PER_MINUTE, output), reset);
    }

    /** The tokens {@code limit} leaves after {@code used}, rounded to the nearest thousand as the API rounds what remains. */
    private static long leftInThousands(long limit, long used) {
        return Math.max(0, Math.round((limit - used) / 1_000.0) * 1_000);
    }

    private static void rateLimit(HttpExchange exchange, String limit, long most, long left, String reset) {
        String prefix = "anthropic-ratelimit-" + limit + "-";
        exchange.getResponseHeaders().set(prefix + "limit", Long.toString(most));
        exchange.getResponseHeaders().set(prefix + "remaining", Long.toString(left));
        exchange.getResponseHeaders().set(prefix + "reset", reset);
    }

    private static void commonHeaders(HttpExchange exchange, Call call, String contentType) {
        exchange.getResponseHeaders().set("content-type", contentType);
        // Every real response carries its id; SDKs expose it on errors and messages alike.
        exchange.getResponseHeaders().set("request-id", call.requestId());
    }

    /** Waits for the delay; a server that closes meanwhile ends the wait with a dropped connection. */
    private void waitOrDrop(Duration delay) {
        try {
            if (closed.await(delay.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new ConnectionDrop();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectionDrop();
        }
    }

    /** Waits until the server closes, then drops the connection: the client never gets an answer. */
    private ConnectionDrop hangUntilClosed() {
        try {
            closed.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return new ConnectionDrop();
    }

    private static FakeUsage usage(Call call, FakeReply.Message message) {
        return message.usage() != null
                ? message.usage()
                : FakeUsage.of(call.inputTokenEstimate(), ReplyEncoder.estimateOutputTokens(message));
    }

    private static byte[] bytes(ObjectNode json) {
        try {
            return Json.MAPPER.writeValueAsBytes(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize a reply", e);
        }
    }
}
