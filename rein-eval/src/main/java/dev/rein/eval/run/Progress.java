package dev.rein.eval.run;

import java.io.Console;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.util.Objects;

/**
 * Reports an evaluation's progress as trials finish. Calls come from many threads, one at a time:
 * {@code done} of {@link #trialFinished} rises by one with each call. Implementations must not throw
 * (a view that throws, an exception or any Error, is logged and ignored: the trials go on).
 */
public interface Progress {
    Progress NONE = new Progress() {};

    default void started(String suite, int totalTrials) {}

    default void trialFinished(TrialOutcome outcome, int done, int total) {}

    default void finished() {}

    /**
     * A redrawn bar on a terminal, as wide as {@code COLUMNS} says (else the width the {@code rein}
     * launcher measured, else 80 columns); plain lines otherwise (CI logs, redirected output).
     */
    static Progress auto(PrintStream err) {
        return interactive() ? bar(err, ProgressBar.columns(System.getenv())) : lines(err);
    }

    /** A single line redrawn in place with a carriage return, within an 80-column terminal. */
    static Progress bar(PrintStream err) {
        return new ProgressBar(Objects.requireNonNull(err, "err"), true);
    }

    /**
     * A single line redrawn in place within a terminal {@code columns} wide: the suite's name is cut
     * first, then the bar and the words of the counts go.
     */
    static Progress bar(PrintStream err, int columns) {
        return new ProgressBar(Objects.requireNonNull(err, "err"), true, columns);
    }

    /** Plain lines, about twenty per evaluation, each complete on its own. */
    static Progress lines(PrintStream err) {
        return new ProgressBar(Objects.requireNonNull(err, "err"), false);
    }

    /**
     * Whether the progress, written to stderr, reaches a terminal. CI=true and TERM=dumb force plain
     * lines. The {@code rein} launcher tells ({@code -Drein.stderr.tty}, from the shell's test of
     * stderr); otherwise the JDK console is asked ({@code Console.isTerminal()} on JDK 22+, where
     * {@code System.console()} also exists when output is redirected), which knows only of stdin and
     * stdout: {@code 2> log} at a terminal would get the redrawn bar, {@code > out} plain lines.
     */
    static boolean interactive() {
        if ("true".equalsIgnoreCase(System.getenv("CI")) || "dumb".equals(System.getenv("TERM"))) {
            return false;
        }
        String stderrTty = System.getProperty("rein.stderr.tty");
        if (stderrTty != null) {
            return Boolean.parseBoolean(stderrTty);
        }
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (NoSuchMethodException e) {
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }
}
