package dev.rein.eval;

import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.eval.env.FileTreeEnvironment;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.tool.ErrorClass;
import dev.rein.trace.TraceEvent;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Builds finished trials by hand, for grader tests that need exact endings and trajectories. */
final class TrialFixture {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    final FileTreeEnvironment env = new FileTreeEnvironment(Map.of("notes.txt", "hello", "secrets.txt", "s3cr3t"));
    private RunStatus status = RunStatus.SUCCEEDED;
    private String reason = "completed";
    private String answer = "";
    private int steps = 1;
    private BigDecimal cost = BigDecimal.ZERO;
    private final List<Message> history = new ArrayList<>(List.of(Message.user("the goal")));
    private final List<TraceEvent> events = new ArrayList<>();
    private int calls;

    TrialFixture ended(RunStatus status, String reason) {
        this.status = status;
        this.reason = reason;
        return this;
    }

    TrialFixture answer(String answer) {
        this.answer = answer;
        return this;
    }

    TrialFixture steps(int steps) {
        this.steps = steps;
        return this;
    }

    TrialFixture cost(String usd) {
        this.cost = new BigDecimal(usd);
        return this;
    }

    /** A proposed call and what the executor returned for it. */
    TrialFixture call(String tool, ErrorClass outcome) {
        String id = propose(tool);
        boolean error = outcome != ErrorClass.NONE;
        history.add(Message.user(List.of(new ToolResultBlock(id, "result", error))));
        events.add(new TraceEvent.ToolCompleted("run", calls, T0, id, tool, "result", error, outcome.name(), "test", 1, "READ"));
        return this;
    }

    /** A proposed call left unanswered (as when the run pauses for approval). */
    TrialFixture pending(String tool) {
        propose(tool);
        return this;
    }

    TrialFixture event(TraceEvent event) {
        events.add(event);
        return this;
    }

    private String propose(String tool) {
        calls++;
        String id = "toolu_" + calls;
        history.add(Message.assistant(List.of(new TextBlock("calling " + tool), new ToolUseBlock(id, tool, Json.object()))));
        return id;
    }

    Trial<FileTreeEnvironment> build() {
        RunResult result = new RunResult("run", status, reason, "message", answer, steps, Usage.ZERO, cost, Duration.ZERO,
                null, history);
        return new Trial<>("task", 0, env, result, Trajectory.of(result, events));
    }

    static TraceEvent approval(String tool, String decision) {
        return new TraceEvent.Intervention("run", 1, T0, "approval", "asked a human",
                Map.of("tool", tool, "decision", decision));
    }
}
