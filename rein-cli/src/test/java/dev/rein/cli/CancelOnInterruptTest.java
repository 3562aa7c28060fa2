package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CancelOnInterruptTest {
    /**
     * Ctrl-C during rein eval whose trials do not wind down within the grace: the last line names the command and what
     * it was cancelling. Before: "rein: the run did not stop within 1 s; exiting anyway" for an evaluation, which has
     * trials, not a run.
     */
    @Test
    void anEvaluationThatDoesNotStopInTimeSaysItsTrialsDidNotStop() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CliEnvironment env = new CliEnvironment(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), Terminal.NONE, (name, vars) -> {
                    throw new AssertionError("no model");
                }, false);
        AtomicInteger halted = new AtomicInteger(-1);
        Thread idle = new Thread(() -> { });
        CancelOnInterrupt guard = CancelOnInterrupt.interrupting(idle, "rein eval", "the trials", env, Duration.ofSeconds(1),
                halted::set);

        guard.onShutdown();

        assertThat(halted.get()).isEqualTo(130);
        assertThat(err.toString(StandardCharsets.UTF_8).lines().filter(line -> !line.isEmpty()).toList()).containsExactly(
                "rein eval: interrupted; cancelling the trials",
                "rein eval: the trials did not stop within 1 s; exiting anyway");
    }

    /** Probe: a command that reports within the grace exits with the code it reported, and says nothing more. */
    @Test
    void anEvaluationThatReportsInTimeExitsWithItsCode() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CliEnvironment env = new CliEnvironment(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), Terminal.NONE, (name, vars) -> {
                    throw new AssertionError("no model");
                }, false);
        AtomicInteger halted = new AtomicInteger(-1);
        CancelOnInterrupt[] guard = new CancelOnInterrupt[1];
        Thread evaluation = new Thread(() -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                guard[0].reported(130);
            }
        });
        guard[0] = CancelOnInterrupt.interrupting(evaluation, "rein eval", "the trials", env, Duration.ofSeconds(10),
                halted::set);
        evaluation.start();

        guard[0].onShutdown();
        evaluation.join();

        assertThat(halted.get()).isEqualTo(130);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("rein eval: interrupted; cancelling the trials")
                .doesNotContain("did not stop");
    }
}
