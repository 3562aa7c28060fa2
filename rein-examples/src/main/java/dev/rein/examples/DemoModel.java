package dev.rein.examples;

import dev.rein.agent.Agent;
import dev.rein.eval.TrialModel;
import dev.rein.model.Model;
import dev.rein.tool.Tool;
import java.util.List;
import java.util.Objects;

/**
 * The model a demo runs with, and whether it is a script (offline) or a real model.
 *
 * @param name     the model name sent and priced
 * @param scripted true when the replies are a fixed script: the tools, limits and checks are
 *                 real, the model's decisions are not
 * @param via      where a real model runs, e.g. "Anthropic API", for the announcement
 * @param offered  tools the demo's agent is offered next to its own (e.g. MCP servers')
 */
public record DemoModel(Model model, String name, boolean scripted, String via, List<Tool> offered) {
    /**
     * What to do when a tool given with {@code --mcp} is named like a tool the agent has already
     * ({@code rein example NAME --mcp} and {@code rein eval --mcp} both say it).
     */
    public static final String MCP_CLASH_ADVICE = "give the MCP server a \"prefix\" in the servers file (e.g. \"prefix\":"
            + " \"mcp_\") or add the tool to its \"deny\" list";

    public DemoModel {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(name, "name");
        via = via == null || via.isBlank() ? "real model" : via;
        offered = List.copyOf(offered);
    }

    /** A model for a demo whose agent gets only the example's own tools. */
    public DemoModel(Model model, String name, boolean scripted, String via) {
        this(model, name, scripted, via, List.of());
    }

    /** A model announced without saying where it runs. */
    public DemoModel(Model model, String name, boolean scripted) {
        this(model, name, scripted, null);
    }

    /** The same model, the demo's agent also being offered {@code tools} (e.g. MCP servers' with {@code rein example --mcp}). */
    public DemoModel offering(List<Tool> tools) {
        return new DemoModel(model, name, scripted, via, tools);
    }

    /**
     * {@code agent} with the {@link #offered} tools added next to its own; unchanged when there are none.
     *
     * @throws dev.rein.ReinException when an offered tool has the name of one of the agent's own tools,
     *                                saying how to rename it (the registry's own error names no remedy)
     */
    public Agent offer(Agent agent) {
        if (offered.isEmpty()) {
            return agent;
        }
        java.util.Set<String> own = java.util.Set.copyOf(agent.config().tools().names());
        List<String> clashes = offered.stream().map(Tool::name).filter(own::contains).sorted().toList();
        if (!clashes.isEmpty()) {
            throw new dev.rein.ReinException("tool name(s) " + clashes + " given with --mcp are also tools of this example's"
                    + " own agent; " + MCP_CLASH_ADVICE);
        }
        return agent.config().toBuilder().tools(offered).build();
    }

    /** The same model as an evaluation harness hands it to agent factories. */
    public TrialModel trialModel() {
        return new TrialModel(model, name);
    }

    /** How the model is announced to the reader. */
    public String label() {
        return scripted ? "scripted (offline: the model's replies are a fixed script; the tools, limits and checks are real)"
                : name + " (" + via + ")";
    }
}
