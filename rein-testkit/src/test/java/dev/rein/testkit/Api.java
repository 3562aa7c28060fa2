package dev.rein.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A plain java.net.http client for the fake server, sending what an SDK would. */
final class Api {

    /** A user message request body; {@code stream} selects SSE. */
    static String userRequest(String text, boolean stream) {
        return """
                {"model":"claude-test-1","max_tokens":256,"stream":%s,
                 "messages":[{"role":"user","content":"%s"}]}""".formatted(stream, text);
    }

    /** One parsed server-sent event. */
    record Event(String name, JsonNode data, String rawData) {}

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;

    Api(FakeMessagesServer server) {
        this.baseUrl = server.baseUrl();
    }

    HttpRequest.Builder request(String path, String body) {
        return HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(10))
                .header("content-type", "application/json")
                .header("x-api-key", "test-key")
                .header("anthropic-version", "2023-06-01")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        return send(request(path, body).build());
    }

    HttpResponse<String> messages(String body) throws IOException, InterruptedException {
        return post("/v1/messages", body);
    }

    HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    HttpClient client() {
        return client;
    }

    static JsonNode json(HttpResponse<String> response) throws IOException {
        return Json.MAPPER.readTree(response.body());
    }

    /** Parses an SSE body strictly in the API's framing: "event:" line, one "data:" line, blank line. */
    static List<Event> events(String body) throws IOException {
        List<Event> events = new ArrayList<>();
        for (String frame : body.split("\n\n")) {
            if (frame.isBlank()) {
                continue;
            }
            String[] lines = frame.split("\n");
            if (lines.length != 2 || !lines[0].startsWith("event: ") || !lines[1].startsWith("data: ")) {
                throw new AssertionError("not an event frame: " + frame);
            }
            String data = lines[1].substring("data: ".length());
            events.add(new Event(lines[0].substring("event: ".length()), Json.MAPPER.readTree(data), data));
        }
        if (!body.isEmpty() && !body.endsWith("\n\n")) {
            throw new AssertionError("the stream does not end with a complete frame");
        }
        return events;
    }
}
