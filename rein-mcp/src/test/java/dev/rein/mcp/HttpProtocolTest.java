package dev.rein.mcp;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.Agent;
import dev.rein.agent.RunHandle;
import dev.rein.json.Json;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolContext;
import dev.rein.tool.ToolOutput;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** What Rein's client sends over streamable HTTP, seen by a server written from the protocol text. */
class HttpProtocolTest {

    private static McpToolset start(ScriptedHttpServer server, String extra) {
        return McpToolset.start(McpConfig.parse("{\"mcpServers\": {\"scripted\": {\"url\": \"" + server.url() + "\"" + extra + "}}}",
                "test", Map.of()));
    }

    private static ToolOutput invoke(McpToolset mcp, String tool) throws Exception {
        return invoke(mcp, tool, "k-" + tool + System.nanoTime(), Duration.ofMillis(500));
    }

    private static ToolOutput invoke(McpToolset mcp, String tool, String key, Duration within) throws Exception {
        Tool found = mcp.tools().stream().filter(t -> t.name().equals(tool)).findFirst().orElseThrow();
        // with the risk the executor applies, the tool's own
        ToolContext context = ToolContext.standalone(key).withRisk(found.risk());
        return (ToolOutput) found.handler().handle(Json.parse("{}"), context.withDeadline(Instant.now().plus(within)));
    }

    @Test
    void everyRequestAfterInitializeCarriesTheNegotiatedVersionAndTheSession() throws Exception {
        try (ScriptedHttpServer server = new ScriptedHttpServer()) {
            try (McpToolset mcp = start(server, "")) {
                assertThat(invoke(mcp, "echo").content()).isEqualTo("done");
                // A call given up on is cancelled with a notification, which is a request after initialize too.
                assertThat(invoke(mcp, "slow").isError()).isTrue();
                awaitRpc(server, "notifications/cancelled");
            }
            List<ScriptedHttpServer.Received> afterInitialize = server.received.subList(1, server.received.size());
            assertThat(afterInitialize).as(server.received.toString()).isNotEmpty()
                    .allSatisfy(r -> assertThat(r.protocolVersion()).as(r.toString()).isEqualTo(ScriptedHttpServer.VERSION));
            assertThat(server.received).filteredOn(r -> r.httpMethod().equals("POST"))
                    .allSatisfy(r -> assertThat(r.accept()).contains("application/json", "text/event-stream"));
        }
    }

    @ParameterizedTest
    @CsvSource({"2024-11-05", "2025-03-26"})
    void aServerAnsweringAnOlderVersionReinSpeaksIsUsedAndGetsThatVersionInItsHeader(String older) throws Exception {
        // Lifecycle, Version Negotiation: the server may answer with another version it supports; a client that speaks it
        // goes on (docs/mcp.md: Rein speaks 2024-11-05, 2025-03-26, 2025-06-18 and 2025-11-25). Before, a streamable HTTP
        // server answering 2024-11-05 (as many hand-written servers do whatever is asked) failed to start with 'it chose
        // protocol version '2024-11-05', which Rein does not support (Rein speaks 2025-03-26, 2025-06-18, 2025-11-25)'.
        try (ScriptedHttpServer server = new ScriptedHttpServer()) {
            server.version = older;
            try (McpToolset mcp = start(server, "")) {
                assertThat(invoke(mcp, "echo").content()).isEqualTo("done");
            }
            assertThat(server.received.getFirst().rpcMethod()).isEqualTo("initialize");
            assertThat(server.received.subList(1, server.received.size())).as(server.received.toString()).isNotEmpty()
                    .allSatisfy(r -> assertThat(r.protocolVersion()).as(r.toString()).isEqualTo(older));
        }
    }

    @Test
    void aCallThatTimesOutOrWhoseRunIsCancelledIsCancelledOnTheServerWithItsRequestId() throws Exception {
        // Spec basic/utilities/cancellation: the notification names the request to stop by its id; over streamable
        // HTTP as over stdio (FaultyServerTest), for a timeout and for a cancelled run.
        try (ScriptedHttpServer server = new ScriptedHttpServer()) {
            try (McpToolset mcp = start(server, "")) {
                assertThat(invoke(mcp, "slow").isError()).isTrue();
                assertThat(cancelledCalls(server, 1)).containsExactly(callIds(server).get(0));
            }
            try (McpToolset mcp = start(server, ", \"timeout_seconds\": 30")) {
                ScriptedModel model = ScriptedModel.of(toolCalls(call("slow", "{}")), text("never"));
                RunHandle run = Agent.builder().model(model).tools(mcp.tools()).build().start("slow");
                Instant until = Instant.now().plus(Duration.ofSeconds(10));
                while (callIds(server).size() < 2 && Instant.now().isBefore(until)) {
                    Thread.sleep(20);
                }
                run.cancel();
                assertThat(run.await(Duration.ofSeconds(10)).status()).isEqualTo(RunStatus.CANCELLED);
                assertThat(cancelledCalls(server, 2)).containsExactly(callIds(server).get(0), callIds(server).get(1));
            }
        }
    }

    private static List<JsonNode> callIds(ScriptedHttpServer server) {
        return server.messages.stream().filter(m -> "tools/call".equals(m.path("method").asText())).map(m -> m.get("id")).toList();
    }

    /** The request ids of the first {@code count} notifications/cancelled, waited for (they are sent off the caller's thread). */
    private static List<JsonNode> cancelledCalls(ScriptedHttpServer server, int count) throws InterruptedException {
        Instant until = Instant.now().plus(Duration.ofSeconds(5));
        List<JsonNode> cancelled;
        do {
            cancelled = server.messages.stream().filter(m -> "notifications/cancelled".equals(m.path("method").asText()))
                    .peek(m -> assertThat(m.at("/params/reason").asText()).isNotBlank()).map(m -> m.at("/params/requestId")).toList();
            if (cancelled.size() < count) {
                Thread.sleep(50);
            }
        } while (cancelled.size() < count && Instant.now().isBefore(until));
        return cancelled;
    }

    @Test
    void theConfiguredHeadersGoWithEveryRequestAlsoTheStreamsTheCancellationAndTheDelete() throws Exception {
        try (ScriptedHttpServer server = new ScriptedHttpServer()) {
            server.primeStandaloneStream.set(true);
            McpConfig config = McpConfig.parse("{\"mcpServers\": {\"scripted\": {\"url\": \"" + server.url() + "\","
                    + " \"headers\": {\"Authorization\": \"Bearer ${SCRIPTED_TOKEN}\"}}}}", "test", Map.of("SCRIPTED_TOKEN", "tok-12345"));
            try (McpToolset mcp = McpToolset.start(config)) {
                assertThat(invoke(mcp, "echo").content()).isEqualTo("done");
                assertThat(invoke(mcp, "polled", "k-polled", Duration.ofSeconds(10)).content()).isEqualTo("polled");
                assertThat(invoke(mcp, "slow").isError()).isTrue();
                awaitRpc(server, "notifications/cancelled");
            }
            // "headers" are sent with every request (docs/mcp.md): a server checking its token on each would refuse any without.
            assertThat(server.received.stream().map(r -> r.httpMethod() + " " + r.rpcMethod() + (r.lastEventId() == null ? "" : " resumed")))
                    .as(server.received.toString()).contains("POST initialize", "POST tools/call", "GET null", "GET null resumed",
                            "POST notifications/cancelled", "DELETE null");
            assertThat(server.received).allSatisfy(r -> assertThat(r.authorization()).as(r.toString()).isEqualTo("Bearer tok-12345"));
        }
    }

    @Test
    void theTokenOfAHeaderWrittenIntoTheFileIsMaskedAlsoWhenAServerQuotesItWithoutItsScheme() throws Exception {
        // Every header value is a secret (docs/mcp.md); a server quoting the token alone, without "Bearer ", showed it.
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server,
                ", \"headers\": {\"Authorization\": \"Bearer tok-literal-123\", \"X-Api-Key\": \"key-literal-456\"}")) {
            server.echoAnswer.set(Map.of("content", List.of(Map.of("type", "text",
                    "text", "token tok-literal-123 has expired; key key-literal-456 is fine"))));
            ToolOutput output = invoke(mcp, "echo", "k-token", Duration.ofSeconds(10));
            assertThat(output.content()).doesNotContain("tok-literal-123", "key-literal-456")
                    .contains("token [REDACTED:", "key [REDACTED:");
            assertThat(mcp.secrets()).containsValues("Bearer tok-literal-123", "tok-literal-123", "key-literal-456");
        }
    }

    @Test
    void aCallRefusedWithAnHttpStatusLaterIsAnErrorResultNamingTheStatus() throws Exception {
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, "")) {
            server.refuseCallsWith.set(401);
            ToolOutput unauthorized = invoke(mcp, "echo", "k-401", Duration.ofSeconds(10));
            assertThat(unauthorized.isError()).isTrue();
            assertThat(unauthorized.content()).contains("MCP server 'scripted'", "tool 'echo'", "HTTP 401 Unauthorized", "\"headers\"")
                    .doesNotContain("Exception");
            server.refuseCallsWith.set(502); // 503 and 429 are told apart: aCallRefusedWith503IsSentAgainByTheRetryPolicyOnly..., aCallRefusedWith429WasNotRun...
            ToolOutput unavailable = invoke(mcp, "echo", "k-502", Duration.ofSeconds(10));
            assertThat(unavailable.isError()).isTrue();
            assertThat(unavailable.content()).contains("tool 'echo'", "HTTP 502").doesNotContain("Exception");
            server.refuseCallsWith.set(0);
            assertThat(invoke(mcp, "echo", "k-ok", Duration.ofSeconds(10)).content()).isEqualTo("done");
        }
    }

    @Test
    void theJsonRpcErrorOfAnHttpRefusalOfACallIsQuotedSoItsCauseIsKnown() throws Exception {
        // The transports spec lets an error status carry a JSON-RPC error without an id, which says why; it was quoted for
        // initialize (e0e7f33f) but a call read only 'failed while running tool 'echo': it answered HTTP 500'.
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, "")) {
            server.refuseCallsWith.set(500);
            server.refusalBody.set("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32603,"
                    + "\"message\":\"Internal error: データベースに接続できません\"}}");
            ToolOutput refused = invoke(mcp, "echo", "k-500", Duration.ofSeconds(10));
            assertThat(refused.content()).startsWith("MCP server 'scripted' failed while running tool 'echo': it answered HTTP 500;"
                    + " it said: 'JSON-RPC error -32603: Internal error: データベースに接続できません'.");
            // A refusal without a body afterwards quotes nothing, not the earlier one.
            server.refusalBody.set(null);
            server.refuseCallsWith.set(502);
            assertThat(invoke(mcp, "echo", "k-502b", Duration.ofSeconds(10)).content())
                    .startsWith("MCP server 'scripted' failed while running tool 'echo': it answered HTTP 502.");
        }
    }

    @Test
    void aCallRefusedWith503Or429AndARetryAfterSaysWhenTheServerAskedToBeTriedAgain() throws Exception {
        // RFC 9110 section 10.2.3: a 503 or 429 may say with Retry-After how long to wait (seconds, or an HTTP date).
        // Before, the model read only 'it answered HTTP 503' and could not know to wait, though a resumption honours it.
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, "")) {
            server.refuseCallsWith.set(503);
            server.refusalRetryAfter.set("30");
            // The advice follows the wait: 'call it again if you still need its answer' had the model call at once, refused again.
            assertThat(refusal(mcp, "k-503-ra")).startsWith("MCP server 'scripted' answered the call of tool 'echo': it answered HTTP 503;"
                    + " it asked to be tried again after 30 s.").endsWith(" Calling it again sooner than 30 s will likely be refused"
                    + " again: use another tool, or tell the user.").doesNotContain("Call it again if you still need its answer");
            server.refuseCallsWith.set(429);
            server.refusalBody.set("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32000,\"message\":\"Too many requests\"}}");
            server.refusalRetryAfter.set(java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.format(
                    java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC).plusSeconds(120)));
            assertThat(refusal(mcp, "k-429-ra")).matches("MCP server 'scripted' refused the call of tool 'echo': it answered HTTP 429;"
                    + " it said: 'JSON-RPC error -32000: Too many requests'; it asked to be tried again after 1(19|20) s, so the tool was"
                    + " not run .*");
            server.refusalBody.set(null);
            server.refusalRetryAfter.set(null);
            server.refuseCallsWith.set(503); // none asked: none said, nor one said before
            assertThat(refusal(mcp, "k-503-none")).startsWith("MCP server 'scripted' answered the call of tool 'echo': it answered HTTP"
                    + " 503, without a Retry-After.");
        }
    }

    @Test
    void aRetryAfterThatAsksForNoWaitOrCannotBeReadIsSaidAsItWasNotAsMissing() throws Exception {
        // A Retry-After of 0, of a date already past, or of words was read as no wait and then said as none at all
        // ('it answered HTTP 503, without a Retry-After'), so whoever reads it looks for a header that was there.
        String past = "Wed, 21 Oct 2015 07:28:00 GMT";
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, "")) {
            server.refuseCallsWith.set(503);
            server.refusalRetryAfter.set("0");
            assertThat(refusal(mcp, "k-503-zero")).startsWith("MCP server 'scripted' answered the call of tool 'echo': it answered HTTP"
                    + " 503; its Retry-After was '0', which asks for no wait.").doesNotContain("without a Retry-After");
            server.refusalRetryAfter.set("in a minute"); // (a control character in a header is refused by the JDK's client itself)
            assertThat(refusal(mcp, "k-503-words")).startsWith("MCP server 'scripted' answered the call of tool 'echo': it answered HTTP"
                    + " 503; its Retry-After was 'in a minute', neither a number of seconds nor an HTTP date, which Rein took"
                    + " as no wait.").doesNotContain("without a Retry-After");
            server.refuseCallsWith.set(429);
            server.refusalRetryAfter.set(past);
            assertThat(refusal(mcp, "k-429-past")).startsWith("MCP server 'scripted' refused the call of tool 'echo': it answered HTTP"
                    + " 429; its Retry-After was '" + past + "', a time already past, which asks for no wait, so the tool was not run");
            server.refusalRetryAfter.set("soon"); // one 'so' after the header's words, not two ('so Rein took it as no wait, so')
            assertThat(refusal(mcp, "k-429-words")).startsWith("MCP server 'scripted' refused the call of tool 'echo': it answered HTTP"
                    + " 429; its Retry-After was 'soon', neither a number of seconds nor an HTTP date, which Rein took as no wait, so the"
                    + " tool was not run");
        }
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            exchange.getResponseHeaders().set("Retry-After", "soon");
            FakeHttpEndpoint.empty(exchange, 503);
        })) {
            assertThatThrownBy(() -> McpToolset.start(server.config("remote", "/mcp", ""))).isInstanceOf(McpConfigException.class)
                    .hasMessageContaining("it answered HTTP 503; its Retry-After was 'soon', neither a number of seconds nor an HTTP"
                            + " date, which Rein took as no wait");
        }
    }

    /** What a refused call of 'echo' with idempotency key {@code key} was told: its passing refusal's message, or its error result. */
    private static String refusal(McpToolset mcp, String key) {
        ToolOutput output;
        try {
            output = invoke(mcp, "echo", key, Duration.ofSeconds(10));
        } catch (dev.rein.tool.RetryableToolException e) {
            return e.getMessage();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        assertThat(output.isError()).as("the call was refused: " + output.content()).isTrue();
        return output.content();
    }

    @Test
    void aCallRefusedWith429WasNotRunIsRetryableAndKeepsTheSession() throws Exception {
        // RFC 6585 section 4: a 429 refuses the request for too many requests, so the tool did not run. Rein ended the
        // session ('Rein connects to it again at the next call') and told the model the call 'may or may not have taken
        // effect', and the executor's retry policy never saw a passing failure it could wait out.
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, "")) {
            int initialized = server.rpc("initialize").size();
            server.refuseCallsWith.set(429);
            server.refusalRetryAfter.set("7");
            assertThatThrownBy(() -> invoke(mcp, "echo", "k-429-kept", Duration.ofSeconds(10)))
                    .isInstanceOf(dev.rein.tool.RetryableToolException.class)
                    .hasMessage("MCP server 'scripted' refused the call of tool 'echo': it answered HTTP 429; it asked to"
                            + " be tried again after 7 s, so the tool was not run (a server answers HTTP 429 to a request"
                            + " it does not take now).")
                    .satisfies(e -> assertThat(((dev.rein.tool.RetryableToolException) e).retryAfter())
                            .isEqualTo(Duration.ofSeconds(7)));
            assertSessionKept(mcp, server, initialized, "429 with Retry-After: 7");
        }
    }

    @Test
    void aCallRefusedWith503IsSentAgainByTheRetryPolicyOnlyWhenTheRiskTheExecutorAppliesIsRead() throws Exception {
        // A 503 does not prove the request was not carried out: Envoy and Istio answer 503 ("upstream connect error or
        // disconnect/reset before headers") when the upstream connection drops after the request was forwarded, and a proxy
        // may add a Retry-After of its own (RFC 9110 section 15.6.4: the server, which may be that proxy, cannot handle the
        // request now). The executor's retry sits below the approval gate, so a tool with effects is never handed to it on a
        // 503: the model may call again, and that call passes the gate. A tool the executor runs as READ has no effect to
        // repeat, so its 503 is a passing failure the retry policy waits out, as a 429 is; before, it was never retried,
        // since the handler could not see the risk the executor applies (a tool made WRITE in code must not be retried).
        record Case(String risk, boolean writeInCode, int status, String retryAfter, boolean retried) {}
        for (Case c : List.of(new Case("READ", true, 503, null, false), new Case("WRITE", false, 503, "1", false),
                new Case("WRITE", false, 503, null, false), new Case("READ", false, 503, null, true),
                new Case("READ", true, 503, "1", false), new Case("READ", false, 503, "1", true),
                new Case("WRITE", false, 429, "1", true))) {
            try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, ", \"risk\": \"" + c.risk() + "\"")) {
                int initialized = server.rpc("initialize").size();
                server.refuseCallsWith.set(c.status());
                server.refusalRetryAfter.set(c.retryAfter());
                ScriptedModel model = ScriptedModel.of(toolCalls(call("echo", "{}")), text("done"));
                List<Tool> tools = c.writeInCode() ? mcp.tools().stream().map(t -> t.toBuilder().risk(dev.rein.tool.Risk.WRITE).build())
                        .toList() : mcp.tools();
                var result = Agent.builder().model(model).tools(tools)
                        .safety(dev.rein.agent.SafetyConfig.builder().approvalPolicy(dev.rein.approval.ApprovalPolicy.NEVER).build())
                        .build().run("echo");
                assertThat(result.status()).as(c.toString()).isEqualTo(RunStatus.SUCCEEDED);
                if (c.retried()) {
                    assertThat(server.rpc("tools/call")).as(c.toString()).hasSizeGreaterThan(1);
                } else {
                    assertThat(server.rpc("tools/call")).as(c.toString()).hasSize(1);
                }
                var answer = McpTesting.toolResults(model.lastRequest()).getFirst();
                assertThat(answer.isError()).as(c.toString()).isTrue();
                if (c.status() == 503 && !c.retried()) {
                    assertThat(answer.content()).as(c.toString()).contains("it answered HTTP 503", "Rein does not send it again",
                            "It may or may not have taken effect; check before calling it again.").doesNotContain("was not run");
                } else if (c.status() == 503) {
                    assertThat(answer.content()).as(c.toString()).contains("it answered HTTP 503", "The tool only reads",
                            "gave up after").doesNotContain("taken effect").doesNotContain("was not run");
                }
                assertSessionKept(mcp, server, initialized, c.toString());
            }
        }
    }

    @Test
    void aCallRefusedWith503IsRetriedAsReadOnlyWhenItsReadComesFromTheApplicationOrATrustedServer() throws Exception {
        // The executor's retry sends a call again without the model or a person; a 503 does not show whether the call ran. A
        // READ said only by an untrusted server's readOnlyHint (the MCP spec: annotations are untrusted unless the server is
        // trusted) is its own word that repeating the call is harmless. Before, that READ was enough: the call was sent 3 times.
        record Case(String extra, dev.rein.tool.Risk inCode, boolean retried) {}
        for (Case c : List.of(new Case("", null, false), new Case(", \"trust\": true", null, true),
                new Case(", \"risk\": \"WRITE\"", dev.rein.tool.Risk.READ, true), new Case(", \"risk\": \"READ\"", null, true))) {
            try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, c.extra())) {
                server.refuseCallsWith.set(503);
                ScriptedModel model = ScriptedModel.of(toolCalls(call("echo", "{}")), text("done"));
                List<Tool> tools = c.inCode() == null ? mcp.tools()
                        : mcp.tools().stream().map(t -> t.toBuilder().risk(c.inCode()).build()).toList();
                Agent.builder().model(model).tools(tools)
                        .safety(dev.rein.agent.SafetyConfig.builder().approvalPolicy(dev.rein.approval.ApprovalPolicy.NEVER).build())
                        .build().run("echo");
                var answer = McpTesting.toolResults(model.lastRequest()).getFirst();
                assertThat(answer.content()).as(c.toString()).contains("it answered HTTP 503", c.retried() ? "The tool only reads"
                        : "The server says the tool only reads (its readOnlyHint)").doesNotContain("taken effect");
                if (c.retried()) {
                    assertThat(server.rpc("tools/call")).as(c.toString()).hasSizeGreaterThan(1);
                    assertThat(answer.content()).as(c.toString()).contains("gave up after");
                } else {
                    assertThat(server.rpc("tools/call")).as(c.toString()).hasSize(1);
                    assertThat(answer.content()).as(c.toString()).contains("Rein does not try it again. Call it again if you still"
                            + " need its answer, or use another tool.");
                }
            }
        }
    }

    /**
     * Checks that the session the refused calls used is kept: a dropped one shows only at the next call, which
     * initializes again, so one is made (answered now) and must use the same Mcp-Session-Id without a new initialize.
     */
    private static void assertSessionKept(McpToolset mcp, ScriptedHttpServer server, int initialized, String what)
            throws Exception {
        List<String> refused = server.rpc("tools/call").stream().map(ScriptedHttpServer.Received::sessionId).distinct().toList();
        server.refuseCallsWith.set(0);
        server.refusalRetryAfter.set(null);
        assertThat(invoke(mcp, "echo", "k-after-" + System.nanoTime(), Duration.ofSeconds(10)).content()).as(what).isEqualTo("done");
        assertThat(server.rpc("initialize")).as("no new session was opened: " + what).hasSize(initialized);
        assertThat(refused).as("the refused calls' session: " + what).hasSize(1).doesNotContainNull();
        assertThat(server.rpc("tools/call").getLast().sessionId()).as("the next call used the same session: " + what)
                .isEqualTo(refused.getFirst());
    }

    /**
     * An endpoint whose session breaks at every call (tools/call answered 500: the next call restarts it) and whose every
     * initialize after the first is refused with 503 and the Retry-After {@code retryAfter} gives at that time; counted in
     * {@code initializes}.
     */
    private static FakeHttpEndpoint refusingRestarts(java.util.function.Supplier<String> retryAfter,
                                                     java.util.concurrent.atomic.AtomicInteger initializes) {
        return FakeHttpEndpoint.start((exchange, message) -> {
            if (!exchange.getRequestMethod().equals("POST")) {
                FakeHttpEndpoint.empty(exchange, 405);
                return;
            }
            String method = FakeHttpEndpoint.method(message);
            if (method.equals("initialize") && initializes.incrementAndGet() > 1) {
                exchange.getResponseHeaders().set("Retry-After", retryAfter.get());
                FakeHttpEndpoint.empty(exchange, 503);
                return;
            }
            if (method.equals("tools/call")) {
                FakeHttpEndpoint.empty(exchange, 500); // the session is in doubt: restarted at the next call
                return;
            }
            FakeHttpEndpoint.echo(exchange, message, "s-1");
        });
    }

    /** What a call of {@code tool} with idempotency key {@code key}, given 10 s, was answered. */
    private static String content(Tool tool, String key) {
        try {
            return ((ToolOutput) tool.handler().handle(Json.parse("{}"), ToolContext.standalone(key).withRisk(tool.risk())
                    .withDeadline(Instant.now().plusSeconds(10)))).content();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aRestartRefusedWithARetryAfterIsNotTriedAgainBeforeThatWaitHasPassed() throws Exception {
        // RFC 9110 section 10.2.3: Retry-After is how long the user agent ought to wait before its follow-up request. A session
        // that broke was restarted, and the server refused its initialize with 503 and Retry-After: 20; the restart backoff
        // (1 s, then doubled) ignored it, so the next call a second later initialized again, and was refused again.
        java.util.concurrent.atomic.AtomicInteger initializes = new java.util.concurrent.atomic.AtomicInteger();
        try (FakeHttpEndpoint server = refusingRestarts(() -> "20", initializes);
             McpToolset mcp = McpToolset.start(server.config("remote", "/mcp", ""))) {
            Tool echo = mcp.tools().getFirst();
            assertThat(content(echo, "k-breaks")).contains("it answered HTTP 500");
            assertThat(content(echo, "k-restart")).contains("could not be restarted: it answered HTTP 503; it asked to be tried again"
                    + " after 20 s");
            Thread.sleep(1500); // past the backoff of 1 s, well before the 20 s asked
            assertThat(content(echo, "k-waits")).matches(".*; it is tried again at the first call in (19|20) s or later\\..*");
            assertThat(initializes.get()).as("no initialize before the wait asked for").isEqualTo(2);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"31536000", "99999999999999999999"})
    void aRestartRefusedWithAVeryLongOrUnreadableRetryAfterIsHeldBackAnHourAtMost(String retryAfter) throws Exception {
        // The hold was max(backoff, Retry-After): a year asked (or an unreadable value, Rein's stand-in of ~146 million
        // years) disabled the server for the process's life, while every call told the model "Try again later".
        try (FakeHttpEndpoint server = refusingRestarts(() -> retryAfter, new java.util.concurrent.atomic.AtomicInteger());
             McpToolset mcp = McpToolset.start(server.config("remote", "/mcp", ""))) {
            Tool echo = mcp.tools().getFirst();
            content(echo, "k-breaks");
            content(echo, "k-restart");
            assertThat(content(echo, "k-waits")).matches(".*; it is tried again at the first call in (3599|3600) s or later \\(its"
                    + " Retry-After (asked for 31536000 s|was too large to read); Rein holds a restart back 1 h at most\\)\\..*");
        }
    }

    @Test
    void aRestartHeldBackAnHourSaysTheWaitItsRetryAfterAskedForRoundedUpAsTheRefusalDoes() throws Exception {
        // A Retry-After as an HTTP date two hours ahead asks for a little less than 7200 s when it is read. The refusal
        // said it rounded up ('it asked to be tried again after 7200 s') and the hold, in the same message, cut it
        // ('its Retry-After asked for 7199 s').
        try (FakeHttpEndpoint server = refusingRestarts(() -> java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.format(
                java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC).plusSeconds(7200)), new java.util.concurrent.atomic.AtomicInteger());
             McpToolset mcp = McpToolset.start(server.config("remote", "/mcp", ""))) {
            Tool echo = mcp.tools().getFirst();
            content(echo, "k-breaks");
            content(echo, "k-restart");
            String waits = content(echo, "k-waits");
            java.util.regex.Matcher refusal = java.util.regex.Pattern.compile("it asked to be tried again after (\\d+) s").matcher(waits);
            java.util.regex.Matcher hold = java.util.regex.Pattern.compile("its Retry-After asked for (\\d+) s; Rein holds a restart"
                    + " back 1 h at most").matcher(waits);
            assertThat(refusal.find()).as(waits).isTrue();
            assertThat(hold.find()).as(waits).isTrue();
            assertThat(hold.group(1)).as(waits).isEqualTo(refusal.group(1));
        }
    }

    @Test
    void aStartRefusedWith503AndARetryAfterSaysWhenTheServerAskedToBeTriedAgain() throws Exception {
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (FakeHttpEndpoint.method(message).equals("initialize")) {
                exchange.getResponseHeaders().set("Retry-After", "45");
                FakeHttpEndpoint.empty(exchange, 503);
                return;
            }
            FakeHttpEndpoint.empty(exchange, 405);
        })) {
            assertThatThrownBy(() -> McpToolset.start(server.config("remote", "/mcp", ""))).isInstanceOf(McpConfigException.class)
                    .hasMessage("MCP server 'remote' could not be started: it answered HTTP 503; it asked to be tried again after 45 s."
                            + " The server answered (its URL is right), but is not taking requests now: start again once that time has"
                            + " passed, or set \"disabled\": true.");
        }
    }

    /** The Retry-After of a refused tools/list was cut away with the rest past 200 characters when the server's message was long. */
    @Test
    void aToolListRefusedWith503AndARetryAfterSaysItWhateverTheLengthOfTheServersMessage() throws Exception {
        String words = "The service is temporarily overloaded by a burst of listing requests; please retry later";
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (!exchange.getRequestMethod().equals("POST")) {
                FakeHttpEndpoint.empty(exchange, 405);
                return;
            }
            if (FakeHttpEndpoint.method(message).equals("tools/list")) {
                exchange.getResponseHeaders().set("Retry-After", "30");
                FakeHttpEndpoint.json(exchange, 503, "{\"jsonrpc\":\"2.0\",\"id\":" + FakeHttpEndpoint.id(message)
                        + ",\"error\":{\"code\":-32000,\"message\":\"" + words + "\"}}");
                return;
            }
            FakeHttpEndpoint.echo(exchange, message, "s1");
        })) {
            assertThatThrownBy(() -> McpToolset.start(server.config("remote", "/mcp", ""))).isInstanceOf(McpConfigException.class)
                    .hasMessageContaining(words).hasMessageContaining("it asked to be tried again after 30 s")
                    .hasMessageEndingWith(" The server answered (its URL is right), but is not taking requests now: start again"
                            + " once that time has passed, or set \"disabled\": true.");
        }
    }

    @Test
    void aJsonRpcErrorsLongMessageIsQuotedToItsFirst1000CharactersSayingHowManyItHas() throws Exception {
        // A server's JSON-RPC error message was quoted whole, however long: a stack trace of kilobytes filled the model's
        // context (or a one-line CLI error). Other quotes of a server's text are cut; this one is too, and says so.
        String trace = "Internal error: " + "at db.Pool.get(Pool.java:42) ".repeat(400); // 11,616 characters
        String end = "the end of the message, past the cut";
        java.util.concurrent.atomic.AtomicBoolean refuseStart = new java.util.concurrent.atomic.AtomicBoolean();
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (!exchange.getRequestMethod().equals("POST")) {
                FakeHttpEndpoint.empty(exchange, 405);
                return;
            }
            String method = FakeHttpEndpoint.method(message);
            if (method.equals("tools/call") || method.equals("initialize") && refuseStart.get()) {
                exchange.getResponseHeaders().set("Mcp-Session-Id", "s1");
                FakeHttpEndpoint.json(exchange, 200, "{\"jsonrpc\":\"2.0\",\"id\":" + FakeHttpEndpoint.id(message)
                        + ",\"error\":{\"code\":-32603,\"message\":\"" + trace + end + "\"}}");
                return;
            }
            FakeHttpEndpoint.echo(exchange, message, "s1");
        })) {
            int whole = (trace + end).length();
            String shown = "JSON-RPC error -32603: " + (trace + end).substring(0, 1000) + "… [Rein cut it to its first 1000 of " + whole
                    + " characters]";
            try (McpToolset mcp = McpToolset.start(server.config("remote", "/mcp", ""))) {
                assertThat(invoke(mcp, "echo", "k-long-error", Duration.ofSeconds(10)).content())
                        .isEqualTo("MCP server 'remote' refused the call of tool 'echo': " + shown);
            }
            refuseStart.set(true);
            assertThatThrownBy(() -> McpToolset.start(server.config("remote", "/mcp", ""))).isInstanceOf(McpConfigException.class)
                    .hasMessageStartingWith("MCP server 'remote' could not be started: it refused the initialize request with " + shown)
                    .hasMessageNotContaining(end);
        }
    }

    @Test
    void aCallAnsweredWithAJsonRpcErrorWithoutAnIdIsThatRefusalAndTheSessionIsKept() throws Exception {
        // JSON-RPC 2.0 lets a server answer a request it could not read with an error whose id is null (MCP 2025-11-25 lets
        // it leave the id out); over streamable HTTP the answer to a POST belongs to that POST's request. Before, the model
        // read the SDK's 'IllegalArgumentException: Cannot construct instance of `io.modelcontextprotocol.spec.McpSchema$
        // JSONRPCResponse`, problem: MCP responses MUST include an ID - null IDs are not allowed ...' and the session was
        // replaced.
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, "")) {
            server.refuseCallsWith.set(200);
            server.refusalBody.set("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Invalid Request: 読めません\"}}");
            ToolOutput refused = invoke(mcp, "echo", "k-null-id", Duration.ofSeconds(10));
            assertThat(refused.content()).isEqualTo("MCP server 'scripted' refused the call of tool 'echo': JSON-RPC error -32600:"
                    + " Invalid Request: 読めません (an error without the id of the request, which a server gives a request it could not read)");
            server.refusalBody.set("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}"); // no id at all
            assertThat(invoke(mcp, "echo", "k-no-id", Duration.ofSeconds(10)).content()).startsWith("MCP server 'scripted' refused the"
                    + " call of tool 'echo': JSON-RPC error -32700: Parse error (an error without the id");
            server.refuseCallsWith.set(0);
            assertThat(invoke(mcp, "echo", "k-after", Duration.ofSeconds(10)).content()).isEqualTo("done");
            assertThat(server.rpc("initialize")).hasSize(1); // the server answered: its session was kept
        }
    }

    @Test
    void aSessionIdThatIsNotVisibleAsciiFailsTheStartNamingTheHeaderAndTheRule() throws Exception {
        // The transports spec: a session id MUST only contain visible ASCII (0x21 to 0x7E). Before: the start failed as "the
        // connection closed before its answer came", since the SDK could not send the id back.
        for (String session : List.of("s 1", "séance", "s\t1")) {
            try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
                exchange.getResponseHeaders().set("Mcp-Session-Id", session);
                if (!exchange.getRequestMethod().equals("POST")) {
                    FakeHttpEndpoint.empty(exchange, 405);
                    return;
                }
                String answer = FakeHttpEndpoint.echoAnswer(message);
                if (answer == null) {
                    FakeHttpEndpoint.empty(exchange, 202);
                    return;
                }
                FakeHttpEndpoint.json(exchange, 200, answer);
            })) {
                assertThatThrownBy(() -> McpToolset.start(server.config("remote", "/mcp", ""))).as(session)
                        .isInstanceOf(McpConfigException.class)
                        .hasMessageStartingWith("MCP server 'remote' could not be started: it sent an Mcp-Session-Id header with a"
                                + " character that is not visible ASCII")
                        .hasMessageContaining("0x21 to 0x7E").hasMessageEndingWith("Have the server fixed, or set \"disabled\": true to"
                                + " leave it out.").hasMessageNotContaining(session).hasMessageNotContaining("Exception");
            }
        }
    }

    @Test
    void aToolListNotAnsweredInTimeAtStartIsCancelledBeforeTheSessionIsDeleted() throws Exception {
        // Cancellation utility: a client SHOULD send notifications/cancelled for a request it gives up. It was posted on a
        // thread of its own while the failed start closed the session at once: the DELETE could come first, after which the
        // SDK's transport no longer posts for the session, so the server never heard of it.
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            exchange.getResponseHeaders().set("Mcp-Session-Id", "s-1");
            switch (exchange.getRequestMethod()) {
                case "DELETE" -> {
                    seen.add("DELETE");
                    FakeHttpEndpoint.empty(exchange, 200);
                }
                case "GET" -> FakeHttpEndpoint.empty(exchange, 405);
                default -> {
                    String method = FakeHttpEndpoint.method(message);
                    seen.add(method + (method.equals("notifications/cancelled") ? " " + Json.write(message.at("/params/requestId"))
                            : method.equals("tools/list") ? " " + FakeHttpEndpoint.id(message) : ""));
                    switch (method) {
                        case "initialize" -> FakeHttpEndpoint.json(exchange, 200, FakeHttpEndpoint.initialized(message));
                        case "tools/list" -> {
                            try {
                                release.await(60, java.util.concurrent.TimeUnit.SECONDS); // never answered in time
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            FakeHttpEndpoint.empty(exchange, 503);
                        }
                        default -> FakeHttpEndpoint.empty(exchange, 202);
                    }
                }
            }
        }, true)) {
            try {
                assertThatThrownBy(() -> McpToolset.start(server.config("remote", "/mcp", ""))).isInstanceOf(McpConfigException.class)
                        .hasMessageContaining("did not answer the tools/list request within 30 s");
                Instant until = Instant.now().plus(Duration.ofSeconds(10));
                while (!seen.contains("DELETE") && Instant.now().isBefore(until)) {
                    Thread.sleep(20);
                }
                String listing = seen.stream().filter(r -> r.startsWith("tools/list ")).findFirst().orElseThrow();
                String cancelled = "notifications/cancelled " + listing.substring("tools/list ".length());
                assertThat(seen).as("what the server received").contains(cancelled, "DELETE");
                assertThat(seen.indexOf(cancelled)).as("the cancellation before the DELETE: " + seen).isLessThan(seen.indexOf("DELETE"));
            } finally {
                release.countDown();
            }
        }
    }

    @Test
    void aStartRefusedForABadAnswerEndsWithoutWaitingForTheServerToAnswerTheDeleteThatEndsItsSession() throws Exception {
        // Before: the session's close waited on the SDK's graceful close, whose DELETE a server may never answer, so every start
        // refused for what the server answered (here an initialize answer without "capabilities", or a refused tools/list) came
        // 3 s late. The DELETE still goes out, as the protocol asks of a client done with a session; its answer is not waited for.
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.BlockingQueue<Instant> deletes = new java.util.concurrent.LinkedBlockingQueue<>();
        java.util.concurrent.atomic.AtomicBoolean listingRefused = new java.util.concurrent.atomic.AtomicBoolean();
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            exchange.getResponseHeaders().set("Mcp-Session-Id", "s-1");
            switch (exchange.getRequestMethod()) {
                case "DELETE" -> {
                    deletes.add(Instant.now());
                    try {
                        release.await(30, java.util.concurrent.TimeUnit.SECONDS); // a server that does not answer it
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    FakeHttpEndpoint.empty(exchange, 200);
                }
                case "GET" -> FakeHttpEndpoint.empty(exchange, 405);
                default -> {
                    String answer = switch (FakeHttpEndpoint.method(message)) {
                        case "initialize" -> listingRefused.get() ? FakeHttpEndpoint.initialized(message)
                                : "{\"jsonrpc\":\"2.0\",\"id\":" + FakeHttpEndpoint.id(message) + ",\"result\":{\"protocolVersion\":"
                                + "\"2025-06-18\",\"serverInfo\":{\"name\":\"x\",\"version\":\"1\"}}}";
                        case "tools/list" -> "{\"jsonrpc\":\"2.0\",\"id\":" + FakeHttpEndpoint.id(message)
                                + ",\"error\":{\"code\":-32603,\"message\":\"東京 key missing\"}}";
                        default -> null;
                    };
                    if (answer == null) {
                        FakeHttpEndpoint.empty(exchange, 202);
                    } else {
                        FakeHttpEndpoint.json(exchange, 200, answer);
                    }
                }
            }
        }, true)) {
            try {
                for (String expected : List.of("no \"capabilities\"", "it refused the tools/list request with JSON-RPC error -32603: 東京 key missing")) {
                    assertThatThrownBy(() -> McpToolset.start(server.config("remote", "/mcp", ""))).isInstanceOf(McpConfigException.class)
                            .hasMessageContaining(expected);
                    Instant failed = Instant.now();
                    Instant deleted = deletes.poll(10, java.util.concurrent.TimeUnit.SECONDS);
                    assertThat(deleted).as("the DELETE that ends the session").isNotNull();
                    // The server still holds the DELETE: the error came without waiting on it (before, 3 s after it arrived).
                    assertThat(Duration.between(deleted, failed)).isLessThan(Duration.ofMillis(1500));
                    listingRefused.set(true);
                }
            } finally {
                release.countDown();
            }
        }
    }

    @Test
    void theCallAfterATimeoutDoesNotWaitForTheHungServerToTakeTheCancellationOfTheCallItGaveUp() throws Exception {
        // The session left after a timeout (and a ping unanswered for its bound, 5 s in use) first sends notifications/cancelled for the
        // call given up (waiting up to 2 s), then ends. A hung server does not take that POST either; the next call must
        // not wait for it (it held every other call of the server too, the session being discarded under the connection's
        // lock).
        java.util.concurrent.BlockingQueue<Instant> pings = new java.util.concurrent.LinkedBlockingQueue<>();
        java.util.concurrent.BlockingQueue<Instant> cancels = new java.util.concurrent.LinkedBlockingQueue<>();
        try (HungCallServer server = new HungCallServer((hung, exchange, message, ping) -> {
            if (FakeHttpEndpoint.method(message).equals("notifications/cancelled")) {
                cancels.add(Instant.now());
                await(hung.release); // hung: the cancellation is never taken
                return true;
            }
            if (ping > 0 && hung.sessions.get() == 1) {
                pings.add(Instant.now());
                await(hung.release); // hung: no ping is answered
                return true;
            }
            return false;
        })) {
            server.test(true, mcp -> {
                assertThat(invoke(mcp, "echo").isError()).isTrue(); // timed out
                ToolOutput next = invoke(mcp, "echo", "k-after-timeout", Duration.ofSeconds(20));
                Instant answered = Instant.now();
                assertThat(next.content()).isEqualTo("done");
                assertThat(server.sessions.get()).isEqualTo(2);
                assertThat(cancels.poll(10, java.util.concurrent.TimeUnit.SECONDS)).as("the cancellation was still sent").isNotNull();
                Instant pinged = pings.poll(10, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(pinged).as("the server was pinged").isNotNull();
                // The next call waits for the ping's bound, then for nothing more of the session left.
                assertThat(Duration.between(pinged.plus(McpTesting.QUICK_PING), answered)).isLessThan(Duration.ofMillis(1500));
            });
        }
    }

    @Test
    void theCallAfterATimeoutDoesNotWaitForTheHungServerToAnswerTheDeleteOfTheSessionItLeaves() throws Exception {
        // A timeout on a server that answers no ping leaves the session in doubt, so the next call opens a new one. Before, it
        // first waited up to 3 s (holding every other call of the server) for the server to answer the DELETE of the old
        // session, which a hung server never does.
        java.util.concurrent.BlockingQueue<Instant> deletes = new java.util.concurrent.LinkedBlockingQueue<>();
        try (HungCallServer server = new HungCallServer((hung, exchange, message, ping) -> {
            if (exchange.getRequestMethod().equals("DELETE")) {
                deletes.add(Instant.now());
                await(hung.release);
                FakeHttpEndpoint.empty(exchange, 200);
                return true;
            }
            if (ping > 0 && hung.sessions.get() == 1) {
                await(hung.release); // hung
                return true;
            }
            return false;
        })) {
            server.test(true, mcp -> {
                assertThat(invoke(mcp, "echo").isError()).isTrue(); // timed out
                ToolOutput next = invoke(mcp, "echo", "k-after-timeout", Duration.ofSeconds(20));
                Instant answered = Instant.now();
                assertThat(next.content()).isEqualTo("done");
                assertThat(server.sessions.get()).isEqualTo(2);
                Instant deleted = deletes.poll(10, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(deleted).as("the DELETE of the session left").isNotNull();
                assertThat(Duration.between(deleted, answered)).isLessThan(Duration.ofMillis(1500));
            });
        }
    }

    /** How a test has {@link HungCallServer} answer what it answers itself: a ping, a DELETE, a notification. */
    @FunctionalInterface
    private interface Answer {
        /**
         * @param ping which ping of the server a ping is, from 1; 0 for any other request
         * @return true once it answered (or held) the exchange; false to have the server answer it
         */
        boolean answer(HungCallServer server, com.sun.net.httpserver.HttpExchange exchange, JsonNode message, int ping)
                throws IOException;
    }

    /** What a test does with the toolset started on a {@link HungCallServer}. */
    @FunctionalInterface
    private interface ToolsetTest {
        void run(McpToolset mcp) throws Exception;
    }

    /**
     * The server of the cases of what a ping after a timed-out call makes of the session: its first {@code tools/call} is
     * held unanswered until the test ends, so that call times out; each request goes first to the test's {@link Answer};
     * what that leaves is answered as by the server of {@link FakeHttpEndpoint#echo}, in session "s" and the number of
     * sessions initialized (a DELETE 200, a GET 405). It counts the sessions initialized, the pings and the DELETEs.
     */
    private static final class HungCallServer implements AutoCloseable {
        final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.atomic.AtomicInteger sessions = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.atomic.AtomicInteger pings = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.atomic.AtomicInteger deletes = new java.util.concurrent.atomic.AtomicInteger();
        private final java.util.concurrent.atomic.AtomicBoolean hang = new java.util.concurrent.atomic.AtomicBoolean(true);
        private final FakeHttpEndpoint endpoint;

        HungCallServer(Answer answer) {
            endpoint = FakeHttpEndpoint.start((exchange, message) -> {
                switch (exchange.getRequestMethod()) {
                    case "DELETE" -> {
                        deletes.incrementAndGet();
                        if (!answer.answer(this, exchange, message, 0)) {
                            FakeHttpEndpoint.empty(exchange, 200);
                        }
                    }
                    case "GET" -> FakeHttpEndpoint.empty(exchange, 405);
                    default -> {
                        String method = FakeHttpEndpoint.method(message);
                        if (method.equals("initialize")) {
                            sessions.incrementAndGet();
                        }
                        exchange.getResponseHeaders().set("Mcp-Session-Id", "s" + sessions.get());
                        if (answer.answer(this, exchange, message, method.equals("ping") ? pings.incrementAndGet() : 0)) {
                            return;
                        }
                        if (method.equals("tools/call") && hang.getAndSet(false)) {
                            await(release); // hung
                            return;
                        }
                        FakeHttpEndpoint.echo(exchange, message, "s" + sessions.get());
                    }
                }
            }, true);
        }

        /**
         * Runs {@code test} on a toolset started on this server, the ping after a timeout bounded as in use or, with
         * {@code quickPing}, by {@link McpTesting#QUICK_PING}; then lets what it held go, before the toolset closes.
         */
        void test(boolean quickPing, ToolsetTest test) throws Exception {
            McpConfig config = endpoint.config("remote", "/mcp", "");
            try (McpToolset mcp = quickPing ? McpToolset.start(config, dev.rein.mcp.internal.OsProcess.launcher(), McpTesting.QUICK_PING)
                    : McpToolset.start(config)) {
                try {
                    test.run(mcp);
                } finally {
                    release.countDown();
                }
            }
        }

        @Override
        public void close() {
            endpoint.close();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {429, 503, 500})
    void aPingAnsweredWithAnHttpErrorStatusAfterATimeoutIsAnAnswerAndTheSessionIsKept(int status) throws Exception {
        // The server answered the ping (busy, or failing this one request): it is not hung. Before, a ping refused with
        // an HTTP status, even one carrying a JSON-RPC error, was taken for no answer: the session was deleted (DELETE)
        // and a new one initialized at the next call.
        try (HungCallServer server = new HungCallServer((hung, exchange, message, ping) -> {
            if (ping == 0) {
                return false;
            }
            FakeHttpEndpoint.json(exchange, status, "{\"jsonrpc\":\"2.0\",\"id\":" + FakeHttpEndpoint.id(message)
                    + ",\"error\":{\"code\":-32000,\"message\":\"busy\"}}");
            return true;
        })) {
            server.test(false, mcp -> {
                assertThat(invoke(mcp, "echo").isError()).isTrue(); // timed out
                ToolOutput next = invoke(mcp, "echo", "k-after-refused-ping", Duration.ofSeconds(20));
                assertThat(next.content()).isEqualTo("done");
                assertThat(server.pings.get()).as("the server was pinged").isEqualTo(1);
                assertThat(server.sessions.get()).as("sessions initialized").isEqualTo(1);
                assertThat(server.deletes.get()).as("sessions deleted").isZero();
            });
        }
    }

    @ParameterizedTest
    @CsvSource({"200,", "202,", "204,", "200,application/json", "200,text/plain", "200,text/event-stream"})
    void aPingAnsweredWith2xxAndNoBodyAfterATimeoutIsAnAnswerAndTheSessionIsKept(int status, String type) throws Exception {
        // Any 2xx says the server took the ping and is alive. Before, one without a body counted as a failed ping: the
        // session was broken (its other calls ended), deleted, and a new one initialized at the next call.
        try (HungCallServer server = new HungCallServer((hung, exchange, message, ping) -> {
            if (ping == 0) {
                return false;
            }
            if (type == null) {
                FakeHttpEndpoint.empty(exchange, status);
            } else {
                FakeHttpEndpoint.send(exchange, status, type, ""); // chunked, ending at once
            }
            return true;
        })) {
            server.test(false, mcp -> {
                assertThat(invoke(mcp, "echo").isError()).isTrue(); // timed out
                ToolOutput next = invoke(mcp, "echo", "k-after-empty-ping", Duration.ofSeconds(20));
                assertThat(next.content()).isEqualTo("done");
                assertThat(server.pings.get()).as("the server was pinged").isEqualTo(1);
                assertThat(server.sessions.get()).as("sessions initialized").isEqualTo(1);
                assertThat(server.deletes.get()).as("sessions deleted").isZero();
            });
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"text/event-stream", "application/json"})
    void aPingAnswered200WhoseBodyNeverEndsIsNoAnswerAndTheSessionIsReplaced(String type) throws Exception {
        // Headers are not an answer: a server whose ping's body never comes is as hung as one that sends nothing. Before,
        // the 2xx status line alone counted, so a hung server's session was kept.
        try (HungCallServer server = new HungCallServer((hung, exchange, message, ping) -> {
            if (ping != 1) {
                return false;
            }
            exchange.getResponseHeaders().set("Content-Type", type);
            exchange.sendResponseHeaders(200, 0);
            exchange.getResponseBody().flush();
            await(hung.release); // the headers sent, the answer never
            return true;
        })) {
            server.test(true, mcp -> {
                assertThat(invoke(mcp, "echo").isError()).isTrue(); // timed out
                ToolOutput next = invoke(mcp, "echo", "k-after-unended-ping", Duration.ofSeconds(20));
                assertThat(next.content()).isEqualTo("done");
                assertThat(server.pings.get()).as("the server was pinged").isGreaterThanOrEqualTo(1);
                assertThat(server.sessions.get()).as("sessions initialized: the first was taken for hung").isEqualTo(2);
            });
        }
    }

    private static void await(java.util.concurrent.CountDownLatch latch) {
        try {
            latch.await(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void anInitializeAnsweredWithAJsonRpcErrorWithoutAnIdFailsTheStartQuotingIt() throws Exception {
        // As a call's (aCallAnsweredWithAJsonRpcErrorWithoutAnIdIsThatRefusalAndTheSessionIsKept). Before: 'RuntimeException:
        // Client failed to initialize by explicit API call Caused by: IllegalArgumentException: Cannot construct instance of
        // `io.modelcontextprotocol.spec.McpSchema$JSONRPCResponse` ...' and the advice to check that the URL is reachable.
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> FakeHttpEndpoint.json(exchange, 200,
                "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Invalid Request: unknown field\"}}"))) {
            assertThatThrownBy(() -> McpToolset.start(server.config("remote", "/mcp", ""))).isInstanceOf(McpConfigException.class)
                    .hasMessage("MCP server 'remote' could not be started: it refused the initialize request with JSON-RPC error -32600:"
                            + " Invalid Request: unknown field (an error without the id of the request, which a server gives a request it"
                            + " could not read). Have the server fixed, or set \"disabled\": true to leave it out.");
        }
    }

    @Test
    void anInitializeAnsweredWithAJsonRpcErrorWithoutAnIdLongerThan8KbFailsTheStartQuotingIt() throws Exception {
        // As anInitializeAnsweredWithAJsonRpcErrorWithoutAnIdFailsTheStartQuotingIt, with a stack trace in the error's data.
        // Before: only the answer's first 8 KB were read for such an error, so the SDK's own words were shown ("Cannot
        // construct instance of ... JSONRPCResponse") and the advice to check that the URL is reachable.
        String trace = "at handler (/srv/app.js:1:1)\\n".repeat(1000);
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> FakeHttpEndpoint.json(exchange, 200,
                "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Invalid Request: 東京\",\"data\":{\"stack\":\""
                        + trace + "\"}}}"))) {
            assertThatThrownBy(() -> McpToolset.start(server.config("remote", "/mcp", ""))).isInstanceOf(McpConfigException.class)
                    .hasMessage("MCP server 'remote' could not be started: it refused the initialize request with JSON-RPC error -32600:"
                            + " Invalid Request: 東京 (an error without the id of the request, which a server gives a request it"
                            + " could not read). Have the server fixed, or set \"disabled\": true to leave it out.");
        }
    }

    @Test
    void aJsonRpcErrorWithoutAnIdInAResponseStreamIsThatRequestsRefusal() throws Exception {
        // As aCallAnsweredWithAJsonRpcErrorWithoutAnIdIsThatRefusalAndTheSessionIsKept, with the error in the event stream
        // answering the POST (servers answering every request with SSE, as the TypeScript SDK does by default). Before, the
        // SDK's own message about a response without an id was shown.
        java.util.concurrent.atomic.AtomicBoolean refuseInitialize = new java.util.concurrent.atomic.AtomicBoolean(true);
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (!exchange.getRequestMethod().equals("POST")) {
                FakeHttpEndpoint.empty(exchange, 405);
                return;
            }
            String idless = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Invalid Request: bad params\"}}";
            String answer = switch (FakeHttpEndpoint.method(message)) {
                case "initialize" -> refuseInitialize.get() ? idless : FakeHttpEndpoint.initialized(message);
                case "tools/list" -> FakeHttpEndpoint.listed(message, FakeHttpEndpoint.READ_ONLY_ECHO);
                case "tools/call" -> idless;
                default -> null;
            };
            if (answer == null) {
                FakeHttpEndpoint.empty(exchange, 202);
                return;
            }
            FakeHttpEndpoint.events(exchange, "event: message\ndata: " + answer + "\n\n");
        })) {
            String config = "{\"mcpServers\": {\"remote\": {\"url\": \"" + server.url("/mcp") + "\"}}}";
            assertThatThrownBy(() -> McpToolset.start(McpConfig.parse(config, "test", Map.of()))).isInstanceOf(McpConfigException.class)
                    .hasMessage("MCP server 'remote' could not be started: it refused the initialize request with JSON-RPC error -32600:"
                            + " Invalid Request: bad params (an error without the id of the request, which a server gives a request it"
                            + " could not read). Have the server fixed, or set \"disabled\": true to leave it out.");
            refuseInitialize.set(false);
            try (McpToolset mcp = McpToolset.start(McpConfig.parse(config, "test", Map.of()))) {
                Instant called = Instant.now();
                ToolOutput refused = invoke(mcp, "echo", "k-sse-null-id", Duration.ofSeconds(10));
                assertThat(Duration.between(called, Instant.now())).isLessThan(Duration.ofSeconds(5));
                assertThat(refused.content()).isEqualTo("MCP server 'remote' refused the call of tool 'echo': JSON-RPC error -32600:"
                        + " Invalid Request: bad params (an error without the id of the request, which a server gives a request it could"
                        + " not read)");
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"application/json", "text/event-stream"})
    void aToolListRefusedWithAJsonRpcErrorWithoutAnIdFailsTheStartSayingItRefusedTheToolList(String type) throws Exception {
        // As a tools/list refused with an error carrying its id ('it refused the tools/list request with JSON-RPC error ...'
        // and that the server runs). Before, the start failed with the SDK's 'IllegalArgumentException: Cannot construct
        // instance of `io.modelcontextprotocol.spec.McpSchema$JSONRPCResponse` ...' and the advice to check the URL.
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (!exchange.getRequestMethod().equals("POST")) {
                FakeHttpEndpoint.empty(exchange, 405);
                return;
            }
            String answer = switch (FakeHttpEndpoint.method(message)) {
                case "initialize" -> FakeHttpEndpoint.initialized(message);
                case "tools/list" -> "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32603,\"message\":\"database unavailable\"}}";
                default -> null;
            };
            if (answer == null) {
                FakeHttpEndpoint.empty(exchange, 202);
                return;
            }
            FakeHttpEndpoint.send(exchange, 200, type, type.equals("application/json") ? answer : "data: " + answer + "\n\n");
        })) {
            assertThatThrownBy(() -> McpToolset.start(server.config("remote", "/mcp", ""))).isInstanceOf(McpConfigException.class)
                    .hasMessageStartingWith("MCP server 'remote' could not be started: it refused the tools/list request with JSON-RPC"
                            + " error -32603: database unavailable (an error without the id of the request, which a server gives a request"
                            + " it could not read). The server runs (it answered initialize)")
                    .hasMessageNotContaining("McpSchema");
        }
    }

    @ParameterizedTest
    @CsvSource({"503", "429"})
    void aToolListRefusedWith503Or429WithoutAWaitGetsTheAdviceToStartAgainLater(int status) throws Exception {
        // initialize refused so, without a Retry-After, says to start again later; a tools/list so refused got the advice to
        // check what the server needs (its configuration, a key), which a server asking to come back later does not need.
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (!exchange.getRequestMethod().equals("POST")) {
                FakeHttpEndpoint.empty(exchange, 405);
                return;
            }
            exchange.getResponseHeaders().set("Mcp-Session-Id", "s1");
            if (FakeHttpEndpoint.method(message).equals("tools/list")) {
                FakeHttpEndpoint.empty(exchange, status);
                return;
            }
            FakeHttpEndpoint.echo(exchange, message, "s1");
        })) {
            assertThatThrownBy(() -> McpToolset.start(server.config("remote", "/mcp", ""))).isInstanceOf(McpConfigException.class)
                    .hasMessageStartingWith("MCP server 'remote' could not be started: it refused the tools/list request: it answered HTTP "
                            + status)
                    .hasMessageEndingWith(" The server answered (its URL is right), but is not taking requests now: start again later,"
                            + " or set \"disabled\": true.")
                    .hasMessageNotContaining("check what it needs");
        }
    }

    @Test
    void aToolListRefusedWith400AtStartIsSaidToBeThatRefusalQuotingIt() throws Exception {
        // The SDK takes a 400 to a request with a session id for a forgotten session and fails the listing with 'MCP
        // session with server terminated', which the start quoted as 'RuntimeException: ...' with advice to check the URL.
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (!exchange.getRequestMethod().equals("POST")) {
                FakeHttpEndpoint.empty(exchange, 405);
                return;
            }
            exchange.getResponseHeaders().set("Mcp-Session-Id", "s1");
            if (FakeHttpEndpoint.method(message).equals("tools/list")) {
                FakeHttpEndpoint.json(exchange, 400, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32000,"
                        + "\"message\":\"Bad Request: Unsupported protocol version\"}}");
                return;
            }
            FakeHttpEndpoint.echo(exchange, message, "s1");
        })) {
            assertThatThrownBy(() -> McpToolset.start(server.config("remote", "/mcp", ""))).isInstanceOf(McpConfigException.class)
                    .hasMessageStartingWith("MCP server 'remote' could not be started: it refused the tools/list request: it answered HTTP"
                            + " 400; it said: 'JSON-RPC error -32000: Bad Request: Unsupported protocol version'. The server runs (it"
                            + " answered initialize)")
                    .hasMessageNotContaining("RuntimeException");
        }
    }

    @ParameterizedTest
    @CsvSource({"404", "400", "500", "200", "401", "403", "406"})
    void aServerThatRefusesTheGetStreamOtherwiseThanWith405IsUsedWithoutIt(int status) throws Exception {
        // Transports spec: a server without a stream for its own messages answers the GET with 405. A POST-only route in
        // Express answers 404 ('Cannot GET /mcp', text/html), others 400 or 500, or 200 with a page.
        List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            seen.add(exchange.getRequestMethod() + " " + exchange.getRequestHeaders().getFirst("Mcp-Session-Id"));
            if (!exchange.getRequestMethod().equals("POST")) {
                FakeHttpEndpoint.send(exchange, status, "text/html; charset=utf-8", "<!DOCTYPE html><pre>Cannot "
                        + exchange.getRequestMethod() + " /mcp</pre>");
                return;
            }
            FakeHttpEndpoint.echo(exchange, message, "only-session");
        })) {
            try (McpToolset mcp = McpToolset.start(server.config("remote", "/mcp", ""))) {
                Thread.sleep(300); // the GET stream is opened after initialize, off the caller's thread
                for (int i = 0; i < 3; i++) {
                    assertThat(invoke(mcp, "echo", "k-get-" + i, Duration.ofSeconds(10)).content()).as(seen.toString()).isEqualTo("done");
                }
            }
            assertThat(seen.stream().filter(r -> r.startsWith("POST")).count()).as(seen.toString()).isLessThan(8);
        }
    }

    @Test
    void anAnswerLargerThanReinReadsIsSaidSoInPlainWordsAndTheSessionIsKept() throws Exception {
        // Before, the model read the SDK's 'McpTransportException: Inbound response body exceeds the maximum allowed size of
        // 16777216 bytes' and the session, whose server had answered, was replaced.
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, "")) {
            server.echoAnswer.set(Map.of("content", List.of(Map.of("type", "text", "text", "x".repeat(17 * 1024 * 1024)))));
            ToolOutput output = invoke(mcp, "echo", "k-large", Duration.ofSeconds(20));
            assertThat(output.isError()).isTrue();
            assertThat(output.content()).isEqualTo("MCP server 'scripted' answered the call of tool 'echo' with more than 16 MB, the"
                    + " most Rein reads of one message, so the answer was not used. Ask the tool for less (a narrower query, a smaller"
                    + " range or page), or use another tool.");
            server.echoAnswer.set(null);
            assertThat(invoke(mcp, "echo", "k-after-large", Duration.ofSeconds(10)).content()).isEqualTo("done");
            assertThat(server.rpc("initialize")).as("the session that answered is kept").hasSize(1);
        }
    }

    @Test
    void anAnswerLargerThanReinReadsInTheCallsOwnEventStreamIsSaidSo() throws Exception {
        // A probe: the 17 MB answer in an SSE event of the POST's own stream, which the SDK refuses past its limit (and
        // Rein's own reading of the stream, for resumption, holds no more than that limit of it either).
        String large = "x".repeat(17 * 1024 * 1024);
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (!exchange.getRequestMethod().equals("POST")) {
                FakeHttpEndpoint.empty(exchange, 405);
                return;
            }
            String answer = switch (FakeHttpEndpoint.method(message)) {
                case "initialize" -> "data: " + FakeHttpEndpoint.initialized(message) + "\n\n";
                case "tools/list" -> "data: " + FakeHttpEndpoint.listed(message, "{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"},"
                        + "\"annotations\":{\"readOnlyHint\":true}}") + "\n\n";
                case "tools/call" -> "data: {\"jsonrpc\":\"2.0\",\"id\":" + FakeHttpEndpoint.id(message)
                        + ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"" + large + "\"}]}}\n\n";
                default -> null;
            };
            if (answer == null) {
                FakeHttpEndpoint.empty(exchange, 202);
                return;
            }
            FakeHttpEndpoint.events(exchange, answer);
        }); McpToolset mcp = McpToolset.start(server.config("remote", "/mcp", ""))) {
            ToolOutput output = invoke(mcp, "echo", "k-large", Duration.ofSeconds(20));
            assertThat(output.content()).isEqualTo("MCP server 'remote' answered the call of tool 'echo' with more than 16 MB,"
                    + " the most Rein reads of one message, so the answer was not used. Ask the tool for less (a narrower query,"
                    + " a smaller range or page), or use another tool.");
        }
    }

    @Test
    void aToolListLargerThanReinReadsFailsTheStartSayingSoWithoutAskingATool() throws Exception {
        // A tools/list page of 17 MB (a tool with an enormous description). Before, the start said to 'ask the tool for
        // less: a narrower query, a smaller range or page', advice for a call, where no tool was called.
        String large = "x".repeat(17 * 1024 * 1024);
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (!exchange.getRequestMethod().equals("POST")) {
                FakeHttpEndpoint.empty(exchange, 405);
                return;
            }
            switch (FakeHttpEndpoint.method(message)) {
                case "initialize" -> FakeHttpEndpoint.json(exchange, 200, FakeHttpEndpoint.initialized(message));
                case "tools/list" -> FakeHttpEndpoint.json(exchange, 200, FakeHttpEndpoint.listed(message, "{\"name\":\"echo\","
                        + "\"description\":\"" + large + "\",\"inputSchema\":{\"type\":\"object\"}}"));
                default -> FakeHttpEndpoint.empty(exchange, 202);
            }
        })) {
            assertThatThrownBy(() -> McpToolset.start(server.config("remote", "/mcp", ""))).isInstanceOf(McpConfigException.class)
                    .hasMessage("MCP server 'remote' could not be started: it answered the tools/list request with more than 16 MB, the"
                            + " most Rein reads of one message (a tool list that long is given in pages). Have the server fixed, or set"
                            + " \"disabled\": true to leave it out.");
        }
    }

    @Test
    void anAnswerLargerThanReinReadsOnAResumedResponseStreamIsSaidSoAsOnTheFirstConnection() throws Exception {
        // The same 17 MB answer as above, on the GET that resumes the call's stream (SSE polling). Before, Rein read a
        // resumed stream whole, however long, holding every byte of the event: the answer reached the call, where on
        // the POST's own stream it is refused, and a server sending an event without end took the JVM's memory.
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, "")) {
            server.polledResult.set(Map.of("content", List.of(Map.of("type", "text", "text", "x".repeat(17 * 1024 * 1024)))));
            ToolOutput output = invoke(mcp, "polled", "k-large", Duration.ofSeconds(20));
            assertThat(output.isError()).isTrue();
            assertThat(output.content()).isEqualTo("MCP server 'scripted' answered the call of tool 'polled' with more than 16 MB,"
                    + " the most Rein reads of one message, so the answer was not used. Ask the tool for less (a narrower query, a"
                    + " smaller range or page), or use another tool.");
            server.polledResult.set(null);
            assertThat(invoke(mcp, "polled", "k-after-large", Duration.ofSeconds(10)).content()).isEqualTo("polled");
            assertThat(server.rpc("initialize")).as("the session that answered is kept").hasSize(1);
        }
    }

    @Test
    void aPingInACallsResponseStreamIsAnsweredWithAnEmptyResultAndTheCallGetsItsAnswer() throws Exception {
        // Basic, Utilities, Ping: either side may ping, and the receiver MUST answer promptly with an empty result. Over
        // streamable HTTP a server may send requests in a request's response stream; the client POSTs its answers.
        List<JsonNode> posted = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (!exchange.getRequestMethod().equals("POST")) {
                FakeHttpEndpoint.empty(exchange, 405);
                return;
            }
            posted.add(message);
            String answer = switch (FakeHttpEndpoint.method(message)) {
                case "initialize" -> "data: " + FakeHttpEndpoint.initialized(message) + "\n\n";
                case "tools/list" -> "data: " + FakeHttpEndpoint.listed(message, "{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"},"
                        + "\"annotations\":{\"readOnlyHint\":true}}") + "\n\n";
                case "tools/call" -> "data: {\"jsonrpc\":\"2.0\",\"id\":\"srv-ping\",\"method\":\"ping\"}\n\n"
                        + "data: {\"jsonrpc\":\"2.0\",\"id\":" + FakeHttpEndpoint.id(message) + ",\"result\":{\"content\":[{\"type\":\"text\","
                        + "\"text\":\"pong\"}]}}\n\n";
                default -> null;
            };
            if (answer == null) {
                FakeHttpEndpoint.empty(exchange, 202);
                return;
            }
            FakeHttpEndpoint.events(exchange, answer);
        })) {
            try (McpToolset mcp = McpToolset.start(server.config("remote", "/mcp", ""))) {
                assertThat(invoke(mcp, "echo", "k-ping", Duration.ofSeconds(10)).content()).isEqualTo("pong");
                Instant until = Instant.now().plus(Duration.ofSeconds(5));
                while (posted.stream().noneMatch(m -> "srv-ping".equals(m.path("id").asText())) && Instant.now().isBefore(until)) {
                    Thread.sleep(20);
                }
            }
            assertThat(posted).filteredOn(m -> "srv-ping".equals(m.path("id").asText())).singleElement()
                    .satisfies(m -> assertThat(m.get("result")).isEqualTo(Json.parse("{}")));
        }
    }

    @Test
    void requestsReinDoesNotSupportInACallsResponseStreamAreAnsweredMethodNotFound() throws Exception {
        // Rein declares no client capability (no sampling, elicitation or roots): a server that asks anyway gets a JSON-RPC
        // error POSTed back (-32601, as JSON-RPC answers a method the receiver does not offer), not silence it would wait on.
        List<String> asked = List.of("sampling/createMessage", "elicitation/create", "roots/list", "no/such-method");
        List<JsonNode> posted = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (!exchange.getRequestMethod().equals("POST")) {
                FakeHttpEndpoint.empty(exchange, 405);
                return;
            }
            posted.add(message);
            StringBuilder events = new StringBuilder();
            if (FakeHttpEndpoint.method(message).equals("tools/call")) {
                asked.forEach(m -> events.append("data: {\"jsonrpc\":\"2.0\",\"id\":\"srv-").append(m).append("\",\"method\":\"")
                        .append(m).append("\",\"params\":{}}\n\n"));
            }
            String answer = FakeHttpEndpoint.echoAnswer(message);
            if (answer == null) {
                FakeHttpEndpoint.empty(exchange, 202);
                return;
            }
            FakeHttpEndpoint.events(exchange, events + "data: " + answer + "\n\n");
        }); McpToolset mcp = McpToolset.start(server.config("remote", "/mcp", ""))) {
            assertThat(invoke(mcp, "echo", "k-asked", Duration.ofSeconds(10)).content()).isEqualTo("done");
            Instant until = Instant.now().plus(Duration.ofSeconds(5));
            while (posted.stream().filter(m -> m.path("id").asText().startsWith("srv-")).count() < asked.size()
                    && Instant.now().isBefore(until)) {
                Thread.sleep(20);
            }
            for (String method : asked) {
                assertThat(posted).as(method).filteredOn(m -> ("srv-" + method).equals(m.path("id").asText())).singleElement()
                        .satisfies(m -> assertThat(m.at("/error/code").asInt()).isEqualTo(-32601));
            }
        }
    }

    @Test
    void anAnswerInAnEventOfAnotherTypeThanMessageIsNotReadAndTheCallEndsWhenItsStreamDoes() throws Exception {
        // JSON-RPC messages come in SSE events of the default type, 'message'; the SDKs (Java and TypeScript) read no
        // other. A server that sent its answer as 'event: response' (a real server's bug) left the SDK without the answer,
        // but Rein took the stream as answered: the call waited for its whole timeout, then said the server did not answer.
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (!exchange.getRequestMethod().equals("POST")) {
                FakeHttpEndpoint.empty(exchange, 405);
                return;
            }
            String answer = switch (FakeHttpEndpoint.method(message)) {
                case "initialize" -> "data: " + FakeHttpEndpoint.initialized(message) + "\n\n";
                case "tools/list" -> "data: " + FakeHttpEndpoint.listed(message, "{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"},"
                        + "\"annotations\":{\"readOnlyHint\":true}}") + "\n\n";
                case "tools/call" -> "event: response\ndata: {\"jsonrpc\":\"2.0\",\"id\":" + FakeHttpEndpoint.id(message)
                        + ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"東京\"}]}}\n\n";
                default -> null;
            };
            if (answer == null) {
                FakeHttpEndpoint.empty(exchange, 202);
                return;
            }
            FakeHttpEndpoint.events(exchange, answer);
        }); McpToolset mcp = McpToolset.start(server.config("remote", "/mcp", ", \"timeout_seconds\": 20"))) {
            Instant started = Instant.now();
            ToolOutput output = invoke(mcp, "echo", "k-typed", Duration.ofSeconds(30));
            assertThat(Duration.between(started, Instant.now())).isLessThan(Duration.ofSeconds(10));
            assertThat(output.isError()).isTrue();
            assertThat(output.content()).isEqualTo("MCP server 'remote' ended its response to the call of tool 'echo' without the"
                    + " answer, and without an event id to resume it from (it may have crashed, or a proxy cut the connection)."
                    + " Try again, or use another tool.");
        }
    }

    @Test
    void aCallAnswerWithAFieldOfTheWrongTypeIsTheCallsErrorAndTheSessionIsKept() throws Exception {
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, "")) {
            server.echoAnswer.set(Map.of("content", List.of(Map.of("type", "text", "text", "done")), "isError", "no"));
            ToolOutput output = invoke(mcp, "echo");
            assertThat(output.isError()).isTrue();
            assertThat(output.content()).startsWith("MCP server 'scripted' answered the call of tool 'echo' with \"isError\" \"no\"");
            server.echoAnswer.set(null);
            assertThat(invoke(mcp, "echo").content()).isEqualTo("done");
            assertThat(server.rpc("initialize")).as("the session that answered is kept").hasSize(1);
        }
    }

    @Test
    void closingEndsTheSessionWithDelete() throws Exception {
        try (ScriptedHttpServer server = new ScriptedHttpServer()) {
            try (McpToolset mcp = start(server, "")) {
                assertThat(invoke(mcp, "echo").content()).isEqualTo("done");
            }
            assertThat(server.received).filteredOn(r -> r.httpMethod().equals("DELETE"))
                    .singleElement().satisfies(r -> {
                        assertThat(r.sessionId()).isEqualTo("s1");
                        assertThat(r.protocolVersion()).isEqualTo(ScriptedHttpServer.VERSION);
                    });
        }
    }

    @Test
    void aForgottenSessionIsReplacedByANewOne() throws Exception {
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, "")) {
            server.forgetSessionOnCalls.set(1);
            ToolOutput first = invoke(mcp, "echo");
            ToolOutput second = invoke(mcp, "echo");
            assertThat(second.content()).as(first.content()).isEqualTo("done");
            List<ScriptedHttpServer.Received> initializes = server.rpc("initialize");
            assertThat(initializes).hasSizeGreaterThanOrEqualTo(2).allSatisfy(r -> assertThat(r.sessionId()).isNull());
        }
    }

    @Test
    void aCallRefusedForAForgottenSessionIsSentAgainOnANewSession() throws Exception {
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, "")) {
            server.forgetSessionOnCalls.set(1);
            ToolOutput output = invoke(mcp, "echo", "k-again", Duration.ofSeconds(10));
            // The 404 means the server never ran the call: the caller gets the answer from the new session.
            assertThat(output.isError()).as(output.content()).isFalse();
            assertThat(output.content()).isEqualTo("done");
            assertThat(server.rpc("initialize")).as(server.received.toString()).hasSize(2)
                    .allSatisfy(r -> assertThat(r.sessionId()).isNull());
            assertThat(server.rpc("notifications/initialized")).hasSize(2).last()
                    .satisfies(r -> assertThat(r.sessionId()).isEqualTo("s2"));
            assertThat(server.rpc("tools/call")).extracting(ScriptedHttpServer.Received::sessionId).containsExactly("s1", "s2");
            List<String> keys = server.rpc("tools/call").stream().map(ScriptedHttpServer.Received::idempotencyKey).toList();
            assertThat(keys.getFirst()).endsWith("k-again");
            assertThat(keys).containsExactly(keys.getFirst(), keys.getFirst());
            // The new session's tools are listed again, after the call: a listing sent beside it
            // would meet a second 404 first, and the SDK would end the new session under the call.
            Instant until = Instant.now().plus(Duration.ofSeconds(5));
            while (server.rpc("tools/list").stream().noneMatch(r -> "s2".equals(r.sessionId())) && Instant.now().isBefore(until)) {
                Thread.sleep(10);
            }
            ScriptedHttpServer.Received secondCall = server.rpc("tools/call").getLast();
            assertThat(server.rpc("tools/list")).as(server.received.toString())
                    .filteredOn(r -> "s2".equals(r.sessionId())).isNotEmpty()
                    .allSatisfy(r -> assertThat(r.at()).isAfterOrEqualTo(secondCall.at()));
            // The new session is the one kept: the next call opens none.
            assertThat(invoke(mcp, "echo", "k-next", Duration.ofSeconds(10)).content()).isEqualTo("done");
            assertThat(server.rpc("initialize")).hasSize(2);
            assertThat(server.rpc("tools/call")).last().satisfies(r -> assertThat(r.sessionId()).isEqualTo("s2"));
        }
    }

    @Test
    void aListingAtStartRefusedForAForgottenSessionIsSentAgainOnANewSessionOnce() throws Exception {
        // Transports, session management: a 404 to a request with a session id means the client MUST start a new
        // session. The server failed to start with 'it refused the tools/list request: it answered HTTP 404'.
        try (ScriptedHttpServer server = new ScriptedHttpServer()) {
            server.forgetSessionOnLists.set(1);
            try (McpToolset mcp = start(server, "")) {
                assertThat(mcp.tools()).extracting(Tool::name).contains("echo", "slow", "polled");
                assertThat(server.rpc("initialize")).as(server.received.toString()).hasSize(2)
                        .allSatisfy(r -> assertThat(r.sessionId()).isNull());
                assertThat(server.rpc("tools/list")).extracting(ScriptedHttpServer.Received::sessionId).containsExactly("s1", "s2");
                assertThat(invoke(mcp, "echo", "k-after-list", Duration.ofSeconds(10)).content()).isEqualTo("done");
                assertThat(server.rpc("tools/call")).last().satisfies(r -> assertThat(r.sessionId()).isEqualTo("s2"));
            }
        }
        // Forgotten again on the new session: not sent a third time, and said as such.
        try (ScriptedHttpServer server = new ScriptedHttpServer()) {
            server.forgetSessionOnLists.set(5);
            assertThatThrownBy(() -> start(server, "").close()).isInstanceOf(McpConfigException.class)
                    .hasMessageContaining("HTTP 404").hasMessageContaining("twice");
            assertThat(server.rpc("tools/list")).as(server.received.toString()).hasSize(2);
        }
    }

    @Test
    void aListingAfterListChangedRefusedForAForgottenSessionIsSentAgainOnANewSession() throws Exception {
        // After notifications/tools/list_changed, a 404 to tools/list kept the old tools with a warning, the new ones unseen.
        try (ScriptedHttpServer server = new ScriptedHttpServer()) {
            server.primeStandaloneStream.set(true); // its resumed stream brings list_changed
            server.listsBeforeForgetting.set(1);
            server.forgetSessionOnLists.set(1);
            try (McpToolset mcp = start(server, "")) {
                Instant until = Instant.now().plus(Duration.ofSeconds(10));
                while (server.rpc("tools/list").stream().noneMatch(r -> "s2".equals(r.sessionId())) && Instant.now().isBefore(until)) {
                    Thread.sleep(10);
                }
                assertThat(server.rpc("tools/list")).as(server.received.toString())
                        .extracting(ScriptedHttpServer.Received::sessionId).containsExactly("s1", "s1", "s2");
                assertThat(server.rpc("initialize")).hasSize(2).allSatisfy(r -> assertThat(r.sessionId()).isNull());
                assertThat(invoke(mcp, "echo", "k-relisted", Duration.ofSeconds(10)).content()).isEqualTo("done");
                assertThat(server.rpc("tools/call")).last().satisfies(r -> assertThat(r.sessionId()).isEqualTo("s2"));
            }
        }
    }

    @Test
    void theInstructionsAreThoseOfTheSessionTheSdkOpenedAfterA404() throws Exception {
        // After a 404 the SDK opens the new session itself (Rein does not): instructions() read the ones Rein's own
        // initialize had got, so a server whose new session says something else was read stale.
        try (ScriptedHttpServer server = new ScriptedHttpServer()) {
            server.instructionsPerSession.set(true);
            try (McpToolset mcp = start(server, "")) {
                assertThat(mcp.instructions()).containsExactly(Map.entry("scripted", "Session s1: 道具の使い方"));
                server.forgetSessionOnCalls.set(1);
                assertThat(invoke(mcp, "echo", "k-instr", Duration.ofSeconds(10)).content()).isEqualTo("done");
                assertThat(server.rpc("initialize")).as(server.received.toString()).hasSize(2);
                assertThat(mcp.instructions()).containsExactly(Map.entry("scripted", "Session s2: 道具の使い方"));
                assertThat(mcp.instructionsPrompt()).contains("Session s2: 道具の使い方").doesNotContain("s1");
            }
        }
    }

    @Test
    void aCallRefusedWith400IsThatRefusalNotAForgottenSessionAndIsNotSentAgain() throws Exception {
        // The transports spec answers a forgotten session with 404; 400 is a request the server could not take (a TypeScript
        // SDK server's answer to an unsupported MCP-Protocol-Version, or to a body it cannot read). The SDK takes a 400 to a
        // request with a session id for a forgotten session too: the call was sent again on a new session, and after the
        // second 400 the model read that the server 'answered HTTP 404 (session not found)' twice, what it said lost.
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, "")) {
            server.refuseCallsWith.set(400);
            server.refusalBody.set("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32000,"
                    + "\"message\":\"Bad Request: 要求を読めません\"}}");
            ToolOutput refused = invoke(mcp, "echo", "k-400", Duration.ofSeconds(10));
            assertThat(refused.isError()).isTrue();
            // A 400 refuses the request before it is run: not "failed while running", nor "may or may not have taken effect".
            assertThat(refused.content()).isEqualTo("MCP server 'scripted' refused the call of tool 'echo': it answered HTTP 400;"
                    + " it said: 'JSON-RPC error -32000: Bad Request: 要求を読めません', so the tool was not run (a server answers"
                    + " HTTP 400 to a request it will not run). Rein opens a new session at the next call. Try again, or use"
                    + " another tool.");
            assertThat(server.rpc("tools/call")).as(server.received.toString()).hasSize(1);
            server.refuseCallsWith.set(0);
            server.refusalBody.set(null);
            assertThat(invoke(mcp, "echo", "k-after-400", Duration.ofSeconds(10)).content()).isEqualTo("done");
        }
    }

    @Test
    void aCallRefusedForAForgottenSessionTwiceIsNotSentAThirdTime() throws Exception {
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, "")) {
            server.forgetSessionOnCalls.set(2);
            ToolOutput output = invoke(mcp, "echo", "k-twice", Duration.ofSeconds(10));
            assertThat(output.isError()).isTrue();
            assertThat(output.content()).contains("404", "was not run");
            assertThat(server.rpc("tools/call")).as(server.received.toString()).hasSize(2);
            // The next call gets a fresh session of Rein's own: the SDK's re-initialization after
            // the second 404 may still be under way, and a call meeting it half done would fail.
            assertThat(invoke(mcp, "echo", "k-later", Duration.ofSeconds(10)).content()).isEqualTo("done");
            assertThat(server.rpc("initialize")).as(server.received.toString()).hasSizeGreaterThanOrEqualTo(3)
                    .allSatisfy(r -> assertThat(r.sessionId()).isNull());
        }
    }

    @Test
    void aNotFoundWithoutASessionIdIsNotSentAgain() throws Exception {
        try (ScriptedHttpServer server = new ScriptedHttpServer(false); McpToolset mcp = start(server, "")) {
            server.forgetSessionOnCalls.set(1);
            ToolOutput output = invoke(mcp, "echo", "k-stateless", Duration.ofSeconds(10));
            assertThat(output.isError()).isTrue();
            assertThat(server.rpc("tools/call")).as(server.received.toString()).hasSize(1);
            assertThat(server.rpc("initialize")).hasSize(1);
        }
    }

    @Test
    void aResponseStreamClosedAfterAnEventIdIsPolledWithGetFromTheLastEventIdAfterTheRetryTime() throws Exception {
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, "")) {
            ToolOutput output = invoke(mcp, "polled", "k-polled", Duration.ofSeconds(10));
            assertThat(output.isError()).as(output.content()).isFalse();
            assertThat(output.content()).isEqualTo("polled");
            ScriptedHttpServer.Received call = server.rpc("tools/call").getFirst();
            List<ScriptedHttpServer.Received> polls = server.received.stream().filter(r -> r.lastEventId() != null).toList();
            // The first poll resumes from the POST stream's priming event, the second from the first poll's.
            assertThat(polls).as(server.received.toString()).hasSize(2);
            assertThat(polls.get(0).lastEventId()).startsWith("e");
            assertThat(polls.get(1).lastEventId()).isEqualTo(polls.get(0).lastEventId() + "-2");
            assertThat(polls).allSatisfy(r -> {
                assertThat(r.httpMethod()).isEqualTo("GET");
                assertThat(r.sessionId()).isEqualTo("s1");
                assertThat(r.protocolVersion()).isEqualTo(ScriptedHttpServer.VERSION);
                assertThat(r.accept()).contains("text/event-stream");
            });
            // The protocol makes waiting the retry time the server set a MUST.
            assertThat(Duration.between(call.at(), polls.get(0).at())).isGreaterThanOrEqualTo(Duration.ofMillis(ScriptedHttpServer.RETRY_MILLIS));
            assertThat(Duration.between(polls.get(0).at(), polls.get(1).at()))
                    .isGreaterThanOrEqualTo(Duration.ofMillis(ScriptedHttpServer.RETRY_MILLIS));
            // The session goes on as before.
            assertThat(invoke(mcp, "echo").content()).isEqualTo("done");
            assertThat(server.rpc("initialize")).hasSize(1);
        }
    }

    @Test
    void aCallWhoseStreamIsResumedForASessionTheServerNoLongerKnowsEndsAtOnceAndTheNextCallOpensANewSession() throws Exception {
        // Transports, session management: a 404 to a request carrying the session id means the server ended or forgot the
        // session (a restart), and the client MUST start a new one. The GET resuming the call's stream is such a request: the
        // answer can no longer come, so the call ends now, not at its timeout, and the next call goes to a new session.
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, ", \"timeout_seconds\": 20")) {
            server.forgetSessionOnResume.set(true);
            Instant began = Instant.now();
            ToolOutput output = invoke(mcp, "polled", "k-gone", Duration.ofSeconds(25));
            assertThat(output.isError()).as(output.content()).isTrue();
            assertThat(output.content()).contains("MCP server 'scripted' failed while running tool 'polled'")
                    .contains("no longer knows its session").contains("HTTP 404").contains("Rein connects to it again at the next call");
            assertThat(Duration.between(began, Instant.now())).isLessThan(Duration.ofSeconds(10)); // not the 20 s timeout
            server.forgetSessionOnResume.set(false);
            assertThat(invoke(mcp, "echo", "k-after", Duration.ofSeconds(10)).content()).isEqualTo("done");
            List<ScriptedHttpServer.Received> initializes = server.rpc("initialize");
            assertThat(initializes).as(server.received.toString()).hasSize(2).allSatisfy(r -> assertThat(r.sessionId()).isNull());
            assertThat(server.rpc("tools/call").getLast().sessionId()).isEqualTo("s2");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {405, 400, 403})
    void aCallWhoseStreamTheServerRefusesToResumeEndsAtOnceSayingTheAnswerWasLostAndTheSessionIsKept(int status) throws Exception {
        // Transports spec: a server that offers no SSE stream at the endpoint answers the GET 405; 400 and 403 refuse it
        // too (5xx, 429 and 408 are passing: retried, below). Either way the rest of the call's stream will not come: the call ends now, saying its answer was lost (and
        // is cancelled on the server, which may still be running it), not at its timeout; the server answered, so the
        // session is kept. Before, the call waited its whole timeout and said only that the server did not answer in time.
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, ", \"timeout_seconds\": 20")) {
            server.refuseResumeWith.set(status);
            Instant began = Instant.now();
            ToolOutput output = invoke(mcp, "polled", "k-refused-" + status, Duration.ofSeconds(25));
            assertThat(Duration.between(began, Instant.now())).isLessThan(Duration.ofSeconds(10)); // not the 20 s timeout
            assertThat(output.isError()).as(output.content()).isTrue();
            assertThat(output.content()).isEqualTo("MCP server 'scripted' ended its response to the call of tool 'polled' before the"
                    + " answer, and refused to resume it: it answered HTTP " + status + " to the GET with Last-Event-ID that asks for"
                    + " the rest, so the answer was lost. Try again, or use another tool.");
            Object callId = server.messages.stream().filter(m -> "tools/call".equals(m.path("method").asText())).findFirst().orElseThrow()
                    .get("id");
            Instant until = Instant.now().plusSeconds(5);
            while (server.rpc("notifications/cancelled").isEmpty() && Instant.now().isBefore(until)) {
                Thread.sleep(20);
            }
            assertThat(server.messages).as("the call is cancelled on the server").anySatisfy(m -> {
                assertThat(m.path("method").asText()).isEqualTo("notifications/cancelled");
                assertThat(m.at("/params/requestId")).isEqualTo(callId);
            });
            server.refuseResumeWith.set(0);
            assertThat(invoke(mcp, "echo", "k-after-" + status, Duration.ofSeconds(10)).content()).isEqualTo("done");
            assertThat(server.rpc("initialize")).as(server.received.toString()).hasSize(1);
            assertThat(server.received).noneMatch(r -> "DELETE".equals(r.httpMethod()));
        }
    }

    @Test
    void aToolsListWhoseStreamTheServerRefusesToResumeIsCancelledOnTheServerAsACallIs() throws Exception {
        // Transports: a disconnection is no cancellation, and the server may still be working on the request; a client
        // that stops waiting says so with notifications/cancelled. A call did; a listing ended without a word.
        try (ScriptedHttpServer server = new ScriptedHttpServer()) {
            server.pollLists.set(true);
            server.refuseResumeWith.set(405);
            assertThatThrownBy(() -> start(server, "")).isInstanceOf(McpConfigException.class)
                    .hasMessageContaining("before the answer, and refused to resume it: it answered HTTP 405 to the GET with"
                            + " Last-Event-ID that asks for the rest, so the answer was lost");
            Object listId = server.messages.stream().filter(m -> "tools/list".equals(m.path("method").asText())).findFirst()
                    .orElseThrow().get("id");
            assertThat(server.messages).as("the listing is cancelled on the server").anySatisfy(m -> {
                assertThat(m.path("method").asText()).isEqualTo("notifications/cancelled");
                assertThat(m.at("/params/requestId")).isEqualTo(listId);
            });
        }
    }

    @Test
    void aToolsListWhoseStreamCouldNotBeResumedFailsTheStartNamingTheListingNotTheUrl() throws Exception {
        // Before: 'it ended its response to the request before the answer, ... Check that the URL is reachable and the
        // headers are right.', though the server had answered initialize at that URL with those headers.
        try (ScriptedHttpServer server = new ScriptedHttpServer()) {
            server.pollLists.set(true);
            server.refuseResumeWith.set(405);
            assertThatThrownBy(() -> start(server, "")).isInstanceOf(McpConfigException.class)
                    .hasMessage("MCP server 'scripted' could not be started: it ended its response to the tools/list request before"
                            + " the answer, and refused to resume it: it answered HTTP 405 to the GET with Last-Event-ID that asks for"
                            + " the rest, so the answer was lost. The server runs (it answered initialize): check what it needs (its"
                            + " own configuration, a key, a service it uses; its stderr may say), or set \"disabled\": true to leave"
                            + " it out.");
        }
    }

    @Test
    void aToolsListsStreamIsResumedForAsLongAsTheListingWaitsNotOnlyACallsTimeout() throws Exception {
        // A page of the tool list is waited for 30 s (or the timeout, when longer); its stream was resumed only for the
        // call's timeout and 5 s (here 7 s), so a server asking to be tried again after 8 s failed the start, where the
        // listing would have waited.
        try (ScriptedHttpServer server = new ScriptedHttpServer()) {
            server.pollLists.set(true);
            server.refuseResumeWith.set(503);
            server.refuseResumeTimes.set(1);
            server.refuseResumeRetryAfter.set("8");
            try (McpToolset mcp = start(server, ", \"timeout_seconds\": 2")) {
                assertThat(mcp.tools()).extracting(Tool::name).contains("echo", "slow", "polled");
            }
        }
    }

    @Test
    void aToolsListWhoseServerAsksToBeTriedAgainTooLateFailsTheStartSayingSoInFull() throws Exception {
        // Before: cut at 200 characters ('... it asked to be tried ag…'), and it spoke of a call's timeout.
        try (ScriptedHttpServer server = new ScriptedHttpServer()) {
            server.pollLists.set(true);
            server.refuseResumeWith.set(503);
            server.refuseResumeRetryAfter.set("3600");
            assertThatThrownBy(() -> start(server, "")).isInstanceOf(McpConfigException.class)
                    .hasMessage("MCP server 'scripted' could not be started: it ended its response to the tools/list request before"
                            + " the answer, and could not resume it after 1 attempt (last: HTTP 503 to the GET with Last-Event-ID that"
                            + " asks for the rest; it asked to be tried again only after 3600 s, past the time Rein waits for it), so"
                            + " the answer was lost. The server runs (it answered initialize): check what it needs (its own"
                            + " configuration, a key, a service it uses; its stderr may say), or set \"disabled\": true to leave it out.");
        }
    }

    @Test
    void aRetryAfterPastTheListingsDeadlineFailsTheStartAtOnceThoughItIsWithinTheTimeAfterTheStreamEnded() throws Exception {
        // A page of the tool list is waited for 30 s from when it was sent. Its stream was resumed for 35 s from when it
        // ended, so a Retry-After of 33 s was slept through and the start failed at 30 s with a plain timeout, not saying
        // what the server asked.
        try (ScriptedHttpServer server = new ScriptedHttpServer()) {
            server.pollLists.set(true);
            server.refuseResumeWith.set(503);
            server.refuseResumeRetryAfter.set("33");
            Instant began = Instant.now();
            assertThatThrownBy(() -> start(server, "")).isInstanceOf(McpConfigException.class)
                    .hasMessageContaining("could not resume it after 1 attempt (last: HTTP 503 to the GET with Last-Event-ID that"
                            + " asks for the rest; it asked to be tried again only after 33 s, past the time Rein waits for it)");
            assertThat(Duration.between(began, Instant.now())).isLessThan(Duration.ofSeconds(20)); // not the listing's 30 s
        }
    }

    @Test
    void aRetryAfterTooLargeToReadIsSaidSoNotAsAnInventedNumberOfSeconds() throws Exception {
        // Retry-After: 99999999999999999999 does not fit in a long: Rein took it as a wait later than any call makes, and then
        // printed that stand-in as what the server asked ('only after 4611686018427388 s'), a number the server never sent,
        // and advised "timeout_seconds" above it, which no servers file takes.
        try (ScriptedHttpServer server = new ScriptedHttpServer()) {
            server.pollInit.set(true);
            server.refuseResumeWith.set(503);
            server.refuseResumeRetryAfter.set("99999999999999999999");
            assertThatThrownBy(() -> start(server, "")).isInstanceOf(McpConfigException.class)
                    .hasMessageContaining("(last: HTTP 503 to the GET with Last-Event-ID that asks for the rest; it sent a Retry-After"
                            + " too large to read, which Rein took as a wait past the time Rein waits"
                            + " for it)")
                    .hasMessageNotContaining("4611686018427388").hasMessageNotContaining("\"timeout_seconds\" above");
        }
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, "")) {
            server.refuseCallsWith.set(429); // (a 503 is not retried whatever its Retry-After)
            server.refusalRetryAfter.set("99999999999999999999");
            // Not retryable: the retry policy would say the stand-in wait as seconds the server never sent.
            assertThat(invoke(mcp, "echo", "k-429-unreadable", Duration.ofSeconds(10)).content()).isEqualTo("MCP server 'scripted'"
                    + " refused the call of tool 'echo': it answered HTTP 429; it sent a Retry-After too large to read, which Rein took"
                    + " as a wait longer than any it makes, so the tool was not run (a server answers HTTP 429 to a request it does not"
                    + " take now). Rein does not try it again; try again later, or use another tool.");
        }
    }

    @Test
    void aStartRefusedWith503Or429WithoutAWaitIsToldToStartAgainLaterNotToCheckTheUrl() throws Exception {
        // A 503 or 429 to initialize with a Retry-After of 0, of words, or none was told to check that the URL is reachable and
        // the headers are right, though the server answered at that URL: it is not taking requests now.
        record Case(int status, String retryAfter) {}
        for (Case c : List.of(new Case(503, "0"), new Case(503, "soon"), new Case(503, null), new Case(429, null), new Case(429, "0"))) {
            try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
                if (c.retryAfter() != null) {
                    exchange.getResponseHeaders().set("Retry-After", c.retryAfter());
                }
                FakeHttpEndpoint.empty(exchange, c.status());
            })) {
                assertThatThrownBy(() -> McpToolset.start(server.config("remote", "/mcp", ""))).as(c.toString())
                        .isInstanceOf(McpConfigException.class)
                        .hasMessageStartingWith("MCP server 'remote' could not be started: it answered HTTP " + c.status())
                        .hasMessageEndingWith(" The server answered (its URL is right), but is not taking requests now: start again"
                                + " later, or set \"disabled\": true.")
                        .hasMessageNotContaining("Check that the URL");
            }
        }
    }

    @Test
    void aStartRefusedWithARetryAfterTooLargeToReadIsToldToStartAgainOnceTheServerTakesRequests() throws Exception {
        // The initialize POST itself answered 503 with an unreadable Retry-After: the start said "start again once that time
        // has passed", a time the server never gave.
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            exchange.getResponseHeaders().set("Retry-After", "99999999999999999999");
            FakeHttpEndpoint.empty(exchange, 503);
        })) {
            assertThatThrownBy(() -> McpToolset.start(server.config("remote", "/mcp", ""))).isInstanceOf(McpConfigException.class)
                    .hasMessageContaining("it sent a Retry-After too large to read")
                    .hasMessageContaining("start again once it takes requests, or set \"disabled\": true.")
                    .hasMessageNotContaining("once that time has passed");
        }
    }

    @Test
    void aRetryAfterPastTheInitializeDeadlineFailsTheStartSayingSoWholeWithoutAskingToCheckTheUrl() throws Exception {
        // The same for initialize: the start failed at once, but the message was cut short at 200 characters
        // ("it asked to be tried ag…") and told to check the URL and headers, though the server had answered.
        try (ScriptedHttpServer server = new ScriptedHttpServer()) {
            server.pollInit.set(true);
            server.refuseResumeWith.set(503);
            server.refuseResumeRetryAfter.set("33");
            Instant began = Instant.now();
            assertThatThrownBy(() -> start(server, "")).isInstanceOf(McpConfigException.class)
                    .hasMessageContaining("ended its response to the initialize request before the answer, and could not resume it"
                            + " after 1 attempt (last: HTTP 503 to the GET with Last-Event-ID that asks for the rest; it asked to be"
                            + " tried again only after 33 s, past the time Rein waits for it), so the answer was lost.")
                    .hasMessageNotContaining("Check that the URL is reachable")
                    .hasMessageContaining("The server runs (it began answering the initialize request) and asked to be tried"
                            + " again after 33 s: set \"timeout_seconds\" above that to wait for it");
            assertThat(Duration.between(began, Instant.now())).isLessThan(Duration.ofSeconds(20)); // not initialize's 30 s
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {500, 502, 503, 504, 429, 408})
    void aResumingGetAnsweredWithAPassingErrorIsTriedAgainAndTheAnswerArrives(int status) throws Exception {
        // A proxy restarting or a redeploy answers 502/503/504 for a moment; 429 and 408 say to come back later. As the
        // TypeScript SDK's client (which stops only on 405), Rein tries the GET again, backing off, and the answer the
        // server kept arrives. Before, the first such answer ended the call, saying the answer was lost.
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, ", \"timeout_seconds\": 20")) {
            server.refuseResumeWith.set(status);
            server.refuseResumeTimes.set(1);
            ToolOutput output = invoke(mcp, "polled", "k-passing-" + status, Duration.ofSeconds(25));
            assertThat(output.content()).as(server.received.toString()).isEqualTo("polled");
            assertThat(output.isError()).isFalse();
            List<ScriptedHttpServer.Received> gets = server.received.stream().filter(r -> r.lastEventId() != null).toList();
            assertThat(gets.get(1).lastEventId()).as("the refused GET is sent again").isEqualTo(gets.get(0).lastEventId());
            assertThat(server.rpc("initialize")).hasSize(1);
        }
    }

    @Test
    void aResumingGetAnswered503EveryTimeEndsTheCallAfterThreeAttemptsSayingTheLastStatus() throws Exception {
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, ", \"timeout_seconds\": 20")) {
            server.refuseResumeWith.set(503);
            Instant began = Instant.now();
            ToolOutput output = invoke(mcp, "polled", "k-503-always", Duration.ofSeconds(25));
            assertThat(Duration.between(began, Instant.now())).isLessThan(Duration.ofSeconds(15)); // not the 20 s timeout
            assertThat(output.content()).isEqualTo("MCP server 'scripted' ended its response to the call of tool 'polled' before the"
                    + " answer, and could not resume it after 3 attempts (last: HTTP 503 to the GET with Last-Event-ID that asks for"
                    + " the rest), so the answer was lost. Try again, or use another tool.");
            assertThat(server.received.stream().filter(r -> r.lastEventId() != null)).hasSize(3);
            server.refuseResumeWith.set(0);
            assertThat(invoke(mcp, "echo", "k-after-503", Duration.ofSeconds(10)).content()).isEqualTo("done");
            assertThat(server.rpc("initialize")).as("the server answered: its session is kept").hasSize(1);
        }
    }

    @Test
    void aResumingGetAnswered503WithRetryAfterIsTriedAgainNoSoonerThanItSays() throws Exception {
        // RFC 9110 Retry-After: how long to wait before the next request (here 2 s, well past the 0.3 s retry the server set).
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, ", \"timeout_seconds\": 20")) {
            server.refuseResumeWith.set(503);
            server.refuseResumeTimes.set(1);
            server.refuseResumeRetryAfter.set("2");
            assertThat(invoke(mcp, "polled", "k-retry-after", Duration.ofSeconds(25)).content()).isEqualTo("polled");
            List<ScriptedHttpServer.Received> gets = server.received.stream().filter(r -> r.lastEventId() != null).toList();
            assertThat(gets.get(1).lastEventId()).as("the refused GET is sent again").isEqualTo(gets.get(0).lastEventId());
            assertThat(Duration.between(gets.get(0).at(), gets.get(1).at())).isGreaterThanOrEqualTo(Duration.ofMillis(1900));
        }
    }

    @Test
    void aResumingGetAnswered503WithRetryAfterAsAnHttpDateIsTriedAgainNoSoonerThanThatDate() throws Exception {
        // RFC 9110 section 10.2.3: Retry-After may be an HTTP-date. The date's own seconds are whole, so the wait is at least 2 s.
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, ", \"timeout_seconds\": 20")) {
            server.refuseResumeWith.set(503);
            server.refuseResumeTimes.set(1);
            java.time.ZonedDateTime at = java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC).plusSeconds(3).withNano(0);
            server.refuseResumeRetryAfter.set(java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.format(at));
            assertThat(invoke(mcp, "polled", "k-retry-after-date", Duration.ofSeconds(25)).content()).isEqualTo("polled");
            List<ScriptedHttpServer.Received> gets = server.received.stream().filter(r -> r.lastEventId() != null).toList();
            assertThat(gets.get(1).lastEventId()).as("the refused GET is sent again").isEqualTo(gets.get(0).lastEventId());
            assertThat(gets.get(1).at()).isAfterOrEqualTo(at.toInstant());
        }
    }

    @Test
    void aResumingGetAnswered503WithRetryAfterAsADateInThePastIsTriedAgainAfterTheUsualBackoffOnlyAndAnOldFormDateFarAheadEndsTheCall()
            throws Exception {
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, ", \"timeout_seconds\": 20")) {
            server.refuseResumeWith.set(503);
            server.refuseResumeTimes.set(1);
            // 8 s ago: no wait but the usual backoff (0.6 s here), not the 8 s a wait counted the wrong way round would be.
            server.refuseResumeRetryAfter.set(java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.format(
                    java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC).minusSeconds(8)));
            assertThat(invoke(mcp, "polled", "k-retry-after-past", Duration.ofSeconds(25)).content()).isEqualTo("polled");
            List<ScriptedHttpServer.Received> gets = server.received.stream().filter(r -> r.lastEventId() != null).toList();
            assertThat(gets.get(1).lastEventId()).as("the refused GET is sent again").isEqualTo(gets.get(0).lastEventId());
            assertThat(Duration.between(gets.get(0).at(), gets.get(1).at())).isLessThan(Duration.ofSeconds(5));
            // The asctime form (RFC 9110 section 5.6.7: a recipient accepts all three), a day ahead: past the call's timeout.
            server.refuseResumeWith.set(503);
            server.refuseResumeTimes.set(0);
            server.refuseResumeRetryAfter.set(java.time.format.DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", java.util.Locale.US)
                    .format(java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC).plusDays(1)));
            Instant began = Instant.now();
            ToolOutput output = invoke(mcp, "polled", "k-retry-after-asctime", Duration.ofSeconds(25));
            assertThat(Duration.between(began, Instant.now())).isLessThan(Duration.ofSeconds(10)); // not the 20 s timeout
            assertThat(output.content()).startsWith("MCP server 'scripted' ended its response to the call of tool 'polled' before"
                    + " the answer, and could not resume it after 1 attempt (last: HTTP 503 to the GET with Last-Event-ID that asks"
                    + " for the rest; it asked to be tried again only after 86");
        }
    }

    @Test
    void aResumingGetAnswered503WithARetryAfterBeyondTheCallsTimeoutEndsTheCallAtOnce() throws Exception {
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, ", \"timeout_seconds\": 20")) {
            server.refuseResumeWith.set(503);
            server.refuseResumeRetryAfter.set("3600");
            Instant began = Instant.now();
            ToolOutput output = invoke(mcp, "polled", "k-retry-after-long", Duration.ofSeconds(25));
            assertThat(Duration.between(began, Instant.now())).isLessThan(Duration.ofSeconds(10)); // not the 20 s timeout
            assertThat(output.content()).isEqualTo("MCP server 'scripted' ended its response to the call of tool 'polled' before the"
                    + " answer, and could not resume it after 1 attempt (last: HTTP 503 to the GET with Last-Event-ID that asks for"
                    + " the rest; it asked to be tried again only after 3600 s, past the call's timeout), so the answer was lost."
                    + " Try again, or use another tool.");
        }
    }

    @Test
    void aRetryAfterPastTheCallsDeadlineEndsTheCallAtOnceThoughTheStreamEndedLate() throws Exception {
        // The call's deadline bounds every wait of the call: a stream that ended after the call used most of its time
        // (here 2.5 s of 4) is not resumed after a Retry-After (3 s) that lands past it. Before, the resumption counted
        // its time from the stream's end, slept the 3 s, and the call ended with a plain timeout instead of saying why.
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, ", \"timeout_seconds\": 4")) {
            server.polledWorksMillis.set(2500);
            server.refuseResumeWith.set(503);
            server.refuseResumeRetryAfter.set("3");
            ToolOutput output = invoke(mcp, "polled", "k-retry-after-late", Duration.ofSeconds(4));
            assertThat(output.content()).isEqualTo("MCP server 'scripted' ended its response to the call of tool 'polled' before the"
                    + " answer, and could not resume it after 1 attempt (last: HTTP 503 to the GET with Last-Event-ID that asks for"
                    + " the rest; it asked to be tried again only after 3 s, past the call's timeout), so the answer was lost."
                    + " Try again, or use another tool.");
            assertThat(server.received.stream().filter(r -> r.lastEventId() != null)).as("not tried again past the deadline").hasSize(1);
        }
    }

    @Test
    void aResumingGetAnswered401EndsTheCallAtOnceSayingHowToSendCredentials() throws Exception {
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, ", \"timeout_seconds\": 20")) {
            server.refuseResumeWith.set(401);
            ToolOutput output = invoke(mcp, "polled", "k-401", Duration.ofSeconds(25));
            assertThat(output.content()).isEqualTo("MCP server 'scripted' ended its response to the call of tool 'polled' before the"
                    + " answer, and refused to resume it: it answered HTTP 401 to the GET with Last-Event-ID that asks for the rest,"
                    + " so the answer was lost (it answered HTTP 401 Unauthorized: it needs credentials, and Rein sends only the"
                    + " server's \"headers\" (e.g. \"headers\": {\"Authorization\": \"Bearer ${TOKEN}\"}); it does not run MCP's"
                    + " OAuth authorization flow). Try again, or use another tool.");
            assertThat(server.received.stream().filter(r -> r.lastEventId() != null)).hasSize(1);
        }
    }

    @Test
    void aCallWhoseStreamCannotBeResumedBecauseEveryReconnectionFailsEndsWithoutWaitingForItsTimeout() throws Exception {
        // The server went down after closing the call's stream early: three GETs in a row fail (backing off 0.3, 0.6,
        // 1.2 s). Nothing else can bring the answer, so the call ends then, saying so, and the next call reconnects.
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, ", \"timeout_seconds\": 20")) {
            server.dropResumes.set(true);
            Instant began = Instant.now();
            ToolOutput output = invoke(mcp, "polled", "k-dropped", Duration.ofSeconds(25));
            assertThat(Duration.between(began, Instant.now())).isLessThan(Duration.ofSeconds(15)); // not the 20 s timeout
            assertThat(output.isError()).as(output.content()).isTrue();
            assertThat(output.content()).isEqualTo("MCP server 'scripted' ended its response to the call of tool 'polled' before the"
                    + " answer, and it could not be resumed: the GET with Last-Event-ID that asks for the rest failed 3 times in a row"
                    + " (the connection dropped or could not be made), so the answer was lost. Rein connects to it again at the next"
                    + " call. Try again, or use another tool.");
            // At least three (the JDK's client sends an idempotent GET again once when its connection closes unanswered).
            assertThat(server.received.stream().filter(r -> r.lastEventId() != null)).hasSizeGreaterThanOrEqualTo(3);
            server.dropResumes.set(false);
            assertThat(invoke(mcp, "echo", "k-after-dropped", Duration.ofSeconds(10)).content()).isEqualTo("done");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"a GET resuming it still open", "its stream primed only after it"})
    void aCallGivenUpOnHasItsStreamResumedNoMoreNothingButTheCancellationFollows(String when) throws Exception {
        // Cancellation: a client that stops waiting for a request sends notifications/cancelled, and nothing more is to be
        // asked of that request. Before, a resumption still under way when the call timed out (its GET held open by a
        // server still working), or begun after it (the POST's stream primed and closed late), lost the call's deadline
        // when the call ended and polled on with GET and Last-Event-ID until the SDK's own limit (30 s + 5 s), for an
        // answer nobody awaited.
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, ", \"timeout_seconds\": 1")) {
            if (when.startsWith("a GET")) {
                server.holdResumesMillis.set(1500);
            } else {
                server.polledWorksMillis.set(1500);
            }
            ToolOutput output = invoke(mcp, "polled", "k-given-up", Duration.ofSeconds(1));
            assertThat(output.content()).startsWith("MCP server 'scripted' did not answer tool 'polled' in time.");
            assertThat(cancelledCalls(server, 1)).containsExactly(callIds(server).getFirst());
            Thread.sleep(3000); // past the held GET or the late stream, and many retry times (0.3 s) after
            assertThat(server.received.stream().filter(r -> r.lastEventId() != null)).as(server.received.toString())
                    .hasSize(when.startsWith("a GET") ? 1 : 0);
        }
    }

    @Test
    void onAPostOnlyRouteAResumingGetAnswered404CannotResumeTheStreamButDoesNotEndTheSession() throws Exception {
        // A POST-only route (Express: 'Cannot GET /mcp') answers every GET 404 while the session lives: the session's first
        // GET was answered so, which says the route has no GET. The GET resuming the call's stream gets the same 404, which
        // then says the stream cannot be resumed, not that the server forgot the session: the session is neither ended
        // (DELETE) nor replaced (initialize), and the call ends at once saying its answer was lost, not that the session is gone.
        try (ScriptedHttpServer server = new ScriptedHttpServer()) {
            server.postOnlyRoute.set(true);
            try (McpToolset mcp = start(server, ", \"timeout_seconds\": 20")) {
                Instant began = Instant.now();
                ToolOutput output = invoke(mcp, "polled", "k-post-only", Duration.ofSeconds(25));
                assertThat(Duration.between(began, Instant.now())).isLessThan(Duration.ofSeconds(10)); // not the 20 s timeout
                assertThat(server.received.stream().filter(r -> r.lastEventId() != null)).as(server.received.toString())
                        .isNotEmpty().allSatisfy(r -> assertThat(r.sessionId()).isEqualTo("s1"));
                assertThat(output.isError()).as(output.content()).isTrue();
                assertThat(output.content()).isEqualTo("MCP server 'scripted' ended its response to the call of tool 'polled' before"
                        + " the answer, and refused to resume it: it answered HTTP 404 to the GET with Last-Event-ID that asks for the"
                        + " rest (as it answers every GET: a route without GET), so the answer was lost. Try again, or use another tool.");
                assertThat(invoke(mcp, "echo", "k-after-post-only", Duration.ofSeconds(10)).content()).isEqualTo("done");
                assertThat(server.rpc("initialize")).as(server.received.toString()).hasSize(1);
                assertThat(server.received).noneMatch(r -> "DELETE".equals(r.httpMethod()));
            }
        }
    }

    @Test
    void aStreamForTheServersOwnMessagesResumedForASessionTheServerNoLongerKnowsMakesTheNextCallUseANewSession() throws Exception {
        // The server restarted and answers the GET resuming its own stream with 404 for the session: a new session is
        // started for the next call, which is not first sent with the old session id only to be refused.
        try (ScriptedHttpServer server = new ScriptedHttpServer()) {
            server.primeStandaloneStream.set(true);
            server.forgetSessionOnResume.set(true);
            try (McpToolset mcp = start(server, "")) {
                Instant until = Instant.now().plusSeconds(10);
                while (server.received.stream().noneMatch(r -> "g1".equals(r.lastEventId())) && Instant.now().isBefore(until)) {
                    Thread.sleep(50);
                }
                Thread.sleep(200); // the refused resumption is taken up off the caller's thread
                server.forgetSessionOnResume.set(false);
                assertThat(invoke(mcp, "echo", "k-after-own", Duration.ofSeconds(10)).content()).isEqualTo("done");
                assertThat(server.rpc("tools/call")).as(server.received.toString()).hasSize(1)
                        .allSatisfy(r -> assertThat(r.sessionId()).isEqualTo("s2"));
            }
        }
    }

    @Test
    void aJsonRpcErrorWithoutAnIdOnAResumedResponseStreamIsThatRequestsRefusalAndTheSessionIsKept() throws Exception {
        // As aJsonRpcErrorWithoutAnIdInAResponseStreamIsThatRequestsRefusal, with the error on the GET that resumes the
        // call's stream from its last event id: the stream belongs to that request, so its error answers it.
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, "")) {
            server.polledAnswer.set("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32603,\"message\":\"Internal error:"
                    + " the job store is down\"}}");
            Instant called = Instant.now();
            ToolOutput refused = invoke(mcp, "polled", "k-polled-idless", Duration.ofSeconds(10));
            assertThat(Duration.between(called, Instant.now())).isLessThan(Duration.ofSeconds(5));
            assertThat(refused.content()).isEqualTo("MCP server 'scripted' refused the call of tool 'polled': JSON-RPC error -32603:"
                    + " Internal error: the job store is down (an error without the id of the request, which a server gives a request"
                    + " it could not read)");
            assertThat(invoke(mcp, "echo", "k-after-idless", Duration.ofSeconds(10)).content()).isEqualTo("done");
            assertThat(server.rpc("initialize")).as("the session is kept").hasSize(1);
        }
    }

    @Test
    void aMalformedErrorCarryingTheCallsIdOnAResumedResponseStreamEndsTheCallAtOnceQuotingIt() throws Exception {
        // As aMalformedErrorCarryingTheCallsIdInItsResponseStreamEndsTheCallAtOnceSayingSo, with the answer on the GET that
        // resumes the call's stream: its stand-in is handed on built, as on the first stream, and the call's error quotes it.
        try (ScriptedHttpServer server = new ScriptedHttpServer(); McpToolset mcp = start(server, "")) {
            server.polledAnswer.set("{\"jsonrpc\":\"2.0\",\"id\":\"{ID}\",\"error\":\"失敗 resumed boom\"}");
            Instant called = Instant.now();
            ToolOutput output = invoke(mcp, "polled", "k-polled-malformed", Duration.ofSeconds(10));
            assertThat(Duration.between(called, Instant.now())).as(output.content()).isLessThan(Duration.ofSeconds(5));
            assertThat(output.isError()).isTrue();
            assertThat(output.content()).startsWith("MCP server 'scripted' answered the call of tool 'polled' with a message that is"
                    + " not valid JSON-RPC: '").contains("失敗 resumed boom").contains("\"error\" must be an object");
            assertThat(invoke(mcp, "echo", "k-after-malformed", Duration.ofSeconds(10)).content()).isEqualTo("done");
        }
    }

    @Test
    void aJsonRpcErrorWithoutAnIdOnTheResumedStreamForTheServersOwnMessagesAnswersNoRequestAndEndsNothing() throws Exception {
        // No request is answered on the server's own stream, so an error without an id there belongs to none: it is
        // passed over, as an answer to no request is, and the stream and session go on (the list_changed after it arrives).
        try (ScriptedHttpServer server = new ScriptedHttpServer()) {
            server.primeStandaloneStream.set(true);
            server.standaloneMessage.set("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}");
            try (McpToolset mcp = start(server, "")) {
                Instant until = Instant.now().plus(Duration.ofSeconds(5));
                while (server.rpc("tools/list").size() < 2 && Instant.now().isBefore(until)) {
                    Thread.sleep(50);
                }
                assertThat(server.rpc("tools/list")).as(server.received.toString()).hasSize(2);
                ToolOutput output = invoke(mcp, "echo", "k-after-own-idless", Duration.ofSeconds(10));
                assertThat(output.content()).isEqualTo("done");
                assertThat(server.rpc("initialize")).as("the session is kept").hasSize(1);
            }
        }
    }

    @Test
    void anEmptyObjectOnTheResumedStreamForTheServersOwnMessagesIsPassedOverAndTheNotificationAfterItArrives() throws Exception {
        // server-everything's event store keeps a stream's priming event as the message {} and replays the events of every
        // stream after a Last-Event-ID, so a resumed stream can bring {}: a message that is no JSON-RPC message.
        try (ScriptedHttpServer server = new ScriptedHttpServer()) {
            server.primeStandaloneStream.set(true);
            server.standaloneMessage.set("{}");
            try (McpToolset mcp = start(server, "")) {
                Instant until = Instant.now().plus(Duration.ofSeconds(5));
                while (server.rpc("tools/list").size() < 2 && Instant.now().isBefore(until)) {
                    Thread.sleep(50);
                }
                assertThat(server.rpc("tools/list")).as(server.received.toString()).hasSize(2);
                ToolOutput output = invoke(mcp, "echo", "k-after-own-empty", Duration.ofSeconds(10));
                assertThat(output.content()).isEqualTo("done");
                assertThat(server.rpc("initialize")).as("the session is kept").hasSize(1);
            }
        }
    }

    @Test
    void anEmptyObjectInACallsResponseStreamIsPassedOverAndTheCallGetsItsAnswer() throws Exception {
        // As on the stream for the server's own messages (above), in the stream a call is answered in: the TypeScript SDK's
        // client passes such an event over; the SDK here failed the call on it.
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (!exchange.getRequestMethod().equals("POST")) {
                FakeHttpEndpoint.empty(exchange, 405);
                return;
            }
            String answer = FakeHttpEndpoint.echoAnswer(message);
            if (answer == null) {
                FakeHttpEndpoint.empty(exchange, 202);
                return;
            }
            FakeHttpEndpoint.events(exchange, "id: 1\ndata: \n\nid: 2\ndata: {}\n\nevent: message\nid: 3\ndata: " + answer + "\n\n");
        }); McpToolset mcp = McpToolset.start(server.config("remote", "/mcp", ""))) {
            ToolOutput output = invoke(mcp, "echo", "k-empty-object", Duration.ofSeconds(10));
            assertThat(output.isError()).as(output.content()).isFalse();
            assertThat(output.content()).isEqualTo("done");
        }
    }

    @Test
    void aMalformedErrorCarryingTheCallsIdInItsResponseStreamEndsTheCallAtOnceSayingSo() throws Exception {
        // No "jsonrpc" and no "error.code", so no JSON-RPC message; but it carries the call's id, so it is the call's answer,
        // broken: the call ends now naming it, not at its timeout (as {} does, which carries no id and is passed over).
        for (String error : List.of("{\"message\":\"失敗 boom\"}", "\"失敗 boom\"", "{\"code\":\"x\",\"message\":\"失敗 boom\"}")) {
            try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
                if (!exchange.getRequestMethod().equals("POST")) {
                    FakeHttpEndpoint.empty(exchange, 405);
                    return;
                }
                String answer = FakeHttpEndpoint.method(message).equals("tools/call")
                        ? "{\"id\":" + FakeHttpEndpoint.id(message) + ",\"error\":" + error + "}" : FakeHttpEndpoint.echoAnswer(message);
                if (answer == null) {
                    FakeHttpEndpoint.empty(exchange, 202);
                    return;
                }
                FakeHttpEndpoint.events(exchange, "id: 1\ndata: {}\n\nevent: message\nid: 2\ndata: " + answer + "\n\n");
            }); McpToolset mcp = McpToolset.start(server.config("remote", "/mcp", ""))) {
                Instant before = Instant.now();
                ToolOutput output = invoke(mcp, "echo", "k-malformed", Duration.ofSeconds(20));
                assertThat(Duration.between(before, Instant.now())).as(output.content()).isLessThan(Duration.ofSeconds(5));
                assertThat(output.isError()).isTrue();
                assertThat(output.content()).startsWith("MCP server 'remote' answered the call of tool 'echo' with a message that is not"
                        + " valid JSON-RPC: '").contains("失敗 boom");
            }
        }
    }

    @Test
    void anAnswerWithAnotherIdThanTheCallsEndsTheCallAtOnceWhenItsStreamEndsSayingSo() throws Exception {
        // An answer whose id is not its request's (a server's bug: the id coerced to a number, or another request's) answers
        // nothing the SDK waits for; Rein took the stream for answered, and the call waited for its whole timeout. The same
        // in a JSON answer (its id after a long result, which is read as it passes, not held).
        for (String form : List.of("events", "json", "long json")) {
            try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
                if (!exchange.getRequestMethod().equals("POST")) {
                    FakeHttpEndpoint.empty(exchange, 405);
                    return;
                }
                String answer = FakeHttpEndpoint.echoAnswer(message);
                if (answer == null) {
                    FakeHttpEndpoint.empty(exchange, 202);
                    return;
                }
                if (FakeHttpEndpoint.method(message).equals("tools/call")) {
                    answer = "{\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\""
                            + (form.equals("long json") ? "長".repeat(20_000) : "done") + "\"}]},\"id\":\"wrong-1\"}";
                }
                if (form.equals("events")) {
                    FakeHttpEndpoint.events(exchange, "data: " + answer + "\n\n");
                } else {
                    FakeHttpEndpoint.json(exchange, 200, answer);
                }
            }); McpToolset mcp = McpToolset.start(server.config("remote", "/mcp", ""))) {
                Instant before = Instant.now();
                ToolOutput output = invoke(mcp, "echo", "k-other-id", Duration.ofSeconds(20));
                assertThat(Duration.between(before, Instant.now())).as(form + ": " + output.content()).isLessThan(Duration.ofSeconds(5));
                assertThat(output.content()).as(form).startsWith("MCP server 'remote' answered the call of tool 'echo' with the id"
                        + " \"wrong-1\", not the id of the request, and ended its response, so its answer never came");
            }
        }
    }

    @Test
    void aMalformedErrorCarryingTheCallsIdAsAJsonAnswerEndsTheCallAtOnceSayingSo() throws Exception {
        // As in an event stream (above), in a JSON answer: the SDK read {"message": ...} as error 0, and failed on the rest.
        for (String error : List.of("{\"message\":\"失敗 boom\"}", "\"失敗 boom\"")) {
            try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
                if (!exchange.getRequestMethod().equals("POST")) {
                    FakeHttpEndpoint.empty(exchange, 405);
                    return;
                }
                String answer = FakeHttpEndpoint.method(message).equals("tools/call")
                        ? "{\"id\":" + FakeHttpEndpoint.id(message) + ",\"error\":" + error + "}" : FakeHttpEndpoint.echoAnswer(message);
                if (answer == null) {
                    FakeHttpEndpoint.empty(exchange, 202);
                    return;
                }
                FakeHttpEndpoint.json(exchange, 200, answer);
            }); McpToolset mcp = McpToolset.start(server.config("remote", "/mcp", ""))) {
                Instant before = Instant.now();
                ToolOutput output = invoke(mcp, "echo", "k-malformed-json", Duration.ofSeconds(20));
                assertThat(Duration.between(before, Instant.now())).as(output.content()).isLessThan(Duration.ofSeconds(5));
                assertThat(output.isError()).isTrue();
                assertThat(output.content()).startsWith("MCP server 'remote' answered the call of tool 'echo' with a message that is not"
                        + " valid JSON-RPC: '").contains("失敗 boom");
            }
        }
    }

    @Test
    void aMalformedErrorCarryingTheCallsIdInAJsonAnswerLongerThan8KbEndsTheCallAtOnceSayingSo() throws Exception {
        // As above, with kilobytes of data in the error (a stack trace) before its message. Before: only the answer's first
        // 8 KB were read for it, so the SDK's own handling applied and the call waited for its timeout.
        String trace = "at handler (/srv/app.js:1:1)\\n".repeat(1000);
        for (String error : List.of("{\"data\":\"" + trace + "\",\"message\":\"失敗 boom\"}",
                "{\"code\":\"x\",\"data\":\"" + trace + "\",\"message\":\"失敗 boom\"}")) {
            try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
                if (!exchange.getRequestMethod().equals("POST")) {
                    FakeHttpEndpoint.empty(exchange, 405);
                    return;
                }
                String answer = FakeHttpEndpoint.method(message).equals("tools/call")
                        ? "{\"id\":" + FakeHttpEndpoint.id(message) + ",\"error\":" + error + "}" : FakeHttpEndpoint.echoAnswer(message);
                if (answer == null) {
                    FakeHttpEndpoint.empty(exchange, 202);
                    return;
                }
                FakeHttpEndpoint.json(exchange, 200, answer);
            }); McpToolset mcp = McpToolset.start(server.config("remote", "/mcp", ""))) {
                Instant before = Instant.now();
                ToolOutput output = invoke(mcp, "echo", "k-malformed-long", Duration.ofSeconds(20));
                assertThat(Duration.between(before, Instant.now())).as(output.content()).isLessThan(Duration.ofSeconds(5));
                assertThat(output.isError()).isTrue();
                assertThat(output.content()).startsWith("MCP server 'remote' answered the call of tool 'echo' with a message that is not"
                        + " valid JSON-RPC: '").contains("失敗 boom");
            }
        }
    }

    @Test
    void aJsonRpcErrorWithoutAnIdOnTheFirstStreamForTheServersOwnMessagesAnswersNoRequestAndTheNotificationAfterItArrives()
            throws Exception {
        // As on a resumed stream (above), on the first GET: an error without an id there answers no request, so it is
        // passed over, and the notifications/tools/list_changed the server sends after it on that stream is taken up.
        java.util.concurrent.atomic.AtomicInteger gets = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger listings = new java.util.concurrent.atomic.AtomicInteger();
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (exchange.getRequestMethod().equals("GET")) {
                if (gets.getAndIncrement() > 0) {
                    FakeHttpEndpoint.empty(exchange, 405);
                    return;
                }
                FakeHttpEndpoint.events(exchange, "data: {\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,"
                        + "\"message\":\"Parse error\"}}\n\n"
                        + "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n");
                return;
            }
            FakeHttpEndpoint.echoCountingListings(exchange, message, "own-stream", listings);
        }); McpToolset mcp = McpToolset.start(server.config("remote", "/mcp", ""))) {
            awaitListings(listings, 2, Duration.ofSeconds(5));
            assertThat(listings.get()).as("the tools are listed again after list_changed").isEqualTo(2);
            assertThat(invoke(mcp, "echo", "k-after-first-idless", Duration.ofSeconds(10)).content()).isEqualTo("done");
        }
    }

    @Test
    void theStreamForTheServersOwnMessagesClosedWithoutAnEventIdIsOpenedAgainSoALaterNotificationArrives() throws Exception {
        // A server (or a proxy's idle timeout) may close the GET stream for its own messages at any time; without an event
        // id it cannot be resumed, but a new one can be opened, as the TypeScript SDK's client does. Here each GET carries
        // one notifications/tools/list_changed without an id and ends; the third is refused (405). Before, the stream was
        // not opened again after the first, so the second change never reached Rein.
        java.util.concurrent.atomic.AtomicInteger gets = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger listings = new java.util.concurrent.atomic.AtomicInteger();
        List<String> lastEventIds = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (exchange.getRequestMethod().equals("GET")) {
                lastEventIds.add(String.valueOf(exchange.getRequestHeaders().getFirst("Last-Event-ID")));
                if (gets.incrementAndGet() > 2) {
                    FakeHttpEndpoint.empty(exchange, 405);
                    return;
                }
                FakeHttpEndpoint.events(exchange, "retry: 200\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n");
                return;
            }
            FakeHttpEndpoint.echoCountingListings(exchange, message, "reopened", listings);
        }); McpToolset mcp = McpToolset.start(server.config("remote", "/mcp", ""))) {
            awaitListings(listings, 3, Duration.ofSeconds(10));
            assertThat(listings.get()).as("listed at start and after each of the two notifications").isEqualTo(3);
            assertThat(lastEventIds).as("a new stream, not a resumed one").allMatch("null"::equals);
            Thread.sleep(1000);
            assertThat(gets.get()).as("not opened again once refused").isEqualTo(3);
            assertThat(invoke(mcp, "echo", "k-after-reopened", Duration.ofSeconds(10)).content()).isEqualTo("done");
        }
    }

    @Test
    void theStreamForTheServersOwnMessagesCutOffByANetworkErrorIsResumedFromItsLastEventId() throws Exception {
        // Resumability and Redelivery: a client whose stream broke off (a dropped connection, not a close by the server)
        // may resume it with GET and Last-Event-ID, as the TypeScript SDK's client does. Here the first GET brings a
        // notifications/tools/list_changed with id a1, then its connection drops before the body it announced has come;
        // resumed from a1 it brings another, and the third GET is refused (405). Before, nothing listened after the drop.
        java.util.concurrent.atomic.AtomicInteger gets = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger listings = new java.util.concurrent.atomic.AtomicInteger();
        List<String> lastEventIds = new java.util.concurrent.CopyOnWriteArrayList<>();
        String changed = "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n";
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (exchange.getRequestMethod().equals("GET")) {
                lastEventIds.add(String.valueOf(exchange.getRequestHeaders().getFirst("Last-Event-ID")));
                switch (gets.incrementAndGet()) {
                    case 1 -> {
                        byte[] part = ("id: a1\nretry: 200\n" + changed).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
                        exchange.sendResponseHeaders(200, part.length + 1000); // announces more than it sends: the connection drops
                        exchange.getResponseBody().write(part);
                        exchange.getResponseBody().flush();
                        try {
                            Thread.sleep(300);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        // Closing the exchange with bytes still owed drops the connection.
                    }
                    case 2 -> FakeHttpEndpoint.events(exchange, "id: a2\n" + changed);
                    default -> FakeHttpEndpoint.empty(exchange, 405);
                }
                return;
            }
            FakeHttpEndpoint.echoCountingListings(exchange, message, "dropped", listings);
        }); McpToolset mcp = McpToolset.start(server.config("remote", "/mcp", ""))) {
            awaitListings(listings, 3, Duration.ofSeconds(10));
            assertThat(listings.get()).as("listed at start and after each of the two notifications " + lastEventIds).isEqualTo(3);
            assertThat(lastEventIds.subList(0, 2)).containsExactly("null", "a1");
            assertThat(invoke(mcp, "echo", "k-after-dropped", Duration.ofSeconds(10)).content()).isEqualTo("done");
        }
    }

    @Test
    void reconnectionsOfTheStreamForTheServersOwnMessagesThatFailWaitLongerEachTime() throws Exception {
        // Resumability: after a close with an event id Rein reconnects after the retry time (1 s when none is set); when
        // the reconnection fails (a server being redeployed, a proxy restarting), the next waits twice as long (1 s, 2 s,
        // 4 s), as the TypeScript SDK's client backs off (1 s growing by 1.5), so an outage of a few seconds is outlasted
        // and a down server is not polled every second. Before, each failed reconnection came 1 s after the last.
        List<Instant> gets = new java.util.concurrent.CopyOnWriteArrayList<>();
        String changed = "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n";
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (exchange.getRequestMethod().equals("GET")) {
                gets.add(Instant.now());
                if (gets.size() == 1) {
                    FakeHttpEndpoint.events(exchange, "id: a1\n" + changed);
                }
                // Later GETs: the exchange is closed without an answer, which drops the connection.
                return;
            }
            FakeHttpEndpoint.echoCountingListings(exchange, message, "down", new java.util.concurrent.atomic.AtomicInteger());
        }); McpToolset mcp = McpToolset.start(server.config("remote", "/mcp", ""))) {
            Instant until = Instant.now().plus(Duration.ofSeconds(15));
            while (attempts(gets).size() < 4 && Instant.now().isBefore(until)) {
                Thread.sleep(50);
            }
            Thread.sleep(1500);
            List<Instant> attempts = attempts(gets);
            assertThat(attempts).as("the first GET, then three reconnections").hasSize(4);
            assertThat(Duration.between(attempts.get(1), attempts.get(2))).isGreaterThanOrEqualTo(Duration.ofMillis(1900));
            assertThat(Duration.between(attempts.get(2), attempts.get(3))).isGreaterThanOrEqualTo(Duration.ofMillis(3900));
            assertThat(invoke(mcp, "echo", "k-after-down", Duration.ofSeconds(10)).content()).isEqualTo("done");
        }
    }

    @Test
    void anHttpsUrlToAServerSpeakingPlainHttpIsSaidNotToSpeakTlsThere() throws Exception {
        // A common slip: https:// for a local server serving plain HTTP. A web server (Node's http) answers the TLS
        // greeting with a plain 400 and closes. Before: 'nothing accepted a connection at HOST:PORT (is the server
        // running?)' when the handshake timed out, or the SDK's 'RuntimeException: Client failed to initialize by explicit
        // API call Caused by: SSLException: Unsupported or unrecognized SSL message', though the server runs.
        try (java.net.ServerSocket plain = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                while (!plain.isClosed()) {
                    try (java.net.Socket socket = plain.accept()) {
                        socket.getInputStream().read(new byte[4096]);
                        socket.getOutputStream().write("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n"
                                .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    } catch (IOException e) {
                        // the next connection, or closed
                    }
                }
            });
            String url = "https://127.0.0.1:" + plain.getLocalPort() + "/mcp";
            assertThatThrownBy(() -> McpToolset.start(McpConfig.parse("{\"mcpServers\": {\"remote\": {\"url\": \"" + url + "\"}}}",
                    "test", Map.of()))).isInstanceOf(McpConfigException.class)
                    .hasMessage("MCP server 'remote' could not be started: the TLS handshake with 127.0.0.1:" + plain.getLocalPort()
                            + " failed: it answered in plain text, not TLS; if the server serves plain HTTP, use an http:// URL.");
        }
    }

    @Test
    void aTlsConnectionThatBreaksInTheMiddleOfACallIsSaidSoNamingTheServerAndWhatToCheck() throws Exception {
        // The handshake at start succeeded (afec111d covers one that fails there); then the connection of a call breaks:
        // a record no key decrypts, as a faulty proxy or a corrupted connection gives. Before, the model read the JDK's
        // words: 'failed while running tool 'echo': javax.net.ssl.SSLException: Tag mismatch'.
        try (ScriptedHttpServer server = new ScriptedHttpServer();
             TlsFront front = new TlsFront(java.net.URI.create(server.url()).getPort()).trustingClients();
             McpToolset mcp = McpToolset.start(McpConfig.parse("{\"mcpServers\": {\"remote\": {\"url\": \"" + front.url("/mcp")
                     + "\"}}}", "test", Map.of()))) {
            // The first call's connection makes its own handshake: more time than the usual half second.
            assertThat(invoke(mcp, "echo", "k-first", Duration.ofSeconds(10)).content()).isEqualTo("done");
            front.breakOn = "\"tools/call\"";
            ToolOutput broken = invoke(mcp, "echo", "k-broken", Duration.ofSeconds(5));
            assertThat(broken.isError()).isTrue();
            assertThat(broken.content()).isEqualTo("MCP server 'remote' failed while running tool 'echo': "
                    + front.brokeDuringTheExchange() + ". Rein connects to it again at the next call.");
            front.breakOn = null;
            // Rein connects again at the next call, and the call goes through.
            assertThat(invoke(mcp, "echo", "k-again", Duration.ofSeconds(10)).content()).isEqualTo("done");
        }
    }

    @Test
    void aTlsConnectionThatBreaksWhileTheToolsAreListedAtStartIsNotCalledAFailedHandshake() throws Exception {
        // The handshake succeeded and initialize was answered; then the connection breaks as tools/list is answered.
        // Before: 'the TLS handshake with HOST:PORT failed: (bad_record_mac) Tag mismatch', the JDK's words, and a
        // handshake that had succeeded.
        try (ScriptedHttpServer server = new ScriptedHttpServer();
             TlsFront front = new TlsFront(java.net.URI.create(server.url()).getPort()).trustingClients()) {
            front.breakOn = "\"tools/list\"";
            assertThatThrownBy(() -> McpToolset.start(McpConfig.parse("{\"mcpServers\": {\"remote\": {\"url\": \""
                    + front.url("/mcp") + "\"}}}", "test", Map.of()))).isInstanceOf(McpConfigException.class)
                    .hasMessage("MCP server 'remote' could not be started: " + front.brokeDuringTheExchange() + ".");
        }
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"initialize", "tools/list"})
    void aTlsConnectionThatBreaksInTheEventStreamOfAStartRequestIsSaidSo(String method) throws Exception {
        // The server answers initialize and tools/list with an event stream; the connection breaks inside the one of
        // METHOD, a record no key decrypts. Before: 'it ended its response without the answer, and without an event id to
        // resume it from (it may have crashed, or a proxy cut the connection) to the ... request', the TLS failure
        // unsaid (when Rein's end of the stream came before the SDK's failure of the request).
        try (ScriptedHttpServer server = new ScriptedHttpServer();
             TlsFront front = new TlsFront(java.net.URI.create(server.url()).getPort()).trustingClients()) {
            server.startByEvents.set(true);
            // Only the event stream of METHOD breaks, before its first event ends (so with no event id to resume from).
            front.breakAnswerOn = method + "-p";
            assertThatThrownBy(() -> McpToolset.start(McpConfig.parse("{\"mcpServers\": {\"remote\": {\"url\": \""
                    + front.url("/mcp") + "\"}}}", "test", Map.of()))).isInstanceOf(McpConfigException.class)
                    .hasMessage("MCP server 'remote' could not be started: " + front.brokeDuringTheExchange() + ".");
        }
    }

    @Test
    void aTlsConnectionThatBreaksInTheMiddleOfACallsEventStreamIsSaidSo() throws Exception {
        // The server answers the call with an event stream (SSE polling: a priming event, then the answer on a resumed
        // GET); the connection breaks inside that stream, before its first event ends, a record no key decrypts. Before:
        // 'ended its response ... without the answer, and without an event id to resume it from (it may have crashed, or a
        // proxy cut the connection)', the TLS failure unsaid.
        try (ScriptedHttpServer server = new ScriptedHttpServer();
             TlsFront front = new TlsFront(java.net.URI.create(server.url()).getPort()).trustingClients();
             McpToolset mcp = McpToolset.start(McpConfig.parse("{\"mcpServers\": {\"remote\": {\"url\": \"" + front.url("/mcp")
                     + "\"}}}", "test", Map.of()))) {
            assertThat(invoke(mcp, "echo", "k-first", Duration.ofSeconds(10)).content()).isEqualTo("done");
            front.breakAnswerOn = "retry:";
            ToolOutput broken = invoke(mcp, "polled", "k-broken", Duration.ofSeconds(10));
            front.breakAnswerOn = null;
            assertThat(broken.isError()).isTrue();
            assertThat(broken.content()).isEqualTo("MCP server 'remote' failed while running tool 'polled': "
                    + front.brokeDuringTheExchange() + ". Rein connects to it again at the next call.");
            assertThat(invoke(mcp, "echo", "k-again", Duration.ofSeconds(10)).content()).isEqualTo("done");
        }
    }

    @Test
    void aTlsHandshakeThatFailsOnANewConnectionOfACallIsSaidSoNamingTheServerAndWhatToCheck() throws Exception {
        // The session began over TLS; then its connection closed and the server's certificate was replaced by one the
        // Java runtime does not trust, so the call's new connection fails its handshake. Before, the model read the JDK's
        // words: '... SSLHandshakeException: PKIX path building failed: sun.security.provider.certpath...'. The tool counts
        // as a write here: no request went out without a connection, so it was not run, where the result said it may
        // have taken effect.
        try (ScriptedHttpServer server = new ScriptedHttpServer();
             TlsFront front = new TlsFront(java.net.URI.create(server.url()).getPort()).trustingClients();
             McpToolset mcp = McpToolset.start(McpConfig.parse("{\"mcpServers\": {\"remote\": {\"url\": \"" + front.url("/mcp")
                     + "\", \"risk\": \"write\"}}}", "test", Map.of()))) {
            assertThat(invoke(mcp, "echo", "k-first", Duration.ofSeconds(10)).content()).isEqualTo("done");
            front.serveAnUntrustedCertificate();
            Thread.sleep(300); // the client sees its pooled connection closed
            ToolOutput refused = invoke(mcp, "echo", "k-refused", Duration.ofSeconds(10));
            assertThat(refused.isError()).isTrue();
            assertThat(refused.content()).isEqualTo("MCP server 'remote' failed while running tool 'echo': the TLS handshake with "
                    + front.url("").substring("https://".length()) + " failed on a new connection (it succeeded when the session"
                    + " began; has the server's certificate or TLS setup changed?): its certificate is not trusted by this Java"
                    + " runtime (a self-signed one, or one from a CA of your own): add that CA to Java's trust store (the"
                    + " javax.net.ssl.trustStore system property). No TLS connection was made, so the call was not sent and the tool"
                    + " did not run. Rein connects to it again at the next call.");
            assertThat(server.rpc("tools/call")).hasSize(1);
        }
    }

    @Test
    void theStreamForTheServersOwnMessagesClosedAfterAnEventIdIsPolledSoALaterNotificationArrives() throws Exception {
        try (ScriptedHttpServer server = new ScriptedHttpServer()) {
            server.primeStandaloneStream.set(true);
            try (McpToolset mcp = start(server, "")) {
                Instant until = Instant.now().plus(Duration.ofSeconds(5));
                while (server.rpc("tools/list").size() < 2 && Instant.now().isBefore(until)) {
                    Thread.sleep(50);
                }
                // The list_changed sent on the resumed stream was taken up: the tools were listed again.
                assertThat(server.rpc("tools/list")).as(server.received.toString()).hasSize(2);
                assertThat(server.received).filteredOn(r -> "g1".equals(r.lastEventId())).singleElement()
                        .satisfies(r -> {
                            assertThat(r.httpMethod()).isEqualTo("GET");
                            assertThat(r.sessionId()).isEqualTo("s1");
                            assertThat(r.protocolVersion()).isEqualTo(ScriptedHttpServer.VERSION);
                        });
            }
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "401 | HTTP 401 Unauthorized: it needs credentials, and Rein sends only the server's \"headers\"",
            "403 | HTTP 403 Forbidden: the credentials in the server's \"headers\" are not enough",
            "404 | HTTP 404 Not Found to a POST: the URL is not a streamable HTTP MCP endpoint",
            "500 | it answered HTTP 500."})
    void aServerRefusingInitializeWithAnHttpStatusIsToldApartSayingWhatToChange(int status, String expected) throws Exception {
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (status == 401) {
                exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"mcp\"");
            }
            FakeHttpEndpoint.empty(exchange, status);
        })) {
            assertThatThrownBy(() -> McpToolset.start(server.config("remote", "/mcp", ""))).isInstanceOf(McpConfigException.class)
                    .hasMessageStartingWith("MCP server 'remote' could not be started: it answered HTTP " + status)
                    .hasMessageContaining(expected)
                    .hasMessageNotContaining("Exception").hasMessageNotContaining("…");
        }
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {307, 308})
    void anEndpointRedirectedOnTheSameServerIsFollowedKeepingTheMethodTheBodyAndTheHeaders(int status) throws Exception {
        try (ScriptedHttpServer server = new ScriptedHttpServer()) {
            String moved = server.url().replace("/mcp", "/moved/" + status);
            try (McpToolset mcp = McpToolset.start(McpConfig.parse("{\"mcpServers\": {\"scripted\": {\"url\": \"" + moved
                    + "\", \"headers\": {\"Authorization\": \"Bearer tok-1\"}}}}", "test", Map.of()))) {
                assertThat(invoke(mcp, "echo", "k-moved", Duration.ofSeconds(10)).content()).isEqualTo("done");
            }
            assertThat(server.rpc("tools/call")).singleElement()
                    .satisfies(call -> assertThat(call.authorization()).isEqualTo("Bearer tok-1"));
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"status\":\"ok\",\"token\":\"tok-echoed-123\"} | {\"status\":\"ok\",\"token\":\"[REDACTED:",
            "not json at all | not json at all'"})
    void aUrlAnsweringWithJsonThatIsNotJsonRpcIsSaidNotToBeAnMcpEndpointAndTheBodyIsMasked(String body, String quoted) throws Exception {
        // A health or REST endpoint at the URL. Before: 'RuntimeException: Client failed to initialize by explicit API call
        // Caused by: IllegalArgumentException: Cannot deserialize JSONRPCMessage: {...}' (or 'McpTransportException: Error
        // deserializing JSON-RPC message: ... Caused by: JsonParseException'), with the body unmasked.
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> FakeHttpEndpoint.json(exchange, 200, body))) {
            assertThatThrownBy(() -> McpToolset.start(server.config("remote", "/health",
                    ", \"headers\": {\"Authorization\": \"Bearer tok-echoed-123\"}")))
                    .isInstanceOf(McpConfigException.class)
                    .hasMessageStartingWith("MCP server 'remote' could not be started: it answered the request with a body that is not a"
                            + " JSON-RPC message: '" + quoted)
                    .hasMessageContaining("the URL is not a streamable HTTP MCP endpoint (is the path right, often /mcp?)")
                    .hasMessageNotContaining("Exception").hasMessageNotContaining("tok-echoed");
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "403 | it answered HTTP 403 Forbidden: the credentials in the server's \"headers\" are not enough for it",
            "400 | it answered HTTP 400",
            "500 | it answered HTTP 500"})
    void theJsonRpcErrorOfAnHttpRefusalOfInitializeIsQuotedSoItsCauseIsKnown(int status, String said) throws Exception {
        // Transports spec: an HTTP error to a POST MAY carry a JSON-RPC error without an id, as the TypeScript SDK's DNS
        // rebinding protection answers (403 'Invalid Host header'). Before, only the status was named, so a 403 read as
        // a credentials problem.
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> FakeHttpEndpoint.json(exchange, status,
                "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32000,\"message\":\"Invalid Host header: 127.0.0.1 (token"
                        + " tok-quoted-77)\"},\"id\":null}"))) {
            assertThatThrownBy(() -> McpToolset.start(server.config("remote", "/mcp", ", \"headers\": {\"X-Api-Key\": \"tok-quoted-77\"}")))
                    .isInstanceOf(McpConfigException.class)
                    .hasMessageStartingWith("MCP server 'remote' could not be started: " + said)
                    .hasMessageContaining("; it said: 'JSON-RPC error -32000: Invalid Host header: 127.0.0.1 (token [REDACTED:")
                    .hasMessageNotContaining("tok-quoted-77");
        }
    }

    @Test
    void theJsonRpcErrorOfAnHttpRefusalLongerThan8KbIsStillQuoted() throws Exception {
        // Before: only the body's first 8 KB were kept to read the error from; a refusal carrying a stack trace in its "data"
        // was cut there, was no JSON, and the start named the status alone, the server's reason silently lost.
        String trace = "at handler (/srv/app.js:1:1)\\n".repeat(1000);
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> FakeHttpEndpoint.json(exchange, 403,
                "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32000,\"message\":\"Invalid Host header: 東京.example\",\"data\":{\"stack\":\""
                        + trace + "\"}},\"id\":null}"))) {
            assertThatThrownBy(() -> McpToolset.start(server.config("remote", "/mcp", ""))).isInstanceOf(McpConfigException.class)
                    .hasMessageContaining("it answered HTTP 403 Forbidden")
                    .hasMessageContaining("; it said: 'JSON-RPC error -32000: Invalid Host header: 東京.example'");
        }
    }

    @Test
    void aRequestAnsweredWithAnEmptyAcceptedIsSaidSoAtOnceNotAfterTheTimeout() throws Exception {
        // Transports spec: a request is answered with JSON or an event stream; 202 without a body is for notifications and
        // responses. Before, initialize waited 30 s and was said not to have been answered in time.
        java.util.concurrent.atomic.AtomicBoolean answerStart = new java.util.concurrent.atomic.AtomicBoolean();
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (!exchange.getRequestMethod().equals("POST")) {
                FakeHttpEndpoint.empty(exchange, 405); // no stream for its own messages
                return;
            }
            String answer = !answerStart.get() ? null : switch (FakeHttpEndpoint.method(message)) {
                case "initialize" -> FakeHttpEndpoint.initialized(message);
                case "tools/list" -> FakeHttpEndpoint.listed(message, "{\"name\":\"write\",\"inputSchema\":{\"type\":\"object\"},"
                        + "\"annotations\":{\"destructiveHint\":false}}");
                default -> null;
            };
            if (answer == null) {
                FakeHttpEndpoint.empty(exchange, 202);
                return;
            }
            FakeHttpEndpoint.json(exchange, 200, answer);
        })) {
            String url = server.url("/mcp");
            Instant before = Instant.now();
            assertThatThrownBy(() -> McpToolset.start(McpConfig.parse("{\"mcpServers\": {\"remote\": {\"url\": \"" + url + "\"}}}",
                    "test", Map.of()))).isInstanceOf(McpConfigException.class)
                    .hasMessageStartingWith("MCP server 'remote' could not be started: it answered the initialize request with HTTP 202 and"
                            + " no body, where a request is answered with JSON or an event stream, so its answer would never come")
                    .hasMessageNotContaining("JSON-RPC error");
            assertThat(Duration.between(before, Instant.now())).isLessThan(Duration.ofSeconds(10));
            answerStart.set(true);
            try (McpToolset mcp = McpToolset.start(McpConfig.parse("{\"mcpServers\": {\"remote\": {\"url\": \"" + url + "\","
                    + " \"timeout_seconds\": 20}}}", "test", Map.of()))) {
                Instant called = Instant.now();
                ToolOutput output = invoke(mcp, "write", "k-202", Duration.ofSeconds(20));
                assertThat(Duration.between(called, Instant.now())).isLessThan(Duration.ofSeconds(10));
                assertThat(output.content()).startsWith("MCP server 'remote' answered the call of tool 'write' with HTTP 202 and no body,"
                        + " where a request is answered with JSON or an event stream, so its answer would never come.")
                        .contains("It may or may not have taken effect");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"application/json", "text/event-stream", "text/plain"})
    void aCallAnswered204IsSaidToHaveNoBodyWhateverItsContentType(String type) throws Exception {
        // A 204 never has a body (RFC 9110 section 15.3.5), whatever its Content-Type says. Before, one typed JSON was
        // blamed for 'a body that is not a JSON-RPC message', and one typed as an event stream for ending without the answer.
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (!exchange.getRequestMethod().equals("POST")) {
                FakeHttpEndpoint.empty(exchange, 405);
                return;
            }
            if (FakeHttpEndpoint.method(message).equals("tools/call")) {
                exchange.getResponseHeaders().set("Content-Type", type);
                exchange.getResponseHeaders().set("Mcp-Session-Id", "s1");
                exchange.sendResponseHeaders(204, -1);
                return;
            }
            FakeHttpEndpoint.echo(exchange, message, "s1");
        }, true); McpToolset mcp = McpToolset.start(server.config("remote", "/mcp", ", \"timeout_seconds\": 20"))) {
            Instant called = Instant.now();
            ToolOutput output = invoke(mcp, "echo", "k-204", Duration.ofSeconds(20));
            assertThat(Duration.between(called, Instant.now())).isLessThan(Duration.ofSeconds(10));
            assertThat(output.content()).startsWith("MCP server 'remote' answered the call of tool 'echo' with HTTP 204 and no body,"
                    + " where a request is answered with JSON or an event stream, so its answer would never come.");
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "400 | {\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"Bad Request: no session\"},\"id\":null}"
                    + " | ; it said: 'JSON-RPC error -32600: Bad Request: no session'",
            "404 | | ''",
            "406 | | ''"})
    void aServerRefusingTheInitializedNotificationIsSaidToHaveRefusedItAndIsNotInitializedAgain(int status, String body, String said)
            throws Exception {
        // Lifecycle: after the initialize answer the client sends notifications/initialized, which the server accepts with
        // 202. Before, a 406 was 'it answered HTTP 406. Check that the URL is reachable' (the notification unnamed), and a
        // 400 or 404 (the SDK takes it for a forgotten session) 'RuntimeException: Client failed to initialize by explicit
        // API call Caused by: McpTransportSessionNotFoundException: Session s-1 not found on the server', after the SDK had
        // initialized again and again in the background.
        java.util.concurrent.atomic.AtomicInteger initializes = new java.util.concurrent.atomic.AtomicInteger();
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (!exchange.getRequestMethod().equals("POST")) {
                FakeHttpEndpoint.empty(exchange, 405);
                return;
            }
            if (FakeHttpEndpoint.method(message).equals("initialize")) {
                initializes.incrementAndGet();
            }
            if (FakeHttpEndpoint.method(message).equals("notifications/initialized")) {
                if (body == null) {
                    FakeHttpEndpoint.empty(exchange, status);
                } else {
                    FakeHttpEndpoint.json(exchange, status, body);
                }
                return;
            }
            FakeHttpEndpoint.echo(exchange, message, "s-1");
        })) {
            Instant before = Instant.now();
            assertThatThrownBy(() -> McpToolset.start(server.config("remote", "/mcp", ""))).isInstanceOf(McpConfigException.class)
                    .hasMessage("MCP server 'remote' could not be started: it answered the initialize request, then refused the"
                            + " notifications/initialized notification that follows it (which every client sends, as the protocol's"
                            + " lifecycle says) with HTTP " + status + said + ". Have the server fixed, or set \"disabled\": true to"
                            + " leave it out.");
            assertThat(Duration.between(before, Instant.now())).isLessThan(Duration.ofSeconds(10));
            Thread.sleep(500);
            assertThat(initializes).hasValue(1);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"text/plain; charset=utf-8|Accepted", "text/html|<html>ok</html>", "|OK"})
    void aNotificationAnsweredWith200AndABodyInsteadOf202IsTakenAsAccepted(String type, String body) throws Exception {
        // Transports spec: a notification's POST is answered 202 without a body when the server accepts it; servers
        // written on web frameworks often answer 200 with a plain text body. Any 2xx means accepted, and a notification
        // has no answer to read. Before, the start failed on notifications/initialized with the SDK's 'Unknown media
        // type returned: text/plain'.
        List<String> methods = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (!exchange.getRequestMethod().equals("POST")) {
                FakeHttpEndpoint.empty(exchange, 405);
                return;
            }
            methods.add(FakeHttpEndpoint.method(message));
            String answer = FakeHttpEndpoint.echoAnswer(message);
            if (answer != null) {
                FakeHttpEndpoint.json(exchange, 200, answer);
                return;
            }
            byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            if (type != null) {
                exchange.getResponseHeaders().set("Content-Type", type);
            }
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
        })) {
            try (McpToolset mcp = McpToolset.start(server.config("remote", "/mcp", ""))) {
                assertThat(invoke(mcp, "echo", "k-200", Duration.ofSeconds(10)).content()).isEqualTo("done");
            }
            assertThat(methods).contains("notifications/initialized");
            assertThat(methods.stream().filter("initialize"::equals)).hasSize(1);
        }
    }

    @Test
    void aUrlAnsweringWithAWebPageIsSaidNotToBeAnMcpEndpoint() throws Exception {
        // Before: 'RuntimeException: Client failed to initialize by explicit API call Caused by: McpTransportException:
        // Unknown media type returned: text/html; charset=utf-8', the SDK's classes for a URL that is a web page.
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> FakeHttpEndpoint.send(exchange, 200,
                "text/html; charset=utf-8", "<html><body>Welcome</body></html>"))) {
            assertThatThrownBy(() -> McpToolset.start(server.config("remote", "/", ""))).isInstanceOf(McpConfigException.class)
                    .hasMessage("MCP server 'remote' could not be started: it"
                    + " answered with content of type 'text/html; charset=utf-8', where MCP's streamable HTTP transport answers with JSON"
                    + " (application/json) or an event stream (text/event-stream): the URL is not a streamable HTTP MCP endpoint (is the"
                    + " path right, often /mcp?). Check that the URL is reachable and the headers are right.");
        }
    }

    @Test
    void aRedirectToAnotherServerIsNotFollowedAndTheErrorSaysWhereItPointsWithoutItsQuery() throws Exception {
        // The configured headers (a token) must not go to a host the file does not name.
        List<String> authorizations = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            exchange.getResponseHeaders().set("Location", exchange.getRequestURI().getPath().equals("/mcp")
                    ? "http://localhost:" + exchange.getLocalAddress().getPort() + "/elsewhere?key=secret-in-query" : "/mcp");
            FakeHttpEndpoint.empty(exchange, exchange.getRequestURI().getPath().equals("/mcp") ? 307 : 302);
        })) {
            String base = server.url("");
            int port = java.net.URI.create(base).getPort();
            String file = "{\"mcpServers\": {\"remote\": {\"url\": \"%s\", \"headers\": {\"Authorization\": \"Bearer tok-2\"}}}}";
            assertThatThrownBy(() -> McpToolset.start(McpConfig.parse(file.formatted(base + "/mcp"), "test", Map.of())))
                    .isInstanceOf(McpConfigException.class)
                    .hasMessageStartingWith("MCP server 'remote' could not be started: it answered HTTP 307, a redirect to http://localhost:"
                            + port + "/elsewhere on another server, where Rein does not send the server's \"headers\"")
                    .hasMessageNotContaining("secret-in-query").hasMessageNotContaining("Exception");
            assertThat(authorizations).containsOnly("Bearer tok-2").hasSize(1);
            assertThatThrownBy(() -> McpToolset.start(McpConfig.parse(file.formatted(base + "/old"), "test", Map.of())))
                    .isInstanceOf(McpConfigException.class)
                    .hasMessageContaining("it answered HTTP 302, a redirect to " + base + "/mcp, which Rein does not follow (a 302 turns the"
                            + " POST into a GET); set \"url\" to that address");
        }
    }

    @Test
    void aJsonRpcBatchInAnEventOfAResponseStreamIsReadAsItsMessages() throws Exception {
        // Protocol revision 2025-03-26 (which a server may still negotiate): implementations MUST support receiving JSON-RPC
        // batches. Before, the SDK's transport failed on the array ('McpTransportException: Error parsing JSON-RPC
        // message: [...]') and Rein restarted a server that had answered.
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            String method = FakeHttpEndpoint.method(message);
            String id = FakeHttpEndpoint.id(message);
            String answer = switch (method) {
                case "initialize" -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"protocolVersion\":\"2025-03-26\","
                        + "\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"old\",\"version\":\"1\"}}}";
                case "tools/list" -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"tools\":[{\"name\":\"look\","
                        + "\"inputSchema\":{\"type\":\"object\"},\"annotations\":{\"readOnlyHint\":true}}]}}";
                case "tools/call" -> "[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\","
                        + "\"data\":\"looking\"}},{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"content\":[{\"type\":\"text\","
                        + "\"text\":\"見つけた\"}]}}]";
                default -> null;
            };
            if (answer == null || !"POST".equals(exchange.getRequestMethod())) {
                FakeHttpEndpoint.empty(exchange, "POST".equals(exchange.getRequestMethod()) ? 202 : 405);
                return;
            }
            boolean stream = "tools/call".equals(method);
            byte[] bytes = (stream ? "event: message\r\ndata: " + answer + "\r\n\r\n" : answer)
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", stream ? "text/event-stream" : "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            try (var out = exchange.getResponseBody()) {
                // In two pieces, the cut inside the batch, as a network may deliver it.
                out.write(bytes, 0, bytes.length / 2);
                out.flush();
                out.write(bytes, bytes.length / 2, bytes.length - bytes.length / 2);
            }
        }); McpToolset mcp = McpToolset.start(server.config("old", "/mcp", ""))) {
            ToolOutput first = invoke(mcp, "look", "k-batch-1", Duration.ofSeconds(10));
            assertThat(first.isError()).as(first.content()).isFalse();
            assertThat(first.content()).isEqualTo("見つけた");
            assertThat(invoke(mcp, "look", "k-batch-2", Duration.ofSeconds(10)).content()).isEqualTo("見つけた");
        }
    }

    @Test
    void aResponseStreamThatEndsWithoutTheAnswerOrAnEventIdEndsTheCallAtOnceNotAtItsTimeout() throws Exception {
        // A server that crashed (or a proxy that cut the connection) mid-call: nothing can resume the stream. Before,
        // the call waited for its timeout and said 'did not answer tool 'write' in time', as for a server still working.
        java.util.concurrent.atomic.AtomicBoolean cutListing = new java.util.concurrent.atomic.AtomicBoolean();
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            String method = FakeHttpEndpoint.method(message);
            String id = FakeHttpEndpoint.id(message);
            if (cutListing.get() && "tools/list".equals(method)) {
                method = "tools/call";
            }
            String answer = switch (method) {
                case "initialize" -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"protocolVersion\":\"2025-06-18\","
                        + "\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"cut\",\"version\":\"1\"}}}";
                case "tools/list" -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"tools\":[{\"name\":\"write\","
                        + "\"inputSchema\":{\"type\":\"object\"},\"annotations\":{\"destructiveHint\":false}}]}}";
                default -> null;
            };
            if ("tools/call".equals(method)) {
                exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
                exchange.sendResponseHeaders(200, 0);
                exchange.getResponseBody().write(": working\n\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                return; // the stream ends: no answer, no event id
            }
            if (answer == null || !"POST".equals(exchange.getRequestMethod())) {
                FakeHttpEndpoint.empty(exchange, "POST".equals(exchange.getRequestMethod()) ? 202 : 405);
                return;
            }
            FakeHttpEndpoint.json(exchange, 200, answer);
        })) {
            String url = server.url("/mcp");
            try (McpToolset mcp = McpToolset.start(McpConfig.parse("{\"mcpServers\": {\"cut\": {\"url\": \"" + url + "\","
                    + " \"timeout_seconds\": 20}}}", "test", Map.of()))) {
                Instant before = Instant.now();
                ToolOutput output = invoke(mcp, "write", "k-cut", Duration.ofSeconds(20));
                assertThat(Duration.between(before, Instant.now())).isLessThan(Duration.ofSeconds(10));
                assertThat(output.isError()).isTrue();
                assertThat(output.content()).startsWith("MCP server 'cut' ended its response to the call of tool 'write' without the"
                        + " answer").contains("It may or may not have taken effect").doesNotContain("in time").doesNotContain("refused");
            }
            cutListing.set(true); // at start, too: said so, not as a JSON-RPC error from the server
            assertThatThrownBy(() -> McpToolset.start(McpConfig.parse("{\"mcpServers\": {\"cut\": {\"url\": \"" + url + "\"}}}",
                    "test", Map.of()))).isInstanceOf(McpConfigException.class)
                    .hasMessageStartingWith("MCP server 'cut' could not be started: it ended its response without the answer")
                    .hasMessageNotContaining("JSON-RPC");
        }
    }

    @Test
    void aServerThatDropsTheConnectionAndStaysDownIsSaidSoInPlainWordsWithWhenItIsTriedAgain() throws Exception {
        // A server that crashed mid-call (its connection closed before any answer) and then stays down. Before, the model
        // read the JDK's 'IOException: HTTP/1.1 header parser received no bytes Caused by: EOFException: EOF reached while
        // reading. The server is restarted at the next call.', and a call while the restart waited read 'stopped (...) and is
        // restarted at the next call from 2026-12-04T14:57:48.648322829Z', an instant with nanoseconds, silent about the
        // restart that had failed.
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            if (!exchange.getRequestMethod().equals("POST")) {
                FakeHttpEndpoint.empty(exchange, 405);
                return;
            }
            String answer = switch (FakeHttpEndpoint.method(message)) {
                case "initialize" -> FakeHttpEndpoint.initialized(message);
                case "tools/list" -> FakeHttpEndpoint.listed(message, "{\"name\":\"write\",\"inputSchema\":{\"type\":\"object\"},"
                        + "\"annotations\":{\"destructiveHint\":false}}");
                case "tools/call" -> null;
                default -> "";
            };
            if (answer == null) {
                return; // it crashed: the connection closes without a status line
            }
            if (answer.isEmpty()) {
                FakeHttpEndpoint.empty(exchange, 202);
            } else {
                FakeHttpEndpoint.json(exchange, 200, answer);
            }
        }); McpToolset mcp = McpToolset.start(server.config("remote", "/mcp", ""))) {
            ToolOutput crashed = invoke(mcp, "write", "k-drop-1", Duration.ofSeconds(10));
            assertThat(crashed.content()).isEqualTo("MCP server 'remote' failed while running tool 'write': the connection closed before its"
                    + " answer came (the server may have crashed or been stopped, or a proxy cut the connection). It may or may not have"
                    + " taken effect; check before calling it again. Rein connects to it again at the next call.");
            server.close();
            assertThat(invoke(mcp, "write", "k-drop-2", Duration.ofSeconds(10)).content()).startsWith("MCP server 'remote' is not running"
                    + " and could not be restarted: nothing accepted a connection at 127.0.0.1:");
            ToolOutput waiting = invoke(mcp, "write", "k-drop-3", Duration.ofSeconds(10));
            assertThat(waiting.content()).matches("MCP server 'remote' stopped \\(the connection closed before its answer came \\(.*\\)\\)"
                    + " and could not be restarted \\(nothing accepted a connection at 127\\.0\\.0\\.1:\\d+ \\(is the server running\\?\\)\\);"
                    + " it is tried again at the first call in [12] s or later\\. Tool 'write' was not called\\. Try again later or use"
                    + " another tool\\.");
        }
    }

    private static void awaitRpc(ScriptedHttpServer server, String method) throws InterruptedException {
        Instant until = Instant.now().plus(Duration.ofSeconds(5));
        while (server.rpc(method).isEmpty() && Instant.now().isBefore(until)) {
            Thread.sleep(50);
        }
        assertThat(server.rpc(method)).as(server.received.toString()).isNotEmpty();
    }

    /** The GETs of {@code gets} less those the JDK's client sent again at once after a dropped connection (one attempt). */
    private static List<Instant> attempts(List<Instant> gets) {
        List<Instant> attempts = new java.util.ArrayList<>();
        for (Instant get : gets) {
            if (attempts.isEmpty() || Duration.between(attempts.getLast(), get).toMillis() > 500) {
                attempts.add(get);
            }
        }
        return attempts;
    }

    /** Waits until the server has been asked for its tools {@code count} times, or {@code within} has passed. */
    private static void awaitListings(java.util.concurrent.atomic.AtomicInteger listings, int count, Duration within)
            throws InterruptedException {
        Instant until = Instant.now().plus(within);
        while (listings.get() < count && Instant.now().isBefore(until)) {
            Thread.sleep(50);
        }
    }
}
