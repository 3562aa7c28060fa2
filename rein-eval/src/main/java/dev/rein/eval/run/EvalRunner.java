package dev.rein.eval.run;

import dev.rein.ReinException;
import dev.rein.eval.Environment;
import dev.rein.eval.Suite;
import dev.rein.eval.Task;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a suite: N trials per task, each on its own virtual thread with its own environment, at
 * most {@code parallelism} at a time. Immutable; one runner can run many suites.
 *
 * <pre>{@code
 * EvalResult result = EvalRunner.builder().trials(5).parallelism(4).build().run(suite);
 * EvalReport report = EvalReport.of(result);
 * }</pre>
 */
public final class EvalRunner {
    private static final Logger LOG = LoggerFactory.getLogger(EvalRunner.class);
    /** Trials run at once unless set. */
    public static final int DEFAULT_PARALLELISM = 4;

    private final Integer trials;
    private final int parallelism;
    private final TrialModels models;
    private final Progress progress;
    private final Clock clock;
    private final Path traces;

    private EvalRunner(Builder b) {
        this.trials = b.trials;
        this.parallelism = b.parallelism;
        this.models = b.models;
        this.progress = b.progress;
        this.clock = b.clock;
        this.traces = b.traces;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Runs every trial of {@code suite} and returns their outcomes. Nothing a trial does escapes
     * as an exception; a misconfigured suite (a task without a script on the scripted model)
     * is refused before any trial starts.
     *
     * @throws EvalInterruptedException when the calling thread is interrupted: running trials are cancelled, and the
     *                                   exception holds the outcomes of the trials that had ended
     */
    public EvalResult run(Suite suite) throws EvalInterruptedException {
        int perTask = trials != null ? trials : suite.trials();
        if (models.needsScripts()) {
            List<String> unscripted = suite.unscriptedTaskIds();
            if (!unscripted.isEmpty()) {
                throw new ReinException("suite '" + suite.name() + "' cannot run offline: these tasks have no script: "
                        + String.join(", ", unscripted) + ". Add scripts, or run it against a real model with"
                        + " EvalRunner.builder().models(TrialModels.shared(model, name)) (a suite of recorded runs runs with"
                        + " TrialModels.recorded()).");
            }
        }
        if (traces != null) {
            try {
                Files.createDirectories(traces);
            } catch (IOException e) {
                throw new ReinException("cannot create the trace folder " + traces + ": " + dev.rein.internal.text.FileProblems.why(e));
            } catch (RuntimeException e) {
                throw new ReinException("cannot create the trace folder " + traces + ": " + e.getMessage());
            }
        }
        int total;
        try {
            total = Math.multiplyExact(suite.tasks().size(), perTask);
        } catch (ArithmeticException e) {
            throw new ReinException("suite '" + suite.name() + "' has " + suite.tasks().size() + " tasks with " + perTask
                    + " trials each, more than " + Integer.MAX_VALUE + " trials in all: give fewer trials");
        }
        Instant startedAt = clock.instant();
        report(() -> progress.started(suite.name(), total));
        List<Future<TrialOutcome>> futures = new ArrayList<>();
        List<TrialOutcome> outcomes;
        try {
            outcomes = runAll(suite, perTask, total, futures);
        } catch (InterruptedException e) {
            report(progress::finished);
            // the trials that ended before the interruption are kept, so the caller can still report them; those
            // cancelled in flight are not outcomes of the agent
            List<TrialOutcome> finished = futures.stream().filter(f -> f.state() == Future.State.SUCCESS)
                    .map(Future::resultNow).toList();
            // every trial submitted had started (each gets its thread when its turn comes); those that did not end were
            // cancelled in flight, and the rest never started
            EvalInterruptedException interrupted = new EvalInterruptedException(result(suite, perTask, startedAt, finished), total,
                    futures.size());
            interrupted.addSuppressed(e);
            throw interrupted;
        }
        report(progress::finished);
        return result(suite, perTask, startedAt, outcomes);
    }

    private EvalResult result(Suite suite, int perTask, Instant startedAt, List<TrialOutcome> outcomes) {
        List<EvalResult.TaskInfo> tasks = suite.tasks().stream().map(t -> new EvalResult.TaskInfo(t.id(), t.category(), t.goal(),
                t.expectation() == null ? "any ending" : t.expectation().describe())).toList();
        return new EvalResult(suite.name(), suite.description(), models.describe(), perTask, startedAt, clock.instant(),
                tasks, outcomes);
    }

    private List<TrialOutcome> runAll(Suite suite, int perTask, int total, List<Future<TrialOutcome>> futures)
            throws InterruptedException {
        Semaphore permits = new Semaphore(parallelism);
        AtomicInteger done = new AtomicInteger();
        // the count and the report of a finished trial go together, so "done" reaches the progress view
        // in order (3/3 last) whatever order the trials' threads get there in
        Object reporting = new Object();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            try {
                for (Task<?> task : suite.tasks()) {
                    for (int i = 0; i < perTask; i++) {
                        // a trial gets its thread when its turn comes: the trials still waiting hold nothing
                        permits.acquire();
                        TrialRun<?> trial = trialRun(task, i);
                        futures.add(pool.submit(() -> {
                            try {
                                TrialOutcome outcome = trial.executeSafely();
                                synchronized (reporting) {
                                    int count = done.incrementAndGet();
                                    report(() -> progress.trialFinished(outcome, count, total));
                                }
                                return outcome;
                            } finally {
                                permits.release();
                            }
                        }));
                    }
                }
            } catch (InterruptedException e) {
                futures.forEach(f -> f.cancel(true));
                throw e;
            }
            List<TrialOutcome> outcomes = new ArrayList<>();
            try {
                for (Future<TrialOutcome> future : futures) {
                    outcomes.add(future.get());
                }
            } catch (InterruptedException e) {
                futures.forEach(f -> f.cancel(true));
                throw e;
            } catch (ExecutionException e) {
                futures.forEach(f -> f.cancel(true));
                throw new IllegalStateException("the evaluation harness failed: " + e.getCause(), e.getCause());
            }
            return outcomes;
        }
    }

    /**
     * Tells the progress view: one that throws (an exception or any Error such as an AssertionError) is logged and
     * ignored, as a run listener that throws is, so a bug in a view loses no trial's result.
     */
    private void report(Runnable call) {
        try {
            call.run();
        } catch (Exception | Error e) {
            LOG.warn("progress view {} failed: {}", progress.getClass().getName(), e.toString());
        }
    }

    private <E extends Environment> TrialRun<E> trialRun(Task<E> task, int index) {
        return new TrialRun<>(task, index, models, traces);
    }

    /** Builder for {@link EvalRunner}. */
    public static final class Builder {
        private Integer trials;
        private int parallelism = DEFAULT_PARALLELISM;
        private TrialModels models = TrialModels.scripted();
        private Progress progress = Progress.NONE;
        private Clock clock = Clock.systemUTC();
        private Path traces;

        private Builder() {}

        /**
         * Writes each trial's JSONL trace to {@code dir} as {@code TASK.TRIAL.jsonl} (replacing an
         * earlier one); such a folder can be replayed as a suite ({@link dev.rein.eval.trace.TraceSuite}).
         */
        public Builder traces(Path dir) {
            this.traces = Objects.requireNonNull(dir, "dir");
            return this;
        }

        /** Trials per task; by default the suite's own number. */
        public Builder trials(int trials) {
            this.trials = trials;
            return this;
        }

        /** How many trials run at once (default {@value #DEFAULT_PARALLELISM}). */
        public Builder parallelism(int parallelism) {
            this.parallelism = parallelism;
            return this;
        }

        /** Where trial models come from (default: each task's scripts). */
        public Builder models(TrialModels models) {
            this.models = Objects.requireNonNull(models, "models");
            return this;
        }

        public Builder progress(Progress progress) {
            this.progress = Objects.requireNonNull(progress, "progress");
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public EvalRunner build() {
            if (trials != null && trials < 1) {
                throw new ReinException("trials must be at least 1, was " + trials);
            }
            if (parallelism < 1) {
                throw new ReinException("parallelism must be at least 1, was " + parallelism);
            }
            return new EvalRunner(this);
        }
    }
}
