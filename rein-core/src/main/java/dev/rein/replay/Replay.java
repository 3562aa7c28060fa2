package dev.rein.replay;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.Agent;
import dev.rein.agent.RunHandle;
import dev.rein.agent.RunResult;
import dev.rein.budget.Budget;
import dev.rein.tool.ToolInterceptor;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
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
    public static java.util.List<String> runIds(Path trace) {
        return Recording.runIds(trace);
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
        Recording r = Recording.read(trace, runId);
        JsonNode first = r.calls().isEmpty() ? null : r.calls().get(0).request();
        StringBuilder system = new StringBuilder();
        if (first != null) {
            first.path("system").forEach(block -> system.append(block.path("text").asText()));
        }
        return new RecordedRun(r.runId(), r.goal(), r.model(), r.tools(), system.toString(),
                first == null ? 0 : first.path("max_tokens").asInt(), r.calls().size());
    }

    /**
     * Replays the recorded run with {@code agent}'s configuration (its tools, guards, policies and
     * prompt: the version under test), the recorded goal, model name and limits.
     *
     * @throws dev.rein.ReinException when the trace cannot be read or holds no replayable run
     */
    public ReplayReport replay(Agent agent) {
        Recording recording = Recording.read(trace, runId);
        Comparison comparison = new Comparison(recording);
        ReplayModel model = new ReplayModel(recording, comparison, stopAtDivergence);
        ToolInterceptor tools = new RecordedTools(recording, liveReadTools);
        Agent replaying = agent.config().toBuilder()
                .model(model)
                .modelName(recording.model())
                .prices(agent.config().prices())
                .toolInterceptor(tools)
                .listener(comparison::listener)
                .budget(budget(agent.config().budget(), recording.limits()))
                .runIds(recording::runId)
                .build();
        RunHandle handle = replaying.start(recording.goal());
        model.onDivergence(handle::cancel);
        RunResult result = handle.future().join();
        JsonNode finished = recording.finished();
        return new ReplayReport(recording.runId(), comparison.divergence(), result,
                finished == null ? null : finished.path("status").asText(),
                finished == null ? null : finished.path("reason").asText(),
                finished == null ? null : finished.path("answer").asText(null), model.used());
    }

    /** The recorded limits over the agent's budget, so the replay stops where the recording could. */
    private static Budget budget(Budget base, JsonNode limits) {
        Budget.Builder b = base.toBuilder();
        if (limits.has("max_steps")) {
            b.maxSteps(limits.get("max_steps").asInt());
        }
        if (limits.has("max_cost_usd")) {
            b.maxCostUsd(new BigDecimal(limits.get("max_cost_usd").asText()));
        }
        if (limits.has("max_seconds")) {
            b.maxDuration(Duration.ofMillis(Math.round(limits.get("max_seconds").asDouble() * 1000)));
        }
        return b.build();
    }
}
