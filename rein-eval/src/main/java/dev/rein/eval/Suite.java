package dev.rein.eval;

import dev.rein.ReinException;
import dev.rein.eval.internal.TaskIds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A named set of tasks, each run for several trials. Declare it in Java with {@link #builder}, or
 * load it from a YAML or JSON file with {@link dev.rein.eval.file.SuiteFile}.
 */
public final class Suite {
    /** Trials per task when neither the suite nor the runner says otherwise. */
    public static final int DEFAULT_TRIALS = 3;

    private final String name;
    private final String description;
    private final List<Task<?>> tasks;
    private final int trials;

    private Suite(Builder b) {
        this.name = b.name;
        this.description = b.description;
        this.tasks = List.copyOf(b.tasks);
        this.trials = b.trials;
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public String name() {
        return name;
    }

    public String description() {
        return description;
    }

    public List<Task<?>> tasks() {
        return tasks;
    }

    /** Trials per task unless the runner overrides it. */
    public int trials() {
        return trials;
    }

    /** True when every task can run offline on its scripts. */
    public boolean scripted() {
        return tasks.stream().allMatch(Task::scripted);
    }

    /** The ids of the tasks that have no script, so cannot run offline, in the suite's order; empty when {@link #scripted()}. */
    public List<String> unscriptedTaskIds() {
        return tasks.stream().filter(task -> !task.scripted()).map(Task::id).toList();
    }

    /** Builder for {@link Suite}; {@link #build()} validates. */
    public static final class Builder {
        private final String name;
        private String description = "";
        private final List<Task<?>> tasks = new ArrayList<>();
        private int trials = DEFAULT_TRIALS;

        private Builder(String name) {
            this.name = name;
        }

        public Builder description(String description) {
            this.description = description == null ? "" : description;
            return this;
        }

        public Builder task(Task<?> task) {
            tasks.add(Objects.requireNonNull(task, "task"));
            return this;
        }

        /** Trials per task (default {@value #DEFAULT_TRIALS}). */
        public Builder trials(int trials) {
            this.trials = trials;
            return this;
        }

        public Suite build() {
            if (name == null || name.isBlank()) {
                throw new ReinException("a suite needs a name");
            }
            if (tasks.isEmpty()) {
                throw new ReinException("suite '" + name + "' has no tasks");
            }
            if (trials < 1) {
                throw new ReinException("suite '" + name + "': trials must be at least 1, was " + trials);
            }
            // ids that differ only in case are one trace file where case is ignored (macOS, Windows): one trial's lost
            Map<String, String> ids = new HashMap<>();
            for (Task<?> task : tasks) {
                String other = ids.putIfAbsent(TaskIds.caseKey(task.id()), task.id());
                if (other != null && other.equals(task.id())) {
                    throw new ReinException("suite '" + name + "' has two tasks with id '" + task.id() + "'; task ids must be unique");
                }
                if (other != null) {
                    throw new ReinException("suite '" + name + "': task id '" + task.id() + "' differs only in case from '"
                            + other + "': on a file system that ignores case (macOS, Windows) both are one trace file;"
                            + " task ids must be unique ignoring case");
                }
            }
            return new Suite(this);
        }
    }
}
