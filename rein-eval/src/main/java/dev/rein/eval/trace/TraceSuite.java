package dev.rein.eval.trace;

import dev.rein.ReinException;
import dev.rein.eval.Suite;
import dev.rein.eval.Task;
import dev.rein.eval.TaskCategory;
import dev.rein.eval.internal.TaskIds;
import dev.rein.internal.text.FileProblems;
import dev.rein.replay.RecordedRun;
import dev.rein.replay.Replay;
import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A folder of JSONL traces as a suite of regression tasks: every run of every {@code *.jsonl} file
 * (sorted by name) is one task. Its trials replay the run with the agent under test (built by a
 * {@link RecordedAgentFactory}) in a {@link RecordedEnvironment}, and a {@link ReplayExpectation}
 * grades them: the recorded ending (status and reason) unless {@value #EXPECTATIONS} in the folder
 * says otherwise, and no divergence unless it allows one. Run it with {@code
 * TrialModels.recorded()}:
 *
 * <pre>{@code
 * Suite suite = TraceSuite.load(Path.of("traces"), RecordedAgentFactory.standIns());
 * EvalResult result = EvalRunner.builder().models(TrialModels.recorded()).build().run(suite);
 * }</pre>
 */
public final class TraceSuite {
    /** The optional file of expected endings in a trace folder. */
    public static final String EXPECTATIONS = "expected.json";
    /** Replays are deterministic: one trial per recorded run unless the runner asks for more. */
    public static final int TRIALS = 1;
    private TraceSuite() {}

    /**
     * The suite of the recorded runs in {@code dir}.
     *
     * @throws ReinException (one line, naming the file and what to do) when the folder is missing or
     *                       holds no trace, a {@code *.jsonl} file is not a replayable trace, or the
     *                       expectations file is unreadable or names no trace of the folder
     */
    public static Suite load(Path dir, RecordedAgentFactory agents) {
        Objects.requireNonNull(agents, "agents");
        List<Path> traces = traces(dir);
        ExpectedEndings expected = ExpectedEndings.of(dir);
        Path name = dir.toAbsolutePath().normalize().getFileName();
        Suite.Builder suite = Suite.builder(name == null ? "traces" : name.toString())
                .description("recorded runs in " + dir + ", replayed").trials(TRIALS);
        Set<String> ids = new HashSet<>();
        for (Path trace : traces) {
            String file = trace.getFileName().toString();
            List<String> runs = readable(trace, () -> Replay.runIds(trace));
            for (String runId : runs) {
                String id = taskId(runs.size() == 1 ? file : file + "." + runId, ids);
                suite.task(task(trace, file, id, runId, expected.forRun(file, runId), agents));
            }
        }
        expected.requireAllUsed(traces.stream().map(t -> t.getFileName().toString()).toList());
        return suite.build();
    }

    private static List<Path> traces(Path dir) {
        String give = "; give a folder of JSONL traces or a suite file";
        if (!Files.isDirectory(dir)) {
            if (Files.exists(dir)) {
                throw new ReinException(dir + " is not a folder" + give);
            }
            // "no such folder" of a name ls shows (a link to nothing, a file on the way) would send the user looking elsewhere
            String dangling = FileProblems.danglingLink(dir.toString());
            String file = FileProblems.fileOnTheWay(dir.toString());
            throw new ReinException(dangling != null ? "cannot list the folder " + dir + ": " + dangling + give
                    : file != null ? "cannot list the folder " + dir + ": " + file + " is a file, not a directory" + give
                    : "no such folder: " + dir + give);
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> traces = files.filter(f -> f.getFileName().toString().endsWith(".jsonl") && Files.isRegularFile(f))
                    .sorted().toList();
            if (traces.isEmpty()) {
                throw new ReinException("the folder " + dir + " holds no .jsonl traces; record some (rein run --trace FILE,"
                        + " rein eval SUITE --traces DIR) or give a suite file");
            }
            return traces;
        } catch (IOException e) {
            throw new ReinException("cannot list the folder " + dir + ": " + FileProblems.why(e) + give);
        } catch (UncheckedIOException e) { // an entry the listing could not read
            throw new ReinException("cannot list the folder " + dir + ": " + FileProblems.why(e.getCause()) + give);
        }
    }

    private static Task<RecordedEnvironment> task(Path trace, String file, String id, String runId,
                                                  ExpectedEndings.Ending override, RecordedAgentFactory agents) {
        Replay replay = Replay.from(trace).run(runId);
        RecordedRun recorded = readable(trace, replay::recorded);
        ReplayExpectation expectation = expectation(recorded, override);
        try {
            return Task.builder(id, () -> new RecordedEnvironment(replay, file))
                    .goal(recorded.goal())
                    .replies(recorded.replies())
                    .category(category(expectation))
                    .agent((env, model) -> env.replaying(agents.create(env.recorded())))
                    .expect(expectation)
                    .build();
        } catch (ReinException e) {
            throw new ReinException("the trace " + trace + " (run " + runId + ") cannot be a task: " + e.getMessage());
        }
    }

    /** The recorded ending, with what the expectations file says instead. */
    private static ReplayExpectation expectation(RecordedRun recorded, ExpectedEndings.Ending override) {
        RunStatus status = recordedStatus(recorded);
        String reason = status == null ? null : recorded.reason();
        boolean allowDivergence = false;
        String source = status != null ? "as recorded" : recorded.status() == null ? "the trace records no ending"
                : "the recorded ending " + recorded.status() + " is unknown here";
        if (override != null) {
            if (override.status() != null) {
                status = override.status();
                reason = override.reason(); // a new status without a reason accepts any reason
                source = EXPECTATIONS;
            } else if (override.reason() != null) {
                reason = override.reason();
                source = EXPECTATIONS;
            }
            allowDivergence = Boolean.TRUE.equals(override.allowDivergence());
        }
        return new ReplayExpectation(status, reason, allowDivergence, source);
    }

    private static RunStatus recordedStatus(RecordedRun recorded) {
        try {
            return recorded.status() == null ? null : RunStatus.valueOf(recorded.status());
        } catch (IllegalArgumentException e) {
            return null; // an ending this version does not know: any ending is accepted, divergences still count
        }
    }

    private static TaskCategory category(ReplayExpectation e) {
        if (e.status() == null) {
            return TaskCategory.OTHER;
        }
        return switch (e.status()) {
            case SUCCEEDED -> TaskCategory.SHOULD_SUCCEED;
            case WAITING_APPROVAL -> TaskCategory.WAITING_APPROVAL;
            case STOPPED_BUDGET -> TaskCategory.OVER_BUDGET;
            case FAILED -> Reasons.NEEDS_USER_INPUT.equals(e.reason()) ? TaskCategory.NEEDS_USER_INPUT : TaskCategory.OTHER;
            case CANCELLED, RUNNING -> TaskCategory.OTHER;
        };
    }

    /**
     * A task id from a file name (and run id), not yet in {@code taken}: as {@link TaskIds#from} makes it (letters of any
     * script kept, what an id may not hold as '_', cut to its limits), so names that differ only there (返金?.jsonl and
     * 返金*.jsonl, two runs of a long-named file) would meet, as would names that differ only in case (Refund.jsonl and
     * refund.jsonl, one trace file where case is ignored); a later one gets "-2", "-3", … instead.
     */
    private static String taskId(String name, Set<String> taken) {
        String id = TaskIds.from(name, "");
        // taken by case key: Refund.jsonl and refund.jsonl, two files here, are one trace file on a Mac
        for (int n = 2; !taken.add(TaskIds.caseKey(id)); n++) {
            id = TaskIds.from(name, "-" + n);
        }
        return id;
    }

    private static <T> T readable(Path trace, java.util.function.Supplier<T> read) {
        try {
            return read.get();
        } catch (ReinException e) {
            throw new ReinException(e.getMessage() + "; every .jsonl file in the folder must be a Rein trace: fix or move "
                    + trace.getFileName() + " out");
        }
    }
}
