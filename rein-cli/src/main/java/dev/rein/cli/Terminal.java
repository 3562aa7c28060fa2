package dev.rein.cli;

import java.io.Console;
import java.lang.reflect.Method;
import java.util.Map;

/**
 * What the process is attached to. The live view animates (spinner, redrawn status line) only
 * when both stdout and stderr are terminals and {@code TERM} is not {@code dumb}; otherwise it
 * writes plain lines, which is what logs and pipes want.
 *
 * @param stdoutTty stdout is a terminal
 * @param stderrTty stderr is a terminal
 * @param dumb      the terminal cannot move the cursor ({@code TERM=dumb})
 */
public record Terminal(boolean stdoutTty, boolean stderrTty, boolean dumb, boolean stdinTty) {
    /** Not attached to any terminal: plain output everywhere. */
    public static final Terminal NONE = new Terminal(false, false, false, false);

    /** The width assumed when nothing tells it. */
    static final int DEFAULT_COLUMNS = 80;

    /**
     * The terminal's width in columns: {@code COLUMNS} when set to a number (as shells and other tools
     * take it), else what the launcher measured on stderr ({@code -Drein.stderr.columns}), else 80.
     */
    public static int columns(Map<String, String> env) {
        for (String value : new String[] {env.get("COLUMNS"), System.getProperty("rein.stderr.columns")}) {
            if (value != null && value.strip().matches("[0-9]{1,5}") && Integer.parseInt(value.strip()) > 0) {
                return Integer.parseInt(value.strip());
            }
        }
        return DEFAULT_COLUMNS;
    }

    /** A terminal whose standard input is not a terminal (no questions can be asked). */
    public Terminal(boolean stdoutTty, boolean stderrTty, boolean dumb) {
        this(stdoutTty, stderrTty, dumb, false);
    }

    /** True when a person can be asked a question (stdin and stderr are terminals). */
    public boolean interactive() {
        return stdinTty && stderrTty && !dumb;
    }

    /** True when the live view may draw a spinner and rewrite its status line. */
    public boolean animated() {
        return stdoutTty && stderrTty && !dumb;
    }

    /**
     * Detects the terminal. The launcher passes {@code -Drein.stdout.tty} and {@code -Drein.stderr.tty}
     * (from the shell's {@code [ -t 1 ]} / {@code [ -t 2 ]}), which see each stream separately; without
     * them the JDK console is asked, which only knows about stdin and stdout together.
     */
    public static Terminal detect(Map<String, String> env) {
        boolean console = consoleIsTerminal();
        return new Terminal(flag("rein.stdout.tty", console), flag("rein.stderr.tty", console),
                "dumb".equals(env.get("TERM")), flag("rein.stdin.tty", console));
    }

    private static boolean flag(String property, boolean fallback) {
        String value = System.getProperty(property);
        return value == null ? fallback : Boolean.parseBoolean(value);
    }

    private static boolean consoleIsTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        // From JDK 22 on, System.console() is non-null even when redirected; isTerminal() tells the truth.
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (NoSuchMethodException e) {
            return true;
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }
}
