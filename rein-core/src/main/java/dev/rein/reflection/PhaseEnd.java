package dev.rein.reflection;

import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Decides, after a tool step, whether a phase of the work just ended (for checkpoint reflection). */
@FunctionalInterface
public interface PhaseEnd {
    PhaseEnd NEVER = (calls, results) -> false;

    /** @param results the results of {@code calls}, in the same order */
    boolean ended(List<ToolUseBlock> calls, List<ToolResultBlock> results);

    /** A phase ends when a call to one of {@code tools} succeeds (e.g. "commit", "update_plan"). */
    static PhaseEnd afterTool(String... tools) {
        Set<String> names = Set.of(tools);
        return (calls, results) -> {
            Map<String, ToolResultBlock> byId = results.stream()
                    .collect(Collectors.toMap(ToolResultBlock::toolUseId, Function.identity(), (a, b) -> a));
            return calls.stream().anyMatch(c -> names.contains(c.name()) && byId.containsKey(c.id()) && !byId.get(c.id()).isError());
        };
    }
}
