package dev.rein.anthropic;

import dev.rein.ReinException;
import dev.rein.model.ModelOption;
import dev.rein.model.ModelRequest;
import dev.rein.model.ParallelToolCalls;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Who may call which of the agent's tools, sent as each named tool definition's {@code
 * allowed_callers}: {@code "direct"} (the model itself, the API's default when the field is left
 * out) and the code execution tool's version (such as {@code "code_execution_20260120"}), whose
 * code may then call the tool (programmatic tool calling). The code execution tool must be declared
 * too ({@link AnthropicServerTools}); the calls its code makes come back as ordinary tool calls that
 * Rein runs through the same checks as any other, and go back with their {@code caller}.
 *
 * <pre>{@code
 * Agent.builder().model(model)
 *         .modelOption(AnthropicServerTools.of("{\"type\": \"code_execution_20260120\", \"name\": \"code_execution\"}"))
 *         .modelOption(AnthropicToolCallers.fromCode("code_execution_20260120", "query_database"))
 *         .tools(queryDatabase)
 * }</pre>
 *
 * <p>Tools not named keep the API's default (the model calls them directly). A name that is not one
 * of the request's tools is not sent (a tool source may add it later). Sent on the messages call and
 * on count_tokens, whose tool definitions take it too. The API does not take {@code
 * disable_parallel_tool_use} with programmatic calling, so {@link ParallelToolCalls#DISABLED} with a
 * caller other than {@code direct} is refused when the agent is built.
 *
 * @param callers the callers allowed for each tool, by tool name; each list not empty
 */
public record AnthropicToolCallers(Map<String, List<String>> callers) implements ModelOption {
    /** The caller that is the model itself. */
    public static final String DIRECT = "direct";

    public AnthropicToolCallers {
        if (callers == null || callers.isEmpty()) {
            throw new ReinException("AnthropicToolCallers needs at least one tool, such as"
                    + " AnthropicToolCallers.fromCode(\"code_execution_20260120\", \"query_database\")");
        }
        Map<String, List<String>> copy = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> entry : callers.entrySet()) {
            String tool = entry.getKey();
            if (tool == null || tool.isBlank()) {
                throw new ReinException("AnthropicToolCallers has a " + (tool == null ? "null" : "blank")
                        + " tool name: name each tool as the agent names it");
            }
            List<String> allowed = entry.getValue();
            if (allowed == null || allowed.isEmpty()) {
                throw new ReinException("AnthropicToolCallers gives the tool '" + tool + "' no caller: give \"direct\","
                        + " a code execution tool's version such as \"code_execution_20260120\", or both");
            }
            List<String> distinct = new ArrayList<>();
            for (String caller : allowed) {
                if (caller == null || caller.isBlank() || !caller.strip().equals(caller)) {
                    throw new ReinException("AnthropicToolCallers gives the tool '" + tool + "' the caller "
                            + (caller == null ? "null" : "'" + caller + "'") + ": give \"direct\" or a code execution"
                            + " tool's version such as \"code_execution_20260120\"");
                }
                if (!distinct.contains(caller)) {
                    distinct.add(caller);
                }
            }
            copy.put(tool, List.copyOf(distinct));
        }
        callers = java.util.Collections.unmodifiableMap(copy);
    }

    /**
     * The named tools may be called only from code the code execution tool of version {@code
     * codeExecutionType} runs ({@code "allowed_callers": ["code_execution_20260120"]}), not by the
     * model directly.
     */
    public static AnthropicToolCallers fromCode(String codeExecutionType, String... tools) {
        if (tools == null || tools.length == 0) {
            throw new ReinException("AnthropicToolCallers.fromCode needs the names of the tools the code may call");
        }
        Map<String, List<String>> callers = new LinkedHashMap<>();
        for (String tool : tools) {
            callers.put(tool, java.util.Collections.singletonList(codeExecutionType));
        }
        return new AnthropicToolCallers(callers);
    }

    /**
     * @throws ReinException when the request asks for one call per response ({@link
     *     ParallelToolCalls#DISABLED}), which the API does not take with programmatic calling
     */
    @Override
    public void check(ModelRequest request) {
        boolean fromCode = callers.values().stream().anyMatch(list -> list.stream().anyMatch(c -> !c.equals(DIRECT)));
        if (fromCode && ParallelToolCalls.disabledFor(request) && !request.tools().isEmpty()) {
            throw new ReinException("AnthropicToolCallers lets code call tools, and the API does not take"
                    + " disable_parallel_tool_use (ParallelToolCalls.DISABLED) with programmatic tool calling:"
                    + " leave ParallelToolCalls.DISABLED out, or the callers other than \"direct\"");
        }
    }

    /** The callers of {@code tool}, or null when it is not named. */
    List<String> of(String tool) {
        return callers.get(tool);
    }
}
