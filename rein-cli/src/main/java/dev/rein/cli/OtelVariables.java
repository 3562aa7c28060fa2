package dev.rein.cli;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdkBuilder;
import io.opentelemetry.sdk.autoconfigure.ResourceConfiguration;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException;
import io.opentelemetry.sdk.common.InternalTelemetryVersion;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.metrics.export.MetricReader;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReaderBuilder;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The standard OTEL_* variables as the rein command line reads them, for {@link CliTelemetry}:
 * whether they turn telemetry on, and the SDK's autoconfiguration over them, with each value the
 * SDK would misread, refuse in words a command-line user cannot act on, or take without a word
 * said and ignored, or refused naming its variable, as the SDK environment variables spec asks.
 */
final class OtelVariables {
    /** The GenAI conventions' opt-in for message content. */
    static final String CAPTURE_CONTENT = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT";
    private static final List<String> TURNED_ON_BY = List.of("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
            "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "OTEL_TRACES_EXPORTER", "OTEL_METRICS_EXPORTER");

    private OtelVariables() {}

    /**
     * What is said or refused before the SDK reads anything: an OTEL_SDK_DISABLED that is neither true
     * nor false (said), and an OTLP protocol the command line cannot send for a signal it exports
     * (grpc, http/json, one with spaces around it: refused with a {@link UsageException}).
     */
    static void checkBeforeTheSdk(Map<String, String> env, PrintStream err) {
        boolean disabled = disabled(env);
        String disabledFlag = env.getOrDefault("OTEL_SDK_DISABLED", "").strip();
        if (!disabled && !disabledFlag.isEmpty() && !disabledFlag.equalsIgnoreCase("false")) {
            // SDK environment variables spec, Boolean: only "true" is true, and another value "SHOULD" be warned of
            // as taken for false: OTEL_SDK_DISABLED=1, meant to turn telemetry off, exported everything without a word
            err.println("rein: OpenTelemetry: OTEL_SDK_DISABLED=" + Errors.oneLine(disabledFlag) + " is neither true nor"
                    + " false and is taken as false, as the OpenTelemetry spec has it: spans and metrics are exported;"
                    + " set OTEL_SDK_DISABLED=true to turn that off");
        }
        for (String signal : disabled ? List.<String>of() : List.of("TRACES", "METRICS")) {
            String name = protocolVariable(env, signal);
            String raw = name == null ? "" : env.getOrDefault(name, "");
            String protocol = raw.strip();
            if ("grpc".equalsIgnoreCase(protocol)) {
                throw new UsageException(name + "=grpc is not supported: rein sends OTLP over HTTP with the JDK's own client;"
                        + " set " + name + "=http/protobuf and point OTEL_EXPORTER_OTLP_ENDPOINT at the collector's HTTP port (usually 4318)");
            }
            if ("http/json".equalsIgnoreCase(protocol)) {
                // the JSON encoding is optional in OTLP/HTTP, and the SDK's exporters offer it only through an internal API
                throw new UsageException(name + "=http/json is not supported: rein sends OTLP/HTTP in its protobuf encoding,"
                        + " which collectors take on the same port; set " + name + "=http/protobuf");
            }
            if (!protocol.isEmpty() && !protocol.equals(raw)) {
                // the SDK takes the value as it is, and its "Unsupported OTLP metrics protocol: http/protobuf" hides the space
                throw new UsageException(name + "='" + Text.visible(raw) + "' has spaces around the protocol, which the OpenTelemetry SDK"
                        + " does not accept; set " + name + "=" + Text.visible(protocol));
            }
        }
    }

    /**
     * The SDK's autoconfiguration over the OTEL_* variables of {@code env} (already through
     * {@link #knownValues}), as the command line reads them: Rein's defaults, empty values as unset,
     * enum values in any case, and each value the SDK would misread, refuse or take without a word
     * said and ignored or refused naming its variable (a {@link ConfigurationException} from
     * {@code build()}, for {@link #refusal}). {@code last} is given the configuration as the SDK will read it;
     * {@code partialSuccess} each partial success an OTLP/HTTP collector answers, with its signal ("spans",
     * "metrics"), which the SDK's exporter does not read ({@link PartialSuccessSenders}).
     */
    static AutoConfiguredOpenTelemetrySdkBuilder configure(Map<String, String> env, PrintStream err, Consumer<ConfigProperties> last,
                                                           java.util.function.BiConsumer<String, PartialSuccess> partialSuccess) {
        // the exporter of the periodic reader built next, for that reader's export timeout
        java.util.concurrent.atomic.AtomicReference<MetricExporter> readersExporter = new java.util.concurrent.atomic.AtomicReference<>();
        return AutoConfiguredOpenTelemetrySdk.builder()
                .addSpanExporterCustomizer((exporter, config) -> PartialSuccessSenders.reporting(exporter, partialSuccess))
                .addMetricExporterCustomizer((exporter, config) -> {
                    MetricExporter reporting = PartialSuccessSenders.reporting(exporter, partialSuccess);
                    readersExporter.set(reporting);
                    return reporting;
                })
                .addMetricReaderCustomizer((reader, config) -> withExportTimeout(reader, readersExporter.getAndSet(null), config))
                .addPropertiesSupplier(() -> properties(env))
                .addPropertiesCustomizer(config -> emptyMeansUnset(env))
                .addPropertiesCustomizer(config -> knownLists(env))
                .addPropertiesCustomizer(OtelVariables::enumsInLowerCase)
                .addPropertiesCustomizer(OtelVariables::plusSignsInHeaders)
                .addPropertiesCustomizer(OtelVariables::sendableHeaders)
                .addPropertiesCustomizer(OtelVariables::endpointsWithoutCredentials)
                .addPropertiesCustomizer(config -> decodableResourceAttributes(config, err))
                .addPropertiesCustomizer(OtelVariables::serviceName)
                .addResourceCustomizer(OtelVariables::reinVersion)
                .addPropertiesCustomizer(config -> samplerArgument(config, err, disabled(env)))
                .addPropertiesCustomizer(config -> invalidNumbers(config, err, disabled(env)))
                .addPropertiesCustomizer(config -> unknownCompression(config, err, disabled(env)))
                .addPropertiesCustomizer(config -> unknownExemplarFilter(config, err, disabled(env)))
                .addPropertiesCustomizer(config -> unknownOtlpValues(config, err, disabled(env)))
                .addPropertiesCustomizer(config -> { // last: the export timeouts as the SDK will read them
                    last.accept(config);
                    return Map.of();
                });
    }

    /** OTEL_METRIC_EXPORT_TIMEOUT's default, as the SDK environment variables spec gives it. */
    static final Duration METRIC_EXPORT_TIMEOUT = Duration.ofSeconds(30);

    /**
     * How long the periodic metric reader waits for one export: OTEL_METRIC_EXPORT_TIMEOUT, else 30 s
     * (the spec's default); 0 is no limit (the spec's Timeout), as the reader's builder takes it.
     */
    static Duration metricExportTimeout(ConfigProperties config) {
        return config.getDuration("otel.metric.export.timeout", METRIC_EXPORT_TIMEOUT);
    }

    /**
     * The periodic reader autoconfiguration built, again with OTEL_METRIC_EXPORT_TIMEOUT as its
     * export timeout: the SDK's autoconfiguration 1.68 reads only the interval and batch size, so the
     * reader waited as long as its interval (60 s) whatever the variable said. The reader dropped was
     * never registered, so it started no thread; the same exporter goes to the new one.
     */
    private static MetricReader withExportTimeout(MetricReader reader, MetricExporter exporter, ConfigProperties config) {
        if (!(reader instanceof PeriodicMetricReader) || exporter == null) {
            return reader;
        }
        PeriodicMetricReaderBuilder builder = PeriodicMetricReader.builder(exporter)
                .setInterval(config.getDuration("otel.metric.export.interval", Duration.ofMinutes(1)))
                .setExporterTimeout(metricExportTimeout(config));
        Integer batch = config.getInt("otel.metric.export.max.batch.size");
        if (batch != null) {
            builder.setMaxExportBatchSize(batch);
        }
        if ("latest".equalsIgnoreCase(config.getString("otel.experimental.sdk.telemetry.version", "").strip())) {
            builder.setInternalTelemetryVersion(InternalTelemetryVersion.LATEST);
        }
        return builder.build();
    }

    /** The usage error for a configuration the SDK refused, in one line naming the variable the user set. */
    static UsageException refusal(ConfigurationException e, Map<String, String> env) {
        return new UsageException("OpenTelemetry is not configured correctly: " + Errors.oneLine(named(byVariable(problem(e), env), env))
                + "; check the OTEL_* variables (see docs/observability.md)");
    }

    /**
     * Whether message content is recorded: OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT set to
     * true, or to SPAN_ONLY or SPAN_AND_EVENT, the values OpenTelemetry's GenAI instrumentations also
     * give it (Rein records content on the spans), in any case. EVENT_ONLY asks for content events,
     * which Rein does not emit, and any other value is not a known one: each is said in one line
     * rather than silently taken as false.
     */
    static boolean captureContent(Map<String, String> env, PrintStream err) {
        String raw = env.getOrDefault(CAPTURE_CONTENT, "").strip();
        String value = raw.toLowerCase(Locale.ROOT);
        if (List.of("true", "span_only", "span_and_event").contains(value)) {
            return true;
        }
        if (value.equals("event_only")) {
            err.println("rein: OpenTelemetry: " + CAPTURE_CONTENT + "=" + Text.visible(raw) + " asks for content events, which rein"
                    + " does not emit (it records content on the spans); no content is recorded: set SPAN_ONLY (or true) to record it");
        } else if (!value.isEmpty() && !value.equals("false") && !value.equals("no_content")) {
            err.println("rein: OpenTelemetry: " + CAPTURE_CONTENT + "=" + Text.visible(raw) + " is not a known value; no content is"
                    + " recorded: set true or SPAN_ONLY to record it, false or NO_CONTENT to say not to");
        }
        return false;
    }

    /**
     * The variable that sets the OTLP protocol of {@code signal} (TRACES, METRICS), or null when the
     * signal is not exported over OTLP (its exporter is none or console, say): the signal's own
     * OTEL_EXPORTER_OTLP_{SIGNAL}_PROTOCOL wins over OTEL_EXPORTER_OTLP_PROTOCOL.
     */
    private static String protocolVariable(Map<String, String> env, String signal) {
        String exporters = env.getOrDefault("OTEL_" + signal + "_EXPORTER", "").strip();
        if (!exporters.isEmpty() && Arrays.stream(exporters.split(",")).map(String::strip).noneMatch("otlp"::equalsIgnoreCase)) {
            return null;
        }
        String own = "OTEL_EXPORTER_OTLP_" + signal + "_PROTOCOL";
        return env.getOrDefault(own, "").isBlank() ? "OTEL_EXPORTER_OTLP_PROTOCOL" : own;
    }

    /** Whether telemetry is exported: an exporter is asked for and the SDK is not disabled. */
    static boolean configured(Map<String, String> env) {
        return !disabled(env) && exporterAskedFor(env);
    }

    static boolean disabled(Map<String, String> env) {
        return "true".equalsIgnoreCase(env.getOrDefault("OTEL_SDK_DISABLED", "").strip());
    }

    static boolean exporterAskedFor(Map<String, String> env) {
        return TURNED_ON_BY.stream().map(name -> env.getOrDefault(name, "").strip())
                .anyMatch(value -> !value.isEmpty() && !value.equalsIgnoreCase("none"));
    }

    /**
     * What the SDK found wrong. A value its builders refuse (OTEL_EXPORTER_OTLP_COMPRESSION=zstd:
     * "Unsupported compression method") comes wrapped as "Unexpected configuration error", which says
     * nothing: the cause's message does.
     */
    static String problem(ConfigurationException e) {
        Throwable cause = e.getCause();
        if (!"Unexpected configuration error".equals(e.getMessage()) || cause == null || cause.getMessage() == null
                || cause.getMessage().isBlank()) {
            return e.getMessage();
        }
        return "a value was refused: " + cause.getMessage().strip().replaceAll("\\.$", "");
    }

    /**
     * {@code message} with each SDK property name (otel.exporter.otlp.headers) of a variable in
     * {@code env} replaced by that variable's name (OTEL_EXPORTER_OTLP_HEADERS), which is what the
     * user set. Only whole property names are replaced, so a value such as a host otel.example.com
     * is left alone.
     */
    static String byVariable(String message, Map<String, String> env) {
        if (message == null) {
            return null;
        }
        String named = message;
        for (String variable : env.keySet().stream().filter(n -> n.startsWith("OTEL_"))
                .sorted(java.util.Comparator.comparingInt(String::length).reversed()).toList()) {
            String property = variable.toLowerCase(Locale.ROOT).replace('_', '.');
            named = named.replaceAll("(?<![\\w.-])" + java.util.regex.Pattern.quote(property) + "(?![\\w-]|\\.[\\w-])",
                    java.util.regex.Matcher.quoteReplacement(variable));
        }
        return named;
    }

    /**
     * {@code message} led by the variable it is about when it names none: the SDK quotes a refused
     * value but not where it came from ("OTLP endpoint must be a valid URL: localhost:4318"), so with
     * the general and a signal's own endpoint both set, the user could not tell which to fix. The
     * variable is the one whose value the message quotes (the longest such value; header values,
     * which the SDK never quotes, are not looked for).
     */
    static String named(String message, Map<String, String> env) {
        if (message == null || message.contains("OTEL_")) {
            return message;
        }
        List<Map.Entry<String, String>> quoted = env.entrySet().stream()
                .filter(e -> e.getKey().startsWith("OTEL_") && !e.getKey().endsWith("_HEADERS"))
                .filter(e -> e.getValue().strip().length() >= 3 && message.contains(e.getValue().strip()))
                .sorted(java.util.Comparator.comparingInt((Map.Entry<String, String> e) -> e.getValue().strip().length()).reversed()
                        .thenComparing(Map.Entry::getKey))
                .toList();
        if (quoted.isEmpty()) {
            return message;
        }
        return quoted.get(0).getKey() + ": " + message;
    }

    /** The exporters the command line has for each signal: the SDK's otlp, its console exporter (and "logging", its old name), none. */
    private static final List<String> EXPORTERS = List.of("otlp", "console", "logging", "none");
    /** The propagators the command line has (the SDK's own; b3, jaeger, xray, ottrace are extensions it does not ship). */
    private static final List<String> PROPAGATORS = List.of("tracecontext", "baggage", "none");
    /** The samplers the SDK has without extensions (jaeger_remote and xray are extensions the command line does not ship). */
    private static final List<String> SAMPLERS = List.of("always_on", "always_off", "traceidratio", "parentbased_always_on",
            "parentbased_always_off", "parentbased_traceidratio");
    /** The variables whose values {@link #knownValues} keeps to what the command line has, comma-separated lists but the sampler. */
    private static final List<String> KNOWN_VALUE_VARIABLES = List.of("OTEL_TRACES_EXPORTER", "OTEL_METRICS_EXPORTER",
            "OTEL_LOGS_EXPORTER", "OTEL_PROPAGATORS", "OTEL_TRACES_SAMPLER");

    /**
     * {@code env} with the exporters, samplers and propagators the command line does not have
     * (zipkin, prometheus, b3, xray, jaeger_remote, or a misspelled one) taken out, each said in one
     * line naming the variable and what the CLI takes: the SDK environment variables spec says an
     * enum value the implementation does not recognize MUST be warned of and gracefully ignored,
     * where the SDK refused the run (exit code 2) in words for a library's author ("... not found on
     * classpath. Make sure to add it as a dependency"). A list keeps its other entries; a variable
     * with none left is empty, which counts as unset (the default), so an exporter asked for only by
     * an unknown value does not turn telemetry on.
     */
    static Map<String, String> knownValues(Map<String, String> env, PrintStream err) {
        Map<String, String> known = new HashMap<>(env);
        Map<String, String> ignored = new java.util.LinkedHashMap<>(); // variable: what of it is ignored, and why
        for (String variable : KNOWN_VALUE_VARIABLES) {
            String raw = env.getOrDefault(variable, "");
            if (raw.isBlank()) {
                continue;
            }
            boolean sampler = variable.equals("OTEL_TRACES_SAMPLER");
            List<String> entries = sampler ? List.of(raw.strip())
                    : Arrays.stream(raw.split(",")).map(String::strip).filter(entry -> !entry.isEmpty()).toList();
            List<String> takes = variable.equals("OTEL_PROPAGATORS") ? PROPAGATORS : sampler ? SAMPLERS : EXPORTERS;
            List<String> recognized = entries.stream().filter(entry -> takes.contains(entry.toLowerCase(Locale.ROOT))).toList();
            boolean exporter = variable.endsWith("_EXPORTER");
            // "logging" is the console exporter's old name (SDK environment variables spec: Standard Output, deprecated)
            List<String> lower = recognized.stream().map(entry -> entry.toLowerCase(Locale.ROOT))
                    .map(entry -> exporter && entry.equals("logging") ? "console" : entry).toList();
            // An exporter named twice (otlp,OTLP; console,logging) is used once, where the SDK refused the run ("contains
            // duplicates: [otlp]") or printed each span twice.
            List<String> distinct = sampler ? recognized : lower.stream().distinct().toList();
            // none is the null value ("no automatically configured exporter"): beside others it adds nothing, where the
            // SDK refused the run ("otel.traces.exporter contains none along with other exporters")
            boolean noneBesideOthers = !sampler && distinct.size() > 1 && distinct.contains("none");
            List<String> kept = noneBesideOthers ? distinct.stream().filter(entry -> !entry.equals("none")).toList() : distinct;
            List<String> twice = exporter
                    ? distinct.stream().filter(entry -> java.util.Collections.frequency(lower, entry) > 1).toList() : List.of();
            boolean renamed = exporter && recognized.stream().anyMatch("logging"::equalsIgnoreCase);
            if (recognized.size() == entries.size() && twice.isEmpty() && !noneBesideOthers && !renamed) {
                continue;
            }
            known.put(variable, String.join(",", kept));
            if (!twice.isEmpty()) {
                boolean both = twice.contains("console") && renamed && recognized.stream().anyMatch("console"::equalsIgnoreCase);
                err.println("rein: OpenTelemetry: " + variable + "=" + Text.visible(raw.strip()) + " names " + String.join(" and ", twice)
                        + " more than once" + (both ? " (logging is the old name of the console exporter)" : "")
                        + "; each exporter is used once (" + String.join(",", kept) + ")"
                        + (disabled(env) ? " " + DISABLED : ", so nothing is sent twice"));
            }
            if (noneBesideOthers) {
                boolean propagators = variable.equals("OTEL_PROPAGATORS");
                err.println("rein: OpenTelemetry: " + variable + "=" + Text.visible(raw.strip()) + " names none beside other "
                        + (propagators ? "propagators" : "exporters") + "; none adds no " + (propagators ? "propagator" : "exporter")
                        + ", so the others are " + (disabled(env) && !propagators ? "taken" : "used") + " (" + String.join(",", kept) + ")"
                        + (disabled(env) && !propagators ? " " + DISABLED : "") + ": give none alone to "
                        + (propagators ? "send no trace context" : "export no " + signalOf(variable)));
            }
            if (recognized.size() == entries.size()) {
                continue;
            }
            List<String> unknown = entries.stream().filter(entry -> !recognized.contains(entry)).toList();
            String noun = variable.equals("OTEL_PROPAGATORS") ? "propagator" : sampler ? "sampler" : "exporter";
            String one = (noun.startsWith("e") ? "an " : "a ") + noun;
            ignored.put(variable, (kept.isEmpty() && unknown.size() == 1 ? "=" + Text.visible(raw.strip()) + " is not " + one
                    : " names " + Text.visible(String.join(", ", unknown)) + ", " + (unknown.size() == 1 ? "not " + one : "not " + noun + "s"))
                    + " the rein command line has; ignored, " + (kept.isEmpty() ? "as if unset" : "the others kept (" + String.join(",", kept) + ")"));
        }
        if (ignored.isEmpty()) {
            return known.equals(env) ? env : java.util.Collections.unmodifiableMap(known);
        }
        boolean exported = configured(known);
        ignored.forEach((variable, what) -> err.println("rein: OpenTelemetry: " + variable + what + fallback(variable, known, exported)
                + ": it takes " + takes(variable)));
        return java.util.Collections.unmodifiableMap(known);
    }

    /**
     * Said instead of the default a value said and ignored falls back to, under OTEL_SDK_DISABLED=true:
     * nothing is exported, so no default of an export setting is used either.
     */
    private static final String DISABLED = "(OTEL_SDK_DISABLED=true: nothing is exported in any case)";

    /** {@code (fallback)}, or under a disabled SDK {@link #DISABLED}: what a value said and ignored leaves in place. */
    private static String fallsBackTo(String fallback, boolean disabled) {
        return disabled ? DISABLED : "(" + fallback + ")";
    }

    /** What the exporter variable {@code variable} exports: spans, metrics or log records. */
    private static String signalOf(String variable) {
        return switch (variable) {
            case "OTEL_TRACES_EXPORTER" -> "spans";
            case "OTEL_METRICS_EXPORTER" -> "metrics";
            default -> "log records";
        };
    }

    /** What an ignored value leaves in place, said after "ignored, as if unset" or "the others kept". */
    private static String fallback(String variable, Map<String, String> known, boolean exported) {
        if (!known.getOrDefault(variable, "").isEmpty()) {
            return "";
        }
        if (!exported && !disabled(known)) {
            return ", so nothing turns OpenTelemetry on and nothing is exported (set OTEL_EXPORTER_OTLP_ENDPOINT to export over OTLP)";
        }
        if (disabled(known) && !variable.equals("OTEL_PROPAGATORS")) {
            // the SDK exports nothing at all when disabled: "the default, otlp: the spans go over OTLP" was not so;
            // the propagators alone still work (OTEL_SDK_DISABLED "has no effect on propagators")
            return " " + DISABLED;
        }
        return switch (variable) {
            case "OTEL_TRACES_EXPORTER" -> " (the default, otlp: the spans go over OTLP)";
            case "OTEL_METRICS_EXPORTER" -> " (the default, otlp: the metrics go over OTLP)";
            case "OTEL_LOGS_EXPORTER" -> " (rein's default, none: it emits no log records)";
            case "OTEL_PROPAGATORS" -> " (the default, tracecontext,baggage)";
            default -> " (the default, parentbased_always_on)";
        };
    }

    /** What the command line takes for {@code variable}, for the line that ignores a value it does not have. */
    private static String takes(String variable) {
        return switch (variable) {
            case "OTEL_PROPAGATORS" -> "tracecontext, baggage or none (a comma-separated list)";
            case "OTEL_TRACES_SAMPLER" -> String.join(", ", SAMPLERS.subList(0, SAMPLERS.size() - 1)) + " or " + SAMPLERS.getLast();
            default -> "otlp, console or none (or a comma-separated list of them)";
        };
    }

    /**
     * The lists {@link #knownValues} shortened, over what the SDK reads from the process environment
     * itself (which wins over {@link #properties}); an emptied one is left to {@link #emptyMeansUnset}.
     */
    private static Map<String, String> knownLists(Map<String, String> env) {
        Map<String, String> lists = new HashMap<>();
        for (String variable : KNOWN_VALUE_VARIABLES) {
            String value = env.getOrDefault(variable, "");
            if (!value.isBlank()) {
                lists.put(property(variable), value);
            }
        }
        return lists;
    }

    /** The OTEL_* variables as the SDK's properties, over Rein's defaults; the process environment still wins. */
    private static Map<String, String> properties(Map<String, String> env) {
        Map<String, String> props = defaults();
        env.forEach((name, value) -> {
            if (name.startsWith("OTEL_") && !value.isBlank()) { // an empty variable counts as unset
                props.put(property(name), value);
            }
        });
        return props;
    }

    /** Rein's own defaults for the SDK's properties: OTLP over HTTP with protobuf, no logs. */
    private static Map<String, String> defaults() {
        Map<String, String> props = new HashMap<>();
        props.put("otel.exporter.otlp.protocol", "http/protobuf");
        props.put("otel.logs.exporter", "none");
        return props;
    }

    private static String property(String variable) {
        return variable.toLowerCase(Locale.ROOT).replace('_', '.');
    }

    /**
     * An empty OTEL_* variable as if it were unset (SDK environment variables spec: "The SDK MUST
     * interpret an empty value of an environment variable the same way as when the variable is
     * unset"): the SDK reads the process environment itself and takes an empty value as given, so
     * OTEL_EXPORTER_OTLP_PROTOCOL= refused the run ("Unsupported OTLP traces protocol:"). Each such
     * property goes back to a Java system property of that name (which wins over the environment),
     * else to Rein's default, else to unset (a null value).
     */
    private static Map<String, String> emptyMeansUnset(Map<String, String> env) {
        Map<String, String> defaults = defaults();
        Map<String, String> unset = new HashMap<>();
        env.forEach((name, value) -> {
            if (name.startsWith("OTEL_") && value.isBlank()) {
                String property = property(name);
                unset.put(property, System.getProperty(property, defaults.get(property)));
            }
        });
        return unset;
    }

    /**
     * The service name: OTEL_SERVICE_NAME, else service.name of OTEL_RESOURCE_ATTRIBUTES, else
     * "rein". Applied to the merged configuration because the SDK also reads the process
     * environment itself, where an empty OTEL_SERVICE_NAME would otherwise name the service "".
     */
    private static Map<String, String> serviceName(ConfigProperties config) {
        String named = config.getString("otel.service.name", "").strip();
        if (!named.isEmpty()) {
            return Map.of();
        }
        // The SDK's own reading of OTEL_RESOURCE_ATTRIBUTES, whose values are percent-encoded (SDK
        // environment variables spec): service.name=checkout%20agent names "checkout agent", not the raw text.
        String attribute = Optional.ofNullable(ResourceConfiguration.createEnvironmentResource(withoutServiceName(config))
                .getAttribute(AttributeKey.stringKey("service.name"))).orElse("").strip();
        return Map.of("otel.service.name", attribute.isEmpty() ? SERVICE_NAME : attribute);
    }

    /** The service name when the environment names none: the service is Rein itself. */
    static final String SERVICE_NAME = "rein";

    /**
     * service.version (resource semantic conventions: recommended) is Rein's version when the service
     * is Rein itself ({@link #SERVICE_NAME}). A service the user names is theirs, whose version Rein
     * does not know; a service.version the user gives in OTEL_RESOURCE_ATTRIBUTES is kept, and one
     * they drop with otel.experimental.resource.disabled.keys stays dropped. The resource here is the
     * SDK's, OTEL_RESOURCE_ATTRIBUTES and the service name merged in.
     */
    private static io.opentelemetry.sdk.resources.Resource reinVersion(io.opentelemetry.sdk.resources.Resource resource,
                                                                      ConfigProperties config) {
        AttributeKey<String> version = AttributeKey.stringKey("service.version");
        String rein = Version.rein();
        if (!SERVICE_NAME.equals(resource.getAttribute(AttributeKey.stringKey("service.name")))
                || resource.getAttributes().asMap().keySet().stream().anyMatch(key -> key.getKey().equals(version.getKey()))
                || config.getList("otel.experimental.resource.disabled.keys").contains(version.getKey())
                || rein.equals("unknown")) {
            return resource;
        }
        return resource.toBuilder().put(version, rein).build();
    }

    /** The SDK's properties whose values are names from a fixed set (all lower case). */
    private static final List<String> ENUM_PROPERTIES = List.of("otel.traces.sampler", "otel.traces.exporter",
            "otel.metrics.exporter", "otel.logs.exporter", "otel.propagators",
            "otel.exporter.otlp.protocol", "otel.exporter.otlp.traces.protocol", "otel.exporter.otlp.metrics.protocol",
            "otel.exporter.otlp.logs.protocol", "otel.exporter.otlp.compression", "otel.exporter.otlp.traces.compression",
            "otel.exporter.otlp.metrics.compression", "otel.exporter.otlp.logs.compression", "otel.metrics.exemplar.filter",
            "otel.exporter.otlp.metrics.temporality.preference", "otel.exporter.otlp.metrics.default.histogram.aggregation");

    /**
     * Enum values in lower case, the case the SDK compares them in: the SDK environment variables
     * spec says "Enum values SHOULD be interpreted in a case-insensitive manner", and the SDK
     * refused OTEL_TRACES_SAMPLER=ALWAYS_ON ("Unrecognized value").
     */
    private static Map<String, String> enumsInLowerCase(ConfigProperties config) {
        Map<String, String> lower = new HashMap<>();
        for (String property : ENUM_PROPERTIES) {
            String value = config.getString(property);
            if (value != null && !value.equals(value.toLowerCase(Locale.ROOT))) {
                lower.put(property, value.toLowerCase(Locale.ROOT));
            }
        }
        return lower;
    }

    /**
     * The OTLP headers' values are W3C Baggage values, percent-encoded as RFC 3986 has it, where a
     * plus sign is a plus sign (specification: Specifying headers via environment variables). The
     * SDK decodes them as HTML form data, which makes it a space, so an API key with a plus in it
     * reached the collector changed: each plus in a value is handed on encoded (%2B) to stay one.
     */
    private static Map<String, String> plusSignsInHeaders(ConfigProperties config) {
        Map<String, String> escaped = new HashMap<>();
        for (String property : List.of("otel.exporter.otlp.headers", "otel.exporter.otlp.traces.headers",
                "otel.exporter.otlp.metrics.headers", "otel.exporter.otlp.logs.headers")) {
            String headers = config.getString(property);
            if (headers != null && headers.contains("+")) {
                escaped.put(property, Arrays.stream(headers.split(",", -1)).map(entry -> {
                    int equals = entry.indexOf('=');
                    // only the value is decoded; a key, or an entry the SDK will refuse, is left as it is
                    return equals < 0 ? entry : entry.substring(0, equals + 1) + entry.substring(equals + 1).replace("+", "%2B");
                }).collect(java.util.stream.Collectors.joining(",")));
            }
        }
        return escaped;
    }

    /**
     * Each OTLP header as the exporter will decode it, checked against what the JDK's HTTP client
     * sends: a name that is no HTTP token, a header the client sets itself (Host, Content-Length)
     * or a value with a line break or a character beyond Latin-1 (Japanese text, percent-decoded
     * or not) made every export of the run fail, each with a line quoting the value, which may be
     * a credential. Refused here, before the run, naming the variable and the header, not the value.
     * An entry that is no key=value is left to the SDK, which names the variable.
     */
    private static Map<String, String> sendableHeaders(ConfigProperties config) {
        for (String property : readByExporters(config, "headers")) {
            Map<String, String> headers;
            try {
                headers = config.getMap(property);
            } catch (ConfigurationException e) {
                continue; // the SDK refuses it itself, naming the variable
            }
            String variable = property.toUpperCase(Locale.ROOT).replace('.', '_');
            headers.forEach((name, encoded) -> {
                String value;
                try {
                    value = java.net.URLDecoder.decode(encoded, java.nio.charset.StandardCharsets.UTF_8); // as the SDK decodes it
                } catch (IllegalArgumentException e) {
                    // the SDK's "Cannot decode header value for header: authorization" names neither the variable nor the fix
                    throw new ConfigurationException(variable + ": the value of header '" + Text.visible(name) + "' is not"
                            + " valid percent-encoding (a % must be followed by two hexadecimal digits): the values are"
                            + " percent-encoded, so write a % itself as %25 (the value is not repeated here)");
                }
                String problem = unsendable(name, value);
                if (problem != null) {
                    throw new ConfigurationException(variable + ": " + problem);
                }
            });
        }
        return Map.of();
    }

    /**
     * The OTLP {@code setting} properties (endpoint, headers) the SDK's exporters will read, as they
     * read them: a signal's own (otel.exporter.otlp.traces.endpoint) when that signal is exported over
     * OTLP and it is set, else the general one; nothing when the SDK is disabled. The others are never
     * read, so rein refused the run for an endpoint of traces that were not exported
     * (OTEL_TRACES_EXPORTER=none) or of logs, which it does not export. Runs after {@link #enumsInLowerCase}.
     */
    private static List<String> readByExporters(ConfigProperties config, String setting) {
        if (Boolean.TRUE.equals(config.getBoolean("otel.sdk.disabled"))) {
            return List.of();
        }
        java.util.Set<String> read = new java.util.LinkedHashSet<>();
        for (String signal : List.of("traces", "metrics", "logs")) {
            if (!config.getList("otel." + signal + ".exporter", List.of("otlp")).contains("otlp")) {
                continue;
            }
            String own = "otel.exporter.otlp." + signal + "." + setting;
            boolean ownSet;
            try {
                ownSet = setting.equals("headers") ? !config.getMap(own).isEmpty() : config.getString(own) != null;
            } catch (ConfigurationException e) {
                ownSet = true; // a header list the SDK cannot read: it refuses it itself, naming the variable
            }
            read.add(ownSet ? own : "otel.exporter.otlp." + setting);
        }
        return List.copyOf(read);
    }

    /**
     * OTEL_RESOURCE_ATTRIBUTES' values are percent-encoded; when one fails to decode, the resource
     * SDK spec says the entire variable SHOULD be discarded and an error reported. The SDK kept such
     * a value undecoded without a word (rollout=50% became "50%"): said here in one line naming the
     * attribute, and the variable discarded, service.name with it. An entry that is no key=value is
     * left to the SDK, which names the variable.
     */
    private static Map<String, String> decodableResourceAttributes(ConfigProperties config, PrintStream err) {
        Map<String, String> attributes;
        try {
            attributes = config.getMap("otel.resource.attributes");
        } catch (ConfigurationException e) {
            // an entry that is not key=value (a comma in a value not written as %2C): the resource SDK spec says
            // "in case of any error" the whole variable SHOULD be discarded and an error reported; the SDK refused the run
            String raw = config.getString("otel.resource.attributes", "");
            String entry = Arrays.stream(raw.split(",")).map(String::strip).filter(part -> !part.isEmpty())
                    .filter(part -> part.indexOf('=') < 0 || part.substring(0, part.indexOf('=')).isBlank())
                    .findFirst().orElse(raw.strip());
            err.println("rein: OpenTelemetry: OTEL_RESOURCE_ATTRIBUTES: '" + Text.visible(entry) + "' is not key=value, so the"
                    + " whole variable is discarded, as the OpenTelemetry spec has it: give key=value pairs separated by commas,"
                    + " and write a comma or = in a value as %2C or %3D");
            return asIfUnset("otel.resource.attributes");
        }
        for (Map.Entry<String, String> attribute : attributes.entrySet()) {
            try {
                // as the SDK decodes them: a + is a plus sign, not form data's space
                java.net.URLDecoder.decode(attribute.getValue().replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                err.println("rein: OpenTelemetry: OTEL_RESOURCE_ATTRIBUTES: the value of '" + Text.visible(attribute.getKey())
                        + "' is not valid percent-encoding (a % must be followed by two hexadecimal digits), so the whole variable"
                        + " is discarded, as the OpenTelemetry spec has it: the values are percent-encoded, so write a % itself"
                        + " as %25 (and a comma as %2C)");
                return asIfUnset("otel.resource.attributes");
            }
        }
        return Map.of();
    }

    /** A URL's user information (user:password@ before the host), found also where the URL is otherwise malformed. */
    private static final java.util.regex.Pattern USER_INFO = java.util.regex.Pattern.compile("^\\s*[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*@");

    /**
     * The OTLP endpoint is a scheme, host, port and path (exporter spec): credentials written into
     * it (http://user:password@collector:4318) are dropped by the JDK's HTTP client, so every export
     * was refused as unauthorized, and a malformed such URL was refused quoting the password.
     * Refused here, saying to send them as a header, without repeating them.
     */
    private static Map<String, String> endpointsWithoutCredentials(ConfigProperties config) {
        for (String property : readByExporters(config, "endpoint")) {
            String endpoint = config.getString(property);
            if (endpoint != null && USER_INFO.matcher(endpoint).find()) {
                String variable = property.toUpperCase(Locale.ROOT).replace('.', '_');
                throw new ConfigurationException(variable + " holds credentials before its host (...@), which the exporter"
                        + " does not send: the endpoint is the collector's scheme, host, port and path; send them as a header"
                        + " instead, e.g. " + variable.replace("ENDPOINT", "HEADERS") + "=Authorization=Basic%20<base64 of"
                        + " user:password> (the credentials are not repeated here)");
            }
            if (endpoint != null) {
                String problem = endpointProblem(endpoint.strip());
                if (problem != null) {
                    // the SDK's own words ("OTLP endpoint scheme must be http or https: ftp") name no variable
                    throw new ConfigurationException(property.toUpperCase(Locale.ROOT).replace('.', '_') + "=" + endpoint.strip()
                            + " " + problem);
                }
            }
        }
        return Map.of();
    }

    /**
     * What the SDK would refuse in an OTLP endpoint, as it checks it (a URL with scheme http or https,
     * no query, no fragment), and what no export could reach (no host, a port outside 1-65535), in words
     * that say what to give; null when it takes it.
     */
    @SuppressWarnings("deprecation") // java.net.URL's constructor, as the SDK parses the endpoint with it
    private static String endpointProblem(String endpoint) {
        if (!endpoint.contains("://")) {
            return "has no scheme: give the collector's URL, e.g. http://" + endpoint;
        }
        java.net.URL url;
        try {
            url = new java.net.URL(endpoint);
        } catch (java.net.MalformedURLException e) {
            return "is not a valid URL (" + Errors.oneLine(e.getMessage()) + "): give the collector's URL, e.g. http://collector:4318";
        }
        if (!url.getProtocol().equals("http") && !url.getProtocol().equals("https")) {
            return "has the scheme " + url.getProtocol() + ": OTLP/HTTP takes http or https";
        }
        if (url.getHost().isEmpty()) { // http:// (say from http://${COLLECTOR} with the variable unset)
            return "has no host: give the collector's URL, e.g. " + url.getProtocol() + "://collector:4318";
        }
        if (url.getPort() == 0 || url.getPort() > 65535) { // java.net.URL takes any number; no connection has it
            return "has the port " + url.getPort() + ": a port is a number from 1 to 65535 (OTLP/HTTP's is 4318)";
        }
        String unusable = unusableByTheHttpClient(endpoint, url);
        if (unusable != null) {
            return unusable;
        }
        if (url.getQuery() != null || url.getRef() != null) {
            return "has a " + (url.getQuery() != null ? "query (?...)" : "fragment (#...)")
                    + ", which an OTLP endpoint may not: give the collector's scheme, host, port and path only";
        }
        return null;
    }

    /**
     * What the JDK's HTTP client, which sends the exports, refuses in an endpoint java.net.URL took: it reads the URL as
     * a java.net.URI, which has no host for a host name with an underscore (a Docker Compose service named
     * otel_collector) or for the port -1 (java.net.URL reads it as no port), and every export then failed with
     * "unsupported URI ..."; null when the client takes it.
     */
    private static String unusableByTheHttpClient(String endpoint, java.net.URL url) {
        String host;
        try {
            host = new java.net.URI(endpoint).getHost();
        } catch (java.net.URISyntaxException e) {
            return "is not a valid URL (" + Errors.oneLine(e.getMessage()) + "): give the collector's URL, e.g. http://collector:4318";
        }
        if (host != null) {
            return null;
        }
        if (url.getHost().indexOf('_') >= 0) {
            return "has the host '" + url.getHost() + "', which the HTTP client cannot connect to: a host name holds letters,"
                    + " digits, '-' and '.', not '_' (as a Docker Compose service name may); give the collector a name without"
                    + " it (a network alias) or its address";
        }
        if (url.getAuthority().matches(".*:-\\d+")) {
            return "has the port " + url.getAuthority().substring(url.getAuthority().lastIndexOf(':') + 1)
                    + ": a port is a number from 1 to 65535 (OTLP/HTTP's is 4318)";
        }
        return "has a host the HTTP client cannot connect to ('" + url.getAuthority() + "'): give the collector's URL, e.g."
                + " http://collector:4318";
    }

    /** Why the JDK's HTTP client would refuse header {@code name} with {@code value}, in words that do not quote the value; null when it sends it. */
    private static String unsendable(String name, String value) {
        try {
            java.net.http.HttpRequest.newBuilder().header(name, "x");
        } catch (IllegalArgumentException e) {
            String quoted = "'" + Text.visible(name) + "'";
            return String.valueOf(e.getMessage()).startsWith("restricted")
                    ? quoted + " is a header the HTTP client sets itself and cannot be given; leave it out"
                            + " (the collector's address is OTEL_EXPORTER_OTLP_ENDPOINT)"
                    : quoted + " is not a valid HTTP header name (letters, digits and !#$%&'*+-.^_`|~ only, no spaces)";
        }
        try {
            java.net.http.HttpRequest.newBuilder().header(name, value);
            return null;
        } catch (IllegalArgumentException e) {
            // the first character HTTP cannot carry: C0 controls but tab, DEL, and anything beyond Latin-1
            int at = 0;
            while (at < value.length()) {
                char c = value.charAt(at);
                if (c > 255 || c == 127 || (c < 32 && c != '\t')) {
                    break;
                }
                at++;
            }
            int c = at < value.length() ? value.codePointAt(at) : -1;
            String what = c == '\n' || c == '\r' ? "a line break"
                    : c < 0 ? "a character HTTP cannot carry"
                    : String.format(Locale.ROOT, "%s (U+%04X)", c < 128 ? "a control character" : "a character beyond Latin-1", c);
            return "the value of header '" + Text.visible(name) + "' holds " + what + (c < 0 ? "" : " at character " + (at + 1))
                    + " once percent-decoded, which an HTTP header cannot carry; give the value the collector expects,"
                    + " in ASCII without line breaks (the value is not repeated here)";
        }
    }

    /** {@code config} as if otel.service.name were unset, so the resource read from it keeps OTEL_RESOURCE_ATTRIBUTES' service.name. */
    private static ConfigProperties withoutServiceName(ConfigProperties config) {
        return new ConfigProperties() {
            @Override
            public String getString(String name) {
                return name.equals("otel.service.name") ? null : config.getString(name);
            }

            @Override
            public Boolean getBoolean(String name) {
                return config.getBoolean(name);
            }

            @Override
            public Integer getInt(String name) {
                return config.getInt(name);
            }

            @Override
            public Long getLong(String name) {
                return config.getLong(name);
            }

            @Override
            public Double getDouble(String name) {
                return config.getDouble(name);
            }

            @Override
            public Duration getDuration(String name) {
                return config.getDuration(name);
            }

            @Override
            public List<String> getList(String name) {
                return config.getList(name);
            }

            @Override
            public Map<String, String> getMap(String name) {
                return config.getMap(name);
            }
        };
    }

    /**
     * OTEL_TRACES_SAMPLER_ARG for a ratio sampler that is not a number from 0 to 1 is said once and
     * ignored: the SDK environment variables spec says invalid input "MUST be logged and MUST be
     * otherwise ignored, i.e. the implementation MUST behave as if OTEL_TRACES_SAMPLER_ARG is not
     * set" (the SDK refuses it instead). Unset, a ratio sampler's ratio is 1.0.
     */
    private static Map<String, String> samplerArgument(ConfigProperties config, PrintStream err, boolean disabled) {
        String sampler = config.getString("otel.traces.sampler", "").strip().toLowerCase(Locale.ROOT);
        String arg = config.getString("otel.traces.sampler.arg", "").strip();
        if (arg.isEmpty() || !(sampler.equals("traceidratio") || sampler.equals("parentbased_traceidratio"))) {
            return Map.of();
        }
        try {
            double ratio = Double.parseDouble(arg);
            if (ratio >= 0 && ratio <= 1) {
                return Map.of();
            }
        } catch (NumberFormatException e) {
            // said below
        }
        err.println("rein: OpenTelemetry: OTEL_TRACES_SAMPLER_ARG=" + Errors.oneLine(arg) + " is not a ratio from 0 to 1;"
                + " ignored, as if unset " + fallsBackTo("every trace is sampled", disabled));
        return Map.of("otel.traces.sampler.arg", "1.0");
    }

    /**
     * An OTLP compression the exporter does not know (zstd) is said once and ignored, as if unset: the
     * SDK environment variables spec says an enum value the implementation does not recognize MUST be
     * warned of and gracefully ignored. The SDK refused the run ("Unsupported compressionMethod"),
     * naming no variable. Runs after {@link #enumsInLowerCase}, so GZIP is gzip.
     */
    private static Map<String, String> unknownCompression(ConfigProperties config, PrintStream err, boolean disabled) {
        Map<String, String> unset = new HashMap<>();
        for (String property : List.of("otel.exporter.otlp.compression", "otel.exporter.otlp.traces.compression",
                "otel.exporter.otlp.metrics.compression", "otel.exporter.otlp.logs.compression")) {
            String value = config.getString(property, "").strip();
            if (!value.isEmpty() && !value.equals("gzip") && !value.equals("none")) {
                String variable = property.toUpperCase(Locale.ROOT).replace('.', '_');
                err.println("rein: OpenTelemetry: " + variable + "=" + Errors.oneLine(value) + " is not a compression the exporter"
                        + " knows; ignored, as if unset " + fallsBackTo(property.equals("otel.exporter.otlp.compression")
                                ? "no compression" : "OTEL_EXPORTER_OTLP_COMPRESSION, else no compression", disabled)
                        + ": give gzip or none");
                unset.put(property, null);
            }
        }
        return unset;
    }

    /**
     * An OTEL_METRICS_EXEMPLAR_FILTER the SDK does not know is said once and ignored (SDK environment
     * variables spec, Enum: an unrecognized value MUST be warned of and gracefully ignored); the SDK
     * took it as trace_based without a word. Runs after {@link #enumsInLowerCase}.
     */
    private static Map<String, String> unknownExemplarFilter(ConfigProperties config, PrintStream err, boolean disabled) {
        String value = config.getString("otel.metrics.exemplar.filter", "").strip();
        if (value.isEmpty() || List.of("always_on", "always_off", "trace_based").contains(value)) {
            return Map.of();
        }
        err.println("rein: OpenTelemetry: OTEL_METRICS_EXEMPLAR_FILTER=" + Errors.oneLine(value) + " is not a known exemplar"
                + " filter; ignored, as if unset " + fallsBackTo("the default, trace_based", disabled)
                + ": give always_on, always_off or trace_based");
        return asIfUnset("otel.metrics.exemplar.filter");
    }

    /**
     * A customizer's answer that removes {@code property} from the SDK's configuration: a null value
     * does that, and {@link Map#of} takes no null.
     */
    private static Map<String, String> asIfUnset(String property) {
        Map<String, String> unset = new HashMap<>();
        unset.put(property, null);
        return unset;
    }

    /** An OTLP exporter setting whose value names one of a fixed set: its property, that set and what is used without it. */
    private record OtlpEnum(String property, List<String> known, String fallback) {}

    private static final List<String> PROTOCOLS = List.of("http/protobuf", "grpc", "http/json");
    /** The OTLP exporter's enum settings the SDK refuses an unknown value of (1.68). */
    private static final List<OtlpEnum> OTLP_ENUMS = List.of(
            new OtlpEnum("otel.exporter.otlp.protocol", PROTOCOLS, "rein's default, http/protobuf"),
            new OtlpEnum("otel.exporter.otlp.traces.protocol", PROTOCOLS, "OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf"),
            new OtlpEnum("otel.exporter.otlp.metrics.protocol", PROTOCOLS, "OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf"),
            new OtlpEnum("otel.exporter.otlp.logs.protocol", PROTOCOLS, "OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf"),
            new OtlpEnum("otel.exporter.otlp.metrics.temporality.preference", List.of("cumulative", "delta", "lowmemory"),
                    "the default, cumulative"),
            new OtlpEnum("otel.exporter.otlp.metrics.default.histogram.aggregation",
                    List.of("explicit_bucket_histogram", "base2_exponential_bucket_histogram"), "the default, explicit_bucket_histogram"));

    /**
     * An OTLP protocol, metrics temporality preference or default histogram aggregation the exporter
     * does not know (OTEL_EXPORTER_OTLP_PROTOCOL=http) is said once and ignored, as if unset: the SDK
     * environment variables spec says an enum value the implementation does not recognize MUST be
     * warned of and gracefully ignored, where the SDK refused the run ("Unsupported OTLP traces
     * protocol: http", "Unrecognized aggregation temporality"). grpc and http/json are known and
     * refused before, saying why. Runs after {@link #enumsInLowerCase}.
     */
    private static Map<String, String> unknownOtlpValues(ConfigProperties config, PrintStream err, boolean disabled) {
        Map<String, String> unset = new HashMap<>();
        for (OtlpEnum setting : OTLP_ENUMS) {
            String value = config.getString(setting.property(), "").strip();
            if (!value.isEmpty() && !setting.known().contains(value)) {
                String variable = setting.property().toUpperCase(Locale.ROOT).replace('.', '_');
                err.println("rein: OpenTelemetry: " + variable + "=" + Errors.oneLine(value) + " is not a value the exporter knows;"
                        + " ignored, as if unset " + fallsBackTo(setting.fallback(), disabled) + ": give " + String.join(", ",
                        setting.known().subList(0, setting.known().size() - 1)) + " or " + setting.known().getLast());
                // the general protocol unset would be the SDK's own default, grpc: rein's is kept
                unset.put(setting.property(), setting.property().equals("otel.exporter.otlp.protocol") ? "http/protobuf" : null);
            }
        }
        return unset;
    }

    /** What a numeric OTEL_* setting the SDK reads may be, and its default, for the line that ignores a value outside it. */
    private enum NumberKind {
        /** A count that must be at least 1 (a queue or batch size). */
        POSITIVE_INT("a whole number from 1 up"),
        /** A limit that may be 0. */
        NON_NEGATIVE_INT("a whole number from 0 up"),
        /** Milliseconds (or with a unit, 10s), 0 included (a timeout of 0 means none). */
        NON_NEGATIVE_DURATION("a number of milliseconds from 0 up"),
        /** Milliseconds that must be more than 0 (an interval). */
        POSITIVE_DURATION("a number of milliseconds above 0");

        final String valid;

        NumberKind(String valid) {
            this.valid = valid;
        }
    }

    /** A numeric setting the SDK's autoconfiguration reads: its property, what it may be and what is used without it. */
    private record NumberSetting(String property, NumberKind kind, String fallback) {}

    /**
     * The numeric settings the SDK's autoconfiguration reads (1.68), with the ranges its builders
     * accept, and OTEL_METRIC_EXPORT_TIMEOUT, which the command line reads ({@link #withExportTimeout}).
     */
    private static final List<NumberSetting> NUMBERS = List.of(
            new NumberSetting("otel.bsp.schedule.delay", NumberKind.NON_NEGATIVE_DURATION, "the default, 5000"),
            new NumberSetting("otel.bsp.export.timeout", NumberKind.NON_NEGATIVE_DURATION, "the default, 30000"),
            new NumberSetting("otel.bsp.max.queue.size", NumberKind.POSITIVE_INT, "the default, 2048"),
            new NumberSetting("otel.bsp.max.export.batch.size", NumberKind.POSITIVE_INT, "the default, 512"),
            new NumberSetting("otel.blrp.schedule.delay", NumberKind.NON_NEGATIVE_DURATION, "the default, 1000"),
            new NumberSetting("otel.blrp.export.timeout", NumberKind.NON_NEGATIVE_DURATION, "the default, 30000"),
            new NumberSetting("otel.blrp.max.queue.size", NumberKind.POSITIVE_INT, "the default, 2048"),
            new NumberSetting("otel.blrp.max.export.batch.size", NumberKind.POSITIVE_INT, "the default, 512"),
            new NumberSetting("otel.attribute.value.length.limit", NumberKind.NON_NEGATIVE_INT, "the default, no limit"),
            new NumberSetting("otel.span.attribute.value.length.limit", NumberKind.NON_NEGATIVE_INT,
                    "OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT, else no limit"),
            new NumberSetting("otel.attribute.count.limit", NumberKind.NON_NEGATIVE_INT, "the default, 128"),
            new NumberSetting("otel.span.attribute.count.limit", NumberKind.NON_NEGATIVE_INT,
                    "OTEL_ATTRIBUTE_COUNT_LIMIT, else the default 128"),
            new NumberSetting("otel.span.event.count.limit", NumberKind.NON_NEGATIVE_INT, "the default, 128"),
            new NumberSetting("otel.span.link.count.limit", NumberKind.NON_NEGATIVE_INT, "the default, 128"),
            new NumberSetting("otel.metric.export.interval", NumberKind.POSITIVE_DURATION, "the default, 60000"),
            new NumberSetting("otel.metric.export.timeout", NumberKind.NON_NEGATIVE_DURATION, "the default, 30000"),
            new NumberSetting("otel.java.metrics.cardinality.limit", NumberKind.POSITIVE_INT, "the default, 2000"),
            new NumberSetting("otel.exporter.otlp.timeout", NumberKind.NON_NEGATIVE_DURATION, "the default, 10000"),
            new NumberSetting("otel.exporter.otlp.traces.timeout", NumberKind.NON_NEGATIVE_DURATION,
                    "OTEL_EXPORTER_OTLP_TIMEOUT, else the default 10000"),
            new NumberSetting("otel.exporter.otlp.metrics.timeout", NumberKind.NON_NEGATIVE_DURATION,
                    "OTEL_EXPORTER_OTLP_TIMEOUT, else the default 10000"),
            new NumberSetting("otel.exporter.otlp.logs.timeout", NumberKind.NON_NEGATIVE_DURATION,
                    "OTEL_EXPORTER_OTLP_TIMEOUT, else the default 10000"));

    /**
     * A numeric value the SDK cannot read or that is outside the range it takes is said once and
     * ignored, as if unset: the SDK environment variables spec says such a value SHOULD be warned of
     * and ignored ("treat them as not set"), and a negative duration or timeout MUST be. The SDK
     * refused the run for most (OTEL_BSP_MAX_QUEUE_SIZE=0: "maxQueueSize must be positive", with exit
     * code 2) and took a negative export timeout, with which every export then failed ("Invalid
     * duration: PT-0.005S"). The SDK reads durations with a unit too (10s), so that is still taken.
     */
    private static Map<String, String> invalidNumbers(ConfigProperties config, PrintStream err, boolean disabled) {
        Map<String, String> unset = new HashMap<>();
        for (NumberSetting setting : NUMBERS) {
            String raw = config.getString(setting.property());
            if (raw == null || raw.isBlank()) {
                continue;
            }
            String problem;
            try {
                long value = switch (setting.kind()) {
                    case POSITIVE_INT, NON_NEGATIVE_INT -> config.getInt(setting.property());
                    case NON_NEGATIVE_DURATION, POSITIVE_DURATION -> config.getDuration(setting.property()).toMillis();
                };
                boolean positive = setting.kind() == NumberKind.POSITIVE_INT || setting.kind() == NumberKind.POSITIVE_DURATION;
                problem = value < 0 ? "is negative" : value == 0 && positive ? "is 0" : null;
            } catch (ConfigurationException | ArithmeticException e) {
                problem = "is not a number the SDK can read";
            }
            if (problem != null) {
                String variable = setting.property().toUpperCase(Locale.ROOT).replace('.', '_');
                err.println("rein: OpenTelemetry: " + variable + "=" + Errors.oneLine(raw.strip()) + " " + problem
                        + "; ignored, as if unset " + fallsBackTo(setting.fallback(), disabled) + ": give " + setting.kind().valid);
                unset.put(setting.property(), null);
            }
        }
        return unset;
    }
}
