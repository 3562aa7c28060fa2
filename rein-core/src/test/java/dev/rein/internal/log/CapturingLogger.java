package dev.rein.internal.log;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/**
 * A logger that keeps what it is given, for a test to read what a user would see in the log: the tests' own binding
 * (slf4j-nop) drops everything, so code that logs takes one of these where a test is to read its lines.
 */
public final class CapturingLogger extends LegacyAbstractLogger {
    /** One call: its level, its message with the arguments put in, and the throwable logged with it (or null). */
    public record Line(Level level, String message, Throwable thrown) {}

    private final List<Line> lines = new CopyOnWriteArrayList<>();

    public CapturingLogger() {
        this.name = "captured";
    }

    public List<Line> lines() {
        return List.copyOf(lines);
    }

    /** The messages logged at {@code level}, in order. */
    public List<String> at(Level level) {
        return lines.stream().filter(l -> l.level() == level).map(Line::message).toList();
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] arguments, Throwable thrown) {
        lines.add(new Line(level, MessageFormatter.basicArrayFormat(pattern, arguments), thrown));
    }

    @Override
    public boolean isTraceEnabled() {
        return true;
    }

    @Override
    public boolean isDebugEnabled() {
        return true;
    }

    @Override
    public boolean isInfoEnabled() {
        return true;
    }

    @Override
    public boolean isWarnEnabled() {
        return true;
    }

    @Override
    public boolean isErrorEnabled() {
        return true;
    }
}
