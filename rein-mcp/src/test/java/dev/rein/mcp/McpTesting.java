package dev.rein.mcp;

import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.ModelRequest;
import dev.rein.model.ToolResultBlock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** Small helpers shared by the MCP tests. */
final class McpTesting {
    private McpTesting() {}

    /**
     * How long the fake servers get to answer ping after a call was given up on (5 s in use): they answer at once or
     * never, so a test of a hung one need not wait 5 s.
     */
    static final java.time.Duration QUICK_PING = java.time.Duration.ofMillis(300);

    /** A servers file with one server. */
    static McpConfig config(String server, String entryKeys) {
        return McpConfig.parse("{\"mcpServers\": {\"" + server + "\": {" + entryKeys + "}}}", "test", Map.of());
    }

    /** The tool results the model was sent in {@code request}, in order. */
    static List<ToolResultBlock> toolResults(ModelRequest request) {
        List<ToolResultBlock> results = new ArrayList<>();
        for (Message message : request.messages()) {
            for (ContentBlock block : message.content()) {
                if (block instanceof ToolResultBlock result) {
                    results.add(result);
                }
            }
        }
        return results;
    }

    /** The process ids of this JVM's descendants. */
    static Set<Long> descendants() {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).map(ProcessHandle::pid).collect(Collectors.toSet());
    }
}
