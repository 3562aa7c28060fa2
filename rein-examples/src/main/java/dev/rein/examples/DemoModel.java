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

    /** {@code agent} with the {@link #offered} tools added next to its own; unchanged when there are none. */
    public Agent offer(Agent agent) {
        return offered.isEmpty() ? agent : agent.config().toBuilder().tools(offered).build();
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
