package dev.rein.eval.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.agent.Agent;
import dev.rein.eval.Environment;
import dev.rein.eval.TrialModel;
import dev.rein.json.Json;
import dev.rein.replay.Divergence;
import dev.rein.replay.RecordedRun;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplaySession;
import java.util.Objects;

/**
 * The world of a recorded run: nothing runs in it. Each trial {@linkplain #reset() starts} a new
 * replay of the run; its {@linkplain #trialModel() trial model} answers each model call with the
 * recorded response, and the agent {@linkplain #replaying set up} on it answers each tool call with
 * the recorded result. No side effect happens, so there is none to report.
 */
public final class RecordedEnvironment implements Environment {
    private final Replay replay;
    private final String trace;
    private volatile ReplaySession session;

    /**
     * @param replay the run to replay
     * @param trace  the trace file's name, for reports
     */
    public RecordedEnvironment(Replay replay, String trace) {
        this.replay = Objects.requireNonNull(replay, "replay");
        this.trace = Objects.requireNonNull(trace, "trace");
    }

    /** Starts a new replay of the recorded run (reads the trace again). */
    @Override
    public void reset() {
        session = replay.session();
    }

    /** The replay of this trial. */
    public ReplaySession session() {
        ReplaySession current = session;
        if (current == null) {
            throw new IllegalStateException("the recorded environment of " + trace + " was not reset before its trial");
        }
        return current;
    }

    /** What the trace recorded about the run. */
    public RecordedRun recorded() {
        return session().recorded();
    }

    /** The model of this trial: the recorded responses, in order, each after comparing its request. */
    public TrialModel trialModel() {
        return new TrialModel(session().model(), recorded().model());
    }

    /** {@code agent} (the agent under test) set up to replay this trial's recorded run. */
    public Agent replaying(Agent agent) {
        return session().agent(agent);
    }

    /** The trace and run replayed, and the first divergence so far (null when none). */
    @Override
    public JsonNode snapshot() {
        ObjectNode state = Json.object();
        state.put("trace", trace);
        ReplaySession current = session;
        if (current != null) {
            state.put("run_id", current.recorded().runId());
            state.put("divergence", current.divergence().map(Divergence::description).orElse(null));
        }
        return state;
    }
}
