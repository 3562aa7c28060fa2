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

    public TraceContextHeaders {
        headers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        headers.forEach((name, value) -> {
            if (name == null || !NAME.matcher(name).matches()) {
                throw new ReinException("trace header name '" + name + "' is not a lower-case header token");
            }
            if (value == null || !VALUE.matcher(value).matches()) {
                throw new ReinException("trace header " + name + " has a value that is not one line of printable ASCII");
            }
        });
    }
}
