package dev.rein.mcp.internal;

import io.modelcontextprotocol.client.transport.McpHttpClientTransportAuthorizationException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An HTTP status a streamable HTTP server refused a request with, said so that a person knows
 * what to change. The SDK reports such refusals as exceptions naming its own classes ("Client
 * failed to initialize by explicit API call Caused by: McpHttpClientTransportAuthorizationException")
 * and, for 401 and 403, without the status.
 */
final class HttpRefusal {
    /** How the SDK's transport words a refusal it has no exception type for. */
    private static final Pattern STATUS = Pattern.compile("[Ss]tatus code: ?(\\d{3})");
    /** How the SDK's transport words an answer whose Content-Type is neither JSON nor an event stream. */
    private static final String UNKNOWN_MEDIA_TYPE = "Unknown media type returned: ";
    /** How the SDK words an answer that is not a JSON-RPC message (JSON of another shape, or not JSON), before the body. */
    private static final java.util.List<String> NOT_JSON_RPC = java.util.List.of("Cannot deserialize JSONRPCMessage: ",
            "Error deserializing JSON-RPC message: ");

    private HttpRefusal() {}

    /**
     * What the refusal in {@code failure}'s causes means, or null when it holds none.
     *
     * @param connecting true when the request refused was the {@code initialize} of a new session,
     *                   where a 404 or 405 means the URL is no MCP endpoint at all
     * @param secrets     masked in what the server answered before it is quoted
     */
    static String describe(Throwable failure, boolean connecting, java.util.Map<String, String> secrets) {
        Integer status = null;
        for (Throwable e = failure; e != null && status == null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof ResumingHttpClient.NotFollowed || e instanceof ResumingHttpClient.BadSessionId) {
                return e.getMessage();
            }
            String message = e.getMessage();
            String body = message == null ? null : NOT_JSON_RPC.stream().filter(message::startsWith).findFirst()
                    .map(prefix -> message.substring(prefix.length())).orElse(null);
            if (body != null) {
                // A health or REST endpoint at the URL answers JSON, but not JSON-RPC. Masked before it is cut short.
                return "it answered the request with a body that is not a JSON-RPC message: '"
                        + StdioTransport.abbreviate(dev.rein.tool.Secrets.mask(body, secrets)) + "'" + (connecting
                        ? ": the URL is not a streamable HTTP MCP endpoint (is the path right, often /mcp?)" : "");
            }
            if (e.getMessage() != null && e.getMessage().startsWith(UNKNOWN_MEDIA_TYPE)) {
                // A web page or another API at the URL: it answered, but not as an MCP endpoint does.
                String type = StdioTransport.abbreviate(e.getMessage().substring(UNKNOWN_MEDIA_TYPE.length()));
                return "it answered with content of type '" + type + "', where MCP's streamable HTTP transport answers with"
                        + " JSON (application/json) or an event stream (text/event-stream)" + (connecting
                        ? ": the URL is not a streamable HTTP MCP endpoint (is the path right, often /mcp?)" : "");
            }
            if (e instanceof McpHttpClientTransportAuthorizationException auth && auth.getResponseInfo() != null) {
                status = auth.getResponseInfo().statusCode();
            } else if (e.getMessage() != null) {
                Matcher matcher = STATUS.matcher(e.getMessage());
                if (matcher.find()) {
                    status = Integer.parseInt(matcher.group(1));
                }
            }
        }
        if (status == null) {
            return null;
        }
        for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof Said server) {
                return describe(status, connecting) + quoting(server.said, secrets) + retryAfter(server.retryAfterMillis)
                        + noWait(server.noWait, secrets);
            }
        }
        return describe(status, connecting);
    }

    /**
     * What a refusal with HTTP {@code status} of a request after the session began means, quoting
     * {@code said} (the JSON-RPC error its answer carried; null when none), masked, and saying the
     * wait its {@code Retry-After} asked for ({@code retryAfterMillis}; 0 when none).
     */
    static String describe(int status, String said, long retryAfterMillis, java.util.Map<String, String> secrets) {
        return describe(status, said, retryAfterMillis, null, secrets);
    }

    /**
     * As {@link #describe(int, String, long, java.util.Map)}, saying also a {@code Retry-After} that asked for no wait
     * ({@code noWait}, as sent; null when there was none or it asked for a wait).
     */
    static String describe(int status, String said, long retryAfterMillis, String noWait, java.util.Map<String, String> secrets) {
        return describe(status, false) + quoting(said, secrets) + retryAfter(retryAfterMillis) + noWait(noWait, secrets);
    }

    /**
     * A {@code Retry-After} that asked for no wait ({@code header}, as sent), said as it was, masked and its control characters
     * escaped; "" for none. Read as no wait, it was said as no Retry-After at all, and whoever read that looked for a header
     * that was there ('0', a date already past, or 'in a minute').
     */
    static String noWait(String header, java.util.Map<String, String> secrets) {
        if (header == null || header.isBlank()) {
            return "";
        }
        String value = header.strip();
        String shown = "; its Retry-After was '" + StdioTransport.abbreviate(dev.rein.tool.Secrets.mask(value, secrets)) + "', ";
        return value.chars().allMatch(Character::isDigit) ? shown + "which asks for no wait"
                : ResumingHttpClient.httpDate(value, java.time.Instant.now()) != null ? shown + "a time already past, which asks for no wait"
                : shown + "neither a number of seconds nor an HTTP date, which Rein took as no wait";
    }

    /**
     * Whether {@code failure}'s causes hold a refusal with 503 or 429, with whatever {@code Retry-After} or none: the server
     * answered and asked to be tried later (RFC 9110 section 15.6.4, RFC 6585 section 4), so its URL and headers are not in doubt.
     */
    static boolean asksToComeBackLater(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof McpHttpClientTransportAuthorizationException) {
                return false; // a 401 or 403
            }
            Matcher matcher = e.getMessage() == null ? null : STATUS.matcher(e.getMessage());
            if (matcher != null && matcher.find()) {
                int status = Integer.parseInt(matcher.group(1));
                return status == 503 || status == 429;
            }
        }
        return false;
    }

    /** The wait the {@code Retry-After} of the refusal in {@code failure}'s causes asked for, in milliseconds; 0 when none. */
    static long retryAfterIn(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof Said server) {
                return server.retryAfterMillis;
            }
        }
        return 0;
    }

    /**
     * The wait a {@code Retry-After} asked for, in whole seconds rounded up; "" for none. A 503 or 429
     * says so when the server will take the request again, which the model or the person needs to
     * know: trying again at once is refused again.
     */
    static String retryAfter(long millis) {
        return millis <= 0 ? "" : unreadable(millis) ? "; it sent a Retry-After too large to read, which Rein took as a wait longer"
                + " than any it makes" : "; it asked to be tried again after " + seconds(millis) + " s";
    }

    /**
     * {@code millis} in whole seconds, rounded up, as every wait Rein says is: one message must not say the same wait as
     * 7200 s in one place and 7199 s in another, and a wait said shorter than asked would be tried too soon.
     */
    static long seconds(long millis) {
        return millis / 1000 + (millis % 1000 == 0 ? 0 : 1);
    }

    /**
     * Whether a wait of {@code millis} is Rein's stand-in for a {@code Retry-After} too large to read, not a number the
     * server sent: printed, it was an invented number of seconds ('after 4611686018427388 s').
     */
    static boolean unreadable(long millis) {
        return millis >= ResumingHttpClient.UNREADABLE_MILLIS;
    }

    /** What the server said, masked before it is cut short: it tells a 403 for the Host header from one for a token. */
    private static String quoting(String said, java.util.Map<String, String> secrets) {
        return said == null ? "" : "; it said: '" + StdioTransport.abbreviate(dev.rein.tool.Secrets.mask(said, secrets)) + "'";
    }

    /**
     * A failure of a request the server refused with an HTTP error status and a JSON-RPC error saying
     * why ({@code said}; null when none), or a {@code Retry-After} saying when to try again
     * ({@code retryAfterMillis}; 0 when none).
     */
    static final class Said extends java.io.IOException {
        private final String said;
        private final long retryAfterMillis;
        /** A {@code Retry-After} that asked for no wait, as sent; null when none ({@link #noWait}). */
        private final String noWait;

        Said(Throwable failure, String said, long retryAfterMillis) {
            this(failure, said, retryAfterMillis, null);
        }

        Said(Throwable failure, String said, long retryAfterMillis, String noWait) {
            super(failure.getMessage(), failure);
            this.said = said;
            this.retryAfterMillis = retryAfterMillis;
            this.noWait = noWait;
        }
    }

    /** What {@code status} says of a refused request; {@code connecting}: the request was one that starts the session. */
    static String describe(int status, boolean connecting) {
        return switch (status) {
            case 401 -> "it answered HTTP 401 Unauthorized: it needs credentials, and Rein sends only the server's \"headers\""
                    + " (e.g. \"headers\": {\"Authorization\": \"Bearer ${TOKEN}\"}); it does not run MCP's OAuth authorization flow";
            case 403 -> "it answered HTTP 403 Forbidden: the credentials in the server's \"headers\" are not enough for it"
                    + " (a wrong token, or one without the scopes it needs)";
            case 404, 405 -> !connecting ? "it answered HTTP " + status : "it answered HTTP " + status + (status == 404 ? " Not Found" : " Method Not Allowed")
                    + " to a POST: the URL is not a streamable HTTP MCP endpoint (is the path right, often /mcp? a server that"
                    + " only speaks the old HTTP+SSE transport is not supported)";
            default -> "it answered HTTP " + status;
        };
    }
}
