package dev.rein.anthropic;

import com.anthropic.core.JsonValue;
import com.anthropic.errors.AnthropicException;
import com.anthropic.errors.AnthropicInvalidDataException;
import com.anthropic.errors.AnthropicIoException;
import com.anthropic.errors.AnthropicRetryableException;
import com.anthropic.errors.AnthropicServiceException;
import com.anthropic.errors.CredentialResolutionException;
import com.anthropic.errors.NoCredentialsException;
import com.anthropic.errors.SseException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.model.ModelException;
import dev.rein.model.ModelException.Kind;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Clock;

/**
 * Turns SDK failures into {@link ModelException}s carrying the API's own message, the HTTP status,
 * the request id, a {@link Kind}, whether a retry can help and the server's wait hint.
 *
 * <p>Retryable by default: 408, 409, 429, 5xx (including 529 overloaded), connection failures and
 * timeouts, and an {@code error} event that arrives after HTTP 200 (the request was accepted, so
 * the failure is the server's). Not retryable: the other 4xx, missing credentials and a body Rein
 * cannot read. The server's {@code x-should-retry} header overrides that default either way, as in
 * the official SDKs: {@code false} vetoes a retry, {@code true} makes any failure retryable (the
 * server knows best; the retry policy still bounds the attempts and the deadline).
 */
final class ErrorMapper {

    private final Clock clock;

    ErrorMapper(Clock clock) {
        this.clock = clock;
    }

    ModelException map(RuntimeException failure) {
        if (failure instanceof SseException e) {
            return streamError(e);
        }
        if (failure instanceof AnthropicServiceException e) {
            return httpError(e);
        }
        if (failure instanceof AnthropicIoException || failure instanceof AnthropicRetryableException) {
            return ioError(failure);
        }
        if (failure instanceof AnthropicInvalidDataException e) {
            return malformed("the Anthropic API sent a response Rein could not read: " + e.getMessage(), e);
        }
        if (failure instanceof NoCredentialsException || failure instanceof CredentialResolutionException) {
            return new ModelException(Kind.AUTHENTICATION, 0, failure.getMessage()
                    + " (set ANTHROPIC_API_KEY or call AnthropicModel.builder().apiKey(...))",
                    false, null, null, failure);
        }
        String what = failure instanceof AnthropicException ? "the Anthropic SDK failed" : "the Anthropic call failed";
        return new ModelException(Kind.OTHER, 0, what + " with " + failure.getClass().getSimpleName() + ": "
                + failure.getMessage(), false, null, null, failure);
    }

    static ModelException malformed(String message, Throwable cause) {
        return new ModelException(Kind.MALFORMED_RESPONSE, 0, message, false, null, null, cause);
    }

    private ModelException httpError(AnthropicServiceException e) {
        int status = e.statusCode();
        Kind kind = kindOfStatus(status);
        Boolean override = RetryAfter.shouldRetry(e.headers());
        boolean retryable = override != null ? override : kind.retryableByDefault();
        String message = apiMessage(e, "HTTP " + status + " from the Anthropic API");
        return new ModelException(kind, status, message, retryable, RetryAfter.from(e.headers(), clock),
                e.requestId().orElse(null), e);
    }

    /**
     * An {@code error} event inside a stream that began with HTTP 200. The HTTP status is reported
     * as 0 because the HTTP exchange itself succeeded; the kind comes from the error's type.
     */
    private ModelException streamError(SseException e) {
        String type = errorType(e);
        Kind kind = kindOfType(type);
        Boolean override = RetryAfter.shouldRetry(e.headers());
        boolean retryable = override != null ? override : kind.retryableByDefault();
        String message = "error event in the response stream (" + (type == null ? "no type" : type) + "): "
                + apiMessage(e, "no message");
        return new ModelException(kind, 0, message, retryable, RetryAfter.from(e.headers(), clock),
                e.requestId().orElse(null), e);
    }

    private static ModelException ioError(RuntimeException e) {
        Throwable root = rootCause(e);
        boolean timeout = hasCause(e, SocketTimeoutException.class)
                || (root instanceof InterruptedIOException && "timeout".equalsIgnoreCase(root.getMessage()));
        Kind kind = timeout ? Kind.TIMEOUT : Kind.CONNECTION;
        String detail = root.getMessage() == null ? root.getClass().getSimpleName()
                : root.getClass().getSimpleName() + ": " + root.getMessage();
        String message = (timeout ? "the Anthropic API did not answer in time: " : "the connection to the Anthropic API failed: ")
                + detail;
        return new ModelException(kind, 0, message, true, null, null, e);
    }

    static Kind kindOfStatus(int status) {
        return switch (status) {
            case 400, 422 -> Kind.INVALID_REQUEST;
            case 401 -> Kind.AUTHENTICATION;
            case 403 -> Kind.PERMISSION;
            case 404 -> Kind.NOT_FOUND;
            case 408, 504 -> Kind.TIMEOUT;
            case 409 -> Kind.CONFLICT;
            case 413 -> Kind.REQUEST_TOO_LARGE;
            case 429 -> Kind.RATE_LIMITED;
            case 529 -> Kind.OVERLOADED;
            default -> status >= 500 && status <= 599 ? Kind.SERVER_ERROR : Kind.OTHER;
        };
    }

    /** The documented error types; an unknown type after HTTP 200 counts as a server failure. */
    static Kind kindOfType(String type) {
        if (type == null) {
            return Kind.SERVER_ERROR;
        }
        return switch (type) {
            case "invalid_request_error" -> Kind.INVALID_REQUEST;
            case "authentication_error" -> Kind.AUTHENTICATION;
            case "permission_error" -> Kind.PERMISSION;
            case "not_found_error" -> Kind.NOT_FOUND;
            case "request_too_large" -> Kind.REQUEST_TOO_LARGE;
            case "rate_limit_error" -> Kind.RATE_LIMITED;
            case "overloaded_error" -> Kind.OVERLOADED;
            case "timeout_error" -> Kind.TIMEOUT;
            case "conflict_error" -> Kind.CONFLICT;
            case "billing_error" -> Kind.OTHER;
            default -> Kind.SERVER_ERROR;
        };
    }

    private static String errorType(AnthropicServiceException e) {
        JsonNode body = body(e.body());
        JsonNode type = body == null ? null : body.path("error").get("type");
        return type != null && type.isTextual() ? type.asText() : null;
    }

    /** The API's own message ({@code error.message}), else the raw body text, else {@code fallback}. */
    private static String apiMessage(AnthropicServiceException e, String fallback) {
        JsonNode body = body(e.body());
        if (body != null) {
            JsonNode message = body.path("error").get("message");
            if (message != null && message.isTextual() && !message.asText().isBlank()) {
                return message.asText();
            }
            if (body.isTextual() && !body.asText().isBlank()) {
                return body.asText().strip();
            }
        }
        return fallback;
    }

    private static JsonNode body(JsonValue body) {
        if (body == null || body.isMissing()) {
            return null;
        }
        try {
            return body.convert(JsonNode.class);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static Throwable rootCause(Throwable t) {
        Throwable current = t;
        while (current.getCause() != null && current.getCause() != current) {
            current = current.getCause();
        }
        return current;
    }

    private static boolean hasCause(Throwable t, Class<? extends Throwable> type) {
        for (Throwable current = t; current != null; current = current.getCause() == current ? null : current.getCause()) {
            if (type.isInstance(current)) {
                return true;
            }
        }
        return false;
    }
}
