package dev.rein.eval.run;

import dev.rein.ReinException;
import dev.rein.eval.Environment;
import dev.rein.eval.Task;
import dev.rein.eval.TrialModel;
import dev.rein.eval.trace.RecordedEnvironment;
import dev.rein.model.Model;
import dev.rein.testkit.ScriptedModel;
import java.util.Objects;

/** Where each trial's model comes from. */
public interface TrialModels {
    /** The model for trial {@code trial} of {@code task}. */
    TrialModel forTrial(Task<?> task, int trial);

    /**
     * The model for trial {@code trial} of {@code task}, once its environment is set up; by default
     * {@link #forTrial(Task, int)}. The harness calls this one.
     */
    default TrialModel forTrial(Task<?> task, int trial, Environment environment) {
        return forTrial(task, trial);
    }

    /** How reports name the model ("scripted", or a model name). */
    String describe();

    /** True when every task must bring a script. */
    default boolean needsScripts() {
        return false;
    }

    /**
     * Offline: a fresh scripted model per trial from the task's script (trial {@code i} uses script
     * {@code i mod scripts}), named and priced as {@value ScriptedModel#DEFAULT_NAME}.
     */
    static TrialModels scripted() {
        return new TrialModels() {
            @Override
            public TrialModel forTrial(Task<?> task, int trial) {
                if (!task.scripted()) {
                    throw new ReinException("task '" + task.id() + "' has no script; run it with a real model");
                }
                return new TrialModel(ScriptedModel.of(task.script(trial)), ScriptedModel.DEFAULT_NAME);
            }

            @Override
            public String describe() {
                return "scripted";
            }

            @Override
            public boolean needsScripts() {
                return true;
            }
        };
    }

    /** One real, thread-safe model shared by all trials; scripts are ignored. */
    static TrialModels shared(Model model, String name) {
        Objects.requireNonNull(model, "model");
        if (name == null || name.isBlank()) {
            throw new ReinException("name the model the trials run with");
        }
        return new TrialModels() {
            @Override
            public TrialModel forTrial(Task<?> task, int trial) {
                return new TrialModel(model, name);
            }

            @Override
            public String describe() {
                return name;
            }
        };
    }

    /**
     * Replays: each trial's model is its {@link RecordedEnvironment}'s recording, which answers
     * every call with the recorded response (see {@link dev.rein.eval.trace.TraceSuite}). Tasks
     * whose environment is not a recording are refused.
     */
    static TrialModels recorded() {
        return new TrialModels() {
            @Override
            public TrialModel forTrial(Task<?> task, int trial) {
                throw new ReinException("task '" + task.id() + "' replays a recording: its model comes from its environment");
            }

            @Override
            public TrialModel forTrial(Task<?> task, int trial, Environment environment) {
                if (environment instanceof RecordedEnvironment recording) {
                    return recording.trialModel();
                }
                throw new ReinException("task '" + task.id() + "' is not a recorded run; recorded models replay only the tasks"
                        + " of a TraceSuite");
            }

            @Override
            public String describe() {
                return "recorded";
            }
        };
    }
}
