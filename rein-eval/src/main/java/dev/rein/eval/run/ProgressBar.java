package dev.rein.eval.run;

import dev.rein.eval.internal.DisplayWidth;
import dev.rein.internal.text.Controls;
import dev.rein.internal.text.Counts;
import java.io.PrintStream;
import java.util.Map;

/** The two built-in progress views: a bar redrawn in place, or plain lines. */
final class ProgressBar implements Progress {
    private static final int WIDTH = 16;
    /** The terminal's width when nothing tells it. */
    static final int DEFAULT_COLUMNS = 80;

    private final PrintStream err;
    private final boolean redraw;
    /**
     * The most columns the redrawn line takes, one less than the terminal's width: a longer line
     * wraps, and a carriage return then redraws only its last row, leaving a row behind at every trial.
     */
    private final int maxColumns;
    private String suite = "";
    private int passed;
    private int failed;
    private int unsafe;
    private int infra;
    private int lastLinePercent = -1;

    ProgressBar(PrintStream err, boolean redraw) {
        this(err, redraw, DEFAULT_COLUMNS);
    }

    ProgressBar(PrintStream err, boolean redraw, int columns) {
        if (columns < 1) {
            throw new IllegalArgumentException("columns must be at least 1, was " + columns);
        }
        this.err = err;
        this.redraw = redraw;
        this.maxColumns = columns - 1;
    }

    /**
     * The terminal's width: {@code COLUMNS} when set to a number, else what the {@code rein} launcher
     * measured ({@code -Drein.stderr.columns}), else 80.
     */
    static int columns(Map<String, String> env) {
        for (String value : new String[] {env.get("COLUMNS"), System.getProperty("rein.stderr.columns")}) {
            if (value != null && value.strip().matches("[0-9]{1,5}") && Integer.parseInt(value.strip()) > 0) {
                return Integer.parseInt(value.strip());
            }
        }
        return DEFAULT_COLUMNS;
    }

    @Override
    public synchronized void started(String suite, int totalTrials) {
        // a suite file names it: no control character of it reaches the terminal
        this.suite = Controls.visible(suite, false);
        if (!redraw) {
            err.println("eval " + this.suite + ": " + Counts.of(totalTrials, "trial"));
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
        int percent = (int) (done * 100L / total); // in long: 100 x 21.5 million trials is beyond an int
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
        int filled = total == 0 ? WIDTH : (int) ((long) done * WIDTH / total);
        String bar = "#".repeat(filled) + "-".repeat(WIDTH - filled);
        String count = done + "/" + total;
        String counts = " passed " + passed + " failed " + failed + " unsafe " + unsafe + " infra " + infra + "  ";
        // the widest form that fits with a few columns of the suite's name; on a narrow terminal the bar goes, then the words
        String line = null;
        for (String rest : new String[] {" [" + bar + "] " + count + counts, " " + count + counts,
                " " + count + " ok " + passed + " x " + failed + " ! " + unsafe + " ? " + infra + " "}) {
            if (rest.length() + Math.min(8, width(suite)) <= maxColumns) {
                line = fit(suite, maxColumns - rest.length()) + rest;
                break;
            }
        }
        err.print("\r" + (line != null ? line : fit(count + " ", maxColumns)));
        err.flush();
    }

    private static int width(String text) {
        return DisplayWidth.of(text);
    }

    /**
     * The start of {@code name} in at most {@code columns} terminal columns ({@link DisplayWidth}: a wide character takes
     * two, a non-spacing or enclosing mark none), cut between grapheme clusters, so a spacing mark (the vowel sign of
     * हि) or an emoji joined by U+200D is kept with what it belongs to or left out with it; a first cluster wider than
     * {@code columns} is cut between code points, so that something shows.
     */
    static String fit(String name, int columns) {
        java.text.BreakIterator clusters = dev.rein.internal.text.Clusters.of(name);
        int used = 0;
        int kept = 0;
        for (int end = clusters.next(); end != java.text.BreakIterator.DONE; end = clusters.next()) {
            int width = DisplayWidth.of(name.substring(kept, end));
            if (used + width > columns) {
                return kept > 0 ? name.substring(0, kept) : byCodePoints(name, columns);
            }
            used += width;
            kept = end;
        }
        return name;
    }

    private static String byCodePoints(String name, int columns) {
        StringBuilder out = new StringBuilder();
        int used = 0;
        for (int i = 0; i < name.length(); ) {
            int cp = name.codePointAt(i);
            int width = DisplayWidth.of(cp);
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
