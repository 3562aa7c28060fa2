package dev.rein.tool;

import dev.rein.ReinException;
import dev.rein.model.ToolDefinition;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The tools of an agent, by name. Immutable; a duplicate name is rejected when building. */
public final class ToolRegistry {
    private final Map<String, Tool> tools;
    // Every model request carries the definitions; the registry is immutable, so the list is built once.
    private final List<ToolDefinition> definitions;

    private ToolRegistry(Map<String, Tool> tools) {
        this.tools = tools;
        this.definitions = tools.values().stream().map(Tool::definition).toList();
    }

    public static ToolRegistry of(Tool... tools) {
        return of(List.of(tools));
    }

    /** @throws DuplicateToolException when two tools share a name */
    public static ToolRegistry of(Collection<Tool> tools) {
        Map<String, Tool> byName = new LinkedHashMap<>();
        for (Tool tool : tools) {
            if (byName.putIfAbsent(tool.name(), tool) != null) {
                throw new DuplicateToolException(tool.name());
            }
        }
        return new ToolRegistry(Collections.unmodifiableMap(byName));
    }

    /**
     * Checks every tool's input schema against the meta-schema of its JSON Schema dialect (draft
     * 2020-12 unless its {@code $schema} names another), so that a
     * typo such as {@code "type": "strin"} fails when the agent is built, not at the model's first call.
     *
     * @throws ReinException naming the first tool whose schema is invalid, with what is wrong
     */
    public void requireValidSchemas() {
        for (Tool tool : tools.values()) {
            List<String> problems = JsonSchemas.metaSchemaProblems(tool.definition().inputSchema());
            if (!problems.isEmpty()) {
                throw new ReinException("tool '" + tool.name() + "' has an input schema that is not valid JSON Schema"
                        + " (checked against the meta-schema of its dialect, draft 2020-12 unless $schema names another): " + String.join("; ", problems)
                        + ". Fix the schema given to Tool.builder(\"" + tool.name() + "\").inputSchema(...).");
            }
        }
    }

    public Optional<Tool> find(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    /** The tool named {@code name}, or null: {@link #find} without the {@code Optional}, for the executor's per-call paths. */
    Tool get(String name) {
        return tools.get(name);
    }

    public List<Tool> tools() {
        return List.copyOf(tools.values());
    }

    public List<String> names() {
        return List.copyOf(tools.keySet());
    }

    public List<ToolDefinition> definitions() {
        return definitions;
    }

    public boolean isEmpty() {
        return tools.isEmpty();
    }

    /** A registry with {@code extra} added; duplicates are rejected. */
    public ToolRegistry plus(Collection<Tool> extra) {
        List<Tool> all = new ArrayList<>(tools.values());
        all.addAll(extra);
        return of(all);
    }

    /** Thrown when two tools are registered under one name. */
    public static final class DuplicateToolException extends ReinException {
        private final String toolName;

        public DuplicateToolException(String toolName) {
            super("a tool named '" + toolName + "' is already registered; tool names must be unique");
            this.toolName = toolName;
        }

        public String toolName() {
            return toolName;
        }
    }
}
