package dev.rein.eval.trace;

import dev.rein.agent.RunResult;
import dev.rein.eval.EndExpectation;
import dev.rein.eval.Environment;
import dev.rein.eval.Expect;
import dev.rein.eval.FailureKind;
import dev.rein.eval.Finding;
import dev.rein.eval.Trial;
import dev.rein.replay.Divergence;
import dev.rein.replay.ReplayReport;
import dev.rein.run.RunStatus;
import java.util.Locale;
import java.util.Optional;

/**
 * The grader of a replayed run: it passes when the replay reaches the expected ending and, unless
 * divergence is allowed, behaves as recorded at every model call. A failed finding names the step
 * and the cause of the first divergence.
 *
 * @param status          the expected status; null accepts any (the trace records no ending)
 * @param reason          the expected reason; null accepts any
 * @param allowDivergence true when the replay may diverge on the way (it is still reported)
 * @param source          where the expectation comes from: "as recorded" or the expectations file
 */
public record ReplayExpectation(RunStatus status, String reason, boolean allowDivergence, String source)
        implements EndExpectation {
    /** The grader's name in findings. */
    public static final String NAME = "replay";

    @Override
    public String describe() {
        String ending = status == null ? "any ending" : status.name().toLowerCase(Locale.ROOT) + (reason == null ? "" : ": " + reason);
        return ending + " (" + source + ")" + (allowDivergence ? ", divergence allowed" : ", no divergence");
    }

    @Override
    public Finding grade(Trial<? extends Environment> trial) {
        if (!(trial.environment() instanceof RecordedEnvironment recorded)) {
            throw new IllegalStateException("the replay grader needs a recorded run's environment, task '" + trial.taskId()
                    + "' has a " + trial.environment().getClass().getSimpleName());
        }
        RunResult result = trial.result();
        ReplayReport report = recorded.session().report(result);
        Optional<Divergence> divergence = report.firstDivergence();
        String ended = result.status().name().toLowerCase(Locale.ROOT) + ": " + result.reason();
        String calls = report.modelCalls() + " of " + recorded.recorded().modelCalls() + " recorded model calls";
        boolean endedAsExpected = (status == null || result.status() == status) && (reason == null || reason.equals(result.reason()));
        if (!endedAsExpected) {
            return Finding.fail(NAME, Expect.kindOf(result), "expected " + describe() + "; the replay ended " + ended
                    + (result.message() == null || result.message().isBlank() ? "" : " (" + result.message() + ")")
                    + divergence.map(d -> "; first divergence: " + d.description()).orElse("; no divergence in " + calls));
        }
        if (divergence.isPresent() && !allowDivergence) {
            return Finding.fail(NAME, FailureKind.WRONG_OUTCOME, "ended as expected (" + ended + ") but diverged: "
                    + divergence.get().description());
        }
        return Finding.pass(NAME, "ended as expected (" + ended + ")" + divergence.map(d -> "; diverged (allowed): "
                + d.description()).orElse("; no divergence in " + calls));
    }
}
