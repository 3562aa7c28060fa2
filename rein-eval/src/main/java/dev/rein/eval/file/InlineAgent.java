package dev.rein.eval.file;

import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.agent.AgentConfig;
import dev.rein.agent.FinishTool;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.budget.Budget;
import dev.rein.eval.AgentFactory;
import dev.rein.eval.Environment;
import dev.rein.eval.TrialModel;
import dev.rein.guard.RequiredFact;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Principal;
import dev.rein.tool.Tool;
import java.math.BigDecimal;
import java.text.Normalizer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/** Builds the agent a suite file declares: a registered one by name, or one assembled from toolsets and limits. */
final class InlineAgent {
    private InlineAgent() {}

    /** The task's agent spec over the suite's: a field the task sets wins. */
    static SuiteSpec.AgentSpec merge(SuiteSpec.AgentSpec base, SuiteSpec.AgentSpec over) {
        if (base == null) {
            return over;
        }
        if (over == null) {
            return base;
        }
        return new SuiteSpec.AgentSpec(pick(over.use(), base.use()), pick(over.toolsets(), base.toolsets()),
                pick(over.systemPrompt(), base.systemPrompt()), pick(over.finishTool(), base.finishTool()),
                pick(over.maxSteps(), base.maxSteps()), pick(over.maxCostUsd(), base.maxCostUsd()),
                pick(over.maxSeconds(), base.maxSeconds()), pick(over.toolTimeoutMs(), base.toolTimeoutMs()),
                pick(over.requiredFacts(), base.requiredFacts()), pick(over.scopes(), base.scopes()),
                pick(over.user(), base.user()), pick(over.maxTokens(), base.maxTokens()),
                pick(over.approvals(), base.approvals()));
    }

    private static <T> T pick(T preferred, T fallback) {
        return preferred != null ? preferred : fallback;
    }

    static <E extends Environment> AgentFactory<E> of(EnvironmentType<E> type, SuiteSpec.AgentSpec spec, String where,
                                                      boolean scriptCallsFinish, SuiteFile.Format format) {
        if (spec == null) {
            // how it is written, in the file's format, and what there is to write: the environment's toolsets and agents
            List<String> toolsets = type.toolsetNames();
            List<String> agents = type.agentNames();
            throw new ReinException(where + " has no agent: declare one with the toolsets it gets, e.g. "
                    + SuiteFile.written("agent", "{toolsets: [" + (toolsets.isEmpty() ? "NAME" : toolsets.getFirst()) + "]}", format)
                    + " (the toolsets of " + type.name() + ": " + known(toolsets) + "), or name a registered agent with "
                    + SuiteFile.written("agent", "{use: " + (agents.isEmpty() ? "NAME" : agents.getFirst()) + "}", format)
                    + (agents.isEmpty() ? " (" + type.name() + " has none)" : " (the agents of " + type.name() + ": "
                    + known(agents) + ")"));
        }
        if (spec.use() != null) {
            if (spec.toolsets() != null || spec.systemPrompt() != null) {
                throw new ReinException(where + ".agent: 'use' picks a registered agent; do not combine it with toolsets"
                        + " or system_prompt");
            }
            return type.agent(spec.use()).orElseThrow(() -> new ReinException(where + ".agent.use: environment '" + type.name()
                    + "' has no agent '" + spec.use() + "'; known: " + known(type.agentNames())));
        }
        List<Function<? super E, List<Tool>>> toolsets = new ArrayList<>();
        String[] toolsetNames = spec.toolsets() == null ? new String[0]
                : FileExpectations.texts(spec.toolsets(), where + ".agent.toolsets");
        for (int i = 0; i < toolsetNames.length; i++) {
            String name = toolsetNames[i];
            if (List.of(toolsetNames).subList(0, i).contains(name)) {
                throw new ReinException(where + ".agent.toolsets[" + i + "]: the list has '" + name + "' twice");
            }
            String place = where + ".agent.toolsets[" + i + "]"; // the index places the error on its line
            toolsets.add(type.toolset(name).orElseThrow(() -> new ReinException(place + ": environment '"
                    + type.name() + "' has no toolset '" + name + "'; known: " + known(type.toolsetNames()))));
        }
        boolean finish = Boolean.TRUE.equals(spec.finishTool());
        if (scriptCallsFinish && !finish) {
            throw new ReinException(where + ": the script calls finish but the agent does not offer the finish tool;"
                    + " set agent.finish_tool: true");
        }
        Budget budget = budget(spec, where);
        Principal principal = spec.scopes() == null && spec.user() == null ? Principal.ANONYMOUS
                : new Principal(spec.user() == null ? "eval-user" : spec.user(), "default",
                Set.copyOf(List.of(spec.scopes() == null ? new String[0]
                        : FileExpectations.texts(spec.scopes(), where + ".agent.scopes"))));
        List<String> facts = spec.requiredFacts() == null ? List.of() : new ArrayList<>(spec.requiredFacts()); // nulls checked below
        // Said once here: the agent's builder would refuse these in every trial, each an infrastructure error.
        if (spec.toolTimeoutMs() != null && spec.toolTimeoutMs() < 1) {
            throw new ReinException(where + ".agent.tool_timeout_ms must be at least 1 (milliseconds), was " + spec.toolTimeoutMs());
        }
        if (spec.maxTokens() != null && spec.maxTokens() < 1) {
            throw new ReinException(where + ".agent.max_tokens must be at least 1, was " + spec.maxTokens());
        }
        for (int i = 0; i < facts.size(); i++) {
            if (facts.get(i) == null || facts.get(i).isBlank()) {
                throw new ReinException(where + ".agent.required_facts[" + i + "] is empty: each entry is a text the final"
                        + " answer must contain");
            }
        }
        ApprovalPolicy approvals = approvals(spec.approvals(), where);
        return (env, model) -> {
            Agent.Builder builder = Agent.builder().model(model.model()).modelName(model.name())
                    .systemPrompt(spec.systemPrompt()).finishTool(finish).budget(budget).principal(principal)
                    .approvalPolicy(approvals);
            toolsets.forEach(toolset -> builder.tools(toolset.apply(env)));
            if (spec.toolTimeoutMs() != null) {
                builder.toolTimeout(Duration.ofMillis(spec.toolTimeoutMs()));
            }
            if (spec.maxTokens() != null) {
                builder.maxTokens(spec.maxTokens());
            }
            for (String fact : facts) {
                builder.requiredFact(RequiredFact.of(fact, answer -> normalise(answer.answer()).contains(normalise(fact))));
            }
            return builder.build();
        };
    }

    /**
     * Fails when a tool of a shared toolset the agent lists (an MCP server's, with {@code rein eval
     * --mcp}) is named like another of its tools, or two of the environment's toolsets offer the same
     * tool: every trial's agent would fail to build, so this is said once, at load, naming the tools
     * and ending in the shared toolset's advice (or "list each tool once"). The environment's
     * toolsets are built from an environment, so one is made from {@code probe} and closed.
     */
    static <E extends Environment> void checkSharedClashes(EnvironmentType<E> type, SuiteSpec.AgentSpec spec,
                                                          Supplier<? extends E> probe, String where) {
        // two toolsets of the environment's own may offer the same tool too ([files, files_read])
        long own = spec == null || spec.toolsets() == null ? 0
                : spec.toolsets().stream().filter(name -> type.shared(name).isEmpty()).count();
        if (spec == null || spec.use() != null || spec.toolsets() == null
                || (own < 2 && spec.toolsets().stream().noneMatch(name -> type.shared(name).isPresent()))) {
            return;
        }
        Map<String, String> owners = new LinkedHashMap<>(); // tool name -> what offers it first
        if (Boolean.TRUE.equals(spec.finishTool())) {
            owners.put(FinishTool.NAME, "finish tool");
        }
        E made = own > 0 ? tryToMake(probe) : null;
        if (own > 0 && made == null) {
            return; // each trial reports the environment that cannot be set up
        }
        try (E env = made) {
            for (String toolset : spec.toolsets()) {
                if (type.shared(toolset).isPresent() || type.toolset(toolset).isEmpty()) {
                    continue;
                }
                TreeSet<String> clashes = new TreeSet<>();
                TreeSet<String> others = new TreeSet<>();
                for (Tool tool : type.toolset(toolset).get().apply(env)) {
                    String owner = owners.putIfAbsent(tool.name(), "toolset '" + toolset + "'");
                    if (owner != null) {
                        clashes.add(tool.name());
                        others.add(owner);
                    }
                }
                if (!clashes.isEmpty()) {
                    throw new ReinException(where + ".agent.toolsets: tool name(s) " + clashes + " of the toolset '" + toolset
                            + "' are also tools of the agent's " + String.join(", ", others) + "; list each tool once");
                }
            }
        }
        for (String toolset : spec.toolsets()) {
            EvalRegistry.SharedToolset shared = type.shared(toolset).orElse(null);
            if (shared == null) {
                continue;
            }
            TreeSet<String> clashes = new TreeSet<>();
            TreeSet<String> others = new TreeSet<>();
            for (Tool tool : shared.tools()) {
                String owner = owners.putIfAbsent(tool.name(), "toolset '" + toolset + "'");
                if (owner != null && !owner.equals("toolset '" + toolset + "'")) {
                    clashes.add(tool.name());
                    others.add(owner);
                }
            }
            if (!clashes.isEmpty()) {
                throw new ReinException(where + ".agent.toolsets: tool name(s) " + clashes + " of the shared toolset '" + toolset
                        + "' are also tools of the agent's " + String.join(", ", others) + "; " + shared.clashAdvice());
            }
        }
    }

    /** The tools an inline agent has, and every tool a toolset of its environment offers. */
    record ToolNames(Set<String> agent, Set<String> environment) {}

    /**
     * The tools of the agent (inline, or registered and built once) and of its environment's toolsets,
     * built from an environment made by {@code probe} and closed; null when they cannot be known.
     */
    static <E extends Environment> ToolNames toolNames(EnvironmentType<E> type, SuiteSpec.AgentSpec spec,
                                                       Supplier<? extends E> probe) {
        if (spec == null) {
            return null;
        }
        Set<String> agent = new TreeSet<>();
        Set<String> environment = new TreeSet<>();
        if (Boolean.TRUE.equals(spec.finishTool())) {
            agent.add(FinishTool.NAME);
        }
        List<String> listed = spec.toolsets() == null ? List.of() : spec.toolsets();
        E made = tryToMake(probe);
        if (made == null) {
            return null; // each trial reports the environment that cannot be set up
        }
        try (E env = made) {
            if (spec.use() != null && !registeredTools(type, spec.use(), env, agent)) {
                return null;
            }
            for (String toolset : type.toolsetNames()) {
                for (Tool tool : type.toolset(toolset).orElseThrow().apply(env)) {
                    environment.add(tool.name());
                    if (listed.contains(toolset)) {
                        agent.add(tool.name());
                    }
                }
            }
        }
        environment.addAll(agent);
        return new ToolNames(agent, environment);
    }

    /**
     * Adds to {@code names} the tools of the registered agent {@code use}, built once from {@code env}
     * and a scripted model as a trial would; false when they cannot be known: a factory that fails
     * (each trial reports it) or tools that come from a source, such as an MCP server, at run time.
     */
    private static <E extends Environment> boolean registeredTools(EnvironmentType<E> type, String use, E env,
                                                                 Set<String> names) {
        AgentFactory<E> factory = type.agent(use).orElse(null);
        AgentConfig config;
        try {
            config = factory == null ? null : factory.create(env, new TrialModel(ScriptedModel.of(ScriptedModel.text("")),
                    ScriptedModel.DEFAULT_NAME)).config();
        } catch (RuntimeException e) {
            return false;
        }
        if (config == null || !config.toolSources().isEmpty()) {
            return false;
        }
        names.addAll(config.tools().names());
        if (config.finishTool()) {
            names.add(FinishTool.NAME);
        }
        return true;
    }

    /**
     * An environment to build toolsets from at load, or null when it cannot be set up (an option it
     * refuses): that is each trial's infrastructure error, named there with the environment's reason.
     */
    private static <E extends Environment> E tryToMake(Supplier<? extends E> probe) {
        try {
            return probe.get();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Which calls wait for a person; the harness does not approve, so a paused run ends its trial. */
    private static ApprovalPolicy approvals(String name, String where) {
        return switch (name == null ? "side_effects" : name) {
            case "side_effects" -> ApprovalPolicy.SIDE_EFFECTS;
            case "irreversible_only" -> ApprovalPolicy.IRREVERSIBLE_ONLY;
            case "never" -> ApprovalPolicy.NEVER;
            case "always" -> ApprovalPolicy.ALWAYS;
            default -> throw new ReinException(where + ".agent.approvals: '" + name
                    + "' is not a policy; use side_effects, irreversible_only, never or always");
        };
    }

    /**
     * The agent's limits, each checked under its field's name in the file: the budget builder's own
     * messages name its Java setters ({@code maxCostUsd}, {@code maxDuration PT0S}).
     */
    private static Budget budget(SuiteSpec.AgentSpec spec, String where) {
        Budget.Builder b = Budget.builder();
        if (spec.maxSteps() != null) {
            if (spec.maxSteps() < 1) {
                throw new ReinException(where + ".agent.max_steps must be at least 1, was " + spec.maxSteps());
            }
            b.maxSteps(spec.maxSteps());
        }
        if (spec.maxCostUsd() != null) {
            BigDecimal usd;
            try {
                usd = new BigDecimal(spec.maxCostUsd().strip());
            } catch (NumberFormatException e) {
                throw new ReinException(where + ".agent.max_cost_usd '" + spec.maxCostUsd() + "' is not a number: write the"
                        + " USD amount as a decimal with a point, e.g. \"0.50\"");
            }
            if (usd.signum() <= 0) {
                throw new ReinException(where + ".agent.max_cost_usd must be more than 0 (USD), was " + spec.maxCostUsd().strip());
            }
            if (!UsdLimits.contains(usd)) {
                // the range rein run --max-cost-usd takes: beyond it a limit is a slip (1e400 went into every trace as written)
                throw new ReinException(where + ".agent.max_cost_usd must be from " + UsdLimits.LEAST.toPlainString() + " to "
                        + UsdLimits.MOST.toPlainString() + " (USD, as for rein run --max-cost-usd), was " + spec.maxCostUsd().strip());
            }
            b.maxCostUsd(usd);
        }
        if (spec.maxSeconds() != null) {
            if (spec.maxSeconds() < 1) {
                throw new ReinException(where + ".agent.max_seconds must be at least 1 (seconds), was " + spec.maxSeconds());
            }
            if (spec.maxSeconds() > MAX_SECONDS) {
                throw new ReinException(where + ".agent.max_seconds must be at most " + MAX_SECONDS + " (seconds), was "
                        + spec.maxSeconds());
            }
            b.maxDuration(Duration.ofSeconds(spec.maxSeconds()));
        }
        try {
            return b.build();
        } catch (ReinException e) {
            throw new ReinException(where + ".agent: invalid budget: " + e.getMessage());
        }
    }

    /** The longest deadline the budget can hold: Long.MAX_VALUE milliseconds. */
    private static final long MAX_SECONDS = Long.MAX_VALUE / 1000;

    private static String normalise(String text) {
        return text == null ? "" : Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
    }

    private static String known(List<String> names) {
        return names.isEmpty() ? "(none)" : String.join(", ", names);
    }
}
