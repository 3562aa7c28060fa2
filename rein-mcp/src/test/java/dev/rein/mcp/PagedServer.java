package dev.rein.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A minimal JSON-RPC server inside the test JVM whose tool list comes in pages (the SDK's server
 * side never paginates). By default three: page one has two tools and cursor "p2", page two one
 * tool and cursor "p3", page three the last tool.
 */
final class PagedServer extends PipedProcess {
    private final List<List<String>> pages;
    /** Whether the last page points back to the second instead of ending the list. */
    private final boolean loops;
    private final OutputStream out = Channels.newOutputStream(toClient.sink());

    PagedServer() {
        this(List.of(List.of("one", "two"), List.of("three"), List.of("four")), false);
    }

    PagedServer(List<List<String>> pages, boolean loops) {
        this.pages = List.copyOf(pages);
        this.loops = loops;
        Thread.ofVirtual().start(this::serve);
    }

    private void serve() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(Channels.newInputStream(toServer.source()), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                JsonNode request = Json.parse(line);
                if (request.has("id") && request.has("method")) {
                    answer(request);
                }
            }
        } catch (IOException e) {
            // the client closed the pipe
        }
        exit.complete(0);
    }

    private void answer(JsonNode request) throws IOException {
        ObjectNode response = Json.object().put("jsonrpc", "2.0");
        response.set("id", request.get("id"));
        ObjectNode result = response.putObject("result");
        switch (request.get("method").asText()) {
            case "initialize" -> {
                result.put("protocolVersion", request.at("/params/protocolVersion").asText());
                result.putObject("capabilities").putObject("tools");
                result.putObject("serverInfo").put("name", "paged").put("version", "1");
            }
            case "tools/list" -> {
                String cursor = request.at("/params/cursor").asText("");
                int page = cursor.isEmpty() ? 0 : Integer.parseInt(cursor.substring(1)) - 1;
                ArrayNode tools = result.putArray("tools");
                for (String name : pages.get(page)) {
                    ObjectNode tool = tools.addObject().put("name", name).put("description", "Tool " + name + ".");
                    tool.putObject("inputSchema").put("type", "object");
                    tool.putObject("annotations").put("readOnlyHint", true);
                }
                if (page + 1 < pages.size()) {
                    result.put("nextCursor", "p" + (page + 2));
                } else if (loops) {
                    result.put("nextCursor", "p2");
                }
            }
            case "tools/call" -> result.putArray("content").addObject().put("type", "text")
                    .put("text", "called " + request.at("/params/name").asText());
            default -> { }
        }
        synchronized (out) {
            out.write((Json.write(response) + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
    }

    @Override
    public void destroy() {
        try {
            toServer.sink().close();
            toClient.sink().close();
            errors.sink().close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        exit.complete(143);
    }
}
