package dev.rein.cli;

import dev.rein.agent.Agent;
import dev.rein.agent.RunHandle;
import dev.rein.agent.RunResult;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/** Runs one goal in the foreground of the process: waits for it, reports it, and cancels it on Ctrl-C. */
final class Foreground {
    private Foreground() {}

    /**
     * Starts the run, waits for its end, hands the result to {@code report} and returns the exit
     * code {@code report} chose. Ctrl-C in between cancels the run; the result is still reported.
     */
    static int run(Agent agent, String goal, CliEnvironment env, ToIntFunction<RunResult> report) {
        return run(() -> agent.start(goal), env, report);
    }

    /** Like {@link #run(Agent, String, CliEnvironment, ToIntFunction)} for any way of starting (or resuming) a run. */
    static int run(Supplier<RunHandle> start, CliEnvironment env, ToIntFunction<RunResult> report) {
        return run(start, env, CancelOnInterrupt.GRACE, report);
    }

    /**
     * Like {@link #run(Supplier, CliEnvironment, ToIntFunction)}, giving a run cancelled by Ctrl-C
     * {@code grace} to wind down and be reported (its telemetry flush may need longer than the default).
     */
    static int run(Supplier<RunHandle> start, CliEnvironment env, java.time.Duration grace, ToIntFunction<RunResult> report) {
        RunHandle handle = start.get();
        CancelOnInterrupt guard = CancelOnInterrupt.install(handle, env, grace);
        RunResult result = awaitEnd(handle);
        int code = report.applyAsInt(result);
        env.out().flush();
        env.err().flush();
        guard.reported(code);
        return code;
    }

    private static RunResult awaitEnd(RunHandle handle) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return handle.await();
                } catch (InterruptedException e) {
                    // Nothing in the CLI interrupts the main thread; if something does, cancel and keep waiting.
                    interrupted = true;
                    handle.cancel();
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
