package dev.rein.testkit;

import java.util.Optional;

/**
 * The error types of the Messages API with the HTTP status each one is sent with, and a default
 * message close to the one the real API uses.
 */
public enum ApiErrorType {
    /** 400: a problem with the format or content of the request. */
    INVALID_REQUEST(400, "invalid_request_error", "Invalid request"),
    /** 401: a problem with the API key. */
    AUTHENTICATION(401, "authentication_error", "invalid x-api-key"),
    /** 402: a problem with billing or payment information. */
    BILLING(402, "billing_error", "Your credit balance is too low to access the Anthropic API."),
    /** 403: the API key may not use the resource. */
    PERMISSION(403, "permission_error", "Your API key does not have permission to use the specified resource."),
    /** 404: the resource (or model) was not found. */
    NOT_FOUND(404, "not_found_error", "Not found"),
    /** 409: the request conflicts with the current state of a resource. */
    CONFLICT(409, "conflict_error", "Conflict"),
    /** 413: the request is larger than the endpoint accepts. */
    REQUEST_TOO_LARGE(413, "request_too_large", "Request exceeds the maximum allowed number of bytes."),
    /** 429: the account hit a rate limit. */
    RATE_LIMIT(429, "rate_limit_error", "This request would exceed the rate limit for your organization."),
    /** 500: an unexpected internal error. */
    API(500, "api_error", "Internal server error"),
    /** 504: the request timed out while it was being processed. */
    TIMEOUT(504, "timeout_error", "Request timed out"),
    /** 529: the API is temporarily overloaded. */
    OVERLOADED(529, "overloaded_error", "Overloaded");

    private final int status;
    private final String wireName;
    private final String defaultMessage;

    ApiErrorType(int status, String wireName, String defaultMessage) {
        this.status = status;
        this.wireName = wireName;
        this.defaultMessage = defaultMessage;
    }

    /**
     * The HTTP status the API sends this error with.
     *
     * @return the status, e.g. 429
     */
    public int status() {
        return status;
    }

    /**
     * The value of {@code error.type} on the wire.
     *
     * @return the wire name, e.g. {@code "rate_limit_error"}
     */
    public String wireName() {
        return wireName;
    }

    /**
     * A message resembling the real API's for this type.
     *
     * @return the default {@code error.message}
     */
    public String defaultMessage() {
        return defaultMessage;
    }

    /**
     * Looks up a type by its wire name.
     *
     * @param wireName e.g. {@code "overloaded_error"}
     * @return the type, or empty if the name is not one of the listed types
     */
    public static Optional<ApiErrorType> fromWireName(String wireName) {
        for (ApiErrorType type : values()) {
            if (type.wireName.equals(wireName)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }
}
