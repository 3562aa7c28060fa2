package dev.rein.mcp;

import static dev.rein.mcp.McpTesting.toolResults;
import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.json.Json;
import dev.rein.model.ToolResultBlock;
import dev.rein.state.InMemoryRunStore;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolContext;
import dev.rein.tool.ToolOutput;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Faults no real server shows on demand, from an SDK-built server inside the test JVM. */
class FaultyServerTest {
    private final FaultyServers servers = new FaultyServers();

    @Test
    void aCrashMidCallIsAnErrorResultAndTheServerIsRestartedAtTheNextCall() throws Exception {
        try (McpToolset mcp = start("")) {
            ToolOutput crashed = invoke(mcp, "crash");
            assertThat(crashed.isError()).isTrue();
            assertThat(crashed.content()).contains("MCP server 'faulty'", "tool 'crash'", "exit code 137", "simulated crash");
            ToolOutput echoed = invoke(mcp, "echo");
            assertThat(echoed.isError()).isFalse();
            assertThat(echoed.content()).isEqualTo("echo: hi");
            assertThat(servers.started).hasSize(2);
            assertThat(servers.started.getFirst().ended()).isTrue();
        }
        assertThat(servers.started).allMatch(InJvmServer::ended);
    }

    /**
     * The timeout of the tests whose tool hangs: the hung call always reaches it, but it must leave the
     * server's restart and the next call (or the call reaching the server at all) time enough on a
     * loaded machine, where half a second did not.
     */
    private static final String HANG_TIMEOUT = ", \"timeout_seconds\": 3";

    @Test
    void aHangingCallTimesOutThroughTheExecutorAndTheNextCallGoesToTheSameServerWhichStillAnswersPing() {
        // The tool hangs, the server does not: it answers the ping that follows the timeout, so it is kept (a restart lost
        // its state and every call in flight beside the one given up on). A server that answers no ping is restarted
        // (GivenUpCallTest, StuckServerTest).
        ScriptedModel model = ScriptedModel.of(toolCalls(call("hang", "{}")), toolCalls(call("echo", "{\"text\": \"again\"}")), text("ok"));
        try (McpToolset mcp = start(HANG_TIMEOUT)) {
            RunResult result = Agent.builder().model(model).tools(mcp.tools()).build().run("hang then echo");
            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            List<ToolResultBlock> results = toolResults(model.lastRequest());
            assertThat(results.get(0).isError()).isTrue();
            assertThat(results.get(0).content()).contains("hang").containsIgnoringCase("time");
            assertThat(results.get(1).isError()).isFalse();
            assertThat(results.get(1).content()).contains("echo: again");
            assertThat(servers.started).as("the server that answers ping is kept").hasSize(1);
        }
    }

    @Test
    void aRestartSlowerThanTheCallsTimeoutIsKeptForTheNextCall() throws Exception {
        // A server that takes longer to start than a call may take (npx fetching a package; here 2.5 s to start, 2 s a
        // call): the call that restarts it times out, but the restart goes on and the next call uses it. Before, the restart was bounded
        // by the call's timeout and ended with it, so every later call restarted the server again and timed out again.
        servers.slowRestartMillis = 2500;
        // Waits for the restart's end, not in a wall-clock window, and with the default ping bound (5 s), not QUICK_PING. Echo
        // was called every 200 ms for 10 s: on a loaded machine a call could be waiting when the restart ended, with what was
        // left of its 2 s for the call itself; timed out, its ping, bounded at 300 ms, could take the server just started for
        // a hung one: a second restart, 3 servers started (4 of 5 runs at load 12-17). A cold JVM at load 20 took 14-17 s for
        // this test, 3 s warm.
        try (McpToolset mcp = McpToolset.start(McpTesting.config("faulty", "\"command\": \"in-jvm\", \"timeout_seconds\": 2"),
                servers.launcher())) {
            ScriptedModel model = ScriptedModel.of(toolCalls(call("crash", "{}")), toolCalls(call("echo", "{\"text\": \"during\"}")),
                    text("restarting"));
            Agent.builder().model(model).tools(mcp.tools()).build().run("crash, then echo while it restarts");
            assertThat(toolResults(model.lastRequest()).get(1).isError()).as("the restart takes longer than the call may").isTrue();
            Instant restartedBy = Instant.now().plus(Duration.ofSeconds(30));
            while (!restarted() && Instant.now().isBefore(restartedBy)) {
                Thread.sleep(20);
            }
            List<String> seen = new java.util.ArrayList<>();
            Instant until = Instant.now().plus(Duration.ofSeconds(30));
            boolean answered;
            do { // a call of the restarted server that timed out on a loaded machine is made again
                ScriptedModel again = ScriptedModel.of(toolCalls(call("echo", "{\"text\": \"after\"}")), text("done"));
                Agent.builder().model(again).tools(mcp.tools()).build().run("echo");
                ToolResultBlock result = toolResults(again.lastRequest()).getFirst();
                seen.add(result.content());
                answered = !result.isError();
            } while (!answered && Instant.now().isBefore(until));
            assertThat(seen.getLast()).as("the calls' results: %s", seen).contains("echo: after");
            // One call more, after the first answer: the restarted server is kept for the calls after it, not only one.
            ScriptedModel last = ScriptedModel.of(toolCalls(call("echo", "{\"text\": \"later\"}")), text("done"));
            Agent.builder().model(last).tools(mcp.tools()).build().run("echo");
            assertThat(toolResults(last.lastRequest()).getFirst().content()).as("the calls' results: %s", seen)
                    .contains("echo: later");
            assertThat(servers.started).as("one restart, kept; the calls' results: %s", seen).hasSize(2);
        }
    }

    /** Whether the restarted server (the second) was told by Rein that it is initialized: the restart has ended. */
    private boolean restarted() {
        synchronized (servers.started) {
            return servers.started.size() > 1
                    && servers.started.get(1).receivedLines().stream().anyMatch(line -> line.contains("notifications/initialized"));
        }
    }

    @Test
    void aCallGivenUpOnIsCancelledOnTheServer() throws Exception {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("hang", "{}")), text("it hung"));
        try (McpToolset mcp = start(HANG_TIMEOUT)) {
            Agent.builder().model(model).tools(mcp.tools()).build().run("hang");
            InJvmServer server = servers.started.getFirst();
            assertThat(cancelledCall(server).has("id")).as("a notification has no id").isFalse();
        }
    }

    /** The server's {@code notifications/cancelled} for its one tools/call, checked; sent off the caller's thread, so waited for. */
    private static JsonNode cancelledCall(InJvmServer server) throws InterruptedException {
        JsonNode call = server.receivedLines().stream().map(Json::parse)
                .filter(m -> "tools/call".equals(m.path("method").asText())).findFirst().orElseThrow();
        JsonNode cancelled = null;
        for (int i = 0; i < 100 && cancelled == null; i++) {
            cancelled = server.receivedLines().stream().map(Json::parse)
                    .filter(m -> "notifications/cancelled".equals(m.path("method").asText())).findFirst().orElse(null);
            if (cancelled == null) {
                Thread.sleep(50);
            }
        }
        assertThat(cancelled).as("notifications/cancelled in " + server.receivedLines()).isNotNull();
        assertThat(cancelled.at("/params/requestId")).isEqualTo(call.get("id"));
        assertThat(cancelled.at("/params/reason").asText()).isNotBlank();
        return cancelled;
    }

    @Test
    void aCallOfACancelledRunIsCancelledOnTheServer() throws Exception {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("hang", "{}")), text("never"));
        try (McpToolset mcp = start(", \"timeout_seconds\": 30")) {
            dev.rein.agent.RunHandle run = Agent.builder().model(model).tools(mcp.tools()).build().start("hang");
            InJvmServer server = servers.started.getFirst();
            for (int i = 0; i < 100 && server.receivedLines().stream().noneMatch(l -> l.contains("tools/call")); i++) {
                Thread.sleep(50);
            }
            run.cancel();
            assertThat(run.await(Duration.ofSeconds(10)).status()).isEqualTo(RunStatus.CANCELLED);
            cancelledCall(server);
        }
    }

    @Test
    void aToolExecutionErrorReachesTheModelAsTheToolsOwnTextSoItCanCorrectItselfAndAProtocolErrorSaysWhoRefused() {
        // Spec 2025-11-25 server/tools, Error Handling: a result with isError carries actionable feedback that clients
        // SHOULD give the model to self-correct; a JSON-RPC error MAY be given. Neither breaks the server or the run.
        List<InJvmServer> started = new java.util.ArrayList<>();
        dev.rein.mcp.internal.ServerProcess.Launcher launcher = stdio -> {
            InJvmServer server = new InJvmServer(s -> List.of(
                    FaultyServers.tool("book", "Books a flight.", true, (exchange, request) -> "yesterday".equals(request.arguments().get("text"))
                            ? McpSchema.CallToolResult.builder().addTextContent("Invalid departure date: must be in the future.").isError(true).build()
                            : FaultyServers.text("booked for " + request.arguments().get("text"))),
                    FaultyServers.tool("lookup", "Looks a flight up.", true, (exchange, request) -> {
                        throw io.modelcontextprotocol.spec.McpError.builder(-32602).message("Unknown flight number").build();
                    })));
            started.add(server);
            return server;
        };
        ScriptedModel model = ScriptedModel.of(toolCalls(call("book", "{\"text\": \"yesterday\"}")),
                toolCalls(call("book", "{\"text\": \"tomorrow\"}")), toolCalls(call("lookup", "{\"text\": \"XX1\"}")), text("booked"));
        dev.rein.testkit.RecordingListener trace = new dev.rein.testkit.RecordingListener();
        try (McpToolset mcp = McpToolset.start(McpTesting.config("airline", "\"command\": \"in-jvm\""), launcher)) {
            RunResult result = Agent.builder().model(model).tools(mcp.tools()).listener(trace).build().run("book a flight");
            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            List<ToolResultBlock> results = toolResults(model.lastRequest());
            assertThat(results.get(0).isError()).isTrue();
            assertThat(results.get(0).content()).as("the tool's own words, as untrusted data")
                    .contains("Invalid departure date: must be in the future.", "untrusted_data");
            assertThat(results.get(1).isError()).isFalse();
            assertThat(results.get(1).content()).contains("booked for tomorrow");
            assertThat(results.get(2).isError()).isTrue();
            assertThat(results.get(2).content()).contains("MCP server 'airline' refused the call of tool 'lookup': JSON-RPC error -32602:"
                    + " Unknown flight number");
            List<dev.rein.trace.TraceEvent.ToolCompleted> completed = trace.events(dev.rein.trace.TraceEvent.ToolCompleted.class);
            assertThat(completed).extracting(dev.rein.trace.TraceEvent.ToolCompleted::errorClass)
                    .containsExactly("EXECUTION_FAILED", "NONE", "EXECUTION_FAILED");
            assertThat(completed.get(0).source()).isEqualTo("mcp:airline/book");
            assertThat(completed.get(0).content()).isEqualTo("Invalid departure date: must be in the future.");
        }
        assertThat(started).as("neither error restarted the server").hasSize(1);
    }

    @Test
    void structuredContentIsRequiredAndCheckedAgainstTheToolsOutputSchema() throws Exception {
        try (McpToolset mcp = start("")) {
            ToolOutput good = (ToolOutput) tool(mcp, "weather").handler().handle(Json.parse("{\"text\": \"good\"}"),
                    ToolContext.standalone("c-good").withRisk(tool(mcp, "weather").risk()));
            assertThat(good.isError()).isFalse();
            assertThat(good.content()).contains("21");

            ToolOutput bad = (ToolOutput) tool(mcp, "weather").handler().handle(Json.parse("{\"text\": \"bad\"}"),
                    ToolContext.standalone("c-bad").withRisk(tool(mcp, "weather").risk()));
            assertThat(bad.isError()).isTrue();
            assertThat(bad.content()).contains("MCP server 'faulty'", "tool 'weather'", "does not match the tool's output schema",
                    "not used").doesNotContain("hot");
            assertThat(invoke(mcp, "echo").content()).as("the server is not treated as broken").isEqualTo("echo: hi");
            assertThat(servers.started).hasSize(1);

            ToolOutput missing = (ToolOutput) tool(mcp, "weather").handler().handle(Json.parse("{\"text\": \"missing\"}"),
                    ToolContext.standalone("c-missing").withRisk(tool(mcp, "weather").risk()));
            assertThat(missing.isError()).isTrue();
            assertThat(missing.content()).contains("tool 'weather'", "without the structured content its output schema promises");
            ToolOutput failed = (ToolOutput) tool(mcp, "weather").handler().handle(Json.parse("{\"text\": \"failed\"}"),
                    ToolContext.standalone("c-failed").withRisk(tool(mcp, "weather").risk()));
            assertThat(failed.isError()).isTrue();
            assertThat(failed.content()).as("an error result needs no structured content").contains("no weather today");
            assertThat(servers.started).hasSize(1);
        }
    }

    @Test
    void aMalformedMessageIsAnErrorResultAtOnce() throws Exception {
        try (McpToolset mcp = start("")) {
            Instant before = Instant.now();
            ToolOutput broken = invoke(mcp, "garbage");
            assertThat(broken.isError()).isTrue();
            // A message cut short (two threads' writes crossing): not a log line to skip, since an answer is lost in it.
            assertThat(broken.content()).contains("not valid JSON-RPC: '{\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {\"content\": ['");
            assertThat(Duration.between(before, Instant.now())).isLessThan(McpServerConfig.DEFAULT_TIMEOUT);
            assertThat(invoke(mcp, "echo").content()).isEqualTo("echo: hi");
        }
    }

    @Test
    void aDescriptionClaimingPreApprovalChangesNothing() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("delete_everything", "{}")), text("done"));
        try (McpToolset mcp = start("")) {
            McpToolInfo info = mcp.describe().stream().filter(t -> t.name().equals("delete_everything")).findFirst().orElseThrow();
            assertThat(info.risk()).isEqualTo(Risk.IRREVERSIBLE);
            assertThat(info.description()).isEqualTo(FaultyServers.PRE_APPROVED);
            RunResult result = Agent.builder().model(model).tools(mcp.tools()).store(new InMemoryRunStore()).build().run("clean up");
            assertThat(result.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
            assertThat(servers.deletes).hasValue(0);
        }
    }

    @Test
    void aLooserOverrideNeedsTrust() {
        assertThatThrownBy(() -> start(", \"risk\": {\"delete_everything\": \"read\"}"))
                .isInstanceOf(McpConfigException.class)
                .hasMessageContaining("'read' for tool 'delete_everything' is less strict than its annotations give (irreversible)")
                .hasMessageContaining("\"trust\": true");
        try (McpToolset trusted = start(", \"risk\": {\"delete_everything\": \"read\"}, \"trust\": true")) {
            assertThat(tool(trusted, "delete_everything").risk()).isEqualTo(Risk.READ);
        }
        try (McpToolset stricter = start(", \"risk\": \"irreversible\"")) {
            assertThat(tool(stricter, "echo").risk()).isEqualTo(Risk.IRREVERSIBLE);
        }
    }

    @Test
    void allowDenyScopeAndPrefixShapeTheTools() {
        try (McpToolset mcp = start(", \"allow\": [\"echo\", \"hang\"], \"deny\": [\"hang\"], \"scope\": \"faulty:use\", \"prefix\": \"f_\"")) {
            assertThat(mcp.tools()).extracting(Tool::name).containsExactly("f_echo");
            assertThat(tool(mcp, "f_echo").requiredScopes()).containsExactly("faulty:use");
            assertThat(mcp.describe().getFirst().mcpName()).isEqualTo("echo");
        }
        assertThatThrownBy(() -> start(", \"allow\": [\"ecko\"]")).isInstanceOf(McpConfigException.class)
                .hasMessageContaining("has no tool named 'ecko'");
    }

    @Test
    void aToolListChangeIsPickedUp() throws Exception {
        try (McpToolset mcp = start("")) {
            assertThat(mcp.describe()).extracting(McpToolInfo::name).doesNotContain("late_tool");
            invoke(mcp, "add_tool");
            Instant until = Instant.now().plusSeconds(10);
            while (mcp.describe().stream().noneMatch(t -> t.name().equals("late_tool")) && Instant.now().isBefore(until)) {
                Thread.sleep(20);
            }
            assertThat(mcp.describe()).extracting(McpToolInfo::name).contains("late_tool", "echo");
            assertThat(invoke(mcp, "late_tool").content()).isEqualTo("late");
            Thread.sleep(300); // time for a second listing to arrive, were one sent
            assertThat(servers.started.getFirst().receivedLines().stream().map(Json::parse)
                    .filter(m -> "tools/list".equals(m.path("method").asText())))
                    .as("one listing at start and one per change, not one by the SDK and another by Rein").hasSize(2);
        }
    }

    @Test
    void aToolListChangeTakenUpWhileAnotherServerIsStillStartingIsNotUndoneByTheStartListing() throws Exception {
        // Server 'quick' lists 'flip' as read-only, then, while 'slow' is still starting, as destructive (removed and
        // added again: two list_changed). The start listing, adopted once every server has started, is older.
        List<InJvmServer> quick = new java.util.concurrent.CopyOnWriteArrayList<>();
        dev.rein.mcp.internal.ServerProcess.Launcher launcher = stdio -> {
            if (stdio.command().equals("quick")) {
                InJvmServer server = new InJvmServer(s -> List.of(FaultyServers.tool("flip", "Flips.", true, (e, r) -> FaultyServers.text("flipped"))));
                quick.add(server);
                return server;
            }
            // Each step waits for the event it follows, not for a time it is likely done by (sleeps ordered them before).
            try {
                Instant until = Instant.now().plusSeconds(20);
                while ((quick.isEmpty() || answeredListings(quick.getFirst()) < 1) && Instant.now().isBefore(until)) {
                    Thread.sleep(20);
                }
                // The start listing is answered (read-only), so the changes' list_changed come after it on the same stdout.
                McpSyncServer first = quick.getFirst().server();
                first.removeTool("flip");
                first.addTool(FaultyServers.tool("flip", "Flips.", null, (e, r) -> FaultyServers.text("flipped")));
                while (answeredListings(quick.getFirst()) < 3 && Instant.now().isBefore(until)) {
                    Thread.sleep(20);
                }
                // The listings again are answered; that Rein took them up shows in the listing the next list_changed asks for:
                // Rein reads the answer before that notification, and lists again only after taking up the listing before.
                first.notifyToolsListChanged();
                while (listings(quick.getFirst()) < 4 && Instant.now().isBefore(until)) {
                    Thread.sleep(20);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new InJvmServer(s -> List.of(FaultyServers.tool("other", "Other.", true, (e, r) -> FaultyServers.text("other"))));
        };
        McpConfig config = McpConfig.parse("{\"mcpServers\": {\"quick\": {\"command\": \"quick\"}, \"slow\": {\"command\": \"slow\"}}}",
                "test", Map.of());
        try (McpToolset mcp = McpToolset.start(config, launcher)) {
            assertThat(listings(quick.getFirst())).isEqualTo(4);
            assertThat(mcp.describe()).filteredOn(t -> t.name().equals("flip")).singleElement()
                    .satisfies(t -> assertThat(t.risk()).as("the server's newest annotations").isEqualTo(Risk.IRREVERSIBLE));
            assertThat(tool(mcp, "flip").risk()).isEqualTo(Risk.IRREVERSIBLE);
        }
    }

    @Test
    void logAndProgressNotificationsDuringACallChangeNothingAboutItsAnswerOrTheServer() throws Exception {
        // A server may log (notifications/message) and report progress while it works; Rein asked for neither.
        List<InJvmServer> started = new java.util.concurrent.CopyOnWriteArrayList<>();
        dev.rein.mcp.internal.ServerProcess.Launcher launcher = stdio -> {
            InJvmServer server = new InJvmServer(s -> List.of(FaultyServers.tool("chatty", "Logs while it works.", true, (exchange, request) -> {
                exchange.loggingNotification(new io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification(
                        io.modelcontextprotocol.spec.McpSchema.LoggingLevel.ERROR, "chatty", "working on \u001b[31mit\u001b[0m"));
                exchange.progressNotification(new io.modelcontextprotocol.spec.McpSchema.ProgressNotification("unasked", 0.5, 1.0, "half"));
                return FaultyServers.text("done: " + request.arguments().get("text"));
            })));
            started.add(server);
            return server;
        };
        try (McpToolset mcp = McpToolset.start(McpTesting.config("chatty", "\"command\": \"in-jvm\""), launcher)) {
            for (String text : List.of("one", "two")) {
                ToolOutput output = (ToolOutput) tool(mcp, "chatty").handler().handle(Json.parse("{\"text\": \"" + text + "\"}"),
                        ToolContext.standalone("c-" + text).withRisk(tool(mcp, "chatty").risk()));
                assertThat(output.isError()).as(output.content()).isFalse();
                assertThat(output.content()).isEqualTo("done: " + text);
            }
            assertThat(started).as("the server that logged is kept").hasSize(1);
            assertThat(started.getFirst().sentLines()).anyMatch(line -> line.contains("notifications/message"))
                    .anyMatch(line -> line.contains("notifications/progress"));
            assertThat(started.getFirst().receivedLines()).noneMatch(line -> line.contains("logging/setLevel"));
        }
    }

    /** How many tools/list requests {@code server} has answered (written the answer of to its stdout). */
    private static long answeredListings(InJvmServer server) {
        return server.sentLines().stream().map(Json::parse).filter(m -> m.path("result").has("tools")).count();
    }

    private static long listings(InJvmServer server) {
        return server.receivedLines().stream().filter(line -> line.contains("\"tools/list\"")).count();
    }

    @Test
    void aRunningAgentOffersTheCurrentToolsAfterAListChangeThroughTheSameGate() throws Exception {
        try (McpToolset mcp = start("")) {
            McpSyncServer server = servers.started.getFirst().server();
            Tool change = Tool.builder("change_server").description("Changes the server's tools.").handler((args, ctx) -> {
                server.removeTool("hang");
                server.addTool(FaultyServers.tool("late_tool", "Appeared later.", false, (e, r) -> FaultyServers.text("late")));
                server.removeTool("echo");
                server.addTool(countingEcho());
                awaitTools(mcp, names -> names.contains("late_tool") && !names.contains("hang")
                        && mcp.tools().stream().anyMatch(t -> t.name().equals("echo")
                                && t.definition().inputSchema().path("required").toString().contains("count")));
                return "changed";
            }).build();
            ScriptedModel model = ScriptedModel.of(
                    toolCalls(call("change_server", "{}")),
                    toolCalls(call("hang", "{\"text\": \"x\"}"), call("echo", "{\"text\": \"old form\"}")),
                    toolCalls(call("echo", "{\"count\": 2}")),
                    toolCalls(call("late_tool", "{\"text\": \"x\"}")),
                    text("done"));
            InMemoryRunStore store = new InMemoryRunStore();
            Agent agent = Agent.builder().model(model).tools(change).toolSource(mcp).store(store).build();

            RunResult paused = agent.run("change the server, then use its tools");

            var requests = model.requests();
            assertThat(requests.get(0).tools()).extracting(d -> d.name()).contains("hang", "echo").doesNotContain("late_tool");
            assertThat(requests.get(1).tools()).extracting(d -> d.name()).contains("late_tool", "echo").doesNotContain("hang");
            List<ToolResultBlock> second = lastResults(requests.get(2));
            assertThat(second.get(0).isError()).isTrue();
            assertThat(second.get(0).content()).contains("Unknown tool 'hang'");
            assertThat(second.get(1).isError()).isTrue(); // validated against the new schema: count is required
            assertThat(second.get(1).content()).contains("count");
            assertThat(lastResults(requests.get(3)).get(0).content()).contains("echo v2: 2");
            // the new tool is not read-only, so it waits for a person; approval and resume find it
            assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
            assertThat(paused.pendingApprovals()).singleElement().satisfies(r -> {
                assertThat(r.tool()).isEqualTo("late_tool");
                assertThat(r.risk()).isEqualTo(Risk.WRITE);
            });
            agent.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "carol");
            RunResult done = agent.resume(paused.runId());
            assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(lastResults(model.lastRequest()).get(0).content()).contains("late");
        }
    }

    private static io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification countingEcho() {
        io.modelcontextprotocol.spec.McpSchema.Tool echo = io.modelcontextprotocol.spec.McpSchema.Tool.builder("echo",
                        Map.of("type", "object", "properties", Map.of("count", Map.of("type", "integer")), "required", List.of("count"),
                                "additionalProperties", false))
                .description("Echoes a count.")
                .annotations(new io.modelcontextprotocol.spec.McpSchema.ToolAnnotations(null, true, null, null, null, null)).build();
        return new io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification.Builder().tool(echo)
                .callHandler((e, r) -> FaultyServers.text("echo v2: " + r.arguments().get("count"))).build();
    }

    private static List<ToolResultBlock> lastResults(dev.rein.model.ModelRequest request) {
        return request.messages().getLast().content().stream().filter(ToolResultBlock.class::isInstance)
                .map(ToolResultBlock.class::cast).toList();
    }

    private static void awaitTools(McpToolset mcp, java.util.function.Predicate<List<String>> ready) throws InterruptedException {
        Instant until = Instant.now().plusSeconds(10);
        while (!ready.test(mcp.tools().stream().map(Tool::name).toList()) && Instant.now().isBefore(until)) {
            Thread.sleep(20);
        }
    }

    @Test
    void twoServersWithTheSameToolNameNeedAPrefix() {
        String entry = "{\"command\": \"in-jvm\"}";
        McpConfig config = McpConfig.parse("{\"mcpServers\": {\"one\": " + entry + ", \"two\": " + entry + "}}", "test", Map.of());
        assertThatThrownBy(() -> McpToolset.start(config, servers.launcher())).isInstanceOf(McpConfigException.class)
                .hasMessageContaining("MCP servers 'one' and 'two' both offer a tool named 'echo'")
                .hasMessageContaining("\"prefix\": \"two_\"");
        assertThat(servers.started).allMatch(InJvmServer::ended);
    }

    @Test
    void everyPageOfTheToolListIsRead() throws Exception {
        try (McpToolset mcp = McpToolset.start(McpTesting.config("paged", "\"command\": \"in-jvm\""), stdio -> new PagedServer())) {
            assertThat(mcp.tools()).extracting(Tool::name).containsExactly("one", "two", "three", "four");
            assertThat(invoke(mcp, "four").content()).isEqualTo("called four");
        }
    }

    @Test
    void aLongPagedToolListIsReadToItsEndAndOneThatComesBackToAnEarlierCursorIsRefused() {
        // one tool a page: the cursor, not a page count, decides where the list ends
        List<List<String>> single = java.util.stream.IntStream.rangeClosed(1, 150).mapToObj(i -> List.of("t" + i)).toList();
        try (McpToolset mcp = McpToolset.start(McpTesting.config("paged", "\"command\": \"in-jvm\""),
                stdio -> new PagedServer(single, false))) {
            assertThat(mcp.tools()).hasSize(150);
        }
        List<List<String>> three = List.of(List.of("one"), List.of("two"), List.of("three"));
        assertThatThrownBy(() -> McpToolset.start(McpTesting.config("paged", "\"command\": \"in-jvm\""),
                stdio -> new PagedServer(three, true)))
                .hasMessageContaining("MCP server 'paged'")
                .hasMessageContaining("its tool list came back to the cursor 'p2' of an earlier page")
                // The server ran and answered two pages: its command is not in doubt (it was 'Check that 'in-jvm' runs from a
                // shell with the same arguments'), its listing is.
                .hasMessageEndingWith(" Have the server fixed, or set \"disabled\": true to leave it out.")
                .hasMessageNotContaining("Check that");
    }

    @Test
    void aServerNamedInJapaneseIsStartedAndNamedSoInItsToolsAndResults() throws Exception {
        // Other MCP clients take any key of "mcpServers"; Rein refused '天気' saying to use letters, which it is.
        try (McpToolset mcp = McpToolset.start(McpTesting.config("天気", "\"command\": \"in-jvm\""), servers.launcher())) {
            Tool echo = tool(mcp, "echo");
            assertThat(echo.definition().description()).startsWith("[MCP server '天気'] ");
            ToolOutput output = (ToolOutput) echo.handler().handle(Json.parse("{\"text\": \"晴れ\"}"), ToolContext.standalone("c-jp").withRisk(echo.risk()));
            assertThat(output.content()).isEqualTo("echo: 晴れ");
            assertThat(output.source()).isEqualTo("mcp:天気/echo");
        }
        // A prefix must be ASCII (it becomes part of tool names), so the one suggested for a second such server is too.
        String entry = "{\"command\": \"in-jvm\"}";
        McpConfig two = McpConfig.parse("{\"mcpServers\": {\"天気\": " + entry + ", \"地図\": " + entry + "}}", "test", Map.of());
        assertThatThrownBy(() -> McpToolset.start(two, servers.launcher())).isInstanceOf(McpConfigException.class)
                .hasMessageContaining("MCP servers '天気' and '地図' both offer a tool named 'echo'")
                .hasMessageContaining("\"prefix\": \"mcp_\"");
    }

    private McpToolset start(String extraKeys) {
        return McpToolset.start(McpTesting.config("faulty", "\"command\": \"in-jvm\"" + extraKeys), servers.launcher(), McpTesting.QUICK_PING);
    }

    private static Tool tool(McpToolset mcp, String name) {
        return mcp.tools().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    private static ToolOutput invoke(McpToolset mcp, String name) throws Exception {
        JsonNode args = Json.parse("{\"text\": \"hi\"}");
        return (ToolOutput) tool(mcp, name).handler().handle(args, ToolContext.standalone("c-" + name).withRisk(tool(mcp, name).risk()));
    }
}
