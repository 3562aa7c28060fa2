package dev.rein.eval;

import dev.rein.model.Model;
import java.util.Objects;

/**
 * The model one trial runs with, and the model name to send and price with. Offline suites get
 * a fresh scripted model per trial; real-model runs share one thread-safe model.
 */
public record TrialModel(Model model, String name) {
    public TrialModel {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(name, "name");
    }
}
