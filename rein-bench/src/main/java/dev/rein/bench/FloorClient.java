package dev.rein.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The floor: what a hand-written loop on {@code java.net.http} and Jackson costs. It rebuilds and
 * re-serialises the whole request every step (the simplest correct client), JSON or SSE.
 */
final class FloorClient implements Client {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final URI uri;
    private final boolean stream;
    private final boolean slowTools;
    private final JsonNode tools;

    /** @param slowTools each lookup takes 100 ms, and the calls of one response run side by side, each on a virtual thread */
    FloorClient(String baseUrl, boolean stream, boolean slowTools) throws Exception {
        this.uri = URI.create(baseUrl + "/v1/messages");
        this.stream = stream;
        this.slowTools = slowTools;
        ObjectNode tool = JSON.createObjectNode().put("name", "lookup").put("description", Scenario.TOOL_DESCRIPTION);
        tool.set("input_schema", JSON.readTree(Scenario.SCHEMA));
        this.tools = JSON.createArrayNode().add(tool);
    }

    @Override
    public int run() throws Exception {
        ArrayNode messages = JSON.createArrayNode();
        messages.addObject().put("role", "user").put("content", Scenario.GOAL);
        for (int calls = 1; ; calls++) {
            ObjectNode request = JSON.createObjectNode().put("model", Scenario.MODEL).put("max_tokens", 1024);
            request.put("system", Scenario.SYSTEM);
            request.set("tools", tools);
            request.set("messages", messages);
            if (stream) {
                request.put("stream", true);
            }
            HttpRequest http = HttpRequest.newBuilder(uri).header("x-api-key", "k").header("anthropic-version", "2023-06-01")
                    .header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(request))).build();
            JsonNode message;
            if (stream) {
                HttpResponse<InputStream> response = this.http.send(http, HttpResponse.BodyHandlers.ofInputStream());
                message = assemble(response.body());
            } else {
                message = JSON.readTree(this.http.send(http, HttpResponse.BodyHandlers.ofByteArray()).body());
            }
            messages.addObject().put("role", "assistant").set("content", message.get("content"));
            if (!"tool_use".equals(message.path("stop_reason").asText())) {
                return calls;
            }
            ArrayNode results = JSON.createArrayNode();
            List<Thread> slow = new ArrayList<>();
            for (JsonNode block : message.get("content")) {
                if ("tool_use".equals(block.path("type").asText())) {
                    ObjectNode result = results.addObject().put("type", "tool_result").put("tool_use_id", block.get("id").asText());
                    String output = Scenario.lookup(block.path("input").path("q").asText());
                    if (slowTools) {
                        // Each thread fills its own result; join() below publishes it to this thread.
                        slow.add(Thread.ofVirtual().start(() -> {
                            Scenario.slowLookup();
                            result.put("content", output);
                        }));
                    } else {
                        result.put("content", output);
                    }
                }
            }
            for (Thread thread : slow) {
                thread.join();
            }
            messages.addObject().put("role", "user").set("content", results);
        }
    }

    /** The smallest correct SSE assembly: blocks by index, JSON input fragments joined at the block's end. */
    private static JsonNode assemble(InputStream body) throws Exception {
        ObjectNode message = null;
        Map<Integer, ObjectNode> blocks = new HashMap<>();
        Map<Integer, StringBuilder> inputs = new HashMap<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            for (String line; (line = lines.readLine()) != null; ) {
                if (!line.startsWith("data: ")) {
                    continue;
                }
                JsonNode event = JSON.readTree(line.substring(6));
                int index = event.path("index").asInt();
                switch (event.path("type").asText()) {
                    case "message_start" -> message = (ObjectNode) event.get("message");
                    case "content_block_start" -> blocks.put(index, (ObjectNode) event.get("content_block"));
                    case "content_block_delta" -> {
                        JsonNode delta = event.get("delta");
                        if ("text_delta".equals(delta.path("type").asText())) {
                            ObjectNode b = blocks.get(index);
                            b.put("text", b.path("text").asText() + delta.get("text").asText());
                        } else {
                            inputs.computeIfAbsent(index, i -> new StringBuilder()).append(delta.path("partial_json").asText());
                        }
                    }
                    case "content_block_stop" -> {
                        StringBuilder input = inputs.remove(index);
                        if (input != null) {
                            blocks.get(index).set("input", JSON.readTree(input.toString()));
                        }
                    }
                    case "message_delta" -> message.put("stop_reason", event.path("delta").path("stop_reason").asText());
                    default -> { }
                }
            }
        }
        ArrayNode content = message.putArray("content");
        for (int i = 0; i < blocks.size(); i++) {
            content.add(blocks.get(i));
        }
        return message;
    }

    @Override
    public void close() {
        http.shutdownNow();
    }
}
