package dev.rein.cli;

import dev.rein.agent.Agent;
import dev.rein.otel.ReinTelemetry;
import dev.rein.otel.SpanLinkStore;
import dev.rein.trace.RunListener;
import dev.rein.trace.RunListenerFactory;
import dev.rein.trace.TraceEvent;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * OpenTelemetry for {@code rein run}, {@code rein resume}, {@code rein reply} and {@code rein cancel}: off unless the standard OTEL_*
 * variables ask for an exporter, then configured by the SDK's autoconfiguration (OTLP over HTTP
 * by default, service name "rein" with Rein's version as service.version). Spans and metrics are
 * flushed when a run ends, before its result is printed, so they are out even when Ctrl-C ends the process.
 */
final class CliTelemetry implements AutoCloseable {
    /**
     * How long a flush waits when no longer export timeout is configured: below the grace a cancelled
     * run has to wind down on Ctrl-C ({@link CancelOnInterrupt#GRACE}), which a longer one extends.
     */
    private static final Duration FLUSH = Duration.ofSeconds(5);
    /**
     * The flush bound for an export timeout of 0, which the SDK environment variables spec makes
     * indefinite (and the SDK's exporter takes so): "a very long time", as the spec allows, its
     * example the largest number of milliseconds a 32-bit integer holds.
     */
    private static final Duration INDEFINITE = Duration.ofMillis(Integer.MAX_VALUE);

    private final OpenTelemetrySdk sdk;
    private final ReinTelemetry telemetry;
    /** The context TRACEPARENT / TRACESTATE / BAGGAGE in the environment carry, or root: the run spans' parent. */
    private final Context parent;
    /** Where a collector that does not answer is reported (the SDK's own problems go through {@link ExportLog}). */
    private final PrintStream err;
    /** An export outlasted its bound, so the collector is unreachable or slow. */
    private volatile boolean stalled;
    /** The SDK's own problems; null without telemetry. */
    private final ExportLog exportLog;
    /** How long a flush waits for the collector ({@link #flushBound}). */
    private final Duration flushBound;
    /** What goes over OTLP, for the line that says a collector did not take it. */
    private final OtlpSignals otlp;

    /**
     * Which signals the configuration sends over OTLP, and the variable that sets each one's endpoint
     * (null: none does, so the default http://localhost:4318). OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER
     * default to otlp (SDK environment variables spec, Exporter Selection) and the endpoint to
     * http://localhost:4318, so OTEL_TRACES_EXPORTER=console alone, or only OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
     * set, still sends the metrics there: a collector missing there is said of the metrics, with how
     * to turn that off, not of "spans and metrics" and a variable the user never set.
     */
    record OtlpSignals(boolean traces, boolean metrics, boolean metricsByDefault, String tracesEndpoint, String metricsEndpoint) {
        static OtlpSignals of(Map<String, String> env) {
            boolean metrics = overOtlp(env, "METRICS");
            return new OtlpSignals(overOtlp(env, "TRACES"), metrics, metrics && env.getOrDefault("OTEL_METRICS_EXPORTER", "").isBlank(),
                    endpointVariable(env, "TRACES"), endpointVariable(env, "METRICS"));
        }

        private static boolean overOtlp(Map<String, String> env, String signal) {
            String exporters = env.getOrDefault("OTEL_" + signal + "_EXPORTER", "").strip();
            return exporters.isEmpty() || Arrays.stream(exporters.split(",")).map(String::strip).anyMatch("otlp"::equalsIgnoreCase);
        }

        /** The variable that sets the endpoint of {@code signal}, its own winning over the general one; null when neither is set. */
        private static String endpointVariable(Map<String, String> env, String signal) {
            return List.of("OTEL_EXPORTER_OTLP_" + signal + "_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT").stream()
                    .filter(name -> !env.getOrDefault(name, "").isBlank()).findFirst().orElse(null);
        }

        /**
         * The signals of these whose flush had not ended, those a line about a collector that did not
         * take the data is about; all of them when neither is known to be pending (the flush ended
         * just after its bound).
         */
        OtlpSignals lost(boolean tracesPending, boolean metricsPending) {
            if (!(traces && tracesPending) && !(metrics && metricsPending)) {
                return this;
            }
            return new OtlpSignals(traces && tracesPending, metrics && metricsPending, metricsByDefault && metricsPending,
                    tracesEndpoint, metricsEndpoint);
        }

        /**
         * Both signals go over OTLP and neither has its own endpoint variable: both go to the base URL of
         * OTEL_EXPORTER_OTLP_ENDPOINT (or the default), so a receiver that took the spans is the one the metrics reached.
         */
        boolean spansShareTheMetricsReceiver() {
            return traces && metrics && shared(tracesEndpoint) && shared(metricsEndpoint);
        }

        private static boolean shared(String endpointVariable) {
            return endpointVariable == null || "OTEL_EXPORTER_OTLP_ENDPOINT".equals(endpointVariable);
        }

        /** "spans and metrics", "spans" or "metrics": what a collector that did not take the data lost. */
        String signals() {
            return traces && metrics ? "spans and metrics" : traces ? "spans" : "metrics";
        }

        /** What to check when the collector of these signals could not be reached or did not answer. */
        String whatToCheck() {
            return whatToCheck(false);
        }

        /**
         * What to check; with {@code answered}, the endpoint answered (in something other than HTTP/1.1), so whether
         * the collector is up is not asked.
         */
        String whatToCheck(boolean answered) {
            String up = answered ? "" : " and that the collector is up";
            String checkUp = answered ? "" : " and check that the collector is up";
            List<String> set = java.util.stream.Stream.of(traces ? tracesEndpoint : null, metrics ? metricsEndpoint : null)
                    .filter(java.util.Objects::nonNull).distinct().toList();
            boolean tracesDefault = traces && tracesEndpoint == null;
            boolean metricsDefault = metrics && metricsEndpoint == null;
            String check = "check " + String.join(" and ", set) + up;
            if (!tracesDefault && !metricsDefault) {
                return check;
            }
            String then = set.isEmpty() ? "" : check + "; ";
            // with one signal's own endpoint set (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), the other's is the default
            String variable = tracesEndpoint == null && metricsEndpoint == null ? "OTEL_EXPORTER_OTLP_ENDPOINT"
                    : "OTEL_EXPORTER_OTLP_" + (metricsDefault ? "METRICS" : "TRACES") + "_ENDPOINT";
            if (metricsDefault && !tracesDefault && metricsByDefault) {
                return then + "the metrics go over OTLP to the default endpoint http://localhost:4318, as OTEL_METRICS_EXPORTER"
                        + " is otlp unless set: set OTEL_METRICS_EXPORTER=none (or console) to not send them, or "
                        + variable + " to the collector";
            }
            return then + (set.isEmpty() ? "" : "for the " + (metricsDefault ? "metrics" : "spans") + ", ") + "nothing sets "
                    + variable + ", so the default http://localhost:4318 is used: set it to the collector" + checkUp;
        }
    }

    /**
     * An OTLP/HTTP span exporter that tells {@link ExportLog} whether each export was taken: the SDK logs failures
     * only, and whether a receiver took the spans tells a traces-only receiver from a wrong endpoint.
     */
    private record Counting(io.opentelemetry.sdk.trace.export.SpanExporter exporter, ExportLog log)
            implements io.opentelemetry.sdk.trace.export.SpanExporter {
        static io.opentelemetry.sdk.trace.export.SpanExporter of(io.opentelemetry.sdk.trace.export.SpanExporter exporter, ExportLog log) {
            // only OTLP/HTTP: the metrics' 404 is an HTTP path's, and a console exporter's success says nothing of a receiver
            return exporter instanceof io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter ? new Counting(exporter, log) : exporter;
        }

        @Override
        public CompletableResultCode export(java.util.Collection<io.opentelemetry.sdk.trace.data.SpanData> spans) {
            CompletableResultCode result = exporter.export(spans);
            result.whenComplete(() -> log.spanExport(result.isSuccess()));
            return result;
        }

        @Override
        public CompletableResultCode flush() {
            return exporter.flush();
        }

        @Override
        public CompletableResultCode shutdown() {
            return exporter.shutdown();
        }

        @Override
        public String toString() {
            return exporter.toString();
        }
    }

    private CliTelemetry(OpenTelemetrySdk sdk, ReinTelemetry telemetry, Context parent, PrintStream err, ExportLog exportLog,
                         Duration flushBound, OtlpSignals otlp) {
        this.flushBound = flushBound;
        this.otlp = otlp;
        this.sdk = sdk;
        this.telemetry = telemetry;
        this.parent = parent;
        this.err = err;
        this.exportLog = exportLog;
    }

    /** Telemetry as the environment configures it, for a model configured from the same environment. */
    static CliTelemetry from(CliEnvironment cli, CliHome home) {
        return from(cli, home, cli.env());
    }

    /**
     * Telemetry as the environment configures it; nothing at all when no exporter is asked for.
     * {@code modelEnv} is the environment the run's model is created from
     * ({@link ProviderSelection#environment}): it carries {@code --provider} (or a resumed run's stored
     * choice), which names the spans' provider. Their server is the one each call's model names.
     */
    static CliTelemetry from(CliEnvironment cli, CliHome home, Map<String, String> modelEnv) {
        return from(cli, home, () -> ProviderModels.provider(modelEnv).name());
    }

    /**
     * Telemetry as the environment configures it, for a command that calls no model ({@code rein cancel}):
     * {@code provider} names the spans' provider, or null for none; it is asked only when telemetry is on.
     */
    static CliTelemetry from(CliEnvironment cli, CliHome home, java.util.function.Supplier<String> provider) {
        // an exporter, sampler or propagator the CLI does not have is said and ignored before anything reads it
        Map<String, String> env = OtelVariables.knownValues(cli.env(), cli.err());
        // OTEL_SDK_DISABLED=true "has no effect on propagators" (SDK environment variables spec): the Java
        // autoconfiguration still sets them up, with providers that export nothing, so telemetry asked for
        // and then disabled still carries the trace context (the caller's TRACEPARENT) to the model API.
        boolean disabled = OtelVariables.disabled(env);
        if (!OtelVariables.configured(env) && !(disabled && OtelVariables.exporterAskedFor(env))) {
            return new CliTelemetry(null, null, Context.root(), cli.err(), null, FLUSH, OtlpSignals.of(env));
        }
        OtelVariables.checkBeforeTheSdk(env, cli.err());
        ExportLog exportLog = ExportLog.install(cli.err());
        OtlpSignals signals = OtlpSignals.of(env);
        // shared, both endpoints are OTEL_EXPORTER_OTLP_ENDPOINT's, or both the default (null)
        exportLog.spansShareTheReceiver(signals.spansShareTheMetricsReceiver(), signals.metricsEndpoint());
        java.util.concurrent.atomic.AtomicReference<Duration> flushBound = new java.util.concurrent.atomic.AtomicReference<>(FLUSH);
        OpenTelemetrySdk sdk;
        try {
            // the SDK's threads are made now: they carry the handler, so what they log later is told apart
            sdk = exportLog.owning(() -> OtelVariables.configure(env, cli.err(), config -> {
                        flushBound.set(flushBound(config));
                        exportLog.metricExportTimeout(OtelVariables.metricExportTimeout(config),
                                config.getString("otel.metric.export.timeout") != null);
                    }, exportLog::partialSuccess)
                    .addSpanExporterCustomizer((exporter, config) -> Counting.of(exporter, exportLog))
                    .disableShutdownHook() // closed by the command, flushed at the end of each run
                    .build().getOpenTelemetrySdk());
        } catch (ConfigurationException e) {
            exportLog.close();
            throw OtelVariables.refusal(e, env);
        }
        try {
            return withSdk(sdk, cli, home, env, disabled, exportLog, flushBound.get(), provider);
        } catch (RuntimeException | Error e) {
            // a refusal after the SDK is built (the provider lookup, say): its threads and log handler go with it
            new CliTelemetry(sdk, null, Context.root(), cli.err(), exportLog, flushBound.get(), OtlpSignals.of(env)).close();
            throw e;
        }
    }

    /** The command's telemetry over {@code sdk}, built: what may still refuse the command once the SDK runs. */
    private static CliTelemetry withSdk(OpenTelemetrySdk sdk, CliEnvironment cli, CliHome home, Map<String, String> env,
                                        boolean disabled, ExportLog exportLog, Duration flushBound, Supplier<String> provider) {
        String providerName = provider.get();
        // No server(...): each chat span names the server of the model its call goes to (ModelDefaults.serverUri(),
        // the provider's base URL as its model reads it), so a model that calls elsewhere is not misreported.
        // Not providerName(...), which names every span: each chat span names the provider of the model its call
        // goes to (ModelDefaults.providerName()), and the --provider only one whose model names none.
        ReinTelemetry telemetry = ReinTelemetry.builder(sdk).defaultProviderName(providerName)
                .captureContent(OtelVariables.captureContent(env, cli.err()))
                // disabled, no span is exported: no link to keep for a resumed run
                .spanLinks(disabled ? SpanLinkStore.inMemory() : SpanLinkStore.directory(home.directory().resolve("otel-links")))
                // OTEL_PROPAGATORS as configured: "none" (SDK environment variables spec: no propagator) sends no traceparent.
                .propagator(sdk.getPropagators().getTextMapPropagator())
                .build();
        // Environment Variables as Context Propagation Carriers (specification context/env-carriers.md):
        // a command-line tool extracts the context its caller (a CI job, a script) put in TRACEPARENT etc.
        // at startup, with the configured propagators, so the run joins the caller's trace.
        Context parent = sdk.getPropagators().getTextMapPropagator().extract(Context.root(), env, ENVIRONMENT);
        return new CliTelemetry(sdk, telemetry, parent, cli.err(), exportLog, flushBound, OtlpSignals.of(env));
    }

    /**
     * The environment as a propagation carrier: a propagator's key (traceparent) is read from its
     * normalized name (TRACEPARENT: upper case, anything but letters, digits and _ made _, a leading
     * digit prefixed with _), and only names already normalized are keys.
     */
    private static final TextMapGetter<Map<String, String>> ENVIRONMENT = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> env) {
            return env.keySet().stream().filter(name -> name.matches("[A-Z_][A-Z0-9_]*")).toList();
        }

        @Override
        public String get(Map<String, String> env, String key) {
            if (env == null || key == null) {
                return null;
            }
            String name = key.isEmpty() ? "_" : key.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9_]", "_");
            return env.get(Character.isDigit(name.charAt(0)) ? "_" + name : name);
        }
    };

    /** Adds the run spans, metrics and handler context to {@code agent}, when telemetry is on. */
    Agent.Builder install(Agent.Builder agent) {
        if (telemetry == null) {
            return agent;
        }
        return agent.toolInterceptor(telemetry.toolInterceptor()).modelInterceptor(telemetry.modelInterceptor())
                .listener(runListener());
    }

    /**
     * The run spans and metrics as listeners, for {@code Runs.withListeners} where no agent runs ({@code rein cancel}):
     * the run's end as a span of its own, linked to its earlier segment's; none when telemetry is off.
     */
    List<RunListenerFactory> runListeners() {
        return telemetry == null ? List.of() : List.of(runListener());
    }

    /** The run spans, parented as the caller's TRACEPARENT says, flushed when each run (segment) ends. */
    private RunListenerFactory runListener() {
        RunListenerFactory spans = telemetry.listener();
        return new RunListenerFactory() {
            @Override
            public RunListener create(String runId) {
                return create(runId, null);
            }

            /** Told the agent's model, the run span names its provider from its creation, as samplers see it. */
            @Override
            public RunListener create(String runId, dev.rein.model.Model model) {
                if (Span.fromContext(Context.current()).getSpanContext().isValid()) {
                    return flushingOnClose(spans.create(runId, model)); // started inside a span: that one is the parent
                }
                try (Scope ignored = parent.makeCurrent()) {
                    return flushingOnClose(spans.create(runId, model));
                }
            }
        };
    }

    private RunListener flushingOnClose(RunListener listener) {
        return new RunListener() {
            @Override
            public void onEvent(TraceEvent event) {
                listener.onEvent(event);
            }

            @Override
            public void close() {
                listener.close();
                flush();
            }
        };
    }

    /**
     * How long a flush waits: 5 s, or the longest export timeout configured for traces or metrics
     * (OTEL_EXPORTER_OTLP_TIMEOUT, or the signal's own OTEL_EXPORTER_OTLP_TRACES_TIMEOUT /
     * _METRICS_TIMEOUT, which wins for it) when that is longer. An export may take as long as its
     * timeout allows, so giving up earlier lost the data of a slow collector the user had given the time.
     * A timeout of 0 is no limit ({@link #INDEFINITE}). A value the SDK cannot read is left to the SDK to report.
     * OTEL_BSP_EXPORT_TIMEOUT and OTEL_METRIC_EXPORT_TIMEOUT, set, count too: the span processor and the
     * metric reader give the export that long.
     */
    static Duration flushBound(ConfigProperties config) {
        Duration bound = FLUSH;
        for (String signal : List.of("traces", "metrics")) {
            try {
                Duration timeout = config.getDuration("otel.exporter.otlp." + signal + ".timeout");
                if (timeout == null) {
                    timeout = config.getDuration("otel.exporter.otlp.timeout");
                }
                if (timeout != null && timeout.isZero()) {
                    return INDEFINITE; // the exporter sets no limit on the export either
                }
                if (timeout != null && timeout.compareTo(bound) > 0) {
                    bound = timeout;
                }
            } catch (ConfigurationException e) {
                // the SDK refuses the value itself, naming it
            }
        }
        // OTEL_BSP_EXPORT_TIMEOUT and OTEL_METRIC_EXPORT_TIMEOUT bound a signal's whole export, retries
        // included (the span processor's and the metric reader's wait): a longer one set is waited for too
        for (String processor : List.of("otel.bsp.export.timeout", "otel.metric.export.timeout")) {
            try {
                Duration timeout = config.getDuration(processor);
                if (timeout != null && timeout.isZero()) {
                    return INDEFINITE;
                }
                if (timeout != null && timeout.compareTo(bound) > 0) {
                    bound = timeout;
                }
            } catch (ConfigurationException e) {
                // said and ignored before (OtelVariables)
            }
        }
        return bound;
    }

    /**
     * Spans and metrics together, bounded: an unreachable collector delays the result by at most this
     * long. Each signal's own flush is kept, so a line about data not delivered names only the signal
     * whose flush had not ended (the spans may have reached their endpoint while the metrics' is down).
     */
    private void flush() {
        java.util.concurrent.atomic.AtomicReference<CompletableResultCode> traces = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicReference<CompletableResultCode> metrics = new java.util.concurrent.atomic.AtomicReference<>();
        bounded(() -> {
            traces.set(sdk.getSdkTracerProvider().forceFlush());
            metrics.set(sdk.getSdkMeterProvider().forceFlush());
            return CompletableResultCode.ofAll(List.of(traces.get(), metrics.get()));
        }, () -> otlp.lost(pending(traces.get()), pending(metrics.get())));
        exportLog.flushEnded(); // a held line is said now: Ctrl-C halts the process after the result, before close()
    }

    /** Whether a signal's flush had not ended (not even begun: null) when the bound passed. */
    private static boolean pending(CompletableResultCode flush) {
        return flush == null || !flush.isDone();
    }

    /**
     * Waits for {@code operation} at most {@link #flushBound}. It runs on a thread of its own
     * because the exporter may retry on the calling thread before it returns its result.
     */
    private void bounded(Supplier<CompletableResultCode> operation, Supplier<OtlpSignals> lost) {
        // Whether the result came: the worker gives up after the same bound, so its ending says nothing by itself.
        AtomicBoolean done = new AtomicBoolean();
        Thread worker = exportLog.owning(() -> Thread.ofVirtual().name("rein-otel-flush")
                .start(() -> done.set(operation.get().join(flushBound.toMillis(), TimeUnit.MILLISECONDS).isDone())));
        if (stalled) {
            return; // the collector did not answer before: the flush goes on, but nobody waits for it again
        }
        try {
            boolean finished = worker.join(flushBound) && done.get();
            String within = " within " + seconds(flushBound) + " s";
            if (!finished && !stalled) {
                stalled = true;
                OtlpSignals lostSignals = lost.get();
                // The exporter's own timeout, later, is the same problem: one line for it.
                exportLog.timeoutsSaid();
                // The exporter has not failed yet (it is still waiting or retrying), so the SDK has said nothing: say it once.
                int status = exportLog.retryableStatus();
                Throwable failure = exportLog.retryableFailure();
                // an attempt's answer was not HTTP/1.1 (a gRPC port), whatever the last retry failed with
                Throwable notHttp = failure == null ? null : exportLog.notHttpAnswer();
                err.println(status > 0
                        ? "rein: OpenTelemetry: the collector answered HTTP " + status + " (retryable) and did not take the data"
                                + within + "; " + lostSignals.signals() + " not sent by now are lost (the collector or a proxy in front"
                                + " of it is overloaded or unavailable)"
                        // nothing accepted the connection (the collector is down, a wrong port): the sender retries that too
                        // the server was reached and is up, at a port that does not speak HTTP/1.1: not "could not be reached"
                        : notHttp != null
                        ? "rein: OpenTelemetry: the endpoint answered, but not in HTTP/1.1 (" + Errors.oneLine(String.valueOf(notHttp))
                                + "), as an OTLP/gRPC port does, and the exporter's retries did not get the data through" + within + ";"
                                + " " + lostSignals.signals() + " not sent by now are lost (" + lostSignals.whatToCheck(true)
                                + "; " + ExportLog.USE_THE_HTTP_PORT + ")"
                        : failure != null
                        ? "rein: OpenTelemetry: the collector could not be reached (" + Errors.oneLine(String.valueOf(failure))
                                + ") and the exporter's retries did not get the data through" + within + ";"
                                + " " + lostSignals.signals() + " not sent by now are lost (" + lostSignals.whatToCheck() + ")"
                        : "rein: OpenTelemetry: the collector did not answer" + within + "; " + lostSignals.signals()
                                + " not sent by now are lost (" + lostSignals.whatToCheck() + ")");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * How long a run cancelled by Ctrl-C has to wind down and be reported: {@link CancelOnInterrupt#GRACE},
     * longer by as much as the flush at the run's end may wait beyond its default 5 s (a longer
     * configured export timeout), so the flush is not cut short and the result still printed.
     */
    Duration cancelGrace() {
        return CancelOnInterrupt.GRACE.plus(flushBound.minus(FLUSH));
    }

    /** {@code duration} in seconds as a person writes them: 5, 7.5. */
    private static String seconds(Duration duration) {
        return java.math.BigDecimal.valueOf(duration.toMillis(), 3).stripTrailingZeros().toPlainString();
    }

    @Override
    public void close() {
        if (sdk == null) {
            return;
        }
        try {
            bounded(sdk::shutdown, () -> otlp); // not waited for when the collector did not answer in time before
        } finally {
            exportLog.close(); // what the SDK still says after the command has returned is said nowhere
        }
    }
}
