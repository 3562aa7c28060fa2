package dev.rein.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.mcp.McpConfig;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A listing after notifications/tools/list_changed that fails keeps the tools known so far, and says so. */
class FailedRelistingTest {
    @TempDir
    Path dir;

    /** Lists one tool, announces a change, and refuses every listing after the first. */
    private static final String SERVER = """
            const rl = require('readline').createInterface({input: process.stdin});
            const send = m => process.stdout.write(JSON.stringify(m) + "\\n");
            let listings = 0;
            rl.on('line', line => {
              const m = JSON.parse(line);
              if (m.method === 'initialize') send({jsonrpc: "2.0", id: m.id, result: {protocolVersion: m.params.protocolVersion,
                  capabilities: {tools: {listChanged: true}}, serverInfo: {name: "flaky", version: "1"}}});
              else if (m.method === 'tools/list' && listings++ === 0) {
                send({jsonrpc: "2.0", id: m.id, result: {tools: [{name: "echo", inputSchema: {type: "object"}}]}});
                send({jsonrpc: "2.0", method: "notifications/tools/list_changed"});
              } else if (m.method === 'tools/list') send({jsonrpc: "2.0", id: m.id, error: {code: -32603, message: "database unavailable"}});
            });
            """;

    @Test
    void aListingAfterListChangedThatTheServerRefusesIsWarnedOfNamingTheServerAndWhy() throws Exception {
        // It was caught and dropped without a word: the server's new tools never came, and nothing said why.
        Path script = Files.writeString(dir.resolve("flaky.js"), SERVER);
        McpConfig config = McpConfig.parse("{\"mcpServers\": {\"flaky\": {\"command\": \"node\", \"args\": [\""
                + script.toString().replace("\\", "\\\\") + "\"]}}}", "test", Map.of());
        List<String> warned = new CopyOnWriteArrayList<>();
        List<List<String>> listed = new CopyOnWriteArrayList<>();
        try (ServerConnection connection = new ServerConnection(config.servers().getFirst(), OsProcess.launcher(),
                McpJsonDefaults.getMapper(), tools -> listed.add(tools.stream().map(t -> t.name()).toList()),
                new ServerWarnings(warned::add))) {
            assertThat(connection.start()).extracting(t -> t.name()).containsExactly("echo");
            for (int i = 0; i < 1000 && warned.isEmpty(); i++) {
                Thread.sleep(10);
            }
        }
        assertThat(warned).singleElement().asString().isEqualTo("MCP server 'flaky' announced that its tools changed"
                + " (notifications/tools/list_changed), but listing them again failed: it refused the tools/list request with JSON-RPC"
                + " error -32603: database unavailable. Rein keeps offering the tools known so far (further such failures of this server"
                + " for the same reason are not warned of again).");
        assertThat(listed).isEmpty();
    }
}
