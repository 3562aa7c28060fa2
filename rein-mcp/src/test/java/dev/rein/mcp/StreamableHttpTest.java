package dev.rein.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolContext;
import dev.rein.tool.ToolOutput;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The real server-everything over streamable HTTP, with a bearer token from a variable. */
class StreamableHttpTest {
    private Process server;

    @AfterEach
    void stop() throws InterruptedException {
        if (server != null) {
            server.destroy();
            server.waitFor();
        }
    }

    @Test
    void toolsAreListedAndCalledOverStreamableHttp() throws Exception {
        int port = freePort();
        ProcessBuilder builder = new ProcessBuilder("node", NpmServers.script("server-everything").toString(), "streamableHttp")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("PORT", Integer.toString(port));
        server = builder.start();
        awaitListening(port);
        String json = "{\"mcpServers\": {\"everything\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:" + port + "/mcp\","
                + " \"headers\": {\"Authorization\": \"Bearer ${EVERYTHING_TOKEN}\"}}}}";
        McpConfig config = McpConfig.parse(json, "test", Map.of("EVERYTHING_TOKEN", "tok-12345-secret"));
        try (McpToolset mcp = McpToolset.start(config)) {
            assertThat(mcp.secrets()).containsEntry("EVERYTHING_TOKEN", "tok-12345-secret")
                    .containsEntry("mcp.everything.headers.Authorization", "Bearer tok-12345-secret");
            Tool echo = mcp.tools().stream().filter(t -> t.name().equals("echo")).findFirst().orElseThrow();
            ToolOutput output = (ToolOutput) echo.handler().handle(Json.parse("{\"message\": \"över HTTP 日本語の文 🎌\"}"), ToolContext.standalone("h1").withRisk(echo.risk()));
            assertThat(output.isError()).isFalse();
            assertThat(output.content()).isEqualTo("Echo: över HTTP 日本語の文 🎌"); // UTF-8 both ways, intact
            assertThat(output.source()).isEqualTo("mcp:everything/echo");
            // Its initialize answer's instructions, as over stdio (kept for an opt-in, not sent to a model).
            assertThat(mcp.instructions().get("everything")).startsWith("# Everything Server – Server Instructions");
        }
    }

    @Test
    void aCallWhoseResponseStreamIsCutAfterItsEventIdIsResumedWithLastEventIdAndGetsItsAnswer() throws Exception {
        // Probe (passed at once): SSE resumption (transports, 2025-11-25) against the real server and its event store.
        int port = startEverything();
        try (CuttingProxy proxy = new CuttingProxy(port);
                McpToolset mcp = McpToolset.start(McpConfig.parse("{\"mcpServers\": {\"everything\": {\"url\":"
                        + " \"http://127.0.0.1:" + proxy.port() + "/mcp\"}}}", "test", Map.of()))) {
            proxy.cutAfterNextEventId = true;
            // Its answer comes 0.2 s after the stream's priming event, before Rein resumes (after 1 s, as no retry is set):
            // server-everything's event store replays it then (one resumed earlier waits for it in vain, as its store hands
            // the SDK an event id where the SDK takes the stream's id).
            ToolOutput output = call(mcp, "trigger-long-running-operation", "{\"duration\": 0.2, \"steps\": 1}");
            assertThat(output.isError()).as(output.content()).isFalse();
            assertThat(output.content()).isEqualTo("Long running operation completed. Duration: 0.2 seconds, Steps: 1.");
            assertThat(proxy.cutAfter).as("the call's stream was cut after its priming event").isNotNull();
            assertThat(proxy.lastEventIds).as("resumed from that event: %s", proxy.requests).contains(proxy.cutAfter);
            assertThat(call(mcp, "echo", "{\"message\": \"after\"}").content()).isEqualTo("Echo: after");
        }
    }

    @Test
    void aCallThatTimesOutIsCancelledOnTheRealServerByItsRequestIdWithAReason() throws Exception {
        // Probe (passed at once): the cancellation utility (2025-06-18, 2025-11-25) has a client that stops waiting send
        // notifications/cancelled with the request's id and a reason; here to server-everything over streamable HTTP.
        int port = startEverything();
        try (CuttingProxy proxy = new CuttingProxy(port);
                McpToolset mcp = McpToolset.start(McpConfig.parse("{\"mcpServers\": {\"everything\": {\"url\":"
                        + " \"http://127.0.0.1:" + proxy.port() + "/mcp\"}}}", "test", Map.of()))) {
            Tool slow = mcp.tools().stream().filter(t -> t.name().equals("trigger-long-running-operation")).findFirst().orElseThrow();
            ToolOutput output = (ToolOutput) slow.handler().handle(Json.parse("{\"duration\": 30, \"steps\": 3}"),
                    ToolContext.standalone("c-cancel").withRisk(slow.risk()).withDeadline(Instant.now().plusSeconds(1)));
            assertThat(output.isError()).isTrue();
            java.util.regex.Pattern callId = java.util.regex.Pattern.compile("\"method\":\"tools/call\".*?\"id\":\"?([\\w-]+)");
            java.util.regex.Pattern cancelled = java.util.regex.Pattern.compile(
                    "\"method\":\"notifications/cancelled\",\"params\":\\{(\"requestId\":\"?([\\w-]+)\"?,\"reason\":\"[^\"]+\"|\"reason\":\"[^\"]+\",\"requestId\":\"?([\\w-]+))");
            String id = null;
            java.util.regex.Matcher seen = null;
            for (int i = 0; i < 100 && seen == null; i++) {
                String all = String.join("", proxy.requests);
                java.util.regex.Matcher call = callId.matcher(all);
                id = call.find() ? call.group(1) : null;
                java.util.regex.Matcher m = cancelled.matcher(all);
                seen = m.find() ? m : null;
                if (seen == null) {
                    Thread.sleep(50);
                }
            }
            assertThat(seen).as("notifications/cancelled in %s", proxy.requests).isNotNull();
            assertThat(seen.group(2) != null ? seen.group(2) : seen.group(3)).isEqualTo(id);
            assertThat(call(mcp, "echo", "{\"message\": \"after\"}").content()).isEqualTo("Echo: after");
        }
    }

    @Test
    void aRestartedServerThatForgotTheSessionRefusesOneCallWith400AndTheNextOpensANewSession() throws Exception {
        // Probe (passed at once): server-everything answers a session id it does not know with 400 (the protocol says
        // 404), which Rein takes for a refusal of that call, not run, and opens a new session at the next.
        int port = startEverything();
        String json = "{\"mcpServers\": {\"everything\": {\"url\": \"http://127.0.0.1:" + port + "/mcp\"}}}";
        try (McpToolset mcp = McpToolset.start(McpConfig.parse(json, "test", Map.of()))) {
            assertThat(call(mcp, "echo", "{\"message\": \"one\"}").content()).isEqualTo("Echo: one");
            server.destroy();
            server.waitFor();
            startEverything(port);
            ToolOutput refused = call(mcp, "echo", "{\"message\": \"two\"}");
            assertThat(refused.isError()).isTrue();
            assertThat(refused.content()).startsWith("MCP server 'everything' refused the call of tool 'echo': it answered HTTP 400;"
                    + " it said: 'JSON-RPC error -32000: Bad Request: No valid session ID provided', so the tool was not run")
                    .contains("Rein opens a new session at the next call.");
            assertThat(call(mcp, "echo", "{\"message\": \"三\"}").content()).isEqualTo("Echo: 三");
        }
    }

    private int startEverything() throws Exception {
        return startEverything(freePort());
    }

    private int startEverything(int port) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("node", NpmServers.script("server-everything").toString(), "streamableHttp")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("PORT", Integer.toString(port));
        server = builder.start();
        awaitListening(port);
        return port;
    }

    private static ToolOutput call(McpToolset mcp, String name, String arguments) throws Exception {
        Tool tool = mcp.tools().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
        return (ToolOutput) tool.handler().handle(Json.parse(arguments), ToolContext.standalone("c-" + System.nanoTime()).withRisk(tool.risk()));
    }

    /**
     * A TCP proxy in front of the server that, once {@link #cutAfterNextEventId} is set, ends the next
     * connection whose answer brings an SSE event with an id and no data (a stream's priming event)
     * right after that event, as a network failure or a proxy's timeout would; it keeps the
     * {@code Last-Event-ID} of every request.
     */
    private static final class CuttingProxy implements AutoCloseable {
        private final ServerSocket listener = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        private final int backend;
        private final java.util.Set<Socket> open = java.util.concurrent.ConcurrentHashMap.newKeySet();
        volatile boolean cutAfterNextEventId;
        volatile String cutAfter;
        final java.util.List<String> lastEventIds = new java.util.concurrent.CopyOnWriteArrayList<>();
        final java.util.List<String> requests = new java.util.concurrent.CopyOnWriteArrayList<>();

        CuttingProxy(int backend) throws IOException {
            this.backend = backend;
            Thread.ofVirtual().start(() -> {
                while (!listener.isClosed()) {
                    try {
                        Socket client = listener.accept();
                        Socket upstream = new Socket("127.0.0.1", backend);
                        open.add(client);
                        open.add(upstream);
                        // whether this connection's last request was a tool call: only its answer stream is cut, not
                        // the session's own GET stream, whose (re)opening may bring a priming event first
                        java.util.concurrent.atomic.AtomicBoolean calling = new java.util.concurrent.atomic.AtomicBoolean();
                        Thread.ofVirtual().start(() -> pump(client, upstream, false, calling));
                        Thread.ofVirtual().start(() -> pump(upstream, client, true, calling));
                    } catch (IOException e) {
                        return;
                    }
                }
            });
        }

        int port() {
            return listener.getLocalPort();
        }

        private void pump(Socket from, Socket to, boolean answers, java.util.concurrent.atomic.AtomicBoolean calling) {
            java.util.regex.Pattern priming = java.util.regex.Pattern.compile("(?m)^id: (\\S+)\n(retry: \\d+\n)?data: \n\n");
            java.util.regex.Pattern lastEventId = java.util.regex.Pattern.compile("(?im)^last-event-id: (\\S+)");
            try (from; to) {
                byte[] buffer = new byte[65536];
                StringBuilder seen = new StringBuilder();
                for (int n; (n = from.getInputStream().read(buffer)) >= 0; ) {
                    String text = new String(buffer, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1);
                    if (!answers) {
                        requests.add(text.length() > 1000 ? text.substring(0, 1000) : text);
                        if (text.startsWith("GET ") || text.startsWith("POST ") || text.startsWith("DELETE ")) {
                            calling.set(false);
                        }
                        if (text.contains("\"method\":\"tools/call\"")) {
                            calling.set(true);
                        }
                        lastEventId.matcher(text).results().forEach(m -> lastEventIds.add(m.group(1)));
                    } else if (cutAfterNextEventId && calling.get()) {
                        seen.append(text);
                        java.util.regex.Matcher m = priming.matcher(seen);
                        if (m.find()) {
                            cutAfterNextEventId = false;
                            int keep = n - (seen.length() - m.end());
                            to.getOutputStream().write(buffer, 0, Math.max(0, keep));
                            to.getOutputStream().flush();
                            cutAfter = m.group(1);
                            return; // both sockets closed: the connection ends right after the event
                        }
                    }
                    to.getOutputStream().write(buffer, 0, n);
                    to.getOutputStream().flush();
                }
            } catch (IOException e) {
                // the other side closed
            }
        }

        @Override
        public void close() throws IOException {
            listener.close();
            for (Socket socket : open) {
                socket.close();
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private void awaitListening(int port) throws InterruptedException {
        Instant until = Instant.now().plusSeconds(20);
        while (Instant.now().isBefore(until)) {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                assertThat(socket.isConnected()).isTrue();
                return;
            } catch (IOException e) {
                assertThat(server.isAlive()).as("server-everything exited before listening").isTrue();
                Thread.sleep(50);
            }
        }
        throw new AssertionError("server-everything did not listen on port " + port);
    }
}
