package dev.rein.cli;

import dev.rein.tool.Tool;
import dev.rein.tool.builtin.BuiltinTools;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The tools the CLI can give an agent, selected by name with {@code --tools}. */
final class ToolCatalog {
    private final Map<String, Tool> tools = new LinkedHashMap<>();

    ToolCatalog(List<Tool> available) {
        available.forEach(tool -> tools.put(tool.name(), tool));
    }

    /** The built-in tools, in the order the usage line shows them. */
    static ToolCatalog builtins() {
        return new ToolCatalog(BuiltinTools.named(List.of(BuiltinTools.CALCULATE, BuiltinTools.CURRENT_TIME)));
    }

    /** Every tool name, comma-separated: the default of {@code --tools}. */
    String allNames() {
        return String.join(",", tools.keySet());
    }

    /** The tool called {@code name}, if the CLI has it. */
    Optional<Tool> find(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    /**
     * The tools named in a comma-separated list, in that order. An empty list selects no tool.
     *
     * @throws UsageException naming the unknown tool and the available ones
     */
    List<Tool> select(String commaSeparated) {
        List<Tool> selected = new ArrayList<>();
        for (String part : commaSeparated.split(",", -1)) {
            String name = part.strip();
            if (name.isEmpty()) {
                continue;
            }
            Tool tool = tools.get(name);
            if (tool == null) {
                throw new UsageException("unknown tool '" + name + "' in --tools; the available tools are: "
                        + String.join(", ", tools.keySet()));
            }
            if (!selected.contains(tool)) {
                selected.add(tool);
            }
        }
        return selected;
    }
}
