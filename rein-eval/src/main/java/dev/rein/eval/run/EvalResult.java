package dev.rein.eval.run;

import dev.rein.eval.TaskCategory;
import java.time.Instant;
import java.util.List;

/**
 * The raw result of an evaluation: which tasks ran and every trial's outcome, in task order then
 * trial order. {@link dev.rein.eval.report.EvalReport#of} computes the metrics.
 *
 * @param model          how trials got their model ("scripted" or a model name)
 * @param trialsPerTask  trials run for each task
 */
public record EvalResult(String suite, String description, String model, int trialsPerTask, Instant startedAt,
                         Instant finishedAt, List<TaskInfo> tasks, List<TrialOutcome> trials) {
    public EvalResult {
        tasks = List.copyOf(tasks);
        trials = List.copyOf(trials);
    }

    /** What reports show of a task. */
    public record TaskInfo(String id, TaskCategory category, String goal, String expected) {}

    /** The outcomes of one task's trials. */
    public List<TrialOutcome> trialsOf(String taskId) {
        return trials.stream().filter(t -> t.taskId().equals(taskId)).toList();
    }
}
