package dev.rein.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolContext;
import dev.rein.tool.ToolOutput;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * An event stream (text/event-stream) may start with a UTF-8 byte order mark, which the HTML standard's event
 * stream interpretation strips (one, at the start of the stream). Before, the first field read '\uFEFFdata' and
 * the answer in it was lost: "ended its response without the answer".
 */
class EventStreamByteOrderMarkTest {
    private static final String BOM = "\uFEFF";
    /** The id of the last tools/call request, whose answer the resumed stream brings. */
    private static volatile String lastCallId;

    private static ToolOutput call(McpToolset mcp) throws Exception {
        Tool tool = mcp.tools().stream().filter(t -> t.name().equals("echo")).findFirst().orElseThrow();
        return (ToolOutput) tool.handler().handle(Json.parse("{}"),
                ToolContext.standalone("k").withRisk(tool.risk()).withDeadline(Instant.now().plus(Duration.ofSeconds(10))));
    }

    @Test
    void aCallsResponseStreamStartingWithAByteOrderMarkBringsItsAnswer() throws Exception {
        try (FakeHttpEndpoint endpoint = FakeHttpEndpoint.start((exchange, message) -> {
            if (!exchange.getRequestMethod().equals("POST")) {
                FakeHttpEndpoint.empty(exchange, exchange.getRequestMethod().equals("GET") ? 405 : 200);
                return;
            }
            exchange.getResponseHeaders().set("Mcp-Session-Id", "s1");
            String answer = FakeHttpEndpoint.echoAnswer(message);
            if (answer == null) {
                FakeHttpEndpoint.empty(exchange, 202);
            } else {
                // Every request's stream starts with a BOM: initialize and tools/list too, so the start needs it read.
                FakeHttpEndpoint.events(exchange, BOM + "data: " + answer + "\n\n");
            }
        }, true); McpToolset mcp = McpToolset.start(endpoint.config("fake", "/mcp", ""))) {
            ToolOutput out = call(mcp);
            assertThat(out.isError()).as(out.content()).isFalse();
            assertThat(out.content()).isEqualTo("done");
        }
    }

    @Test
    void aResumedStreamStartingWithAByteOrderMarkBringsTheAnswer() throws Exception {
        // The call's stream gives only an event id and ends; the GET resuming it from that id starts with a BOM.
        try (FakeHttpEndpoint endpoint = FakeHttpEndpoint.start((exchange, message) -> {
            if (exchange.getRequestMethod().equals("GET")) {
                if (exchange.getRequestHeaders().getFirst("Last-Event-ID") == null) {
                    FakeHttpEndpoint.empty(exchange, 405);
                } else {
                    FakeHttpEndpoint.events(exchange, BOM + "data: {\"jsonrpc\":\"2.0\",\"id\":"
                            + lastCallId + ",\"result\":{\"content\":[{\"type\":\"text\","
                            + "\"text\":\"resumed\"}]}}\n\n");
                }
                return;
            }
            if (!exchange.getRequestMethod().equals("POST")) {
                FakeHttpEndpoint.empty(exchange, 200);
                return;
            }
            exchange.getResponseHeaders().set("Mcp-Session-Id", "s1");
            if (FakeHttpEndpoint.method(message).equals("tools/call")) {
                lastCallId = FakeHttpEndpoint.id(message);
                FakeHttpEndpoint.events(exchange, "id: e1\nretry: 10\ndata: \n\n");
                return;
            }
            FakeHttpEndpoint.echo(exchange, message, "s1");
        }, true); McpToolset mcp = McpToolset.start(endpoint.config("fake", "/mcp", ""))) {
            ToolOutput out = call(mcp);
            assertThat(out.isError()).as(out.content()).isFalse();
            assertThat(out.content()).isEqualTo("resumed");
        }
    }
}
