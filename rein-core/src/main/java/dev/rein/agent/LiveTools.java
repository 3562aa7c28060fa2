package dev.rein.agent;

import dev.rein.ReinException;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolRegistry;
import dev.rein.tool.ToolSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A run's tools: the agent's fixed tools plus the current tools of its {@link ToolSource}s. A
 * source is re-read only when its version changed, so an unchanged step costs one version read
 * per source. Owned by the run's loop thread.
 */
final class LiveTools {
    /** What a refresh changed, by tool name; {@code refused} says why a source's tool is left out. */
    record Change(List<String> added, List<String> removed, List<String> changed, List<String> refused) {
        String describe() {
            List<String> parts = new ArrayList<>();
            if (!added.isEmpty()) parts.add("added: " + String.join(", ", added));
            if (!removed.isEmpty()) parts.add("removed: " + String.join(", ", removed));
            if (!changed.isEmpty()) parts.add("changed: " + String.join(", ", changed));
            parts.addAll(refused);
            return String.join("; ", parts);
        }
    }

    private final ToolRegistry fixed;
    private final List<ToolSource> sources;
    private final long[] versions;
    /** Each source's tools as last read, with a valid schema; the schema problems of the others. */
    private final List<List<Tool>> read;
    private final List<List<String>> invalid;
    private ToolRegistry current;

    LiveTools(ToolRegistry fixed, List<ToolSource> sources) {
        this.fixed = fixed;
        this.sources = List.copyOf(sources);
        this.versions = new long[sources.size()];
        this.read = new ArrayList<>();
        this.invalid = new ArrayList<>();
        for (int i = 0; i < this.sources.size(); i++) {
            read.add(List.of());
            invalid.add(List.of());
            versions[i] = this.sources.get(i).version();
            readSource(i);
        }
        this.current = combine(new ArrayList<>());
    }

    /** The tools offered now. */
    ToolRegistry registry() {
        return current;
    }

    /** Re-reads the sources whose version changed; null when nothing did. */
    Change refresh() {
        boolean any = false;
        for (int i = 0; i < sources.size(); i++) {
            long v = sources.get(i).version();
            if (v != versions[i]) {
                versions[i] = v;
                readSource(i);
                any = true;
            }
        }
        if (!any) {
            return null;
        }
        ToolRegistry before = current;
        List<String> refused = new ArrayList<>();
        current = combine(refused);
        return diff(before, current, refused);
    }

    /** Reads source {@code i}; its schemas are checked here, once per change, not on every step. */
    private void readSource(int i) {
        List<Tool> valid = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (Tool tool : sources.get(i).tools()) {
            try {
                ToolRegistry.of(tool).requireValidSchemas();
                valid.add(tool);
            } catch (ReinException e) {
                problems.add("refused: " + e.getMessage());
            }
        }
        read.set(i, List.copyOf(valid));
        invalid.set(i, List.copyOf(problems));
    }

    /** Fixed tools first; a source's tool clashing with an earlier name or with an invalid schema is left out. */
    private ToolRegistry combine(List<String> refused) {
        if (read.isEmpty()) {
            return fixed; // no sources: the agent's own registry, not a copy per run
        }
        Map<String, Tool> all = new LinkedHashMap<>();
        fixed.tools().forEach(t -> all.put(t.name(), t));
        for (int i = 0; i < read.size(); i++) {
            refused.addAll(invalid.get(i));
            for (Tool tool : read.get(i)) {
                if (all.putIfAbsent(tool.name(), tool) != null) {
                    refused.add("refused: '" + tool.name() + "' (a tool of that name is already offered)");
                }
            }
        }
        return ToolRegistry.of(all.values());
    }

    private static Change diff(ToolRegistry before, ToolRegistry after, List<String> refused) {
        Set<String> old = new LinkedHashSet<>(before.names());
        List<String> added = new ArrayList<>();
        List<String> changed = new ArrayList<>();
        for (Tool tool : after.tools()) {
            if (!old.remove(tool.name())) {
                added.add(tool.name());
            } else if (!sameForTheModelAndGate(before.find(tool.name()).orElseThrow(), tool)) {
                changed.add(tool.name());
            }
        }
        return new Change(added, List.copyOf(old), changed, refused);
    }

    private static boolean sameForTheModelAndGate(Tool a, Tool b) {
        return a.definition().equals(b.definition()) && a.risk() == b.risk() && a.requiredScopes().equals(b.requiredScopes())
                && Objects.equals(a.timeout(), b.timeout());
    }
}
