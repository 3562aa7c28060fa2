package dev.rein.eval.file;

import dev.rein.ReinException;
import dev.rein.eval.env.FileTreeEnvironment;
import dev.rein.tool.Tool;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;

/**
 * The environments suite files can name. Immutable; build one with {@link #builder()}, or
 * {@link #load()} the built-in ones plus every {@link EvalPlugin} on the class path.
 */
public final class EvalRegistry {
    private final Map<String, EnvironmentType<?>> environments;
    private final Map<String, SharedToolset> shared;

    /** A toolset of {@link Builder#sharedToolset}: its tools, and what to do when one is named like another tool of the agent. */
    record SharedToolset(List<Tool> tools, String clashAdvice) {}

    private EvalRegistry(Map<String, EnvironmentType<?>> environments, Map<String, SharedToolset> shared) {
        this.environments = Map.copyOf(environments);
        this.shared = Map.copyOf(shared);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The built-in environments ({@code file_tree}) and those of every plugin found by the service loader. */
    public static EvalRegistry load() {
        return loading().build();
    }

    /** A builder holding what {@link #load()} registers, to add to before building. */
    public static Builder loading() {
        Builder builder = builder().builtins();
        for (EvalPlugin plugin : ServiceLoader.load(EvalPlugin.class)) {
            plugin.register(builder);
        }
        return builder;
    }

    /** The environment named {@code name}; the error lists the known names. */
    public EnvironmentType<?> environment(String name) {
        EnvironmentType<?> type = environments.get(name);
        if (type == null) {
            throw new ReinException("unknown environment '" + name + "'; known: "
                    + (environments.isEmpty() ? "(none)" : String.join(", ", names()))
                    + ". Register it with an EvalPlugin (see docs/eval.md).");
        }
        return type.withShared(shared);
    }

    public List<String> names() {
        return environments.keySet().stream().sorted().toList();
    }

    /** Builder for {@link EvalRegistry}. */
    public static final class Builder {
        private final Map<String, EnvironmentType<?>> environments = new LinkedHashMap<>();
        private final Map<String, SharedToolset> shared = new LinkedHashMap<>();

        private Builder() {}

        /**
         * A toolset every environment offers under {@code name}, whatever its type: tools that do
         * not depend on the environment, such as those of MCP servers ({@code rein eval --mcp FILE}
         * offers them as {@code mcp}). The same tool objects serve every trial.
         */
        public Builder sharedToolset(String name, List<Tool> tools) {
            return sharedToolset(name, tools, "rename one of them");
        }

        /**
         * Like {@link #sharedToolset(String, List)}, saying what to do when one of {@code tools} is
         * named like another tool of an inline agent that lists this toolset. Such a clash is found
         * when the suite is loaded, before any trial runs, and reported as one error naming the
         * tools and ending in {@code clashAdvice}.
         *
         * @param clashAdvice how the person running the suite renames or drops such a tool, e.g. for
         *                    MCP servers: give the server a "prefix", or "deny" the tool
         */
        public Builder sharedToolset(String name, List<Tool> tools, String clashAdvice) {
            if (name == null || name.isBlank()) {
                throw new ReinException("a shared toolset needs a name");
            }
            if (clashAdvice == null || clashAdvice.isBlank()) {
                throw new ReinException("shared toolset '" + name + "': say what to do when its tools clash with the agent's");
            }
            if (shared.putIfAbsent(name, new SharedToolset(List.copyOf(tools), clashAdvice)) != null) {
                throw new ReinException("two shared toolsets are registered as '" + name + "'");
            }
            return this;
        }

        public Builder environment(EnvironmentType<?> type) {
            Objects.requireNonNull(type, "type");
            if (environments.putIfAbsent(type.name(), type) != null) {
                throw new ReinException("two environments are registered as '" + type.name() + "'; names must be unique");
            }
            return this;
        }

        /** Adds the environments that ship with rein-eval. */
        public Builder builtins() {
            return environment(FileTreeEnvironment.type());
        }

        public EvalRegistry build() {
            return new EvalRegistry(environments, shared);
        }
    }
}
