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
    /** Rein has said the collector did not answer in time: the exporter's timeouts repeat it. */
    private volatile boolean timeoutsSaid;

    private ExportLog(PrintStream err) {
        this.err = err;
    }

    /** Routes the SDK's warnings and errors to {@code err}, one line each, repeated problems once. */
    static ExportLog install(PrintStream err) {
        for (Handler old : SDK_LOG.getHandlers()) {
            if (old instanceof ExportLog) {
                SDK_LOG.removeHandler(old);
            }
        }
        SDK_LOG.setUseParentHandlers(false);
        ExportLog log = new ExportLog(err);
        SDK_LOG.addHandler(log);
        return log;
    }

    /** From now on an export that failed because its request timed out is not reported again. */
    void timeoutsSaid() {
        timeoutsSaid = true;
    }

    private static boolean timedOut(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof java.net.http.HttpTimeoutException || t instanceof java.net.SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void publish(LogRecord record) {
        if (record.getLevel().intValue() < Level.WARNING.intValue() || "Exporter failed".equals(record.getMessage())) {
            return; // the metric reader's "Exporter failed" only repeats the exporter's own message
        }
        if (timeoutsSaid && timedOut(record.getThrown())) {
            return;
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
