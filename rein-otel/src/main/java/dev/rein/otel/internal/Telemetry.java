package dev.rein.otel.internal;

import dev.rein.otel.SpanLinkStore;
import dev.rein.model.Model;
import dev.rein.model.ModelInterceptor;
import dev.rein.tool.ToolInterceptor;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state one {@code ReinTelemetry} shares across runs: the tracer, the instruments, the span
 * links, and the runs in progress (so the tool interceptor finds a call's span by run and call id).
 */
public final class Telemetry {
    private static final Logger LOG = LoggerFactory.getLogger(Telemetry.class);
    static final String SCOPE = "dev.rein.otel";
    /** The scope's version: rein-otel's, so a backend can tell which release made the telemetry; null when unknown. */
    static final String SCOPE_VERSION = scopeVersion();

    final Settings settings;
    final Tracer tracer;
    final Instruments instruments;
    /** The instruments of a replay's runs: none of their model or tool calls is real, so they record nothing. */
    final Instruments replayInstruments;
    final SpanLinkStore links;
    /**
     * Where a replay's segments remember their spans: a replay keeps the recorded run's id, and in {@link #links} it
     * would take the place of that run's span, which the run's own resumption links to.
     */
    final SpanLinkStore replayLinks = SpanLinkStore.inMemory();
    private final Map<String, RunTelemetry> active = new ConcurrentHashMap<>();
    private final ToolContextPropagation interceptor;
    private final ChatContextPropagation chatInterceptor;
    /** The chat span just opened on this thread, and its run, for the model-call stage that runs next on it. */
    private final ThreadLocal<ChatHandoff> chatHandoff = new ThreadLocal<>();
    /** The listener tracing each run, and the event it began with (see {@link #claim}). */
    private final Map<String, Claim> claims = new ConcurrentHashMap<>();
    /** Whether a second installation on one agent has been said (once: it is said at every run otherwise). */
    private final AtomicBoolean installedTwice = new AtomicBoolean();

    private record Claim(RunTelemetry run, TraceEvent first) {}

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
        this.replayInstruments = new Instruments(OpenTelemetry.noop().getMeter(SCOPE), settings);
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
        // registered for the interceptors at its first event (claim), not here: a listener made for a run
        // live in this process (Runs.cancel's) must not take the live one's place before it is heard
        return new RunTelemetry(this, runId, Context.current(), model);
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

    /**
     * Whether {@code run}, hearing its first event {@code first}, traces its run: false when another listener of this
     * telemetry for the same run heard that very event first. That is this telemetry installed on the agent twice
     * (install on a builder that had it already, such as a copy of an installed agent's): every listener of a run
     * hears the same event instances, and a second tracer would double every span and metric. The one that traces
     * is the run's for the tool and model interceptors. A later segment of the run begins with an event of its own.
     * A listener whose first event opens no segment (the end {@code Runs.cancel} tells of a run) becomes the run's
     * for the interceptors only when the run has none: the run may be live in this process, its calls still to come.
     */
    boolean claim(String runId, RunTelemetry run, TraceEvent first) {
        Claim claim = claims.compute(runId, (id, earlier) ->
                earlier != null && earlier.first() == first && earlier.run() != run ? earlier : new Claim(run, first));
        if (claim.run() != run) {
            if (installedTwice.compareAndSet(false, true)) {
                LOG.warn("ReinTelemetry is installed more than once on an agent (install on a builder that has it already,"
                        + " such as agent.config().toBuilder() of an installed agent); each run is traced once: install it once");
            }
            return false;
        }
        if (opensSegment(first)) {
            active.put(runId, run);
        } else {
            active.putIfAbsent(runId, run);
        }
        return true;
    }

    /** Whether a run's segment begins with {@code event} (a start, a resumption, a reply's turn): it is this process's now. */
    private static boolean opensSegment(TraceEvent event) {
        return event instanceof TraceEvent.RunStarted || event instanceof TraceEvent.RunResumed
                || event instanceof TraceEvent.TurnStarted;
    }

    void finished(String runId, RunTelemetry run) {
        active.remove(runId, run);
        claims.computeIfPresent(runId, (id, claim) -> claim.run() == run ? null : claim);
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
