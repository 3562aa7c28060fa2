package dev.rein.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;

/**
 * A stdio MCP server written by hand from the protocol text, inside the test JVM: each message
 * the client sends is recorded and handed to a script, which answers by writing raw lines.
 */
final class ScriptedStdioServer extends PipedProcess {
    private final OutputStream out = Channels.newOutputStream(toClient.sink());
    /** Every message the client sent, in order. */
    final List<JsonNode> received = new CopyOnWriteArrayList<>();
    /** Counted down when the server has read its input to the end (the client closed it): {@link #received} is then whole. */
    final java.util.concurrent.CountDownLatch inputEnded = new java.util.concurrent.CountDownLatch(1);

    ScriptedStdioServer(BiConsumer<ScriptedStdioServer, JsonNode> script) {
        Thread.ofVirtual().start(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(Channels.newInputStream(toServer.source()),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    JsonNode message = Json.parse(line);
                    received.add(message);
                    script.accept(this, message);
                }
            } catch (IOException | RuntimeException e) {
                // the client closed our input: the server is done
            }
            inputEnded.countDown();
            exit.complete(0);
        });
    }

    /** Writes {@code message} as one line. */
    void send(Object message) {
        try {
            synchronized (out) {
                out.write((Json.write(Json.mapper().valueToTree(message)) + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code line} as it is, a line that need not be a message (a log line a server should have written to stderr). */
    void raw(String line) {
        try {
            synchronized (out) {
                out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code bytes} as they are, then a newline: a line that need not be UTF-8. */
    void rawBytes(byte[] bytes) {
        try {
            synchronized (out) {
                out.write(bytes);
                out.write('\n');
                out.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void result(JsonNode id, Object result) {
        send(Map.of("jsonrpc", "2.0", "id", id, "result", result));
    }

    /** Answers initialize with {@code version} and the tools capability. */
    void initialized(JsonNode request, String version) {
        result(request.get("id"), Map.of("protocolVersion", version, "capabilities", Map.of("tools", Map.of()),
                "serverInfo", Map.of("name", "scripted", "version", "1")));
    }

    static Map<String, Object> tool(String name) {
        return Map.of("name", name, "description", "Tool " + name + ".", "inputSchema", Map.of("type", "object"),
                "annotations", Map.of("readOnlyHint", true));
    }

    @Override
    public void destroy() {
        for (var sink : List.of(toServer.sink(), toClient.sink(), errors.sink())) {
            try {
                sink.close();
            } catch (IOException e) {
                // already closed
            }
        }
        exit.complete(143);
    }
}
