package dev.rein.examples.code;

import dev.rein.run.FinalAnswer;
import dev.rein.run.Verdict;
import dev.rein.run.Verifier;
import java.time.Duration;
import java.util.List;

/**
 * Objective completion: the work is done when the tests pass, whatever the model says. Runs the
 * tests itself when the model proposes to finish and refuses with the failing checks otherwise.
 */
final class TestsPass implements Verifier {
    private final GitWorkspace workspace;
    private final Duration timeout;

    TestsPass(GitWorkspace workspace, Duration timeout) {
        this.workspace = workspace;
        this.timeout = timeout;
    }

    @Override
    public Verdict verify(FinalAnswer answer) {
        try {
            TestRunner.Report report = TestRunner.run(workspace.dir(), timeout);
            if (report.passed()) {
                return Verdict.pass();
            }
            List<String> failing = report.output().lines().filter(l -> l.startsWith("FAIL") || l.startsWith("(")).toList();
            return Verdict.fail("the tests do not pass yet" + (report.timedOut() ? " (they did not finish in time)" : "")
                    + ": " + (failing.isEmpty() ? report.output().strip() : String.join("; ", failing)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Verdict.fail("the tests could not be run: interrupted");
        }
    }
}
