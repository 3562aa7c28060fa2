package dev.rein.eval.run;

import java.io.PrintStream;

/** The two built-in progress views: a bar redrawn in place, or plain lines. */
final class ProgressBar implements Progress {
    private static final int WIDTH = 16;
    /**
     * The redrawn line stays within an 80-column terminal: a longer one wraps, and a carriage
     * return then redraws only its last row, leaving a row behind at every trial.
     */
    private static final int MAX_COLUMNS = 79;

    private final PrintStream err;
    private final boolean redraw;
    private String suite = "";
    private int passed;
    private int failed;
    private int unsafe;
    private int infra;
    private int lastLinePercent = -1;

    ProgressBar(PrintStream err, boolean redraw) {
        this.err = err;
        this.redraw = redraw;
    }

    @Override
    public synchronized void started(String suite, int totalTrials) {
        this.suite = suite;
        if (!redraw) {
            err.println("eval " + suite + ": " + totalTrials + " trials");
        } else {
            draw(0, totalTrials);
        }
    }

    @Override
    public synchronized void trialFinished(TrialOutcome outcome, int done, int total) {
        switch (outcome.verdict()) {
            case PASSED -> passed++;
            case FAILED -> failed++;
            case UNSAFE -> unsafe++;
            case INFRA_ERROR -> infra++;
        }
        if (redraw) {
            draw(done, total);
            return;
        }
        int percent = done * 100 / total;
        if (done == total || percent / 5 != lastLinePercent / 5 || outcome.verdict() != Verdict.PASSED && total <= 100) {
            lastLinePercent = percent;
            err.println("eval " + suite + ": " + done + "/" + total + " (" + percent + "%) " + counts()
                    + " | last: " + outcome.taskId() + " #" + outcome.trial() + " " + outcome.verdict().id()
                    + (outcome.failureKind() == null ? "" : " (" + outcome.failureKind().id() + ")"));
        }
    }

    @Override
    public synchronized void finished() {
        if (redraw) {
            err.println();
        }
        err.flush();
    }

    private void draw(int done, int total) {
        int filled = total == 0 ? WIDTH : done * WIDTH / total;
        String bar = "#".repeat(filled) + "-".repeat(WIDTH - filled);
        String rest = " [" + bar + "] " + done + "/" + total + " passed " + passed + " failed " + failed + " unsafe " + unsafe
                + " infra " + infra + "  ";
        err.print("\r" + fit(suite, MAX_COLUMNS - rest.length()) + rest);
        err.flush();
    }

    /** The start of {@code name} in at most {@code columns} terminal columns (a wide character takes two). */
    private static String fit(String name, int columns) {
        StringBuilder out = new StringBuilder();
        int used = 0;
        for (int i = 0; i < name.length(); ) {
            int cp = name.codePointAt(i);
            int width = cp < 0x1100 ? 1 : 2; // errs wide: a narrow character counted as two only shortens the name
            if (used + width > columns) {
                break;
            }
            out.appendCodePoint(cp);
            used += width;
            i += Character.charCount(cp);
        }
        return out.toString();
    }

    private String counts() {
        return "passed " + passed + ", failed " + failed + ", unsafe " + unsafe + ", infra errors " + infra;
    }
}
