package dev.rein.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/**
 * The bottom line of the live view. Lines are printed above it; on a terminal it shows a spinner
 * with what the run is waiting for, redrawn in place. Without a terminal it prints nothing of its
 * own, so logs and pipes get plain lines only. Thread-safe: tool calls report from several threads.
 */
final class StatusLine implements AutoCloseable {
    private static final String[] FRAMES = {"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"};
    private static final String CLEAR = "\r\033[K";
    private static final Duration TICK = Duration.ofMillis(100);
    /** Longer labels could wrap, and a wrapped line cannot be cleared with a carriage return. */
    private static final int MAX_LABEL = 60;

    private final PrintStream err;
    private final boolean animated;
    private String label;
    private long since;
    private int frame;
    private boolean drawn;
    private Thread ticker;

    StatusLine(PrintStream err, boolean animated) {
        this.err = err;
        this.animated = animated;
    }

    /** Prints a line of the live view. */
    synchronized void print(String line) {
        clear();
        err.println(line);
        draw();
    }

    /** Shows a spinner with {@code what} until {@link #idle()} (terminal only). */
    synchronized void waitingFor(String what) {
        boolean sameWait = label != null;
        label = Text.shorten(what, MAX_LABEL);
        if (!sameWait) {
            since = System.nanoTime();
        }
        if (animated && ticker == null) {
            ticker = Thread.ofPlatform().daemon().name("rein-spinner").start(this::tickForever);
        }
        draw();
    }

    /** Removes the spinner. */
    synchronized void idle() {
        clear();
        label = null;
    }

    @Override
    public synchronized void close() {
        idle();
        if (ticker != null) {
            ticker.interrupt();
            ticker = null;
        }
        err.flush();
    }

    private void tickForever() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(TICK.toMillis());
                synchronized (this) {
                    frame++;
                    draw();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void draw() {
        if (!animated || label == null) {
            return;
        }
        double seconds = (System.nanoTime() - since) / 1e9;
        err.print(CLEAR + FRAMES[frame % FRAMES.length] + " " + label + String.format(Locale.ROOT, " %.1fs", seconds));
        err.flush();
        drawn = true;
    }

    private void clear() {
        if (drawn) {
            err.print(CLEAR);
            drawn = false;
        }
    }
}
