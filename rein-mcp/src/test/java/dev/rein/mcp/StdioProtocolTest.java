package dev.rein.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolContext;
import dev.rein.tool.ToolOutput;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/** The lifecycle and server-to-client requests over stdio, against a server scripted from the protocol text. */
class StdioProtocolTest {
    private final List<ScriptedStdioServer> started = new ArrayList<>();

    private McpToolset start(BiConsumer<ScriptedStdioServer, JsonNode> script) {
        return start("", script);
    }

    private McpToolset start(String extraKeys, BiConsumer<ScriptedStdioServer, JsonNode> script) {
        return McpToolset.start(McpTesting.config("scripted", "\"command\": \"scripted\"" + extraKeys), stdio -> {
            ScriptedStdioServer server = new ScriptedStdioServer(script);
            started.add(server);
            return server;
        });
    }

    @Test
    void ofTwoCallsWithOneIdempotencyKeyUnderWayTheOneThatTimesOutIsCancelledByItsOwnRequestId() throws Exception {
        // A retry may overlap the call it retries: both carry the same key. The request id was kept by key, so the later
        // call's id replaced the earlier one's, and the call that timed out had the other call's request cancelled.
        try (McpToolset mcp = start((server, message) -> {
            switch (message.path("method").asText()) {
                case "initialize" -> server.initialized(message, "2025-11-25");
                case "tools/list" -> server.result(message.get("id"), Map.of("tools", List.of(ScriptedStdioServer.tool("slow"))));
                default -> { } // tools/call: never answered
            }
        })) {
            Tool slow = mcp.tools().getFirst();
            ScriptedStdioServer server = started.getFirst();
            java.util.function.Supplier<List<JsonNode>> calls = () -> server.received.stream()
                    .filter(m -> "tools/call".equals(m.path("method").asText())).toList();
            java.util.concurrent.CompletableFuture<ToolOutput> first = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                    handle(slow, ToolContext.standalone("same-key").withDeadline(java.time.Instant.now().plusSeconds(2))));
            awaitTrue(() -> calls.get().size() == 1);
            java.util.concurrent.CompletableFuture<ToolOutput> second = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                    handle(slow, ToolContext.standalone("same-key").withDeadline(java.time.Instant.now().plusSeconds(30))));
            awaitTrue(() -> calls.get().size() == 2);
            assertThat(calls.get()).extracting(m -> m.at("/params/_meta/dev.rein~1idempotency-key").asText()).containsOnly("standalone-same-key");
            assertThat(calls.get()).allSatisfy(m -> assertThat(m.at("/params/_meta").has("dev.rein/call-note")).isFalse());

            assertThat(first.get(20, java.util.concurrent.TimeUnit.SECONDS).content()).contains("did not answer tool 'slow' in time");
            awaitTrue(() -> server.received.stream().anyMatch(m -> "notifications/cancelled".equals(m.path("method").asText())));
            List<JsonNode> cancelled = server.received.stream().filter(m -> "notifications/cancelled".equals(m.path("method").asText())).toList();
            assertThat(cancelled).singleElement().satisfies(n -> assertThat(n.at("/params/requestId")).isEqualTo(calls.get().get(0).get("id")));
            // The timeout ended the session the second call was on: it ends too, and is not cancelled by id either.
            assertThat(second.get(20, java.util.concurrent.TimeUnit.SECONDS).isError()).isTrue();
        }
    }

    private static ToolOutput handle(Tool tool, ToolContext context) {
        try {
            return (ToolOutput) tool.handler().handle(Json.parse("{}"), context.withRisk(tool.risk())); // as the executor does
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

    @Test
    void aListingInAnotherOrderOrStampedAnewIsNoChangeSoRepeatedRefusalsOfAToolListTheToolsAgainOnlyOnce() throws Exception {
        // What a call depends on is a tool's name and input schema. A server that lists its tools in another order each time,
        // or stamps each listing (a description or _meta with the time), has not changed them: a tool refused with -32602
        // again and again is listed again once, not at every refusal.
        AtomicInteger listings = new AtomicInteger();
        try (McpToolset mcp = start((server, message) -> {
            JsonNode id = message.get("id");
            switch (message.path("method").asText()) {
                case "initialize" -> server.initialized(message, "2025-11-25");
                case "tools/list" -> {
                    int listing = listings.getAndIncrement();
                    List<Map<String, Object>> tools = new java.util.ArrayList<>();
                    for (String name : listing % 2 == 0 ? List.of("a", "b") : List.of("b", "a")) {
                        tools.add(Map.of("name", name, "description", "Tool " + name + ", listed at " + listing + ".",
                                "inputSchema", Map.of("type", "object"), "_meta", Map.of("listing", listing)));
                    }
                    server.result(id, Map.of("tools", tools));
                }
                case "tools/call" -> server.send(Map.of("jsonrpc", "2.0", "id", id, "error", Map.of("code", -32602, "message", "Invalid params")));
                default -> { }
            }
        })) {
            for (int i = 0; i < 4; i++) {
                Tool a = mcp.tools().stream().filter(t -> t.name().equals("a")).findFirst().orElseThrow();
                assertThat(handle(a, ToolContext.standalone("k-a-" + i).withDeadline(java.time.Instant.now().plusSeconds(10))).content())
                        .contains("JSON-RPC error -32602: Invalid params");
                if (i == 0) {
                    awaitTrue(() -> listings.get() == 2);
                }
                Thread.sleep(200); // a listing again would be under way by now
            }
            assertThat(listings.get()).isEqualTo(2);
        }
    }

    @Test
    void aRefusedToolWhoseInputSchemaChangedIsListedAgainAtItsNextRefusal() throws Exception {
        // The listing after a refusal brought a new input schema for the tool: a refusal under that schema may say the list
        // is stale again, so it has the tools listed once more; refusals after that, under the same schema, do not.
        AtomicInteger listings = new AtomicInteger();
        try (McpToolset mcp = start((server, message) -> {
            JsonNode id = message.get("id");
            switch (message.path("method").asText()) {
                case "initialize" -> server.initialized(message, "2025-11-25");
                case "tools/list" -> server.result(id, Map.of("tools", List.of(Map.of("name", "a", "inputSchema",
                        listings.getAndIncrement() == 0 ? Map.of("type", "object")
                                : Map.of("type", "object", "properties", Map.of("q", Map.of("type", "string")))))));
                case "tools/call" -> server.send(Map.of("jsonrpc", "2.0", "id", id, "error", Map.of("code", -32602, "message", "Invalid params")));
                default -> { }
            }
        })) {
            for (int i = 0; i < 4; i++) {
                Tool a = mcp.tools().stream().filter(t -> t.name().equals("a")).findFirst().orElseThrow();
                assertThat(handle(a, ToolContext.standalone("k-a-" + i).withDeadline(java.time.Instant.now().plusSeconds(10))).content())
                        .contains("JSON-RPC error -32602: Invalid params");
                int expected = Math.min(i + 2, 3);
                awaitTrue(() -> listings.get() == expected);
                Thread.sleep(200); // a listing again would be under way by now
            }
            assertThat(listings.get()).isEqualTo(3);
        }
    }

    @Test
    void aCallRefusedWithInvalidParamsListsTheToolsAgainOnceSoAToolTheServerDroppedUnannouncedIsNoLongerOffered() throws Exception {
        // The server dropped 'gone' without notifications/tools/list_changed (it declares no listChanged) and answers its call
        // with -32602, the protocol's error for an unknown tool. Rein checked the arguments against the listed schema, so the
        // list it holds may be stale: it is listed again, once per tool while its input schema stays the same.
        AtomicInteger listings = new AtomicInteger();
        try (McpToolset mcp = start((server, message) -> {
            JsonNode id = message.get("id");
            switch (message.path("method").asText()) {
                case "initialize" -> server.initialized(message, "2025-11-25");
                case "tools/list" -> server.result(id, Map.of("tools", listings.getAndIncrement() == 0
                        ? List.of(ScriptedStdioServer.tool("kept"), ScriptedStdioServer.tool("gone"))
                        : List.of(ScriptedStdioServer.tool("kept"))));
                case "tools/call" -> server.send(Map.of("jsonrpc", "2.0", "id", id, "error", Map.of("code", -32602, "message",
                        "gone".equals(message.at("/params/name").asText()) ? "Unknown tool: gone" : "Invalid params")));
                default -> { }
            }
        })) {
            Tool gone = mcp.tools().stream().filter(t -> t.name().equals("gone")).findFirst().orElseThrow();
            Tool kept = mcp.tools().stream().filter(t -> t.name().equals("kept")).findFirst().orElseThrow();
            ToolOutput output = handle(gone, ToolContext.standalone("k-gone").withDeadline(java.time.Instant.now().plusSeconds(10)));
            assertThat(output.isError()).isTrue();
            assertThat(output.content()).contains("JSON-RPC error -32602: Unknown tool: gone");
            awaitTrue(() -> mcp.tools().stream().map(Tool::name).toList().equals(List.of("kept")));
            assertThat(listings.get()).isEqualTo(2);
            // Refused with -32602 again and again while the list stays the same: listed once more, not at every call.
            for (int i = 0; i < 3; i++) {
                assertThat(handle(kept, ToolContext.standalone("k-kept-" + i).withDeadline(java.time.Instant.now().plusSeconds(10)))
                        .content()).contains("JSON-RPC error -32602: Invalid params");
            }
            awaitTrue(() -> listings.get() == 3);
            Thread.sleep(300);
            assertThat(listings.get()).isEqualTo(3);
        }
    }

    @Test
    void anInitializeAnswerWithAFieldOfTheWrongTypeFailsTheStartNamingTheField() {
        // Before: "could not be started: RuntimeException: Client failed to initialize by explicit API call Caused by:
        // IllegalArgumentException: Cannot construct instance of `io.modelcontextprotocol.spec.McpSchema$ServerCapabilities
        // $ToolCapabilities` ... Check that 'scripted' runs from a shell with the same arguments."
        Map<Map<String, Object>, String> cases = new java.util.LinkedHashMap<>();
        cases.put(Map.of("tools", "yes"), "\"capabilities.tools\" \"yes\", where the protocol requires an object");
        cases.put(Map.of("tools", Map.of("listChanged", "yes")),
                "\"capabilities.tools.listChanged\" \"yes\", where the protocol requires true or false");
        for (var c : cases.entrySet()) {
            started.clear();
            assertThatThrownBy(() -> start((server, message) -> {
                if ("initialize".equals(message.path("method").asText())) {
                    server.result(message.get("id"), Map.of("protocolVersion", "2025-06-18", "capabilities", c.getKey(),
                            "serverInfo", Map.of("name", "scripted", "version", "1")));
                }
            })).isInstanceOf(McpConfigException.class)
                    .hasMessageContaining("MCP server 'scripted' could not be started: its initialize answer is not what the protocol"
                            + " defines: " + c.getValue() + ".")
                    .hasMessageContaining("Have the server fixed")
                    .hasMessageNotContaining("java.").hasMessageNotContaining("from a shell");
            assertThat(started.getFirst().onExit()).isDone();
        }
    }

    @Test
    void aTracedCallCarriesItsTraceContextInMetaUnderTheKeysTheProtocolReservesForIt() throws Exception {
        // OpenTelemetry's conventions for MCP: propagate trace context in params._meta; SEP-414 reserves traceparent,
        // tracestate and baggage there. A propagator's other fields (b3) are not protocol keys.
        try (McpToolset mcp = start((server, message) -> {
            switch (message.path("method").asText()) {
                case "initialize" -> server.initialized(message, "2025-06-18");
                case "tools/list" -> server.result(message.get("id"), Map.of("tools", List.of(ScriptedStdioServer.tool("look"))));
                case "tools/call" -> server.result(message.get("id"), Map.of("content", List.of(Map.of("type", "text", "text", "seen"))));
                default -> { }
            }
        })) {
            Tool look = mcp.tools().getFirst();
            String traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
            ToolContext traced = ToolContext.standalone("c-traced").withTraceContext(Map.of("traceparent", traceparent,
                    "tracestate", "rojo=00f067aa0ba902b7", "b3", "0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-1"));
            assertThat(((ToolOutput) look.handler().handle(Json.parse("{}"), traced)).content()).isEqualTo("seen");
            assertThat(((ToolOutput) look.handler().handle(Json.parse("{}"), ToolContext.standalone("c-untraced").withRisk(look.risk()))).content())
                    .isEqualTo("seen");
            List<JsonNode> calls = started.getFirst().received.stream().filter(m -> "tools/call".equals(m.path("method").asText())).toList();
            JsonNode meta = calls.get(0).at("/params/_meta");
            assertThat(meta.path("traceparent").asText()).isEqualTo(traceparent);
            assertThat(meta.path("tracestate").asText()).isEqualTo("rojo=00f067aa0ba902b7");
            assertThat(meta.has("b3")).isFalse();
            assertThat(meta.path("dev.rein/idempotency-key").asText()).isEqualTo("standalone-c-traced");
            assertThat(calls.get(1).at("/params/_meta").has("traceparent")).as("an untraced call carries none").isFalse();
        }
    }

    @Test
    void anAnswerLargerThanReinReadsIsSaidSoInPlainWords() throws Exception {
        try (McpToolset mcp = start((server, message) -> {
            switch (message.path("method").asText()) {
                case "initialize" -> server.initialized(message, "2025-06-18");
                case "tools/list" -> server.result(message.get("id"), Map.of("tools", List.of(ScriptedStdioServer.tool("dump"))));
                case "tools/call" -> server.result(message.get("id"), Map.of("content", List.of(Map.of("type", "text",
                        "text", "x".repeat(17 * 1024 * 1024)))));
                default -> { }
            }
        })) {
            Tool tool = mcp.tools().getFirst();
            ToolOutput output = (ToolOutput) tool.handler().handle(Json.parse("{}"), ToolContext.standalone("k-large").withRisk(tool.risk())
                    .withDeadline(java.time.Instant.now().plusSeconds(20)));
            assertThat(output.isError()).isTrue();
            assertThat(output.content()).startsWith("MCP server 'scripted' failed while running tool 'dump': it sent an answer of more"
                    + " than 16 MB, the most Rein reads of one message (ask the tool for less: a narrower query, a smaller range or page).")
                    .endsWith("The server is restarted at the next call.");
        }
    }

    @Test
    void anAnswerThatIsNotValidUtf8IsNotUsedAndTheCallSaysWhyAndTheServerIsKept() throws Exception {
        // MCP's stdio messages are UTF-8. Before, the Latin-1 'é' (0xE9) of a server answering in its platform's encoding
        // became U+FFFD without a word, and the model read 'caf\uFFFD' as the tool's output.
        try (McpToolset mcp = start((server, message) -> {
            switch (message.path("method").asText()) {
                case "initialize" -> server.initialized(message, "2025-06-18");
                case "tools/list" -> server.result(message.get("id"), Map.of("tools", List.of(ScriptedStdioServer.tool("menu"))));
                case "tools/call" -> {
                    byte[] answer = ("{\"jsonrpc\":\"2.0\",\"id\":" + Json.write(message.get("id"))
                            + ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"caf\u0000\"}]}}").getBytes(StandardCharsets.UTF_8);
                    answer[new String(answer, StandardCharsets.UTF_8).indexOf('\u0000')] = (byte) 0xE9;
                    server.rawBytes(answer);
                }
                default -> { }
            }
        })) {
            Tool tool = mcp.tools().getFirst();
            ToolOutput output = (ToolOutput) tool.handler().handle(Json.parse("{}"), ToolContext.standalone("k-latin1").withRisk(tool.risk())
                    .withDeadline(java.time.Instant.now().plusSeconds(20)));
            assertThat(output.isError()).as(output.content()).isTrue();
            assertThat(output.content()).startsWith("MCP server 'scripted' answered the call of tool 'menu' with a message that is not"
                    + " valid JSON-RPC: '{\"jsonrpc\":\"2.0\",\"id\":").contains("\"text\":\"caf\\xe9\"}]}}' (it is not valid UTF-8,"
                    + " which every message of MCP's stdio transport is: byte 0xE9 at offset ")
                    .endsWith("), so the answer was not used. Try again, or use another tool; the server should be fixed.")
                    .doesNotContain("\uFFFD");
            assertThat(started).hasSize(1); // the server answered: it is not restarted
        }
    }

    @Test
    void aServerRefusingTheToolListFailsTheStartSayingWhichRequestItRefused() {
        // Before: 'could not be started: JSON-RPC error -32603: database unavailable. Check that 'scripted' runs from a
        // shell with the same arguments.', neither naming the request nor fitting a server that had answered initialize.
        assertThatThrownBy(() -> start((server, message) -> {
            switch (message.path("method").asText()) {
                case "initialize" -> server.initialized(message, "2025-06-18");
                case "tools/list" -> server.send(Map.of("jsonrpc", "2.0", "id", message.get("id"),
                        "error", Map.of("code", -32603, "message", "database unavailable")));
                default -> { }
            }
        })).isInstanceOf(McpConfigException.class).hasMessage("MCP server 'scripted' could not be started: it refused the tools/list"
                + " request with JSON-RPC error -32603: database unavailable. The server runs (it answered initialize): check what it"
                + " needs (its own configuration, a key, a service it uses; its stderr may say), or set \"disabled\": true to leave it out.");
        assertThat(started.getFirst().onExit()).isDone();
    }

    @Test
    void aCallAnsweredWithAJsonRpcErrorWithoutAnIdIsSaidToBeOneNotALogLine() throws Exception {
        // JSON-RPC answers a request the server could not read with an error whose id is null (MCP 2025-11-25 lets it leave
        // the id out). Over stdio it cannot be tied to a request, so the call ends at once, but it was said to be 'a line
        // to its stdout that is not a JSON-RPC message ... (a stdio server may write only MCP messages there, its logs to
        // stderr)', advice about logs for a server that had answered with a JSON-RPC message.
        try (McpToolset mcp = start((server, message) -> {
            switch (message.path("method").asText()) {
                case "initialize" -> server.initialized(message, "2025-06-18");
                case "tools/list" -> server.result(message.get("id"), Map.of("tools", List.of(ScriptedStdioServer.tool("look"))));
                case "tools/call" -> server.send(Map.of("jsonrpc", "2.0", "error", Map.of("code", -32600, "message",
                        "Invalid Request: 読めません")));
                default -> { }
            }
        })) {
            Tool look = mcp.tools().getFirst();
            ToolOutput output = (ToolOutput) look.handler().handle(Json.parse("{}"), ToolContext.standalone("c-idless").withRisk(look.risk())
                    .withDeadline(java.time.Instant.now().plusSeconds(10)));
            assertThat(output.content()).startsWith("MCP server 'scripted' failed while running tool 'look': it stopped: it sent"
                    + " JSON-RPC error -32600: Invalid Request: 読めません without a request id (its answer to a request it could not read).")
                    .doesNotContain("not a JSON-RPC message").doesNotContain("logs to stderr");
        }
    }

    @Test
    void aLogLineOnStdoutIsSkippedAndTheServerKeptAndALaterFailureQuotesIt() throws Exception {
        // The transports spec says a server MUST NOT write to stdout anything that is not an MCP message, but many write a
        // banner or a log line there (print(), console.log, a logging library's JSON lines). The TypeScript and Python SDKs
        // report such a line and read on; Rein broke the connection, so one stray line failed the start ('it wrote a line
        // to its stdout that is not a JSON-RPC message') or every call in flight, and the server was restarted.
        try (McpToolset mcp = start((server, message) -> {
            switch (message.path("method").asText()) {
                case "initialize" -> {
                    server.raw("Server started on stdio");
                    server.initialized(message, "2025-06-18");
                }
                case "tools/list" -> {
                    server.raw("{\"level\":30,\"time\":1733300000000,\"msg\":\"listing tools\"}");
                    server.result(message.get("id"), Map.of("tools", List.of(ScriptedStdioServer.tool("look"),
                            ScriptedStdioServer.tool("crash"))));
                }
                case "tools/call" -> {
                    if ("crash".equals(message.at("/params/name").asText())) {
                        server.raw("Error: the database is gone");
                        server.destroy();
                        return;
                    }
                    server.raw("\u001b[31mcalled\u001b[0m 42");
                    server.result(message.get("id"), Map.of("content", List.of(Map.of("type", "text", "text", "seen"))));
                }
                default -> { }
            }
        })) {
            Tool look = mcp.tools().stream().filter(t -> t.name().equals("look")).findFirst().orElseThrow();
            for (int i = 0; i < 2; i++) {
                ToolOutput output = (ToolOutput) look.handler().handle(Json.parse("{}"), ToolContext.standalone("c-look-" + i).withRisk(look.risk())
                        .withDeadline(java.time.Instant.now().plusSeconds(10)));
                assertThat(output.isError()).as(output.content()).isFalse();
                assertThat(output.content()).isEqualTo("seen");
            }
            assertThat(started).as("the server is not restarted").hasSize(1);
            Tool crash = mcp.tools().stream().filter(t -> t.name().equals("crash")).findFirst().orElseThrow();
            ToolOutput crashed = (ToolOutput) crash.handler().handle(Json.parse("{}"), ToolContext.standalone("c-crash").withRisk(crash.risk())
                    .withDeadline(java.time.Instant.now().plusSeconds(10)));
            // What it wrote to stdout last is often why it stopped (an error print()ed rather than logged to stderr).
            assertThat(crashed.content()).startsWith("MCP server 'scripted' failed while running tool 'crash': it stopped: it closed its"
                    + " output").contains("Error: the database is gone").doesNotContain("\u001b");
        }
    }

    @Test
    void anEmptyNextCursorEndsTheToolListAsNoneDoes() throws Exception {
        // The spec (utilities/pagination) gives no meaning to an empty cursor; the SDK's own listTools() ends at
        // one ("next != null && !next.isEmpty()"), and so does Rein: asking again with "" would return page one.
        try (McpToolset mcp = start((server, message) -> {
            switch (message.path("method").asText()) {
                case "initialize" -> server.initialized(message, "2025-06-18");
                case "tools/list" -> server.result(message.get("id"), Map.of("tools", List.of(ScriptedStdioServer.tool("only")),
                        "nextCursor", ""));
                default -> { }
            }
        })) {
            assertThat(mcp.tools()).extracting(dev.rein.tool.Tool::name).containsExactly("only");
            assertThat(started.getFirst().received).filteredOn(m -> "tools/list".equals(m.path("method").asText())).hasSize(1);
        }
    }

    @Test
    void aMalformedErrorCarryingTheCallsIdEndsTheCallAtOnceSayingSoAndKeepsTheServer() throws Exception {
        // {"id": N, "error": "..."} is no JSON-RPC message, but it carries the call's id: the call's answer, broken. It was
        // skipped as a log line, and the call waited for its timeout; {"message": ...} without a code read as error 0.
        for (String error : List.of("\"失敗 boom\"", "{\"message\":\"失敗 boom\"}")) {
            try (McpToolset mcp = start((server, message) -> {
                switch (message.path("method").asText()) {
                    case "initialize" -> server.initialized(message, "2025-11-25");
                    case "tools/list" -> server.result(message.get("id"), Map.of("tools", List.of(ScriptedStdioServer.tool("t"))));
                    case "tools/call" -> server.raw("{\"id\":" + Json.write(message.get("id")) + ",\"error\":" + error + "}");
                    default -> { }
                }
            })) {
                Tool tool = mcp.tools().getFirst();
                java.time.Instant before = java.time.Instant.now();
                ToolOutput output = handle(tool, ToolContext.standalone("k").withDeadline(before.plusSeconds(20)));
                assertThat(java.time.Duration.between(before, java.time.Instant.now())).as(output.content())
                        .isLessThan(java.time.Duration.ofSeconds(5));
                assertThat(output.content()).startsWith("MCP server 'scripted' answered the call of tool 't' with a message that is"
                        + " not valid JSON-RPC: '").contains("失敗 boom");
                assertThat(handle(tool, ToolContext.standalone("k2").withDeadline(java.time.Instant.now().plusSeconds(20))).content())
                        .as("the server is kept").contains("失敗 boom");
                assertThat(started).hasSize(1);
            }
            started.clear();
        }
    }

    @Test
    void controlCharactersOfAStdoutLineQuotedInACallsErrorResultAreEscaped() throws Exception {
        // A malformed answer and a broken line naming "jsonrpc" are quoted in the call's error result, which a caller prints
        // or logs as it is: an escape sequence in them (ESC ] 0 retitles the terminal, ESC [ 2 J clears it) arrived raw,
        // where the stderr tail shows it escaped (\x1b).
        for (boolean malformed : List.of(true, false)) {
            // JSON has no raw C0 control in a string, so the malformed (but JSON) answer carries C1's CSI and a bidi override.
            String hostile = malformed ? "\u009b2J\u202e" : "\u001b]0;pwned\u0007\u001b[2J\u202e";
            String shown = malformed ? "\\x9b2J\\u202e" : "\\x1b]0;pwned\\x07\\x1b[2J\\u202e";
            try (McpToolset mcp = start((server, message) -> {
                switch (message.path("method").asText()) {
                    case "initialize" -> server.initialized(message, "2025-11-25");
                    case "tools/list" -> server.result(message.get("id"), Map.of("tools", List.of(ScriptedStdioServer.tool("t"))));
                    case "tools/call" -> server.raw(malformed
                            ? "{\"id\":" + Json.write(message.get("id")) + ",\"error\":\"boom " + hostile + "\"}"
                            : "{\"jsonrpc\":\"2.0\",\"id\":" + Json.write(message.get("id")) + ",\"result\": boom " + hostile);
                    default -> { }
                }
            })) {
                ToolOutput output = handle(mcp.tools().getFirst(), ToolContext.standalone("k").withDeadline(
                        java.time.Instant.now().plusSeconds(20)));
                assertThat(output.isError()).isTrue();
                assertThat(output.content()).as(output.content()).contains("boom " + shown)
                        .doesNotContain("\u001b", "\u0007", "\u009b", "\u202e");
            }
            started.clear();
        }
    }

    @Test
    void controlCharactersOfAJsonRpcErrorsMessageQuotedInACallsErrorResultAreEscaped() throws Exception {
        // A server's JSON-RPC error refusing a call is quoted in the call's error result as the server worded it: its escape
        // sequences (ESC ] 0 retitles the terminal, ESC [ 2 J clears it) and a bidi override arrived raw.
        try (McpToolset mcp = start((server, message) -> {
            switch (message.path("method").asText()) {
                case "initialize" -> server.initialized(message, "2025-11-25");
                case "tools/list" -> server.result(message.get("id"), Map.of("tools", List.of(ScriptedStdioServer.tool("t"))));
                case "tools/call" -> server.raw("{\"jsonrpc\":\"2.0\",\"id\":" + Json.write(message.get("id"))
                        + ",\"error\":{\"code\":-32000,\"message\":\"boom \\u001b]0;pwned\\u0007\\u001b[2J\\u202e\"}}");
                default -> { }
            }
        })) {
            ToolOutput output = handle(mcp.tools().getFirst(), ToolContext.standalone("k").withDeadline(
                    java.time.Instant.now().plusSeconds(20)));
            assertThat(output.isError()).isTrue();
            assertThat(output.content()).isEqualTo("MCP server 'scripted' refused the call of tool 't': JSON-RPC error -32000: boom"
                    + " \\x1b]0;pwned\\x07\\x1b[2J\\u202e");
        }
    }

    @Test
    void loneSurrogatesOfAJsonRpcErrorsMessageAreShownAsTheirEscapesNeverAsABadByteOrRaw() throws Exception {
        // A JSON escape of a lone low surrogate (U+DCE9) was quoted as if the server had sent the byte 0xE9, which was not
        // UTF-8 (backslash x e9), and a lone high one (U+D800) raw, which is no text and which JSON writers refuse.
        try (McpToolset mcp = start((server, message) -> {
            switch (message.path("method").asText()) {
                case "initialize" -> server.initialized(message, "2025-11-25");
                case "tools/list" -> server.result(message.get("id"), Map.of("tools", List.of(ScriptedStdioServer.tool("t"))));
                case "tools/call" -> server.raw("{\"jsonrpc\":\"2.0\",\"id\":" + Json.write(message.get("id"))
                        + ",\"error\":{\"code\":-32000,\"message\":\"caf\\udce9 \\ud800!\"}}");
                default -> { }
            }
        })) {
            ToolOutput output = handle(mcp.tools().getFirst(), ToolContext.standalone("k").withDeadline(
                    java.time.Instant.now().plusSeconds(20)));
            assertThat(output.isError()).isTrue();
            assertThat(output.content()).isEqualTo("MCP server 'scripted' refused the call of tool 't': JSON-RPC error -32000: caf"
                    + "\\udce9 \\ud800!");
        }
    }

    @Test
    void aMalformedErrorAnsweringInitializeOrToolsListFailsTheStartAtOnceSayingSo() {
        for (String method : List.of("initialize", "tools/list")) {
            java.time.Instant before = java.time.Instant.now();
            assertThatThrownBy(() -> start((server, message) -> {
                String asked = message.path("method").asText();
                if (asked.equals(method)) {
                    server.raw("{\"id\":" + Json.write(message.get("id")) + ",\"error\":\"東京 down\"}");
                } else if (asked.equals("initialize")) {
                    server.initialized(message, "2025-11-25");
                }
            })).isInstanceOf(McpConfigException.class)
                    .hasMessageStartingWith("MCP server 'scripted' could not be started: it answered the " + method + " request with a"
                            + " message that is not valid JSON-RPC: '{\"id\":")
                    .hasMessageContaining("東京 down").hasMessageEndingWith("Have the server fixed, or set \"disabled\": true to leave it out.");
            assertThat(java.time.Duration.between(before, java.time.Instant.now())).isLessThan(java.time.Duration.ofSeconds(10));
        }
    }

    @Test
    void anInitializeAnswerWithoutAProtocolVersionFailsTheStartSayingSo() {
        // Before: "it chose protocol version '', which Rein does not support ... Check that 'scripted' runs from a shell".
        assertThatThrownBy(() -> start((server, message) -> {
            if ("initialize".equals(message.path("method").asText())) {
                server.result(message.get("id"), Map.of("capabilities", Map.of("tools", Map.of()),
                        "serverInfo", Map.of("name", "scripted", "version", "1")));
            }
        })).isInstanceOf(McpConfigException.class)
                .hasMessage("MCP server 'scripted' could not be started: its initialize answer is not what the protocol defines: no"
                        + " \"protocolVersion\", which the protocol requires. Have the server fixed, or set \"disabled\": true to leave it out.");
        assertThat(started.getFirst().onExit()).isDone();
    }

    @Test
    void anInitializeAnswerWithoutCapabilitiesOrServerInfoFailsTheStartSayingWhichFieldIsMissing() {
        // The schema (2025-06-18, 2025-11-25) requires both, and name and version in serverInfo; the TypeScript and Python
        // SDKs' clients refuse an answer without them. Rein took it, as if the server had said nothing of itself.
        Map<String, Object> info = Map.of("name", "scripted", "version", "1");
        Map<String, Object> capabilities = Map.of("tools", Map.of());
        Map<String, Map<String, Object>> answers = new java.util.LinkedHashMap<>();
        answers.put("no \"capabilities\", which the protocol requires (an object, {} for none)",
                Map.of("protocolVersion", "2025-11-25", "serverInfo", info));
        answers.put("no \"serverInfo\", which the protocol requires (an object with \"name\" and \"version\")",
                Map.of("protocolVersion", "2025-11-25", "capabilities", capabilities));
        answers.put("no \"serverInfo.name\", which the protocol requires (a string)",
                Map.of("protocolVersion", "2025-11-25", "capabilities", capabilities, "serverInfo", Map.of("version", "1")));
        answers.put("no \"serverInfo.version\", which the protocol requires (a string)",
                Map.of("protocolVersion", "2025-11-25", "capabilities", capabilities, "serverInfo", Map.of("name", "日本")));
        Map<String, Object> nullCapabilities = new java.util.LinkedHashMap<>(Map.of("protocolVersion", "2025-11-25", "serverInfo", info));
        nullCapabilities.put("capabilities", null);
        answers.put("\"capabilities\" null, where the protocol requires an object", nullCapabilities);
        answers.forEach((problem, answer) -> {
            assertThatThrownBy(() -> start((server, message) -> {
                if ("initialize".equals(message.path("method").asText())) {
                    server.result(message.get("id"), answer);
                }
            })).isInstanceOf(McpConfigException.class)
                    .hasMessage("MCP server 'scripted' could not be started: its initialize answer is not what the protocol defines: "
                            + problem + ". Have the server fixed, or set \"disabled\": true to leave it out.");
            assertThat(started.getLast().onExit()).isDone();
        });
    }

    @Test
    void anInitializeAnswerWithANullProtocolVersionFailsTheStartSayingItIsNull() {
        // Before: "no "protocolVersion"", for an answer that has one, null.
        Map<String, Object> answer = new java.util.LinkedHashMap<>(Map.of("capabilities", Map.of("tools", Map.of()),
                "serverInfo", Map.of("name", "scripted", "version", "1")));
        answer.put("protocolVersion", null);
        assertThatThrownBy(() -> start((server, message) -> {
            if ("initialize".equals(message.path("method").asText())) {
                server.result(message.get("id"), answer);
            }
        })).isInstanceOf(McpConfigException.class)
                .hasMessage("MCP server 'scripted' could not be started: its initialize answer is not what the protocol defines:"
                        + " \"protocolVersion\" null, where the protocol requires a string. Have the server fixed, or set \"disabled\":"
                        + " true to leave it out.");
        assertThat(started.getFirst().onExit()).isDone();
    }

    @Test
    void aServerInfoWithBadIconsStartsTheServerWithoutThem() throws Exception {
        // serverInfo (an Implementation, 2025-11-25) may carry icons, only for a client to display: a bad one is left out
        // as a tool's is, not a failed start.
        for (Object icons : List.of("https://example.com/a.png", List.of(Map.of("src", "https://example.com/a.png", "theme", "blue")),
                List.of(Map.of("sizes", List.of("48x48"))), List.of(5))) {
            try (McpToolset mcp = start((server, message) -> {
                switch (message.path("method").asText()) {
                    case "initialize" -> server.result(message.get("id"), Map.of("protocolVersion", "2025-11-25",
                            "capabilities", Map.of("tools", Map.of()),
                            "serverInfo", Map.of("name", "scripted", "version", "1", "icons", icons)));
                    case "tools/list" -> server.result(message.get("id"), Map.of("tools", List.of(ScriptedStdioServer.tool("look"))));
                    default -> { }
                }
            })) {
                assertThat(mcp.tools()).extracting(dev.rein.tool.Tool::name).containsExactly("look");
            }
        }
    }

    @Test
    void aServerAnsweringWithAVersionRejectedIsLeftWithAClearError() {
        assertThatThrownBy(() -> start((server, message) -> {
            if ("initialize".equals(message.path("method").asText())) {
                server.initialized(message, "1999-01-01");
            }
        })).isInstanceOf(McpConfigException.class)
                .hasMessage("MCP server 'scripted' could not be started: it chose protocol version '1999-01-01', which Rein does not"
                        + " support (Rein speaks 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25). The server runs (it answered"
                        + " initialize): use a version of it that speaks one of these, or set \"disabled\": true to leave it out.")
                // The server sent no JSON-RPC error: the version was refused by Rein. And its command is not in doubt:
                // it was 'Check that 'scripted' runs from a shell with the same arguments', which it does.
                .hasMessageNotContaining("JSON-RPC error").hasMessageNotContaining("Check that");
        ScriptedStdioServer server = started.getFirst();
        assertThat(server.received).extracting(m -> m.path("method").asText()).containsExactly("initialize");
        assertThat(server.onExit()).isDone();
    }

    @Test
    void aServerRefusingTheVersionAskedForWithAJsonRpcErrorIsSaidToHaveRefusedIt() {
        // The protocol's own example (basic/lifecycle, Error Handling). Rein took it for the SDK's refusal of a version
        // the server chose: "it chose protocol version '{supported=[2024-11-05], requested=2025-11-25}'".
        assertThatThrownBy(() -> start((server, message) -> {
            if ("initialize".equals(message.path("method").asText())) {
                server.send(Map.of("jsonrpc", "2.0", "id", message.get("id"), "error", Map.of("code", -32602,
                        "message", "Unsupported protocol version",
                        "data", Map.of("supported", List.of("2024-11-05"), "requested", message.at("/params/protocolVersion").asText()))));
            }
        })).isInstanceOf(McpConfigException.class)
                .hasMessageStartingWith("MCP server 'scripted' could not be started: it refused the initialize request with JSON-RPC error"
                        + " -32602: Unsupported protocol version (it supports 2024-11-05; Rein asked for 2025-11-25)")
                .hasMessageNotContaining("it chose");
        assertThat(started.getFirst().onExit()).isDone();
    }

    @Test
    void theVersionsARefusedInitializeSaysItSupportsAreMaskedAsOtherServerTextIs() {
        // The "supported" list of a refused initialize is the server's text, quoted in the start failure: it was not masked,
        // so a server echoing its key there (a misconfigured proxy, a debug build) put the key in the log and the error.
        assertThatThrownBy(() -> start(", \"env\": {\"SVC_API_KEY\": \"sk-literal-77\"}", (server, message) -> {
            if ("initialize".equals(message.path("method").asText())) {
                server.send(Map.of("jsonrpc", "2.0", "id", message.get("id"), "error", Map.of("code", -32602,
                        "message", "Unsupported protocol version",
                        "data", Map.of("supported", List.of("2099-01-01 (key sk-literal-77)"), "requested", "sk-literal-77"))));
            }
        })).isInstanceOf(McpConfigException.class)
                .hasMessageContaining("(it supports 2099-01-01 (key [REDACTED:")
                .hasMessageNotContaining("sk-literal-77");
    }

    @Test
    void aRefusedInitializeDoesNotPutTheServersCommandInDoubtButSaysWhatToCheck() {
        // The server ran and answered: 'Check that 'scripted' runs from a shell with the same arguments' sent the user to
        // a command that works. A refusal says what to check instead, as a refused tools/list does.
        assertThatThrownBy(() -> start((server, message) -> {
            if ("initialize".equals(message.path("method").asText())) {
                server.send(Map.of("jsonrpc", "2.0", "id", message.get("id"), "error", Map.of("code", -32603,
                        "message", "database unavailable")));
            }
        })).isInstanceOf(McpConfigException.class)
                .hasMessage("MCP server 'scripted' could not be started: it refused the initialize request with JSON-RPC error -32603:"
                        + " database unavailable. The server runs (it answered the initialize request): check what it needs (its own"
                        + " configuration, a key, a service it uses; its stderr may say), or set \"disabled\": true to leave it out.");
        // Refused for the version asked for, naming versions it supports of which Rein speaks one: the protocol has a server
        // answer with a version it supports instead (Rein then speaks it), so the server is at fault, not its command.
        assertThatThrownBy(() -> start((server, message) -> {
            if ("initialize".equals(message.path("method").asText())) {
                server.send(Map.of("jsonrpc", "2.0", "id", message.get("id"), "error", Map.of("code", -32602,
                        "message", "Unsupported protocol version",
                        "data", Map.of("supported", List.of("2024-11-05"), "requested", message.at("/params/protocolVersion").asText()))));
            }
        })).isInstanceOf(McpConfigException.class)
                .hasMessage("MCP server 'scripted' could not be started: it refused the initialize request with JSON-RPC error -32602:"
                        + " Unsupported protocol version (it supports 2024-11-05; Rein asked for 2025-11-25). The server runs (it answered"
                        + " the initialize request) and speaks 2024-11-05, which Rein speaks too, but it refused the version asked for where"
                        + " the protocol has it answer with one it supports: have the server fixed, or set \"disabled\": true to leave it"
                        + " out.");
        // Naming only versions Rein does not speak: a version of the server that speaks one Rein does is the way out.
        assertThatThrownBy(() -> start((server, message) -> {
            if ("initialize".equals(message.path("method").asText())) {
                server.send(Map.of("jsonrpc", "2.0", "id", message.get("id"), "error", Map.of("code", -32602,
                        "message", "Unsupported protocol version", "data", Map.of("supported", List.of("2099-01-01")))));
            }
        })).isInstanceOf(McpConfigException.class)
                .hasMessage("MCP server 'scripted' could not be started: it refused the initialize request with JSON-RPC error -32602:"
                        + " Unsupported protocol version (it supports 2099-01-01). The server runs (it answered the initialize request):"
                        + " use a version of it that speaks one Rein speaks (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25), or set"
                        + " \"disabled\": true to leave it out.");
    }

    @Test
    void aToolListNotAnsweredInTimeFailsTheStartNamingTheRequestAndTheLimitAndIsCancelledBeforeTheServerEnds() throws Exception {
        // It was 'could not be started: no answer in time. Check that 'scripted' runs from a shell with the same arguments':
        // neither which request nor how long, and the command of a server that answered initialize put in doubt.
        assertThatThrownBy(() -> start((server, message) -> {
            if ("initialize".equals(message.path("method").asText())) {
                server.initialized(message, "2025-11-25");
            }
        })).isInstanceOf(McpConfigException.class)
                .hasMessage("MCP server 'scripted' could not be started: it answered the initialize request but did not answer the"
                        + " tools/list request within 30 s. The server runs (it answered initialize): check what it needs (its own"
                        + " configuration, a key, a service it uses; its stderr may say), or set \"disabled\": true to leave it out."
                        + " If it is only slow to list its tools, give it longer with \"timeout_seconds\" above 30 in its entry of the"
                        + " servers file (McpServerConfig.timeout() in code): Rein waits that long for initialize and each page of the"
                        + " tool list, 30 s at least.");
        // The server is ended.
        ScriptedStdioServer server = started.getFirst();
        assertThat(server.onExit()).isDone();
        // Cancellation utility: a client SHOULD send notifications/cancelled for a request it gives up. It was sent on a thread
        // of its own while the server was ended at once, so it mostly never reached the server (its input closed first). What
        // was written before the input closed is still read by the server: its reader is waited for to reach the end.
        assertThat(server.inputEnded.await(10, java.util.concurrent.TimeUnit.SECONDS)).as("the server read its input to the end").isTrue();
        List<JsonNode> lists = server.received.stream().filter(m -> "tools/list".equals(m.path("method").asText())).toList();
        assertThat(lists).hasSize(1);
        assertThat(server.received.stream().filter(m -> "notifications/cancelled".equals(m.path("method").asText())).toList())
                .as("what the server received: " + server.received).singleElement()
                .satisfies(n -> assertThat(n.at("/params/requestId")).isEqualTo(lists.getFirst().get("id")))
                .satisfies(n -> assertThat(n.at("/params/reason").asText()).isEqualTo("the tools/list request timed out"));
    }

    @Test
    void anInitializeNotAnsweredInTimeSaysWhichSettingGivesASlowServerLonger() {
        // It said only 'within 30 s. Check that ... runs from a shell with the same arguments': a server that is merely slow
        // to start (npx fetching a package on its first run) was not told apart, nor the setting that gives it longer named.
        assertThatThrownBy(() -> start((server, message) -> { })).isInstanceOf(McpConfigException.class)
                .hasMessageStartingWith("MCP server 'scripted' could not be started: it did not answer the initialize request within"
                        + " 30 s. Check that '")
                .hasMessageEndingWith("' runs from a shell with the same arguments. If it is only slow to start (npx fetching a package"
                        + " on its first run, a large index loaded), give it longer with \"timeout_seconds\" above 30 in its entry of the"
                        + " servers file (McpServerConfig.timeout() in code): Rein waits that long for initialize and each page of the"
                        + " tool list, 30 s at least.");
    }

    @Test
    void aServerWithAShortCallTimeoutStillHasThirtySecondsToStartAndListItsTools() {
        // Docs: "no answer to initialize within 30 s or its timeout". The SDK's own request timeout (the
        // call's timeout + 5 s) ended the start after 5.5 s here, with Reactor's "Did not observe any item ...".
        BiConsumer<ScriptedStdioServer, JsonNode> slow = (server, message) -> {
            String method = message.path("method").asText();
            if (method.equals("initialize") || method.equals("tools/list")) {
                Thread.ofVirtual().start(() -> {
                    try {
                        Thread.sleep(6_500);
                    } catch (InterruptedException e) {
                        return;
                    }
                    if (method.equals("initialize")) {
                        server.initialized(message, "2025-06-18");
                    } else {
                        server.result(message.get("id"), Map.of("tools", List.of(ScriptedStdioServer.tool("t"))));
                    }
                });
            }
        };
        try (McpToolset mcp = start(", \"timeout_seconds\": 0.5", slow)) {
            assertThat(mcp.tools()).extracting(Tool::name).containsExactly("t");
            assertThat(mcp.tools().getFirst().timeout()).isEqualTo(java.time.Duration.ofMillis(500));
        }
    }

    @Test
    void requestsFromTheServerAreAnsweredPingWithAnEmptyResultTheRestWithMethodNotFound() throws Exception {
        List<String> asked = List.of("ping", "roots/list", "sampling/createMessage", "elicitation/create", "no/such-method");
        Map<String, JsonNode> answers = new ConcurrentHashMap<>();
        try (McpToolset mcp = start((server, message) -> {
            String method = message.path("method").asText();
            switch (method) {
                case "initialize" -> {
                    // A ping may come at any time, also before the initialize answer.
                    server.send(Map.of("jsonrpc", "2.0", "id", "early-ping", "method", "ping"));
                    server.initialized(message, "2025-06-18");
                }
                case "tools/list" -> server.result(message.get("id"), Map.of("tools", List.of(ScriptedStdioServer.tool("ask"))));
                case "tools/call" -> {
                    for (String request : asked) {
                        server.send(Map.of("jsonrpc", "2.0", "id", "srv-" + request, "method", request, "params", Map.of()));
                    }
                    server.result(message.get("id"), Map.of("content", List.of(Map.of("type", "text", "text", "asked"))));
                }
                default -> {
                    if (message.has("id") && !message.has("method")) {
                        answers.put(message.get("id").asText(), message);
                    }
                }
            }
        })) {
            Tool ask = mcp.tools().getFirst();
            ToolOutput output = (ToolOutput) ask.handler().handle(Json.parse("{}"), ToolContext.standalone("c1").withRisk(ask.risk()));
            assertThat(output.content()).isEqualTo("asked");
            for (int i = 0; i < 100 && answers.size() < asked.size() + 1; i++) {
                Thread.sleep(50);
            }
        }
        assertThat(answers.get("early-ping").get("result")).as(answers.toString()).isEqualTo(Json.parse("{}"));
        assertThat(answers.get("srv-ping").get("result")).isEqualTo(Json.parse("{}"));
        for (String request : asked.subList(1, asked.size())) {
            assertThat(answers.get("srv-" + request)).as(request + " in " + answers).isNotNull();
            assertThat(answers.get("srv-" + request).at("/error/code").asInt()).as(request).isEqualTo(-32601);
        }
    }

    @Test
    void aToolListingThatTimesOutIsCancelledOnTheServer() throws Exception {
        // Lifecycle, Timeouts: "When the request has not received a success or error response within the timeout
        // period, the sender SHOULD issue a cancellation notification for that request and stop waiting for a response."
        AtomicInteger listings = new AtomicInteger();
        try (McpToolset mcp = start(", \"timeout_seconds\": 0.5", (server, message) -> {
            switch (message.path("method").asText()) {
                case "initialize" -> server.initialized(message, "2025-11-25");
                case "tools/list" -> {
                    if (listings.incrementAndGet() == 1) { // the listing after the change is never answered
                        server.result(message.get("id"), Map.of("tools", List.of(ScriptedStdioServer.tool("change"))));
                    }
                }
                case "tools/call" -> {
                    server.send(Map.of("jsonrpc", "2.0", "method", "notifications/tools/list_changed"));
                    server.result(message.get("id"), Map.of("content", List.of(Map.of("type", "text", "text", "changed"))));
                }
                default -> { }
            }
        })) {
            Tool change = mcp.tools().getFirst();
            assertThat(((ToolOutput) change.handler().handle(Json.parse("{}"), ToolContext.standalone("c1").withRisk(change.risk()))).content()).isEqualTo("changed");
            ScriptedStdioServer server = started.getFirst();
            JsonNode cancelled = null;
            // A listing gets at least 30 s, whatever the call timeout (as at start), so the cancellation comes after those.
            for (int i = 0; i < 800 && cancelled == null; i++) {
                cancelled = server.received.stream().filter(m -> "notifications/cancelled".equals(m.path("method").asText()))
                        .findFirst().orElse(null);
                Thread.sleep(50);
            }
            List<JsonNode> lists = server.received.stream().filter(m -> "tools/list".equals(m.path("method").asText())).toList();
            assertThat(lists).hasSize(2);
            assertThat(cancelled).as("notifications/cancelled in " + server.received).isNotNull();
            assertThat(cancelled.at("/params/requestId")).isEqualTo(lists.get(1).get("id"));
            assertThat(cancelled.at("/params/reason").asText()).isNotBlank();
            assertThat(mcp.tools()).extracting(Tool::name).as("the tools known so far are kept").containsExactly("change");
        }
    }

    @Test
    void aServerWithoutTheToolsCapabilityOffersNoToolsAndIsNotAskedForThem() {
        try (McpToolset mcp = start((server, message) -> {
            switch (message.path("method").asText()) {
                case "initialize" -> server.result(message.get("id"), Map.of("protocolVersion", "2025-06-18",
                        "capabilities", Map.of("prompts", Map.of()), "serverInfo", Map.of("name", "prompts-only", "version", "1")));
                case "tools/list" -> server.send(Map.of("jsonrpc", "2.0", "id", message.get("id"),
                        "error", Map.of("code", -32601, "message", "Method not found")));
                default -> { }
            }
        })) {
            assertThat(mcp.tools()).isEmpty();
        }
        // Only negotiated capabilities may be used. (notifications/initialized may or may not have
        // reached the server before the close: the SDK sends it after the initialize answer.)
        assertThat(started.getFirst().received).extracting(m -> m.path("method").asText())
                .startsWith("initialize").doesNotContain("tools/list").isSubsetOf("initialize", "notifications/initialized");
    }
}
