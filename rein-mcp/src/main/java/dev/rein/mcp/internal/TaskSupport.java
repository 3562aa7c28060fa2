package dev.rein.mcp.internal;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which tools of a session can only be called as tasks, read from the raw messages since the
 * SDK's types drop {@code execution} and the {@code tasks} capability. Protocol revision
 * 2025-11-25: when a server declares {@code tasks.requests.tools.call}, a tool whose
 * {@code execution.taskSupport} is {@code "required"} must be invoked as a task (the server answers
 * a plain call with -32601). Rein does not make task-augmented calls, so it cannot call such a tool.
 */
final class TaskSupport {
    private final Set<Object> listings = ConcurrentHashMap.newKeySet();
    private final Set<String> required = ConcurrentHashMap.newKeySet();
    private volatile Object initializeId;
    private volatile boolean toolCallsAsTasks;

    /** Notes an outgoing request whose answer tells something. */
    void sent(McpSchema.JSONRPCMessage message) {
        if (message instanceof McpSchema.JSONRPCRequest request) {
            if (McpSchema.METHOD_INITIALIZE.equals(request.method())) {
                initializeId = request.id();
            } else if (McpSchema.METHOD_TOOLS_LIST.equals(request.method())) {
                listings.add(request.id());
            }
        }
    }

    /** Notes an incoming answer to initialize or tools/list. */
    void received(McpSchema.JSONRPCMessage message) {
        if (!(message instanceof McpSchema.JSONRPCResponse response) || response.id() == null) {
            return;
        }
        // Any answer ends the wait, a refusal too: a listing refused at every list_changed must not pile up ids.
        boolean listing = listings.remove(response.id());
        if (!(response.result() instanceof Map<?, ?> result)) {
            return;
        }
        if (Objects.equals(response.id(), initializeId)) {
            toolCallsAsTasks = path(result, "capabilities", "tasks", "requests", "tools", "call") instanceof Map<?, ?>;
        } else if (listing && result.get("tools") instanceof List<?> tools) {
            for (Object tool : tools) {
                if (tool instanceof Map<?, ?> t && t.get("name") instanceof String name) {
                    if ("required".equals(path(t, "execution", "taskSupport"))) {
                        required.add(name);
                    } else {
                        required.remove(name);
                    }
                }
            }
        }
    }

    /** Forgets request {@code id}, whose sender stopped waiting for it (a listing that timed out is never answered). */
    void givenUp(Object id) {
        listings.remove(id);
    }

    /** How many tools/list requests are awaiting their answer; for tests. */
    int listingsAwaited() {
        return listings.size();
    }

    /** Whether tool {@code name} can only be called as a task on this session. */
    boolean requiresTask(String name) {
        return toolCallsAsTasks && required.contains(name);
    }

    private static Object path(Map<?, ?> map, String... keys) {
        Object current = map;
        for (String key : keys) {
            if (!(current instanceof Map<?, ?> m)) {
                return null;
            }
            current = m.get(key);
        }
        return current;
    }
}
