package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.testkit.FakeMessagesServer;
import dev.rein.testkit.FakeReply;
import dev.rein.testkit.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./rein run --mcp} end to end as real processes: the fake Messages API scripts the model,
 * the real npm MCP servers do the work, and the server processes are gone when each command ends.
 */
class McpCliProcessTest {
    @TempDir
    Path dir;
    /** Set in the environment of the servers this test starts, by which {@link #assertNoServerLeft} knows them from others. */
    private final String token = java.util.UUID.randomUUID().toString();
    private final String tag = ", \"env\": {\"" + TAG + "\": \"" + token + "\"}";
    private static final String TAG = "REIN_TEST_SERVER";

    @Test
    void runDrivesARealServerEverythingTool() throws Exception {
        Path servers = dir.resolve("servers.json");
        Files.writeString(servers, "{\"mcpServers\": {\"everything\": {" + NpmServers.stdio("server-everything", "stdio") + tag + "}}}");
        try (FakeMessagesServer api = FakeMessagesServer.start()) {
            api.enqueue(FakeReply.message().toolUse("toolu_01", "get-sum", "{\"a\": 19, \"b\": 23}").build());
            api.enqueue(FakeReply.message().text("19 + 23 = 42").build());
            LauncherProcess.Outcome outcome = launcher(api).run("run", "--mcp", servers.toString(), "--json", "Add 19 and 23 with the tool");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            JsonNode json = Json.parse(outcome.stdout());
            assertThat(json.get("status").asText()).isEqualTo("SUCCEEDED");
            assertThat(json.get("answer").asText()).isEqualTo("19 + 23 = 42");
            RecordedRequest first = api.requests().get(0);
            assertThat(first.body().get("tools").findValuesAsText("name")).contains("get-sum", "echo", "calculate");
            String result = toolResult(api.requests().get(1));
            assertThat(result).contains("<untrusted_data source=\"mcp:everything/get-sum\"", "The sum of 19 and 23 is 42.");
        }
        assertNoServerLeft("server-everything");
    }

    @Test
    void aDestructiveFilesystemCallWaitsForApprovalAndRunsOnceAfterResumeInANewProcess() throws Exception {
        Path files = Files.createDirectories(dir.resolve("files"));
        Path note = files.resolve("note.txt");
        Path servers = dir.resolve("servers.json");
        Files.writeString(servers, "{\"mcpServers\": {\"filesystem\": {" + NpmServers.stdio("server-filesystem", files.toString()) + tag
                + "}}}");
        String args = "{\"path\": \"" + NpmServers.json(note.toString()) + "\", \"content\": \"一度だけ\"}";
        try (FakeMessagesServer api = FakeMessagesServer.start()) {
            api.enqueue(FakeReply.message().toolUse("toolu_01", "write_file", args).build());
            LauncherProcess launcher = launcher(api);
            LauncherProcess.Outcome paused = launcher.run("run", "--mcp", servers.toString(), "--json", "Write the note");
            assertThat(paused.exitCode()).as(paused.stderr()).isEqualTo(ExitCodes.WAITING_APPROVAL);
            String runId = Json.parse(paused.stdout()).get("run_id").asText();
            assertThat(Json.parse(paused.stdout()).get("status").asText()).isEqualTo("WAITING_APPROVAL");
            assertThat(note).doesNotExist();
            assertNoServerLeft(files.toString());

            LauncherProcess.Outcome approved = launcher.run("approve", runId);
            assertThat(approved.exitCode()).as(approved.stderr()).isZero();
            api.enqueue(FakeReply.message().text("The note is written.").build());
            // A new process, without --mcp: the run's servers file is remembered.
            LauncherProcess.Outcome resumed = launcher.run("resume", runId, "--json");
            assertThat(resumed.exitCode()).as(resumed.stderr()).isZero();
            assertThat(Json.parse(resumed.stdout()).get("status").asText()).isEqualTo("SUCCEEDED");
            assertThat(Files.readString(note, StandardCharsets.UTF_8)).isEqualTo("一度だけ");
            assertThat(toolResult(api.requests().getLast())).contains("mcp:filesystem/write_file");
            assertThat(api.requests()).hasSize(2);
        }
        assertNoServerLeft(files.toString());
    }

    @Test
    void whatAServerSendsNeverReachesTheTerminalRawThroughTheSdksLogs() throws Exception {
        NpmServers.script("server-everything"); // node is needed, as for the npm servers
        // A notification the SDK has no handler for and an answer to no request: the SDK logged both as warnings,
        // which the CLI printed to stderr with the server's escape sequences raw (recolouring, retitling the window).
        Path server = dir.resolve("noisy.js");
        Files.writeString(server, """
                const rl = require('readline').createInterface({input: process.stdin});
                const send = m => process.stdout.write(JSON.stringify(m) + "\\n");
                rl.on('line', line => {
                  const m = JSON.parse(line);
                  if (m.method === 'initialize') send({jsonrpc: "2.0", id: m.id, result: {protocolVersion: m.params.protocolVersion,
                      capabilities: {tools: {}}, serverInfo: {name: "noisy", version: "1"}}});
                  else if (m.method === 'tools/list') {
                    send({jsonrpc: "2.0", method: "notifications/whatever", params: {text: "\\u001b[31mRED\\u001b]0;pwned\\u0007"}});
                    send({jsonrpc: "2.0", id: 999, result: {note: "\\u001b[2J"}});
                    send({jsonrpc: "2.0", id: m.id, result: {tools: [{name: "t", inputSchema: {type: "object"},
                        annotations: {readOnlyHint: true}}]}});
                  }
                });
                """, StandardCharsets.UTF_8);
        Path servers = dir.resolve("servers.json");
        Files.writeString(servers, "{\"mcpServers\": {\"noisy\": {\"command\": \"node\", \"args\": [\"" + NpmServers.json(server.toString())
                + "\"]}}}");
        LauncherProcess.Outcome outcome = new LauncherProcess(dir).run("mcp", "list", servers.toString());
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(outcome.stdout()).contains("noisy (stdio: node): 1 tool");
        assertThat(outcome.stderr()).doesNotContain("\u001b", "\u0007", "McpClientSession");
    }

    private LauncherProcess launcher(FakeMessagesServer api) {
        return new LauncherProcess(dir).env("ANTHROPIC_API_KEY", "sk-ant-test-dummy").env("ANTHROPIC_BASE_URL", api.baseUrl());
    }

    private static String toolResult(RecordedRequest request) {
        JsonNode messages = request.body().get("messages");
        for (JsonNode message : messages) {
            for (JsonNode block : message.path("content")) {
                if ("tool_result".equals(block.path("type").asText())) {
                    JsonNode content = block.get("content");
                    return content.isTextual() ? content.asText() : content.at("/0/text").asText();
                }
            }
        }
        throw new AssertionError("no tool_result in " + messages);
    }

    /**
     * No server this test started still runs. Where the environment of a process can be read (Linux's /proc), a server
     * is known by the token in its environment, so one left over, reparented once its CLI process ended, is still found,
     * while another session's server with the same command line (a second test run on the machine) is not taken for
     * one; elsewhere, by a node command line mentioning {@code marker}.
     */
    private void assertNoServerLeft(String marker) {
        boolean procfs = Files.isDirectory(Path.of("/proc/self"));
        String entry = TAG + "=" + token;
        assertThat(ProcessHandle.allProcesses().filter(ProcessHandle::isAlive)
                .filter(p -> procfs ? environment(p).contains(entry)
                        : p.info().commandLine().map(c -> c.contains(marker) && c.contains("node")).orElse(false))
                .map(p -> p.pid() + " " + p.info().commandLine().orElse("?")))
                .isEmpty();
    }

    /** The entries of {@code process}'s environment; none when it cannot be read (another user's process, gone). */
    private static java.util.List<String> environment(ProcessHandle process) {
        try {
            return java.util.List.of(new String(Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "environ")),
                    StandardCharsets.UTF_8).split("\0"));
        } catch (java.io.IOException | RuntimeException e) {
            return java.util.List.of();
        }
    }
}
