package dev.rein.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A request a fake server ({@link FakeMessagesServer}, {@link dev.rein.testkit.openai.FakeChatCompletionsServer}) received,
 * recorded before it was validated or answered.
 *
 * @param method the HTTP method, e.g. {@code "POST"}
 * @param path the request path without the query, e.g. {@code "/v1/messages"}
 * @param query the raw query string without {@code ?}, or {@code ""} if there is none (the SDK's
 *     beta endpoints add {@code beta=true})
 * @param headers the request headers; lookups ignore case, as HTTP header names do
 * @param body the body parsed as JSON, or a {@link MissingNode} if it was empty or not JSON
 * @param rawBody the body as received, decoded as UTF-8
 */
public record RecordedRequest(
        String method, String path, String query, Map<String, List<String>> headers, JsonNode body, String rawBody) {

    /** Copies the headers into a case-insensitive map, so {@code headers().get("X-Api-Key")} works. */
    public RecordedRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        query = query == null ? "" : query;
        TreeMap<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        Objects.requireNonNull(headers, "headers").forEach((name, values) -> copy.put(name, List.copyOf(values)));
        headers = Collections.unmodifiableMap(copy);
        // The body stays a tree so tests can navigate it; a deep copy keeps the record unchanging.
        body = body == null ? MissingNode.getInstance() : body.deepCopy();
        Objects.requireNonNull(rawBody, "rawBody");
    }

    /**
     * The first value of a header.
     *
     * @param name the header name, in any case
     * @return the value, or {@code null} if the header was not sent
     */
    public String header(String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /**
     * All values of a header.
     *
     * @param name the header name, in any case
     * @return the values, empty if the header was not sent
     */
    public List<String> headerValues(String name) {
        return headers.getOrDefault(name, List.of());
    }

    /**
     * Whether the request asked for a stream ({@code "stream": true} in the body).
     *
     * @return {@code true} for a streaming request
     */
    public boolean isStream() {
        return body.path("stream").asBoolean(false);
    }

    /**
     * The {@code model} of the request.
     *
     * @return the model, or empty if the body has none
     */
    public Optional<String> model() {
        JsonNode model = body.path("model");
        return model.isTextual() ? Optional.of(model.asText()) : Optional.empty();
    }

    /**
     * The request as one JSON object {@code {"method","path","query","headers","body","raw_body"}};
     * the standalone server writes one per line to its record file.
     *
     * @return a new JSON object
     */
    public ObjectNode toJson() {
        ObjectNode json = Json.MAPPER.createObjectNode();
        json.put("method", method);
        json.put("path", path);
        json.put("query", query);
        ObjectNode headerJson = json.putObject("headers");
        // Lower-case names: HTTP/2 and most tooling print them that way, and shell tests can rely on it.
        headers.forEach((name, values) -> {
            var array = headerJson.putArray(name.toLowerCase(Locale.ROOT));
            values.forEach(array::add);
        });
        if (body.isMissingNode()) {
            json.putNull("body");
        } else {
            json.set("body", body.deepCopy());
        }
        json.put("raw_body", rawBody);
        return json;
    }
}
