package dev.rein.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolContext;
import dev.rein.tool.ToolOutput;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A call given up on (its timeout, or its caller stopping it) fails that call only: the server is told
 * with {@code notifications/cancelled} and kept while it answers {@code ping} (MCP Lifecycle, Timeouts;
 * Utilities, Cancellation and Ping). Only a server that does not answer ping either is taken for hung.
 */
class GivenUpCallTest {
    @TempDir
    Path dir;

    private final List<ScriptedStdioServer> started = new ArrayList<>();

    private McpToolset start(boolean answersPing) {
        BiConsumer<ScriptedStdioServer, JsonNode> script = (server, message) -> {
            switch (message.path("method").asText()) {
                case "initialize" -> server.initialized(message, "2025-11-25");
                case "tools/list" -> server.result(message.get("id"), Map.of("tools", List.of(ScriptedStdioServer.tool("slow"),
                        ScriptedStdioServer.tool("quick"))));
                case "ping" -> {
                    if (answersPing) {
                        server.result(message.get("id"), Map.of());
                    }
                }
                case "tools/call" -> {
                    if (message.at("/params/name").asText().equals("quick")) {
                        server.result(message.get("id"), Map.of("content", List.of(Map.of("type", "text", "text", "ok"))));
                    }
                }
                default -> { } // slow: never answered
            }
        };
        return McpToolset.start(McpTesting.config("scripted", "\"command\": \"scripted\", \"timeout_seconds\": 2"), stdio -> {
            ScriptedStdioServer server = new ScriptedStdioServer(script);
            started.add(server);
            return server;
        }, McpTesting.QUICK_PING);
    }

    @Test
    void aCallThatTimesOutFailsAloneAndAServerThatAnswersPingIsKept() throws Exception {
        try (McpToolset mcp = start(true)) {
            ScriptedStdioServer server = started.getFirst();
            CompletableFuture<ToolOutput> other = CompletableFuture.supplyAsync(() -> handle(mcp, "slow", 30));
            awaitTrue(() -> calls(server).size() == 1);
            ToolOutput timedOut = handle(mcp, "slow", 1);
            assertThat(timedOut.content()).startsWith("MCP server 'scripted' did not answer tool 'slow' in time.")
                    .contains("notifications/cancelled").doesNotContain("is restarted")
                    // A server that answers ping but never finishes a tool is kept (each call waits its full time): say what helps.
                    .endsWith(" A server that still answers Rein's ping is kept, even if it does not finish this tool in time: if"
                            + " the tool needs longer, raise the server's \"timeout_seconds\"; if it hangs, restart that server or set"
                            + " \"disabled\": true.");
            JsonNode cancelled = awaitCancelled(server, calls(server).get(1).get("id"));
            assertThat(cancelled.at("/params/reason").asText()).isEqualTo("the call timed out");
            // The server answered ping: it is kept, and the call beside the one given up on is still waited for.
            awaitTrue(() -> server.received.stream().anyMatch(m -> "ping".equals(m.path("method").asText())));
            Thread.sleep(500);
            assertThat(other).isNotDone();
            assertThat(handle(mcp, "quick", 10).content()).isEqualTo("ok");
            assertThat(started).as("the server is not restarted").hasSize(1);
        }
    }

    @Test
    void aCallStoppedByItsCallerIsCancelledOnTheServerByItsIdAndTheServerIsKept() throws Exception {
        try (McpToolset mcp = start(true)) {
            ScriptedStdioServer server = started.getFirst();
            CompletableFuture<Thread> caller = new CompletableFuture<>();
            CompletableFuture<ToolOutput> stopped = CompletableFuture.supplyAsync(() -> {
                caller.complete(Thread.currentThread());
                return handle(mcp, "slow", 30);
            });
            awaitTrue(() -> calls(server).size() == 1);
            caller.get().interrupt(); // a run cancelled, or the executor's own timeout
            assertThat(stopped.get(20, TimeUnit.SECONDS).content()).startsWith("The call of tool 'slow' on MCP server 'scripted' was"
                    + " stopped before its answer came (its run was cancelled or its time ran out). Rein stopped waiting for it and told the"
                    + " server to cancel it (notifications/cancelled).").doesNotContain("restarted");
            JsonNode cancelled = awaitCancelled(server, calls(server).getFirst().get("id"));
            assertThat(cancelled.at("/params/reason").asText()).isEqualTo("the call was stopped by its caller");
            assertThat(handle(mcp, "quick", 10).content()).isEqualTo("ok");
            assertThat(started).as("the server is not restarted").hasSize(1);
        }
    }

    @Test
    void callsTimingOutTogetherOnAServerThatJustAnsweredPingSendOnePing() throws Exception {
        // Each call given up on checked the server with a ping of its own once the one before had ended: eight calls timing
        // out together sent up to eight pings, though the server had answered one a moment before.
        try (McpToolset mcp = start(true)) {
            ScriptedStdioServer server = started.getFirst();
            List<CompletableFuture<ToolOutput>> slow = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                slow.add(CompletableFuture.supplyAsync(() -> handle(mcp, "slow", 1)));
            }
            for (CompletableFuture<ToolOutput> call : slow) {
                assertThat(call.get(20, TimeUnit.SECONDS).content()).startsWith("MCP server 'scripted' did not answer tool 'slow' in time.");
            }
            Thread.sleep(300);
            assertThat(server.received.stream().filter(m -> "ping".equals(m.path("method").asText())).count()).isEqualTo(1);
            assertThat(handle(mcp, "quick", 10).content()).isEqualTo("ok");
        }
    }

    @Test
    void aServerThatDoesNotAnswerPingAfterACallTimedOutIsRestarted() throws Exception {
        try (McpToolset mcp = start(false)) {
            assertThat(handle(mcp, "slow", 1).content()).startsWith("MCP server 'scripted' did not answer tool 'slow' in time.");
            // The ping goes unanswered for its bound: the next call is made on a new server.
            assertThat(handle(mcp, "quick", 20).content()).isEqualTo("ok");
            assertThat(started).hasSize(2);
        }
    }

    @Test
    void aRealServerKeepsRunningTheOtherCallWhenOneTimesOut() throws Exception {
        // server-everything's trigger-long-running-operation waits without holding its event loop: it answers ping meanwhile.
        Set<Long> before = McpTesting.descendants();
        try (McpToolset mcp = McpToolset.start(McpTesting.config("everything", NpmServers.stdio("server-everything", "stdio")
                + ", \"timeout_seconds\": 2"))) {
            Set<Long> server = McpTesting.descendants();
            server.removeAll(before);
            CompletableFuture<ToolOutput> longer = CompletableFuture.supplyAsync(() -> handle(mcp, "trigger-long-running-operation",
                    "{\"duration\": 4, \"steps\": 2}", 30));
            ToolOutput timedOut = handle(mcp, "trigger-long-running-operation", "{\"duration\": 10, \"steps\": 2}", 1);
            assertThat(timedOut.content()).startsWith("MCP server 'everything' did not answer tool 'trigger-long-running-operation' in time.");
            ToolOutput other = longer.get(30, TimeUnit.SECONDS);
            assertThat(other.isError()).as(other.content()).isFalse();
            assertThat(other.content()).contains("Long running operation completed");
            assertThat(handle(mcp, "echo", "{\"message\": \"still here\"}", 10).content()).contains("Echo: still here");
            Set<Long> now = McpTesting.descendants();
            now.removeAll(before);
            assertThat(now).as("the same server process, not a restarted one").isEqualTo(server);
        }
    }

    private static List<JsonNode> calls(ScriptedStdioServer server) {
        return server.received.stream().filter(m -> "tools/call".equals(m.path("method").asText())).toList();
    }

    private static JsonNode awaitCancelled(ScriptedStdioServer server, JsonNode id) throws InterruptedException {
        awaitTrue(() -> server.received.stream().anyMatch(m -> "notifications/cancelled".equals(m.path("method").asText())));
        List<JsonNode> cancelled = server.received.stream().filter(m -> "notifications/cancelled".equals(m.path("method").asText())).toList();
        assertThat(cancelled).singleElement().satisfies(n -> assertThat(n.at("/params/requestId")).isEqualTo(id));
        return cancelled.getFirst();
    }

    private static ToolOutput handle(McpToolset mcp, String name, int seconds) {
        return handle(mcp, name, "{}", seconds);
    }

    private static ToolOutput handle(McpToolset mcp, String name, String arguments, int seconds) {
        Tool tool = mcp.tools().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
        try {
            return (ToolOutput) tool.handler().handle(Json.parse(arguments),
                    ToolContext.standalone("k-" + name + "-" + System.nanoTime()).withRisk(tool.risk()).withDeadline(Instant.now().plus(Duration.ofSeconds(seconds))));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition) throws InterruptedException {
        for (int i = 0; i < 200 && !condition.getAsBoolean(); i++) {
            Thread.sleep(50);
        }
        assertThat(condition.getAsBoolean()).isTrue();
    }
}
