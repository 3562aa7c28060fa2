package dev.rein.eval.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.rein.eval.TaskCategory;
import dev.rein.eval.run.EvalInterruptedException;
import dev.rein.eval.run.EvalResult;
import dev.rein.eval.run.TrialOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The machine-readable report of an evaluation. Its JSON form (snake_case field names, written by
 * {@link ReportWriter#json}) is stable: fields are only added, never renamed, and
 * {@code schema_version} changes when that promise has to be broken.
 *
 * @param schemaVersion the report format's version
 * @param suite         the suite's name
 * @param model         "scripted" or the model name the trials ran with
 * @param trialsPerTask the number of trials of each task
 * @param trialsPlanned the trials the evaluation was to run (tasks × trials per task); more than {@code summary.trials}
 *                      only when it was interrupted
 * @param trialsCancelled the trials in flight when the evaluation was interrupted, cancelled (not among {@code trials});
 *                      0 when it ran to its end
 * @param interrupted   whether the evaluation was interrupted (Ctrl-C in {@code rein eval}): the trials in flight were
 *                      cancelled, those not started never ran, and every metric covers only the trials that had ended
 * @param summary       metrics over the whole suite
 * @param categories    metrics per task category present in the suite, in category order (so
 *                      "should succeed" is read apart from "should refuse" or "should stop")
 * @param tasks         metrics per task, in suite order
 * @param trials        every trial, in task order then trial order
 */
// the counts of the trials, derived ones too, side by side in the JSON, before the metrics
@JsonPropertyOrder({"schema_version", "suite", "description", "model", "started_at", "finished_at", "duration_ms",
        "trials_per_task", "trials_planned", "trials_ended", "trials_cancelled", "trials_not_started", "interrupted"})
public record EvalReport(int schemaVersion, String suite, String description, String model, Instant startedAt,
                         Instant finishedAt, long durationMs, int trialsPerTask, int trialsPlanned, int trialsCancelled,
                         boolean interrupted, Summary summary, List<CategoryReport> categories, List<TaskReport> tasks,
                         List<TrialOutcome> trials) {
    public static final int SCHEMA_VERSION = 1;

    public EvalReport {
        categories = List.copyOf(categories);
        tasks = List.copyOf(tasks);
        trials = List.copyOf(trials);
    }

    /**
     * The report of an evaluation that planned {@code trialsPlanned} trials, of which none is known to have been cancelled
     * in flight: when {@code interrupted}, every trial that had not ended counts as not started.
     */
    public EvalReport(int schemaVersion, String suite, String description, String model, Instant startedAt,
                      Instant finishedAt, long durationMs, int trialsPerTask, int trialsPlanned, boolean interrupted,
                      Summary summary, List<CategoryReport> categories, List<TaskReport> tasks, List<TrialOutcome> trials) {
        this(schemaVersion, suite, description, model, startedAt, finishedAt, durationMs, trialsPerTask, trialsPlanned, 0,
                interrupted, summary, categories, tasks, trials);
    }

    /** The report of an evaluation that ran every trial it planned: {@code trials} of them, not interrupted. */
    public EvalReport(int schemaVersion, String suite, String description, String model, Instant startedAt,
                      Instant finishedAt, long durationMs, int trialsPerTask, Summary summary,
                      List<CategoryReport> categories, List<TaskReport> tasks, List<TrialOutcome> trials) {
        this(schemaVersion, suite, description, model, startedAt, finishedAt, durationMs, trialsPerTask, trials.size(), 0,
                false, summary, categories, tasks, trials);
    }

    /** The trials that ended, which every metric covers: {@code summary.trials}, said beside {@link #trialsPlanned}. */
    @JsonProperty("trials_ended")
    public int trialsEnded() {
        return summary.trials();
    }

    /** The trials that had not started when the evaluation was interrupted, and never ran; 0 when it ran to its end. */
    @JsonProperty("trials_not_started")
    public int trialsNotStarted() {
        return Math.max(0, trialsPlanned - summary.trials() - trialsCancelled);
    }

    /**
     * Metrics of a set of trials. Rates are over graded trials (infrastructure errors excluded) and
     * null when nothing was graded; {@code pass_at_k} and {@code pass_hat_k} map k to the average
     * over the tasks with at least k graded trials.
     *
     * @param graded          trials that judged the agent (all but infrastructure errors)
     * @param unsafe          trials with an unsafe action, counted as failures whatever else passed
     * @param unsafeSuccesses unsafe trials that would otherwise have passed
     * @param safeRefusals    failed trials in which the agent declined safely
     * @param failureKinds    failed and unsafe trials by failure kind (every kind listed, zeros included)
     */
    public record Summary(int tasks, int trials, int graded, int passed, int failed, int unsafe, int unsafeSuccesses,
                          int safeRefusals, int infraErrors, Double successRate, Double unsafeRate,
                          Double safeRefusalRate, Map<String, Double> passAtK, Map<String, Double> passHatK,
                          Map<String, Integer> failureKinds, Distribution steps, Distribution costUsd,
                          java.math.BigDecimal totalCostUsd) {}

    /** One task's metrics. */
    public record TaskReport(String id, TaskCategory category, String goal, String expected, Summary metrics) {}

    /** The metrics of the tasks of one category. */
    public record CategoryReport(TaskCategory category, List<String> tasks, Summary metrics) {}

    /** Computes the report of an evaluation's result, every trial it planned having ended. */
    public static EvalReport of(EvalResult result) {
        return of(result, result.trials().size(), 0, false);
    }

    /**
     * Computes the report of an evaluation that was interrupted: its metrics cover the trials that had ended
     * ({@link EvalInterruptedException#finished()}), and it says it was interrupted and how many trials were planned.
     */
    public static EvalReport of(EvalInterruptedException interrupted) {
        return of(interrupted.finished(), interrupted.planned(), interrupted.cancelled(), true);
    }

    private static EvalReport of(EvalResult result, int planned, int cancelled, boolean interrupted) {
        List<TaskReport> tasks = result.tasks().stream().map(t -> new TaskReport(t.id(), t.category(), t.goal(), t.expected(),
                Metrics.summarise(List.of(result.trialsOf(t.id()))))).toList();
        List<List<TrialOutcome>> perTask = result.tasks().stream().map(t -> result.trialsOf(t.id())).toList();
        return new EvalReport(SCHEMA_VERSION, result.suite(), result.description(), result.model(), result.startedAt(),
                result.finishedAt(), Duration.between(result.startedAt(), result.finishedAt()).toMillis(),
                result.trialsPerTask(), planned, cancelled, interrupted, Metrics.summarise(perTask), categories(result), tasks,
                result.trials());
    }

    private static List<CategoryReport> categories(EvalResult result) {
        List<CategoryReport> categories = new ArrayList<>();
        for (TaskCategory category : TaskCategory.values()) {
            List<String> ids = result.tasks().stream().filter(t -> t.category() == category).map(EvalResult.TaskInfo::id).toList();
            if (!ids.isEmpty()) {
                categories.add(new CategoryReport(category, ids, Metrics.summarise(ids.stream().map(result::trialsOf).toList())));
            }
        }
        return categories;
    }
}
