package dev.rein.eval.run;

import java.io.PrintStream;

/** The two built-in progress views: a bar redrawn in place, or plain lines. */
final class ProgressBar implements Progress {
    private static final int WIDTH = 30;

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
        err.print("\r" + suite + " [" + bar + "] " + done + "/" + total + "  " + counts() + "   ");
        err.flush();
    }

    private String counts() {
        return "passed " + passed + ", failed " + failed + ", unsafe " + unsafe + ", infra errors " + infra;
    }
}
