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
            ToolOutput output = (ToolOutput) echo.handler().handle(Json.parse("{\"message\": \"över HTTP\"}"), ToolContext.standalone("h1"));
            assertThat(output.isError()).isFalse();
            assertThat(output.content()).isEqualTo("Echo: över HTTP");
            assertThat(output.source()).isEqualTo("mcp:everything/echo");
            // Its initialize answer's instructions, as over stdio (kept for an opt-in, not sent to a model).
            assertThat(mcp.instructions().get("everything")).startsWith("# Everything Server – Server Instructions");
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
