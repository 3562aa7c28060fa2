package dev.rein.replay;

import dev.rein.agent.Agent;
import dev.rein.agent.RunHandle;
import dev.rein.agent.RunResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Re-runs a recorded run from its JSONL trace with the agent as it is configured now: a model that
 * answers each call with the recorded response, tools answered from the recorded results (no side
 * effect runs; {@link #liveReadTools} runs READ tools for real). Every request the loop builds is
 * compared with the recorded one; the first {@link Divergence} is reported with its step and a
 * readable diff, and the run continues or stops there ({@link #stopAtDivergence}).
 *
 * <pre>{@code
 * ReplayReport report = Replay.from(Path.of("run.jsonl")).replay(agentWithTheNewStallPolicy);
 * report.firstDivergence().ifPresent(d -> System.out.println(d.description()));
 * }</pre>
 */
public final class Replay {
    private final Path trace;
    private final String runId;
    private final boolean liveReadTools;
    private final boolean stopAtDivergence;

    private Replay(Path trace, String runId, boolean liveReadTools, boolean stopAtDivergence) {
        this.trace = trace;
        this.runId = runId;
        this.liveReadTools = liveReadTools;
        this.stopAtDivergence = stopAtDivergence;
    }

    /** A replay of the one run in {@code trace} (see {@link #run(String)} for a trace of several). */
    public static Replay from(Path trace) {
        return new Replay(Objects.requireNonNull(trace, "trace"), null, false, false);
    }

    /**
     * The ids of the runs a trace holds, in the order they appear.
     *
     * @throws dev.rein.ReinException when the trace cannot be read or is not JSONL
     */
    public static List<String> runIds(Path trace) {
        return Recording.runIds(trace);
    }

    /**
     * Whether {@code model} is the one a replay answers every model call with, from the recorded trace: no provider is
     * called through it. For integrations that observe runs (telemetry) and must not count a replayed call as a real
     * one.
     */
    public static boolean answersFromRecording(dev.rein.model.Model model) {
        return model instanceof ReplayModel;
    }

    /** Replays the run {@code id} of the trace. */
    public Replay run(String id) {
        return new Replay(trace, id, liveReadTools, stopAtDivergence);
    }

    /** Runs READ tools for real instead of answering them from the recording (default false). */
    public Replay liveReadTools(boolean live) {
        return new Replay(trace, runId, live, stopAtDivergence);
    }

    /** Stops the replayed run (it ends CANCELLED) at the first divergence instead of continuing (default false). */
    public Replay stopAtDivergence(boolean stop) {
        return new Replay(trace, runId, liveReadTools, stop);
    }

    /**
     * What the trace recorded about the run (goal, model, tools, system prompt), e.g. to build the agent to replay it with.
     *
     * @throws dev.rein.ReinException when the trace cannot be read or holds no replayable run
     */
    public RecordedRun recorded() {
        return RecordedRun.of(Recording.read(trace, runId));
    }

    /**
     * A replay in parts, for a harness that starts the run itself; {@link #stopAtDivergence} does not
     * apply (only {@link #replay} holds the run's handle to cancel).
     *
     * @throws dev.rein.ReinException when the trace cannot be read or holds no replayable run
     */
    public ReplaySession session() {
        return new ReplaySession(Recording.read(trace, runId), liveReadTools, false);
    }

    /**
     * Replays the recorded run with {@code agent}'s configuration (its tools, guards, policies and
     * prompt: the version under test), the recorded goal, model name and limits. A run the trace
     * records replies to ({@code turn_started}: a conversation continued with {@link Agent#reply})
     * is replayed turn by turn, each reply given where the recorded one was, while the replayed run
     * can take one.
     *
     * @throws dev.rein.ReinException when the trace cannot be read or holds no replayable run
     */
    public ReplayReport replay(Agent agent) {
        Recording recording = Recording.read(trace, runId);
        if (agent.config().listeners().stream().anyMatch(f -> dev.rein.trace.JsonlTraceListener.writesTo(f, trace))) {
            // The replay keeps the recorded run id: appended to its own recording, it would make the trace hold the run twice.
            throw new dev.rein.ReinException("the agent writes its trace to " + trace + ", the trace being replayed: the"
                    + " replay would be added to the recording under the same run id, and the trace would no longer replay;"
                    + " write the replay's trace to another file");
        }
        ReplaySession session = new ReplaySession(recording, liveReadTools, stopAtDivergence);
        Agent replaying = session.agent(agent);
        java.util.concurrent.atomic.AtomicReference<RunHandle> current = new java.util.concurrent.atomic.AtomicReference<>();
        session.onDivergence(() -> {
            RunHandle handle = current.get(); // null while the first start has not returned: the model's interrupt stops it
            if (handle != null) {
                handle.cancel();
            }
        });
        current.set(replaying.start(recording.goal()));
        RunResult result = resumeDecided(replaying, session, current, current.get().future().join());
        // A conversation recorded into one trace: each reply opens the next turn, as it did, while the run can take one
        List<String> replies = recording.replies();
        for (int i = 0; i < replies.size(); i++) {
            if (stopAtDivergence && session.divergence().isPresent() || !replyable(result)) {
                break;
            }
            // on the limits the recorded turn had: the agent that replied may have had another budget
            current.set(session.replying(replaying, i).startReply(result.runId(), replies.get(i)));
            result = resumeDecided(replaying, session, current, current.get().future().join());
        }
        return session.report(result);
    }

    /**
     * A replayed run that paused where the recording has a person's decisions on every pending call
     * (a call they edited pauses the replay: see RecordedTools) gets those decisions, as recorded, and
     * resumes, as often as it pauses so; a pause the recording never decided is where the replay ends
     * ({@link ReplaySession#decidePaused}).
     */
    private RunResult resumeDecided(Agent replaying, ReplaySession session,
                                    java.util.concurrent.atomic.AtomicReference<RunHandle> current, RunResult paused) {
        RunResult result = paused;
        while (!(stopAtDivergence && session.divergence().isPresent()) && session.decidePaused(replaying, result)) {
            // on the limits the recorded resumption had: the agent that resumed the run may have had another budget
            current.set(session.resuming(replaying, result).startResume(result.runId()));
            result = current.get().future().join();
        }
        return result;
    }

    /** Whether {@code result} can take a reply: it answered, or asked the person for input. */
    private static boolean replyable(RunResult result) {
        return result.status() == dev.rein.run.RunStatus.SUCCEEDED
                || result.status() == dev.rein.run.RunStatus.FAILED && dev.rein.run.Reasons.NEEDS_USER_INPUT.equals(result.reason());
    }
}
