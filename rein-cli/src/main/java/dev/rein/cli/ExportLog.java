package dev.rein.cli;

import java.io.PrintStream;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
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
    /**
     * The JDK sender retries a retryable answer (429, 502, 503, 504, as OTLP/HTTP says) on its own
     * and says so only at FINER ("Attempt 2 returned retryable response: HttpResponse{code=503}"):
     * heard here, so a collector that keeps answering 503 is not reported as one that never answered.
     */
    private static final Logger SENDER_LOG = Logger.getLogger("io.opentelemetry.exporter.sender.jdk.internal.JdkHttpSender");
    private static final java.util.regex.Pattern RETRYABLE = java.util.regex.Pattern.compile(
            "Attempt \\d+ returned retryable response: HttpResponse\\{code=(\\d+)}");
    /** The sender retries a failed request (a refused connection, say) too, saying so only at FINER with the exception. */
    private static final java.util.regex.Pattern RETRYABLE_FAILURE = java.util.regex.Pattern.compile(
            "Attempt \\d+ failed with retryable exception");

    private static final java.util.regex.Pattern EXPORT_COUNT = java.util.regex.Pattern.compile("(Failed to export )\\d+ ");
    /** The SDK's words for a collector that answered with a status it does not retry. */
    private static final java.util.regex.Pattern REFUSED_STATUS = java.util.regex.Pattern.compile(
            "Server responded with HTTP status code (\\d{3})");
    /** How the SDK's OTLP exporter begins a failed export: "Failed to export 9 metrics. ...", "Failed to export spans. ...". */
    private static final java.util.regex.Pattern FAILED_EXPORT = java.util.regex.Pattern.compile(
            "^Failed to export (?:\\d+ )?(span|metric)");
    /**
     * What a metrics 404 means when the spans went to the same base URL and were taken there: Jaeger's and Tempo's
     * OTLP receivers have a traces pipeline only, so /v1/metrics is not there (a Collector's otlpreceiver registers a
     * signal's path only for a pipeline of it), while the endpoint is right. {@code receiver} says what the spans and
     * metrics were sent to: OTEL_EXPORTER_OTLP_ENDPOINT, or the default endpoint when nothing set one.
     */
    private static String noMetricsReceiver(String receiver) {
        return "; the same receiver (" + receiver + ") took the spans at"
                + " /v1/traces, so it is there but takes no metrics, as a traces-only backend (Jaeger, Tempo) does: set"
                + " OTEL_METRICS_EXPORTER=none to send no metrics, or send them through an OpenTelemetry Collector with a"
                + " metrics pipeline (OTEL_EXPORTER_OTLP_METRICS_ENDPOINT, when set, is used as it is)";
    }

    /** The default OTLP/HTTP endpoint, which the spans and metrics go to when no endpoint variable is set. */
    private static final String DEFAULT_RECEIVER = "the default endpoint http://localhost:4318, as OTEL_EXPORTER_OTLP_ENDPOINT is not set";

    /**
     * What to do about an endpoint whose answer was not HTTP/1.1: it is an OTLP/gRPC port (4317, Jaeger's and a
     * Collector's), and the command line sends OTLP/HTTP only, so the collector is up but at the wrong port.
     */
    static final String USE_THE_HTTP_PORT = "rein sends OTLP/HTTP, so point the endpoint at the collector's OTLP/HTTP port"
            + " (4318 by default), not at its OTLP/gRPC port (4317, Jaeger's and a Collector's)";
    /** The hint a failed export's line gets when the endpoint answered, but not in HTTP/1.1 ({@link #notHttpAnswer}). */
    private static final String NOT_HTTP = "; the server's answer was not HTTP/1.1, as at an OTLP/gRPC port: " + USE_THE_HTTP_PORT;

    /**
     * Whether {@code thrown} is the JDK client's failure to read the answer's HTTP/1.1 status line: an OTLP/gRPC port's
     * HTTP/2 server answers rein's HTTP/1.1 request with its binary SETTINGS frame and closes the connection, which the
     * JDK reports as "parsing HTTP/1.1 status line, receiving [...]", "Invalid status line", or, when the frame holds a
     * carriage return not followed by a line feed, a ProtocolException "Bad trailing char, ..., when parsing status line".
     */
    static boolean failedOnTheStatusLine(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            String message = t.getMessage();
            if (message != null && message.toLowerCase(java.util.Locale.ROOT).contains("status line")) {
                return true;
            }
        }
        return false;
    }

    /** The loggers of the SDK's console exporter    /** The loggers of the SDK's console exporter ({@code opentelemetry-exporter-logging}). */
    private static final String CONSOLE_EXPORTER = "io.opentelemetry.exporter.logging";
    private static final java.util.logging.Formatter CONSOLE = new java.util.logging.SimpleFormatter();

    /**
     * The handler of the command whose SDK made the current thread: set while the SDK is built (its exporter and
     * reader threads, and the sender threads they start, inherit it) and on the threads that flush it. The SDK logs
     * through loggers shared by the whole JVM, and a command returns without waiting for a collector that did not
     * answer, so its SDK may still report after another command installed its handler: such a record is not that
     * command's to print. A record from a thread that carries no owner is taken as this command's.
     */
    private static final InheritableThreadLocal<ExportLog> OWNER = new InheritableThreadLocal<>();

    private final PrintStream err;
    private final Set<String> said = ConcurrentHashMap.newKeySet();
    /** Rein has said the collector did not answer in time: the exporter's timeouts repeat it. */
    private volatile boolean timeoutsSaid;
    /** The HTTP status of the last retryable answer the sender got, 0 before any. */
    private volatile int retryableStatus;
    /** What made the sender's last attempt fail without an answer (not a timeout), null when none did. */
    private volatile Throwable retryableFailure;
    /**
     * The first failure of this command's exports on the answer's status line ({@link #failedOnTheStatusLine}), null
     * before any. Kept whatever later attempts fail with: a gRPC port reads a little of the request and closes, so a
     * retry may instead fail with "HTTP/1.1 header parser received no bytes" or a reset connection, which say nothing
     * of why, and the flush's line and the SDK's would then lose the hint depending on timing.
     */
    private volatile Throwable notHttpAnswer;
    /** The kind of failure Rein has said the collector could not be reached with: the SDK's later line repeats it. */
    private volatile Class<?> failureSaid;

    /**
     * The line of a metrics export the receiver answered 404, not said yet: when the spans go to the same base URL,
     * the receiver may be a traces-only one (Jaeger, Tempo), which has no /v1/metrics, and the endpoint is right. It is
     * said when a span export fails (the endpoint form), or when the run's flush ends ({@link #flushEnded}) or the
     * command does ({@link #close}): as a receiver that takes no metrics only if a span export was taken. Null when none.
     */
    private String metricsNotFound;
    /** A span export has failed (any problem the SDK reported for spans): a metrics 404 is then the endpoint's too. */
    private volatile boolean spansFailed;
    /** An OTLP/HTTP span export was taken by the receiver ({@link #spanExport}). */
    private volatile boolean spansTaken;
    /**
     * The spans go over OTLP/HTTP to the same base URL as the metrics (neither has its own endpoint variable), so a
     * receiver that took the spans is the one that answered the metrics' 404. Set from the configuration; until then
     * (and when not) a metrics 404 is said at once, with what to check of the endpoint.
     */
    private volatile boolean spansShareTheReceiver;
    /** What the shared receiver is, as {@link #noMetricsReceiver} names it: the variable that set it, else the default. */
    private volatile String sharedReceiver = DEFAULT_RECEIVER;
    private final Object held = new Object();

    /** What the metric reader's "Exporter timed out" means here: which timeout ran out; set once configured. */
    private volatile String metricTimeout = "OTEL_METRIC_EXPORT_TIMEOUT";

    private ExportLog(PrintStream err) {
        this.err = err;
    }

    /** Runs {@code action} with the threads it starts owned by this handler ({@link #OWNER}). */
    <T> T owning(Supplier<T> action) {
        ExportLog before = OWNER.get();
        OWNER.set(this);
        try {
            return action.get();
        } finally {
            if (before == null) {
                OWNER.remove();
            } else {
                OWNER.set(before);
            }
        }
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
        log.setLevel(Level.ALL);
        SDK_LOG.addHandler(log);
        SENDER_LOG.setLevel(Level.FINER);
        return log;
    }

    /**
     * Rein has said the collector did not answer or could not be reached: from now on an export that
     * failed because its request timed out, or with the failure said, is not reported again.
     */
    void timeoutsSaid() {
        sayHeld(false); // the spans' fate is not known: the endpoint may be wrong
        Throwable failure = retryableFailure;
        failureSaid = failure == null ? null : failure.getClass();
        timeoutsSaid = true;
    }

    /**
     * Whether the spans go over OTLP/HTTP to the same base URL as the metrics ({@link #spansShareTheReceiver}), and
     * the variable that sets that URL ({@code OTEL_EXPORTER_OTLP_ENDPOINT}), or null when none does and the default
     * endpoint is used: the line about a receiver that takes no metrics names what the user actually sent them to.
     */
    void spansShareTheReceiver(boolean shared, String endpointVariable) {
        sharedReceiver = endpointVariable == null ? DEFAULT_RECEIVER : endpointVariable;
        spansShareTheReceiver = shared;
    }

    /**
     * An OTLP/HTTP span export ended: taken by the receiver ({@code taken}) or not. The SDK logs no success, so the
     * exporter's wrapper tells it ({@link CliTelemetry}).
     */
    void spanExport(boolean taken) {
        if (taken) {
            spansTaken = true;
        } else {
            spansFailed = true;
            sayHeld(false);
        }
    }

    /**
     * The run's flush has ended: a held metrics 404 is said now, while the command still prints (Ctrl-C halts the
     * process after the result, before the telemetry is closed).
     */
    void flushEnded() {
        sayHeld(receiverTakesNoMetrics());
    }

    /** A span export was taken at the metrics' base URL, none failed, and the collector did not go unanswered. */
    private boolean receiverTakesNoMetrics() {
        return spansShareTheReceiver && spansTaken && !spansFailed && !timeoutsSaid;
    }

    /** The metric reader's export timeout, and whether OTEL_METRIC_EXPORT_TIMEOUT set it, for the line that says it ran out. */
    void metricExportTimeout(java.time.Duration timeout, boolean set) {
        String millis = String.valueOf(timeout.toMillis());
        metricTimeout = set ? "OTEL_METRIC_EXPORT_TIMEOUT=" + millis + " ms" : millis + " ms (OTEL_METRIC_EXPORT_TIMEOUT's default)";
    }

    private static boolean timedOut(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof java.net.http.HttpTimeoutException || t instanceof java.net.SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** The HTTP status of the last retryable answer from the collector (503, say), or 0 when there was none. */
    int retryableStatus() {
        return retryableStatus;
    }

    /** Why the last attempt to reach the collector failed (java.net.ConnectException, say), or null when none failed so. */
    Throwable retryableFailure() {
        return retryableFailure;
    }

    /**
     * The first failure of an export on the answer's status line in this command: the endpoint answered, but not in
     * HTTP/1.1, as an OTLP/gRPC port does. Null when no attempt failed so.
     */
    Throwable notHttpAnswer() {
        return notHttpAnswer;
    }

    /**
     * The hint for a failed export's line: when this failure, or an earlier attempt's, was an answer that was not
     * HTTP/1.1. Not for a refused connection or a timeout, which say that nothing listens or answers there now.
     */
    private String notHttp(Throwable thrown) {
        boolean answeredBefore = notHttpAnswer != null && thrown != null && !timedOut(thrown)
                && !(thrown instanceof java.net.ConnectException) && !(thrown.getCause() instanceof java.net.ConnectException);
        return failedOnTheStatusLine(thrown) || answeredBefore ? NOT_HTTP : "";
    }

    private boolean sameFailure(Throwable thrown) {
        Class<?> said = failureSaid;
        for (Throwable t = thrown; said != null && t != null; t = t.getCause()) {
            if (t.getClass() == said) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void publish(LogRecord record) {
        ExportLog owner = OWNER.get();
        if (closed || (owner != null && owner != this)) {
            return; // the command has ended, or the record comes from another command's SDK
        }
        if (notHttpAnswer == null && failedOnTheStatusLine(record.getThrown())) {
            notHttpAnswer = record.getThrown(); // the sender's FINER retry records too: any attempt's answer counts
        }
        String logger = record.getLoggerName();
        if (logger != null && logger.startsWith(CONSOLE_EXPORTER) && record.getLevel().intValue() >= Level.INFO.intValue()) {
            // OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER=console: the SDK's console exporter writes each
            // span and metric as an INFO record, which is its output, not a problem to report
            err.println(Text.visible(Objects.requireNonNullElse(CONSOLE.formatMessage(record), "")));
            return;
        }
        if (record.getLevel().intValue() < Level.WARNING.intValue() && record.getMessage() != null) {
            java.util.regex.Matcher retryable = RETRYABLE.matcher(record.getMessage());
            if (retryable.find()) {
                retryableStatus = Integer.parseInt(retryable.group(1));
                retryableFailure = null;
            } else if (RETRYABLE_FAILURE.matcher(record.getMessage()).find() && record.getThrown() != null
                    && !timedOut(record.getThrown())) { // a request that timed out is a collector that did not answer
                retryableFailure = record.getThrown();
                retryableStatus = 0;
            }
        }
        if (record.getLevel().intValue() < Level.WARNING.intValue() || "Exporter failed".equals(record.getMessage())) {
            return; // the metric reader's "Exporter failed" only repeats the exporter's own message
        }
        if (timeoutsSaid && (timedOut(record.getThrown()) || sameFailure(record.getThrown()))) {
            return;
        }
        if ("Exporter timed out".equals(record.getMessage()) && logger != null && logger.endsWith("PeriodicMetricReader")) {
            // the metric reader gave up waiting for the export; the SDK's words name neither the signal nor the time.
            // After Rein said the collector did not answer, this is that problem again.
            if (!timeoutsSaid && said.add("metric export timeout")) {
                err.println("rein: OpenTelemetry: the metrics export did not end within " + metricTimeout + " and was given up;"
                        + " metrics not sent by now are lost (the collector is slow or does not answer: check it,"
                        + " or set a longer OTEL_METRIC_EXPORT_TIMEOUT)");
            }
            return;
        }
        String cause = record.getThrown() == null ? "" : " (" + Errors.oneLine(String.valueOf(record.getThrown())) + ")";
        String message = withParameters(record);
        String signal = failedSignal(message);
        if ("span".equals(signal)) {
            spansFailed = true;
            sayHeld(false); // the spans failed too: the metrics' 404 is not a receiver that takes traces only
        }
        String base = "rein: OpenTelemetry: " + Errors.oneLine(message) + cause;
        String line = base + whatToCheck(message) + notHttp(record.getThrown());
        // "Failed to export 9 metrics" and, at exit, "... 10 metrics" are one problem: the count does not make it another
        if (!said.add(EXPORT_COUNT.matcher(line).replaceFirst("$1N "))) {
            return;
        }
        if ("metric".equals(signal) && "404".equals(status(message))) {
            if (receiverTakesNoMetrics()) {
                err.println(base + noMetricsReceiver(sharedReceiver));
                return;
            }
            synchronized (held) {
                if (spansShareTheReceiver && !spansFailed && !timeoutsSaid) {
                    metricsNotFound = base; // said when the spans' fate is known
                    return;
                }
            }
        }
        err.println(line);
    }

    /**
     * Says the held metrics 404 line, if any: with {@code tracesOnly}, as a receiver that took the spans but takes no
     * metrics (a traces-only backend, the endpoint right); else with what to check of the endpoint.
     */
    private void sayHeld(boolean tracesOnly) {
        String line;
        synchronized (held) {
            line = metricsNotFound;
            metricsNotFound = null;
        }
        if (line != null) {
            err.println(line + (tracesOnly ? noMetricsReceiver(sharedReceiver) : whatToCheck(line)));
        }
    }

    /**
     * A collector took only part of an export of {@code signal} ("spans", "metrics"), or took it with a
     * warning: one line, which the SDK does not say (it reads no 2xx answer). The same message again, in
     * a later export, is the same problem: not another line, whatever the count.
     */
    void partialSuccess(String signal, PartialSuccess partial) {
        if (closed) {
            return; // the command has ended
        }
        if (said.add("partial success " + signal + " " + (partial.rejected() > 0) + " " + partial.message())) {
            err.println(partial.line(signal));
        }
    }

    /**
     * The record's message with its parameters: the SDK logs some warnings as java.util.logging patterns
     * ("Setting maxExportBatchSize to {0} instead of {1}"). Each is written as it is (5000, as the variable
     * takes it, not a locale's 5,000); a message that is no pattern stays as it is.
     */
    private static String withParameters(LogRecord record) {
        String message = record.getMessage();
        Object[] parameters = record.getParameters();
        if (message == null || parameters == null || parameters.length == 0 || !message.contains("{0")) {
            return message;
        }
        try {
            return new java.text.MessageFormat(message, java.util.Locale.ROOT)
                    .format(java.util.Arrays.stream(parameters).map(String::valueOf).toArray());
        } catch (IllegalArgumentException e) {
            return message;
        }
    }

    /**
     * What to check for a status that means the configuration is wrong, not the collector busy: the
     * SDK's "Server responded with HTTP status code 404" says nothing about what to change.
     */
    private static String whatToCheck(String message) {
        String status = status(message);
        if (status == null) {
            return "";
        }
        return switch (status) {
            case "404" -> "; no OTLP receiver at that path: OTEL_EXPORTER_OTLP_ENDPOINT is the collector's base URL"
                    + " (rein adds /v1/traces and /v1/metrics), while OTEL_EXPORTER_OTLP_TRACES_ENDPOINT and"
                    + " OTEL_EXPORTER_OTLP_METRICS_ENDPOINT are used as they are";
            case "401", "403" -> "; the collector refused the credentials: check OTEL_EXPORTER_OTLP_HEADERS"
                    + " (e.g. an API key header as its documentation gives it)";
            default -> "";
        };
    }

    /** The signal ("span", "metric") of a failed export the SDK's message says, null when it says no such failure. */
    private static String failedSignal(String message) {
        java.util.regex.Matcher failed = FAILED_EXPORT.matcher(message == null ? "" : message);
        return failed.find() ? failed.group(1) : null;
    }

    /** The HTTP status the SDK's message says the collector refused an export with, null when it says none. */
    private static String status(String message) {
        java.util.regex.Matcher status = REFUSED_STATUS.matcher(message == null ? "" : message);
        return status.find() ? status.group(1) : null;
    }

    @Override
    public void flush() {
        err.flush();
    }

    /** Whether the command has ended: from then on its SDK's records are not printed. */
    private volatile boolean closed;

    /**
     * The command has ended: what its SDK still reports (the retries of an export nobody waits for) is printed
     * nowhere, and the handler leaves the SDK's logger unless another command's has replaced it.
     */
    @Override
    public void close() {
        // normally said when the run's flush ended; a command that flushed no run says it here
        sayHeld(receiverTakesNoMetrics());
        closed = true;
        SDK_LOG.removeHandler(this);
        flush();
    }
}
