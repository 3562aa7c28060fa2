package dev.rein.cli;

import java.io.PrintStream;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The OpenTelemetry SDK reports failed exports through java.util.logging, with stack traces. On
 * the command line a collector that is down is the user's configuration, not a crash: each
 * distinct problem is one "rein: OpenTelemetry: ..." line on stderr instead.
 */
final class ExportLog extends Handler {
    /** Held so the configured logger is not collected (java.util.logging keeps loggers weakly). */
    private static final Logger SDK_LOG = Logger.getLogger("io.opentelemetry");

    private final PrintStream err;
    private final Set<String> said = ConcurrentHashMap.newKeySet();

    private ExportLog(PrintStream err) {
        this.err = err;
    }

    /** Routes the SDK's warnings and errors to {@code err}, one line each, repeated problems once. */
    static void install(PrintStream err) {
        for (Handler old : SDK_LOG.getHandlers()) {
            if (old instanceof ExportLog) {
                SDK_LOG.removeHandler(old);
            }
        }
        SDK_LOG.setUseParentHandlers(false);
        SDK_LOG.addHandler(new ExportLog(err));
    }

    @Override
    public void publish(LogRecord record) {
        if (record.getLevel().intValue() < Level.WARNING.intValue() || "Exporter failed".equals(record.getMessage())) {
            return; // the metric reader's "Exporter failed" only repeats the exporter's own message
        }
        String cause = record.getThrown() == null ? "" : " (" + Errors.oneLine(String.valueOf(record.getThrown())) + ")";
        String line = "rein: OpenTelemetry: " + Errors.oneLine(record.getMessage()) + cause;
        if (said.add(line)) {
            err.println(line);
        }
    }

    @Override
    public void flush() {
        err.flush();
    }

    @Override
    public void close() {
        flush();
    }
}
