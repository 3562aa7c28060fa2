package dev.rein.eval.run;

import dev.rein.agent.Agent;
import dev.rein.agent.RunHandle;
import dev.rein.agent.RunResult;
import dev.rein.eval.Environment;
import dev.rein.eval.Finding;
import dev.rein.eval.Grader;
import dev.rein.eval.Graders;
import dev.rein.eval.SideEffect;
import dev.rein.eval.Task;
import dev.rein.eval.Trajectory;
import dev.rein.eval.Trial;
import dev.rein.eval.TrialModel;
import dev.rein.eval.trace.RecordedEnvironment;
import dev.rein.testkit.RecordingListener;
import dev.rein.trace.JsonlTraceListener;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * One trial from start to verdict: a fresh environment, the agent built on it, the run recorded,
 * the graders applied. Anything that goes wrong outside the agent's own run (the environment,
 * the agent factory, a grader, the harness timeout) becomes an infrastructure error, never an
 * agent failure. That includes an {@link AssertionError} (an assertion library's check in a grader)
 * and a {@link LinkageError} (a class the task's code needs is missing): only the trial's code is
 * broken, so the other trials go on; an error of the JVM itself (out of memory) still stops the evaluation.
 */
final class TrialRun<E extends Environment> {
    private static final Grader<Environment> SIDE_EFFECTS = Graders.noUnapprovedSideEffects();
    private static final Duration CANCEL_GRACE = Duration.ofSeconds(30);

    private final Task<E> task;
    private final int index;
    private final TrialModels models;
    private final Path traces;
    /** Set when the trial starts, not when it is queued: waiting for a free slot is not the trial's time. */
    private long startNanos;

    /** @param traces the folder each trial writes its JSONL trace to, or null */
    TrialRun(Task<E> task, int index, TrialModels models, Path traces) {
        this.task = task;
        this.index = index;
        this.models = models;
        this.traces = traces;
    }

    /** The trial's trace file in {@code traces}: TASK.TRIAL.jsonl. */
    static Path traceFile(Path traces, String taskId, int index) {
        return traces.resolve(taskId + "." + index + ".jsonl");
    }

    /** Runs the trial; a bug in the harness itself also ends as an infrastructure error of this trial. */
    TrialOutcome executeSafely() throws InterruptedException {
        startNanos = System.nanoTime();
        try {
            return execute();
        } catch (RuntimeException | AssertionError | LinkageError e) {
            return infra("the evaluation harness failed: " + describe(e));
        }
    }

    /** Runs the trial. Only an interrupt of the evaluation itself escapes. */
    private TrialOutcome execute() throws InterruptedException {
        E env;
        try {
            env = task.newEnvironment();
            env.reset();
        } catch (RuntimeException | AssertionError | LinkageError e) {
            return infra("the environment could not be set up: " + describe(e));
        }
        try {
            return runOn(env);
        } finally {
            try {
                env.close();
            } catch (RuntimeException | AssertionError | LinkageError ignored) {
                // Closing is best effort; the verdict is already made.
            }
        }
    }

    private TrialOutcome runOn(E env) throws InterruptedException {
        Agent agent;
        try {
            TrialModel model = models.forTrial(task, index, env);
            agent = task.agent().create(env, model);
            if (agent == null) {
                return infra("the agent factory returned null");
            }
        } catch (RuntimeException | AssertionError | LinkageError e) {
            return infra("the agent could not be built: " + describe(e));
        }
        RecordingListener recorder = new RecordingListener();
        Agent observed = agent.withListener(recorder);
        if (traces != null) {
            Path file = traceFile(traces, task.id(), index);
            if (Files.isDirectory(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                // the JDK's error for it (DirectoryNotEmptyException) is the bare path
                return infra("the trace file " + file + " is a folder, not a file; move it out of the trace folder " + traces);
            }
            try {
                Files.deleteIfExists(file); // the trace of this trial only, not appended to an earlier evaluation's
            } catch (IOException e) {
                return infra("the trace file " + file + " could not be replaced: " + dev.rein.internal.text.FileProblems.why(e));
            }
            observed = observed.withListener(JsonlTraceListener.to(file));
        }
        RunResult result;
        try {
            result = resumeDecided(env, observed, await(observed.start(task.goal())));
            List<String> replies = task.replies();
            for (int i = 0; i < replies.size(); i++) { // a conversation: the turns after the first, while the run takes them
                if (!replyable(result)) {
                    break;
                }
                // a recorded turn on the limits it had: the agent that replied may have had another budget
                Agent replying = env instanceof RecordedEnvironment recorded ? recorded.session().replying(observed, i) : observed;
                result = resumeDecided(env, observed, await(replying.startReply(result.runId(), replies.get(i))));
            }
        } catch (TimeoutException e) {
            // a suite file gives the timeout in milliseconds: 300 ms is not "0 s"
            Duration limit = task.timeout();
            String shown = limit.toMillis() % 1000 == 0 ? limit.toSeconds() + " s" : limit.toMillis() + " ms";
            return infra("the trial did not end within the harness timeout of " + shown
                    + " and was cancelled; give the agent a deadline below it"
                    + " (Budget.maxDuration; max_seconds in a suite file) or raise the task's timeout (timeout_ms)");
        } catch (RuntimeException e) {
            return infra("the run could not be started: " + describe(e));
        }
        return grade(env, result, Trajectory.of(result, recorder.events()));
    }

    /**
     * A replayed run that paused where the recording has a person's decisions (a run and its
     * resumption recorded into one trace: a call they edited pauses the replay) gets them and resumes,
     * as {@link dev.rein.replay.Replay#replay} does; any other run's pause is its ending.
     */
    private RunResult resumeDecided(E env, Agent observed, RunResult paused) throws InterruptedException, TimeoutException {
        RunResult result = paused;
        if (env instanceof RecordedEnvironment recorded) {
            while (recorded.session().decidePaused(observed, result)) {
                // on the limits the recorded resumption had (the agent that resumed the run may have had another budget)
                result = await(recorded.session().resuming(observed, result).startResume(result.runId()));
            }
        }
        return result;
    }

    /** Whether the run can take a reply: it answered, or asked the person for input. */
    private static boolean replyable(RunResult result) {
        return result.status() == dev.rein.run.RunStatus.SUCCEEDED || result.status() == dev.rein.run.RunStatus.FAILED
                && dev.rein.run.Reasons.NEEDS_USER_INPUT.equals(result.reason());
    }

    private RunResult await(RunHandle handle) throws InterruptedException, TimeoutException {
        try {
            return handle.await(task.timeout());
        } catch (InterruptedException e) {
            handle.cancel();
            // the evaluation stops: let the cancelled run record its ending (run_finished) in its trace first
            try {
                handle.await(CANCEL_GRACE);
            } catch (InterruptedException | TimeoutException ignored) {
                // Interrupted again, or the run ignores cancellation: stop waiting.
            }
            throw e;
        } catch (TimeoutException e) {
            handle.cancel();
            try {
                handle.await(CANCEL_GRACE);
            } catch (TimeoutException ignored) {
                // The run ignores cancellation; report the timeout regardless.
            }
            throw e;
        }
    }

    private TrialOutcome grade(E env, RunResult result, Trajectory trajectory) {
        Trial<E> trial = new Trial<>(task.id(), index, env, result, trajectory);
        List<Grader<? super E>> graders = new ArrayList<>();
        if (task.expectation() != null) {
            graders.add(task.expectation());
        }
        graders.addAll(task.graders());
        graders.add(SIDE_EFFECTS);
        List<Finding> findings = new ArrayList<>();
        String stateHash;
        List<SideEffect> effects;
        for (int i = 0; i < graders.size(); i++) {
            try {
                Finding finding = graders.get(i).grade(trial);
                if (finding == null) {
                    return infra("grader #" + (i + 1) + " returned no finding");
                }
                findings.add(finding);
            } catch (RuntimeException | AssertionError | LinkageError e) {
                return infra("grader #" + (i + 1) + " failed: " + describe(e));
            }
        }
        try {
            stateHash = env.stateHash();
            effects = env.sideEffects();
        } catch (RuntimeException | AssertionError | LinkageError e) {
            return infra("the environment's final state could not be read: " + describe(e));
        }
        List<String> toolCalls = trajectory.observations().stream().filter(Trajectory.Observation::executed)
                .map(Trajectory.Observation::tool).toList();
        // A replay calls no provider: its provider_error is the recording running out, graded like any ending.
        boolean replayed = env instanceof RecordedEnvironment;
        return Verdicts.judge(task, index, result, findings, elapsedMillis(), stateHash, effects, toolCalls, replayed);
    }

    private TrialOutcome infra(String what) {
        return TrialOutcome.infraError(task.id(), task.category(), index, elapsedMillis(), what);
    }

    private long elapsedMillis() {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    private static String describe(Throwable e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}
