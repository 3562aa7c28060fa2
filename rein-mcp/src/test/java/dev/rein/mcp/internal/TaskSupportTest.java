package dev.rein.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a session notes of its tools/list requests to learn which tools must run as tasks, and for how long. */
class TaskSupportTest {
    @Test
    void aToolListingRefusedOrGivenUpOnIsNotRememberedForTheSessionsLife() {
        // A server refusing tools/list at every list_changed (a key it needs is missing) kept one id per listing for as long
        // as the session lasted: only a successful answer removed it.
        TaskSupport tasks = new TaskSupport();
        tasks.sent(listing(1));
        tasks.received(new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, 1, null,
                new McpSchema.JSONRPCResponse.JSONRPCError(-32603, "no key", null)));
        assertThat(tasks.listingsAwaited()).isZero();
        // One that timed out is never answered: cancelling it forgets it.
        tasks.sent(listing(2));
        tasks.givenUp(2);
        assertThat(tasks.listingsAwaited()).isZero();
        // An answer still tells which tools must run as tasks.
        tasks.sent(new McpSchema.JSONRPCRequest(McpSchema.JSONRPC_VERSION, McpSchema.METHOD_INITIALIZE, 0, Map.of()));
        tasks.received(new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, 0, Map.of("capabilities",
                Map.of("tasks", Map.of("requests", Map.of("tools", Map.of("call", Map.of()))))), null));
        tasks.sent(listing(3));
        tasks.received(new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, 3, Map.of("tools", List.of(
                Map.of("name", "research", "execution", Map.of("taskSupport", "required")), Map.of("name", "echo"))), null));
        assertThat(tasks.requiresTask("research")).isTrue();
        assertThat(tasks.requiresTask("echo")).isFalse();
        assertThat(tasks.listingsAwaited()).isZero();
    }

    private static McpSchema.JSONRPCRequest listing(int id) {
        return new McpSchema.JSONRPCRequest(McpSchema.JSONRPC_VERSION, McpSchema.METHOD_TOOLS_LIST, id, Map.of());
    }
}
