package dev.rein.cli;

import dev.rein.agent.RunHandle;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.function.IntSupplier;

/**
 * Ctrl-C (SIGINT, or SIGTERM) during a run: a JVM shutdown hook cancels the run, waits until the
 * command has reported the CANCELLED result (the trace is closed by then), and ends the process
 * with that result's exit code. At the inline approval prompt, where no run is in flight, the hook
 * cancels the paused run and reports it itself. The hook has to end the process itself with
 * {@link Runtime#halt}: once shutdown has begun, {@code System.exit} from the main thread would
 * block forever.
 */
final class CancelOnInterrupt {
    /** How long a cancelled run may take to wind down before the process ends anyway (unless given longer). */
    static final Duration GRACE = Duration.ofSeconds(10);

    private final Runnable cancel;
    /** The cancel action prints the result itself and returns its exit code (a paused run: nothing else will report it). */
    private final IntSupplier cancelAndReport;
    private final CliEnvironment env;
    private final CountDownLatch reported = new CountDownLatch(1);
    private final Thread hook;
    /** Who is speaking ("rein", "rein eval", "rein example") and what is cancelled ("the run", "the trials"). */
    private final String command;
    private final String what;
    /** Ends the process; {@link Runtime#halt} but for tests. */
    private final IntConsumer halt;
    /** The exit code when the command has not reported within the grace. */
    private final int fallbackCode;
    /** How long the command has to report after the cancel. */
    private final Duration grace;
    private volatile int exitCode;

    private CancelOnInterrupt(Runnable cancel, IntSupplier cancelAndReport, CliEnvironment env) {
        this(cancel, cancelAndReport, env, "rein", "the run", ExitCodes.CANCELLED, GRACE, Runtime.getRuntime()::halt);
    }

    private CancelOnInterrupt(Runnable cancel, IntSupplier cancelAndReport, CliEnvironment env, String command,
                              String what, int fallbackCode, Duration grace, IntConsumer halt) {
        this.grace = grace;
        this.cancel = cancel;
        this.cancelAndReport = cancelAndReport;
        this.env = env;
        this.command = command;
        this.what = what;
        this.halt = halt;
        this.fallbackCode = fallbackCode;
        this.exitCode = fallbackCode;
        this.hook = new Thread(this::onShutdown, "rein-cancel-on-interrupt");
    }

    /** Guards {@code handle} until {@link #reported(int)}; does nothing unless {@code env} is the real process. */
    static CancelOnInterrupt install(RunHandle handle, CliEnvironment env) {
        return install(handle, env, GRACE);
    }

    /**
     * Like {@link #install(RunHandle, CliEnvironment)} with {@code grace} for the run to wind down
     * and be reported: longer when the telemetry flush at the run's end may wait longer than
     * {@link #GRACE} allows ({@link CliTelemetry#cancelGrace}).
     */
    static CancelOnInterrupt install(RunHandle handle, CliEnvironment env, Duration grace) {
        return install(new CancelOnInterrupt(handle::cancel, null, env, "rein", "the run",
                ExitCodes.CANCELLED, grace.compareTo(GRACE) > 0 ? grace : GRACE, Runtime.getRuntime()::halt));
    }

    /**
     * Guards a run paused at the inline approval prompt until {@link #reported(int)}: no run is in
     * flight and the main thread waits for the person's answer, so Ctrl-C runs {@code cancelAndReport}
     * (cancel the stored run, print the result) and the process exits with the code it returns.
     */
    static CancelOnInterrupt whilePaused(IntSupplier cancelAndReport, CliEnvironment env) {
        return install(new CancelOnInterrupt(null, cancelAndReport, env));
    }

    /**
     * Guards an evaluation running on {@code main} until {@link #reported(int)}: Ctrl-C interrupts
     * that thread, whose runner cancels the trials in flight, so each trial's trace ends with its
     * {@code run_finished} before the process exits (130 if the command does not report in time).
     */
    static CancelOnInterrupt interrupting(Thread main, String command, CliEnvironment env) {
        return interrupting(main, command, "the trials", env);
    }

    /**
     * Like {@link #interrupting(Thread, String, CliEnvironment)}, saying {@code what} is cancelled ("the trials", or "the
     * run" of a demo, whose agent cancels its run when the thread awaiting it is interrupted).
     */
    static CancelOnInterrupt interrupting(Thread main, String command, String what, CliEnvironment env) {
        return install(interrupting(main, command, what, env, GRACE, Runtime.getRuntime()::halt));
    }

    /** The guard {@link #interrupting(Thread, String, String, CliEnvironment)} installs, with its grace and halt given (tests). */
    static CancelOnInterrupt interrupting(Thread main, String command, String what, CliEnvironment env, Duration grace,
                                          IntConsumer halt) {
        return new CancelOnInterrupt(main::interrupt, null, env, command, what, 130, grace, halt);
    }

    private static CancelOnInterrupt install(CancelOnInterrupt guard) {
        if (guard.env.exitOnInterrupt()) {
            Runtime.getRuntime().addShutdownHook(guard.hook);
        }
        return guard;
    }

    /** The command printed the run's result and will exit with {@code code}. */
    void reported(int code) {
        exitCode = code;
        reported.countDown();
        if (env.exitOnInterrupt()) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is already running; it will see the latch and exit with this code.
            }
        }
    }

    /** What the shutdown hook runs (package-private so tests can run it with a halt that does not end the JVM). */
    void onShutdown() {
        if (reported.getCount() == 0) {
            return;
        }
        env.err().println();
        env.err().println(command + ": interrupted; cancelling " + what);
        if (cancelAndReport != null) {
            int code = ExitCodes.CANCELLED;
            try {
                code = cancelAndReport.getAsInt();
            } catch (RuntimeException e) {
                env.err().println(command + ": " + what + " could not be cancelled: " + Errors.oneLine(e.getMessage()));
            }
            env.out().flush();
            env.err().flush();
            halt.accept(code);
            return;
        }
        cancel.run();
        boolean finished;
        try {
            finished = reported.await(grace.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            finished = false;
        }
        if (!finished) {
            // names what this command was cancelling: an evaluation's trials, not "the run"
            env.err().println(command + ": " + what + " did not stop within " + grace.toSeconds() + " s; exiting anyway");
        }
        env.out().flush();
        env.err().flush();
        halt.accept(finished ? exitCode : fallbackCode);
    }
}
