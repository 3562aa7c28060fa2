package dev.rein.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * The HTTP entry point: records each request, routes it, validates it and hands the next scripted
 * reply to the {@link ReplyWriter}.
 */
final class MessagesHandler implements HttpHandler {

    static final String MESSAGES = "/v1/messages";
    static final String COUNT_TOKENS = "/v1/messages/count_tokens";
    /** The errors page: requests above 32 MB are refused with 413 request_too_large (taken as MiB, the larger reading). */
    static final int MAX_REQUEST_BYTES = 32 * 1024 * 1024;

    private final FakeMessagesServer server;
    private final ReplyWriter writer;

    MessagesHandler(FakeMessagesServer server, ReplyWriter writer) {
        this.server = server;
        this.writer = writer;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        byte[] raw;
        try (InputStream in = exchange.getRequestBody()) {
            raw = in.readAllBytes();
        }
        RecordedRequest request = record(exchange, raw);
        server.record(request);

        String path = request.path();
        boolean post = request.method().equals("POST");
        boolean countTokens = post && path.equals(COUNT_TOKENS);
        ReplyWriter.Call call = new ReplyWriter.Call(request, server.nextRequestId(), countTokens);
        if (!countTokens && !(post && path.equals(MESSAGES))) {
            writer.error(exchange, call, 404, "not_found_error", "Not Found", Map.of());
            return;
        }
        if (server.validatesRequests() && raw.length > MAX_REQUEST_BYTES) {
            ApiErrorType type = ApiErrorType.REQUEST_TOO_LARGE;
            writer.error(exchange, call, type.status(), type.wireName(), type.defaultMessage(), Map.of());
            return;
        }
        if (server.validatesRequests()) {
            // A rejected request consumes no reply, as the real API rejects it before generating one.
            Optional<RequestValidator.Violation> violation = RequestValidator.validate(request, countTokens);
            if (violation.isEmpty() && !countTokens) {
                violation = server.thinkingBinding().check(request);
            }
            if (violation.isPresent()) {
                ApiErrorType type = violation.get().type();
                writer.error(exchange, call, type.status(), type.wireName(), violation.get().message(), Map.of());
                return;
            }
        }
        FakeReply reply = server.nextReply(countTokens);
        if (reply != null) {
            if (!countTokens) {
                server.thinkingBinding().made(request, reply);
            }
            writer.answer(exchange, call, reply);
        } else if (countTokens) {
            // Unscripted token counts get the same deterministic estimate as message usage.
            writer.answer(exchange, call, FakeReply.tokenCount(call.inputTokenEstimate()));
        } else {
            writer.scriptError(exchange, call, "script exhausted: no reply queued for request "
                    + call.requestId() + " (POST " + MESSAGES + ")");
        }
    }

    private static RecordedRequest record(HttpExchange exchange, byte[] raw) {
        String rawBody = new String(raw, StandardCharsets.UTF_8);
        JsonNode body;
        try {
            body = rawBody.isBlank() ? MissingNode.getInstance() : Json.MAPPER.readTree(rawBody);
        } catch (JsonProcessingException e) {
            body = MissingNode.getInstance();
        }
        return new RecordedRequest(
                exchange.getRequestMethod(),
                exchange.getRequestURI().getRawPath(),
                exchange.getRequestURI().getRawQuery(),
                exchange.getRequestHeaders(),
                body,
                rawBody);
    }
}
