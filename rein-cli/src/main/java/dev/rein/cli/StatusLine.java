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
    /** The terminal's width: the drawn line stays within it, since a wrapped line cannot be cleared. */
    private final int columns;
    private String label;
    private long since;
    private int frame;
    private boolean drawn;
    private Thread ticker;

    StatusLine(PrintStream err, boolean animated) {
        this(err, animated, Terminal.DEFAULT_COLUMNS);
    }

    /** @param columns the terminal's width (see {@link Terminal#columns}) */
    StatusLine(PrintStream err, boolean animated, int columns) {
        this.err = err;
        this.animated = animated;
        this.columns = columns;
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
        String time = String.format(Locale.ROOT, " %.1fs", seconds);
        // the last column stays free: a character there makes some terminals wrap at once
        int room = columns - 1 - 2 - time.length();
        err.print(CLEAR + FRAMES[frame % FRAMES.length] + (room < 1 ? "" : " " + fit(label, room) + time));
        err.flush();
        drawn = true;
    }

    /** {@code text} in at most {@code room} columns, cut with '…' when longer; wide characters (and '…') count as two. */
    private static String fit(String text, int room) {
        if (width(text) <= room) {
            return text;
        }
        StringBuilder out = new StringBuilder();
        int used = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (used + width(cp) > room - 2) {
                break;
            }
            out.appendCodePoint(cp);
            used += width(cp);
            i += Character.charCount(cp);
        }
        return out.append('…').toString();
    }

    private static int width(String text) {
        return text.codePoints().map(StatusLine::width).sum();
    }

    /** Errs wide: a narrow character counted as two only shortens the label, a wide one counted as one would wrap it. */
    private static int width(int cp) {
        return cp < 0x1100 ? 1 : 2;
    }

    private void clear() {
        if (drawn) {
            err.print(CLEAR);
            drawn = false;
        }
    }
}
