package dev.rein.eval.file;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.ReinException;
import dev.rein.eval.AgentFactory;
import dev.rein.eval.Environment;
import dev.rein.tool.Tool;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * An environment that suite files can name, with what files can refer to in it: tool sets built
 * from an instance, named outcome checks and named agents.
 *
 * <pre>{@code
 * EnvironmentType<OrdersDb> orders = EnvironmentType.builder("orders", OrdersDb::fromOptions)
 *         .toolset("orders_read", OrdersDb::readTools)
 *         .toolset("orders_write", OrdersDb::writeTools)
 *         .check("not_reshipped", db -> db.reshipments().isEmpty())
 *         .agent("orders_agent", OrdersAgent::create)
 *         .build();
 * }</pre>
 *
 * @param <E> the environment's class
 */
public final class EnvironmentType<E extends Environment> {
    private final String name;
    private final String description;
    private final Function<JsonNode, ? extends E> factory;
    private final Map<String, Function<? super E, List<Tool>>> toolsets;
    private final Map<String, Function<? super E, String>> checks;
    private final Map<String, AgentFactory<E>> agents;
    /** The toolsets of {@link #toolsets} that are shared ones (see {@link #withShared}). */
    private final Map<String, EvalRegistry.SharedToolset> shared;

    private EnvironmentType(Builder<E> b) {
        this.name = b.name;
        this.description = b.description;
        this.factory = b.factory;
        this.toolsets = Map.copyOf(b.toolsets);
        this.checks = Map.copyOf(b.checks);
        this.agents = Map.copyOf(b.agents);
        this.shared = Map.of();
    }

    private EnvironmentType(EnvironmentType<E> base, Map<String, Function<? super E, List<Tool>>> toolsets,
                            Map<String, EvalRegistry.SharedToolset> shared) {
        this.name = base.name;
        this.description = base.description;
        this.factory = base.factory;
        this.toolsets = Map.copyOf(toolsets);
        this.checks = base.checks;
        this.agents = base.agents;
        this.shared = Map.copyOf(shared);
    }

    /** This type with toolsets that do not depend on the environment added (see {@link EvalRegistry.Builder#sharedToolset}). */
    EnvironmentType<E> withShared(Map<String, EvalRegistry.SharedToolset> shared) {
        if (shared.isEmpty()) {
            return this;
        }
        Map<String, Function<? super E, List<Tool>>> all = new LinkedHashMap<>(toolsets);
        shared.forEach((toolset, set) -> {
            if (all.putIfAbsent(toolset, env -> set.tools()) != null) {
                throw new ReinException("environment '" + name + "' already has a toolset named '" + toolset
                        + "', so the shared toolset of that name cannot be offered with it");
            }
        });
        return new EnvironmentType<>(this, all, shared);
    }

    /** The shared toolset named {@code toolset}, if it is one. */
    Optional<EvalRegistry.SharedToolset> shared(String toolset) {
        return Optional.ofNullable(shared.get(toolset));
    }

    /**
     * @param factory makes a new environment from the {@code options} object of a suite file
     *                (an empty object when the file gives none)
     */
    public static <E extends Environment> Builder<E> builder(String name, Function<JsonNode, ? extends E> factory) {
        return new Builder<>(name, factory);
    }

    public String name() {
        return name;
    }

    public String description() {
        return description;
    }

    /** A new environment for one trial. */
    public E create(JsonNode options) {
        E env = factory.apply(options);
        if (env == null) {
            throw new ReinException("the factory of environment '" + name + "' returned null");
        }
        return env;
    }

    public Optional<Function<? super E, List<Tool>>> toolset(String toolset) {
        return Optional.ofNullable(toolsets.get(toolset));
    }

    /** A named outcome check: returns null when the state is right, else what is wrong. */
    public Optional<Function<? super E, String>> check(String check) {
        return Optional.ofNullable(checks.get(check));
    }

    public Optional<AgentFactory<E>> agent(String agent) {
        return Optional.ofNullable(agents.get(agent));
    }

    public List<String> toolsetNames() {
        return toolsets.keySet().stream().sorted().toList();
    }

    public List<String> checkNames() {
        return checks.keySet().stream().sorted().toList();
    }

    public List<String> agentNames() {
        return agents.keySet().stream().sorted().toList();
    }

    /** Builder for {@link EnvironmentType}. */
    public static final class Builder<E extends Environment> {
        private final String name;
        private final Function<JsonNode, ? extends E> factory;
        private String description = "";
        private final Map<String, Function<? super E, List<Tool>>> toolsets = new LinkedHashMap<>();
        private final Map<String, Function<? super E, String>> checks = new LinkedHashMap<>();
        private final Map<String, AgentFactory<E>> agents = new LinkedHashMap<>();

        private Builder(String name, Function<JsonNode, ? extends E> factory) {
            this.name = name;
            this.factory = Objects.requireNonNull(factory, "factory");
        }

        public Builder<E> description(String description) {
            this.description = description == null ? "" : description;
            return this;
        }

        /** Tools built from one environment instance; a file's inline agent lists toolsets by name. */
        public Builder<E> toolset(String toolset, Function<? super E, List<Tool>> tools) {
            put(toolsets, "toolset", toolset, tools);
            return this;
        }

        /** A named outcome check on the final state; a file's {@code expect.checks} lists them. */
        public Builder<E> check(String check, Predicate<? super E> holds) {
            Objects.requireNonNull(holds, "holds");
            return checkWithReason(check, env -> holds.test(env) ? null : "the check did not hold on the final state");
        }

        /** A named outcome check that returns null when the state is right, else what is wrong. */
        public Builder<E> checkWithReason(String check, Function<? super E, String> problem) {
            put(checks, "check", check, problem);
            return this;
        }

        /** A named agent; a file's {@code agent.use} picks it instead of declaring one inline. */
        public Builder<E> agent(String agent, AgentFactory<E> factory) {
            put(agents, "agent", agent, factory);
            return this;
        }

        private <V> void put(Map<String, V> map, String what, String key, V value) {
            Objects.requireNonNull(value, what);
            if (key == null || key.isBlank()) {
                throw new ReinException("environment '" + name + "': a " + what + " needs a name");
            }
            if (map.putIfAbsent(key, value) != null) {
                throw new ReinException("environment '" + name + "' already has a " + what + " named '" + key + "'");
            }
        }

        public EnvironmentType<E> build() {
            if (name == null || !name.matches("[A-Za-z0-9_.-]{1,64}")) {
                throw new ReinException("environment name '" + name + "' is invalid: use 1-64 letters, digits, '_', '-' or '.'");
            }
            return new EnvironmentType<>(this);
        }
    }
}
