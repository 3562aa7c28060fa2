package dev.rein.examples;

import dev.rein.eval.TrialModel;
import dev.rein.model.Model;
import java.util.Objects;

/**
 * The model a demo runs with, and whether it is a script (offline) or a real model.
 *
 * @param name     the model name sent and priced
 * @param scripted true when the replies are a fixed script: the tools, limits and checks are
 *                 real, the model's decisions are not
 * @param via      where a real model runs, e.g. "Anthropic API", for the announcement
 */
public record DemoModel(Model model, String name, boolean scripted, String via) {
    public DemoModel {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(name, "name");
        via = via == null || via.isBlank() ? "real model" : via;
    }

    /** A model announced without saying where it runs. */
    public DemoModel(Model model, String name, boolean scripted) {
        this(model, name, scripted, null);
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
