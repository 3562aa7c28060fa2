package dev.rein.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolContext;
import dev.rein.tool.ToolOutput;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real process that stops reading its input while a tool runs on its one thread (a synchronous
 * server busy in a tool): a long message to it fills the pipe, and nothing may wait on that write.
 */
class StuckServerTest {
    @TempDir
    Path dir;

    private static final String SERVER = """
            const rl = require('readline').createInterface({input: process.stdin});
            const send = m => process.stdout.write(JSON.stringify(m) + "\\n");
            rl.on('line', line => {
              const m = JSON.parse(line);
              if (m.method === 'initialize') send({jsonrpc: "2.0", id: m.id, result: {protocolVersion: m.params.protocolVersion,
                  capabilities: {tools: {}}, serverInfo: {name: "stuck", version: "1"}}});
              else if (m.method === 'tools/list') send({jsonrpc: "2.0", id: m.id, result: {tools: ["hang", "echo"].map(name =>
                  ({name, inputSchema: {type: "object"}, annotations: {readOnlyHint: true}}))}});
              else if (m.method === 'tools/call') {
                // Busy on its one thread, as a synchronous tool: nothing is read from stdin meanwhile.
                if (m.params.name === 'hang') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 600000);
                send({jsonrpc: "2.0", id: m.id, result: {content: [{type: "text", text: "ok"}]}});
              }
            });
            """;

    @Test
    void aLongCallToAServerThatStoppedReadingEndsAtItsTimeoutAndTheToolsetStillCloses() throws Exception {
        NpmServers.script("server-everything"); // node is needed, as for the npm servers
        Path script = dir.resolve("stuck.js");
        Files.writeString(script, SERVER, StandardCharsets.UTF_8);
        Set<Long> before = McpTesting.descendants();
        McpToolset mcp = McpToolset.start(McpTesting.config("stuck", "\"command\": \"node\", \"args\": [\"" + NpmServers.json(script.toString())
                + "\"], \"timeout_seconds\": 2"), dev.rein.mcp.internal.OsProcess.launcher(), McpTesting.QUICK_PING);
        Set<Long> server = McpTesting.descendants();
        server.removeAll(before);
        CompletableFuture<ToolOutput> hang = CompletableFuture.supplyAsync(() -> call(mcp, "hang", "{}"));
        Thread.sleep(500); // the server is in the tool
        // Longer than a pipe holds: the write waits until the server reads again, ten minutes later.
        CompletableFuture<ToolOutput> big = CompletableFuture.supplyAsync(() -> call(mcp, "echo", "{\"text\": \"" + "x".repeat(1_000_000) + "\"}"));
        assertThat(hang.get(20, TimeUnit.SECONDS).content()).contains("did not answer tool 'hang' in time");
        // Before: the call's thread waited in the write, past its timeout (and every later call and the close behind it).
        ToolOutput bigResult = big.get(20, TimeUnit.SECONDS);
        assertThat(bigResult.isError()).as(bigResult.content()).isTrue();
        assertThat(bigResult.content()).contains("MCP server 'stuck'", "tool 'echo'");
        CompletableFuture.runAsync(mcp::close).get(20, TimeUnit.SECONDS);
        assertThat(server).isNotEmpty().noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    }

    /**
     * A call that timed out on a server that then answers no ping leaves its session in doubt; the next call starts
     * another server and the first is ended in the background (its cancellation sent first, then up to 3 s for it to
     * exit). Closing the toolset in that window left the first server running, after the JVM too; it is ended with the
     * close.
     */
    @Test
    void aServerLeftInDoubtIsEndedWhenTheToolsetClosesWhileItIsStillBeingLeft() throws Exception {
        NpmServers.script("server-everything");
        Path script = dir.resolve("stuck.js");
        Files.writeString(script, SERVER, StandardCharsets.UTF_8);
        Set<Long> before = McpTesting.descendants();
        McpToolset mcp = McpToolset.start(McpTesting.config("stuck", "\"command\": \"node\", \"args\": [\"" + NpmServers.json(script.toString())
                + "\"], \"timeout_seconds\": 2"), dev.rein.mcp.internal.OsProcess.launcher(), McpTesting.QUICK_PING);
        Set<Long> first = McpTesting.descendants();
        first.removeAll(before);
        assertThat(call(mcp, "hang", "{}").content()).contains("did not answer tool 'hang' in time");
        // On a new server (the first, busy on its one thread, answers no ping either); the first is being left.
        assertThat(call(mcp, "echo", "{}", 20).content()).isEqualTo("ok");
        CompletableFuture.runAsync(mcp::close).get(20, TimeUnit.SECONDS);
        Thread.sleep(500); // a destroyed process is reaped
        assertThat(first).isNotEmpty().noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    }

    private static ToolOutput call(McpToolset mcp, String name, String arguments) {
        return call(mcp, name, arguments, 2);
    }

    private static ToolOutput call(McpToolset mcp, String name, String arguments, int seconds) {
        Tool tool = mcp.tools().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
        try {
            return (ToolOutput) tool.handler().handle(Json.parse(arguments),
                    ToolContext.standalone("k-" + name).withRisk(tool.risk()).withDeadline(Instant.now().plus(Duration.ofSeconds(seconds))));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
