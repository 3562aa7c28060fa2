package dev.rein.otel.internal;

import dev.rein.otel.SpanLinkStore;
import dev.rein.model.Model;
import dev.rein.model.ModelInterceptor;
import dev.rein.tool.ToolInterceptor;
import dev.rein.trace.RunListener;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The state one {@code ReinTelemetry} shares across runs: the tracer, the instruments, the span
 * links, and the runs in progress (so the tool interceptor finds a call's span by run and call id).
 */
public final class Telemetry {
    static final String SCOPE = "dev.rein.otel";
    /** The scope's version: rein-otel's, so a backend can tell which release made the telemetry; null when unknown. */
    static final String SCOPE_VERSION = scopeVersion();

    final Settings settings;
    final Tracer tracer;
    final Instruments instruments;
    final SpanLinkStore links;
    private final Map<String, RunTelemetry> active = new ConcurrentHashMap<>();
    private final ToolContextPropagation interceptor;
    private final ChatContextPropagation chatInterceptor;
    /** The chat span just opened on this thread, and its run, for the model-call stage that runs next on it. */
    private final ThreadLocal<ChatHandoff> chatHandoff = new ThreadLocal<>();

    /**
     * A chat span's context, the run it belongs to, and whether the call has streamed a chunk yet
     * (its time to first chunk is recorded once, however many attempts reach the model).
     */
    record ChatHandoff(Context chat, RunTelemetry run, AtomicBoolean streamed) {}

    /** {@code propagator}: the one given to the builder, or null for the OpenTelemetry's (W3C Trace Context when it has none). */
    public Telemetry(OpenTelemetry otel, Settings settings, SpanLinkStore links, TextMapPropagator propagator) {
        this.settings = settings;
        var tracers = otel.tracerBuilder(SCOPE);
        var meters = otel.meterBuilder(SCOPE);
        if (SCOPE_VERSION != null) {
            tracers.setInstrumentationVersion(SCOPE_VERSION);
            meters.setInstrumentationVersion(SCOPE_VERSION);
        }
        this.tracer = tracers.build();
        this.instruments = new Instruments(meters.build(), settings);
        this.links = links;
        TextMapPropagator configured = otel.getPropagators().getTextMapPropagator();
        // An SDK built without propagators would send none: the model call still carries traceparent,
        // unless the application gave the propagator itself (the CLI's OTEL_PROPAGATORS=none: none at all).
        TextMapPropagator used = propagator != null ? propagator
                : configured.fields().isEmpty() ? W3CTraceContextPropagator.getInstance() : configured;
        this.interceptor = new ToolContextPropagation(this, used);
        this.chatInterceptor = new ChatContextPropagation(this, used);
    }

    /** The version filtered into version.properties at build time; null in a build without resources. */
    private static String scopeVersion() {
        try (InputStream in = Telemetry.class.getResourceAsStream("/dev/rein/otel/version.properties")) {
            if (in == null) {
                return null;
            }
            Properties properties = new Properties();
            properties.load(in);
            String version = properties.getProperty("version", "").strip();
            return version.isEmpty() || version.startsWith("${") ? null : version;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * A new listener for one run; its parent is the context current where the run is started.
     * {@code model}: the agent's, whose provider the spans name from the start when the settings name
     * none; null when unknown (the first call's model names it then).
     */
    public RunListener listenerFor(String runId, Model model) {
        RunTelemetry run = new RunTelemetry(this, runId, Context.current(), model);
        active.put(runId, run);
        return run;
    }

    public ToolInterceptor toolInterceptor() {
        return interceptor;
    }

    public ModelInterceptor modelInterceptor() {
        return chatInterceptor;
    }

    void offerChat(Context chat, RunTelemetry run) {
        chatHandoff.set(new ChatHandoff(chat, run, new AtomicBoolean()));
    }

    /**
     * The chat span offered on this thread, until its call ends ({@link #withdrawChat}); null when there
     * is none. Not taken on the first look: a retrying stage outside the telemetry's (an application's
     * fallback to another model) passes one call through it again. One whose run's listener has closed
     * is stale (a call an engine gave up on to retry it later, on a thread a later run reuses) and dropped.
     */
    ChatHandoff offeredChat() {
        ChatHandoff chat = chatHandoff.get();
        if (chat != null && active.get(chat.run().runId()) != chat.run()) {
            chatHandoff.remove();
            return null;
        }
        return chat;
    }

    void withdrawChat() {
        chatHandoff.remove();
    }

    void finished(String runId, RunTelemetry run) {
        active.remove(runId, run);
    }

    /** The context of a tool call's span, or null when the call has none (not traced by this instance). */
    Context toolContext(String runId, String callId) {
        RunTelemetry run = active.get(runId);
        if (run == null) {
            return null;
        }
        Span span = run.tools().span(callId);
        return span == null ? null : run.context().with(span);
    }

    RunTelemetry run(String runId) {
        return active.get(runId);
    }
}
