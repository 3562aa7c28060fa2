package dev.rein.model;

import dev.rein.ReinException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Distributed-tracing headers (W3C Trace Context: {@code traceparent}, {@code tracestate}) that a
 * provider sends with the HTTP request of this model call, so the provider's side of the call
 * joins the caller's trace. Set by a tracing interceptor (such as rein-otel's); providers that
 * speak HTTP add each header as given and ignore the option otherwise.
 *
 * @param headers header names (lower-case tokens) to values (printable, one line)
 */
public record TraceContextHeaders(Map<String, String> headers) implements ModelOption {
    private static final Pattern NAME = Pattern.compile("[a-z0-9-]{1,64}");
    private static final Pattern VALUE = Pattern.compile("[\\x20-\\x7e]{0,8192}");

    /** @throws ReinException saying which header cannot be sent, why, and what to give instead */
    public TraceContextHeaders {
        if (headers == null) {
            throw new ReinException("TraceContextHeaders was given no headers (null): give a map of header names to values"
                    + " (Map.of() for none)");
        }
        headers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        headers.forEach((name, value) -> {
            if (name == null || !NAME.matcher(name).matches()) {
                throw new ReinException("trace header name '" + name + "' is not a lower-case header token: give it in lower"
                        + " case, of letters, digits and '-' (1 to 64 characters), as W3C Trace Context names traceparent"
                        + " and tracestate");
            }
            if (value == null || !VALUE.matcher(value).matches()) {
                // sent as it is, a line break would split the HTTP request: said where, so the caller finds it
                throw new ReinException("trace header " + name + " has a value that is not one line of printable ASCII ("
                        + whatIsWrong(value) + "): give the value as the propagator wrote it, one line of printable ASCII of"
                        + " at most 8192 characters");
            }
        });
    }

    /** What makes {@code value} no header value: null, too long, or its first character that is not printable ASCII. */
    private static String whatIsWrong(String value) {
        if (value == null) {
            return "null";
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == 0x7f) { // DEL is an ASCII control character, not a non-ASCII one
                return "a line break or other control character at position " + (i + 1);
            }
            if (c > 0x7f) {
                return "a character that is not ASCII at position " + (i + 1);
            }
        }
        return value.length() + " characters, more than 8192";
    }
}
