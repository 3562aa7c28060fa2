package dev.rein.otel;

import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.otel.internal.Server;
import dev.rein.otel.internal.Settings;
import dev.rein.otel.internal.Telemetry;
import dev.rein.model.ModelInterceptor;
import dev.rein.tool.ToolInterceptor;
import dev.rein.model.Model;
import dev.rein.trace.RunListener;
import dev.rein.trace.RunListenerFactory;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.net.URI;

/**
 * Rein runs as OpenTelemetry GenAI spans and metrics. One instance serves any number of agents and
 * runs; it needs three seams of an agent, which {@link #install} adds:
 * <ul>
 *   <li>{@link #listener()}: a {@code invoke_agent} span per run (segment), a {@code chat} span per
 *       model call and an {@code execute_tool} span per tool call, refused ones included, with
 *       approvals, stall interventions, truncations and budget stops as span events; the metrics;</li>
 *   <li>{@link #toolInterceptor()}: runs each tool handler inside its span's context, on whatever
 *       thread runs it, so spans the handler creates (HTTP clients, JDBC) are its children;</li>
 *   <li>{@link #modelInterceptor()}: the same for the model call, whose HTTP request carries the
 *       chat span's {@code traceparent}.</li>
 * </ul>
 *
 * <pre>{@code
 * ReinTelemetry telemetry = ReinTelemetry.create(openTelemetry);
 * Agent agent = telemetry.install(Agent.builder().model(model).tools(tools)).build();
 * }</pre>
 *
 * <p>Message content (goal, prompts, responses, tool arguments and results) is recorded only with
 * {@link Builder#captureContent(boolean)}, and then exactly as the JSONL trace has it: with every
 * known secret value masked.
 */
public final class ReinTelemetry {
    /** The switch that lets {@link GlobalOpenTelemetry#get()} configure an unregistered global from the environment. */
    private static final String GLOBAL_AUTOCONFIGURE = "otel.java.global-autoconfigure.enabled";
    /** The class {@link GlobalOpenTelemetry#get()} autoconfigures the global with, when the switch is on and it resolves. */
    private static final String AUTOCONFIGURE_CLASS = "io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk";

    /** What to pass where an OpenTelemetry was given null. */
    private static final String OPEN_TELEMETRY = "pass the OpenTelemetry your service uses (OpenTelemetrySdk, or"
            + " GlobalOpenTelemetry.get()), or call ReinTelemetry.global()";

    private final Telemetry telemetry;

    private ReinTelemetry(Builder b) {
        Settings settings = new Settings(b.agentName, b.agentId, b.agentDescription, b.agentVersion, b.providerName,
                b.defaultProviderName, b.serverAddress, b.serverPort, b.captureContent);
        this.telemetry = new Telemetry(b.openTelemetry, settings, b.links, b.propagator);
    }

    /** Telemetry through {@code openTelemetry} with the defaults (no content captured). */
    public static ReinTelemetry create(OpenTelemetry openTelemetry) {
        return builder(given(openTelemetry, "ReinTelemetry.create", OPEN_TELEMETRY)).build();
    }

    /**
     * Telemetry through the {@link GlobalOpenTelemetry} registered when this is called: the one the
     * OpenTelemetry Java agent installs, or one the application registered
     * ({@code OpenTelemetrySdk.builder()...buildAndRegisterGlobal()}). With none registered yet it is
     * a no-op for good; call it again once the SDK is registered. It never registers a global
     * itself (as {@link GlobalOpenTelemetry#get()} would, with a no-op), so an SDK registered later
     * is not refused. With {@code otel.java.global-autoconfigure.enabled} set and the SDK's
     * autoconfiguration ({@code opentelemetry-sdk-extension-autoconfigure}) on the class path, an
     * unregistered global is configured by it, as {@code get()} does; without that module the switch
     * changes nothing here.
     */
    public static ReinTelemetry global() {
        // Native instrumentation takes getOrNoop(), as the API advises: get() would set a no-op as the
        // global, and the application's later buildAndRegisterGlobal() would then throw.
        boolean autoconfigure = autoconfigureSwitch(System.getProperties(), System.getenv());
        // get() autoconfigures only when the autoconfigure module is there; without it, it would set a no-op for good
        return create(GlobalOpenTelemetry.isSet() || autoconfigure && autoconfigurePresent()
                ? GlobalOpenTelemetry.get() : GlobalOpenTelemetry.getOrNoop());
    }

    /**
     * Whether {@code otel.java.global-autoconfigure.enabled} is on, read as {@link GlobalOpenTelemetry#get()} reads it
     * (SDK 1.68, ConfigUtil.getString then Boolean.parseBoolean): a system property whose key matches once lower-cased
     * with '-' as '.', else an environment variable whose name matches once lower-cased with '_' as '.'; the value as
     * it is, not trimmed ("true " is off for the SDK, so reading it as on would call get() and set a no-op global).
     */
    static boolean autoconfigureSwitch(java.util.Properties properties, java.util.Map<String, String> env) {
        String key = GLOBAL_AUTOCONFIGURE.toLowerCase(java.util.Locale.ROOT).replace('-', '.');
        String value = ((java.util.Properties) properties.clone()).entrySet().stream()
                .filter(e -> key.equals(e.getKey().toString().toLowerCase(java.util.Locale.ROOT).replace('-', '.')))
                .map(e -> e.getValue().toString()).findFirst()
                .orElseGet(() -> env.entrySet().stream()
                        .filter(e -> key.equals(e.getKey().toLowerCase(java.util.Locale.ROOT).replace('_', '.')))
                        .map(java.util.Map.Entry::getValue).findFirst().orElse("false"));
        return Boolean.parseBoolean(value);
    }

    /** Whether the SDK's autoconfiguration, which {@link GlobalOpenTelemetry#get()} looks for, is on its class path. */
    private static boolean autoconfigurePresent() {
        try {
            Class.forName(AUTOCONFIGURE_CLASS, false, GlobalOpenTelemetry.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** A builder of telemetry through {@code openTelemetry}: the agent's identity, the provider, the server, the content opt-in. */
    public static Builder builder(OpenTelemetry openTelemetry) {
        return new Builder(given(openTelemetry, "ReinTelemetry.builder", OPEN_TELEMETRY));
    }

    /** {@code value}, or when it is null a {@link ReinException} saying that {@code method} was given null and what to pass {@code instead}. */
    static <T> T given(T value, String method, String instead) {
        if (value == null) {
            throw new ReinException(method + "(...) was given null: " + instead);
        }
        return value;
    }

    /** The run listener: one per run, creating the spans and recording the metrics. */
    public RunListenerFactory listener() {
        return new RunListenerFactory() {
            @Override
            public RunListener create(String runId) {
                return telemetry.listenerFor(runId, null);
            }

            /** The agent's model names the provider on the spans begun before its first call (the run's, the first chat's). */
            @Override
            public RunListener create(String runId, Model model) {
                return telemetry.listenerFor(runId, model);
            }
        };
    }

    /** The tool interceptor that puts each call's span in context around the rest of the pipeline and the handler. */
    public ToolInterceptor toolInterceptor() {
        return telemetry.toolInterceptor();
    }

    /**
     * The model interceptor that makes each call's {@code chat} span current for the rest of the
     * model-call chain and the provider, and gives the provider the span's {@code traceparent}
     * to send (as {@link dev.rein.model.TraceContextHeaders}). It needs {@link #listener()} on the
     * same agent, which makes the span.
     */
    public ModelInterceptor modelInterceptor() {
        return telemetry.modelInterceptor();
    }

    /** Adds {@link #listener()}, {@link #toolInterceptor()} and {@link #modelInterceptor()} to {@code agent}. */
    public Agent.Builder install(Agent.Builder agent) {
        return given(agent, "install", "pass the agent's builder, e.g. install(Agent.builder().model(model))")
                .listener(listener()).toolInterceptor(toolInterceptor()).modelInterceptor(modelInterceptor());
    }

    /** Builder for {@link ReinTelemetry}. */
    public static final class Builder {
        private final OpenTelemetry openTelemetry;
        private String agentName = "rein";
        private String agentId;
        private String agentDescription;
        private String agentVersion;
        private String providerName;
        private String defaultProviderName;
        private String serverAddress;
        private int serverPort = -1;
        private boolean captureContent;
        private SpanLinkStore links = SpanLinkStore.inMemory();
        private TextMapPropagator propagator;

        private Builder(OpenTelemetry openTelemetry) {
            this.openTelemetry = openTelemetry;
        }

        /** {@code gen_ai.agent.name} and the run span's name {@code invoke_agent {name}} (default "rein"). */
        public Builder agentName(String name) {
            this.agentName = name;
            return this;
        }

        /**
         * {@code rein.agent.id} on the run span: a unique, stable identifier of the agent, e.g. the
         * id it has in your registry or deployment (unset by default: the attribute is then left out).
         * Not {@code gen_ai.agent.id}, which the GenAI conventions keep off an internal {@code invoke_agent}
         * span such as the run span (semantic-conventions-genai #242; earlier 0.1.0 snapshots set it there).
         */
        public Builder agentId(String id) {
            this.agentId = id;
            return this;
        }

        /**
         * {@code gen_ai.agent.description} on the run span: a free-form description of what the agent
         * does, e.g. "Answers questions about orders" (unset by default: the attribute is then left out).
         */
        public Builder agentDescription(String description) {
            this.agentDescription = description;
            return this;
        }

        /**
         * {@code gen_ai.agent.version} on the run span: the version of the agent (its prompt, tools
         * and configuration), e.g. "1.4.0" or "2026-05-01" (unset by default: the attribute is then left out).
         */
        public Builder agentVersion(String version) {
            this.agentVersion = version;
            return this;
        }

        /**
         * {@code gen_ai.provider.name}, e.g. "anthropic" or "openai" (the conventions' well-known
         * values). Unset, each run takes it from the agent's model
         * ({@link dev.rein.provider.ModelDefaults#providerName()}: rein-anthropic's and rein-openai's
         * models give theirs), so the run span and the chat spans have it when they begin, as the
         * conventions ask for samplers; a model that names none is asked again at each call. Each chat
         * span names the provider of the model it called, from its creation (a critic's may be another
         * one's); a fallback stage's backup of another provider is named once the call reaches it, a
         * {@code rein.model.fallback} event keeping the first. Set, every span names this one (a gateway's name,
         * say), also a call that reached another provider's model; {@link #defaultProviderName(String)} names only
         * a model that names none.
         */
        public Builder providerName(String name) {
            this.providerName = name;
            return this;
        }

        /**
         * {@code gen_ai.provider.name} where the model names no provider of its own
         * ({@link dev.rein.provider.ModelDefaults#providerName()} null, say a provider plug-in's model): the spans
         * of a model that names one still name its own, so each {@code chat} span names the provider it called.
         * The command line gives its {@code --provider} here. Ignored when {@link #providerName(String)} is set.
         */
        public Builder defaultProviderName(String name) {
            this.defaultProviderName = name;
            return this;
        }

        /**
         * {@code server.address} and {@code server.port} of the model API (an IPv6 address with or without its URL
         * brackets), on the run span and on every chat span and its metrics, whichever model the call went to. Unset,
         * each chat span names the server of the model its call goes to
         * ({@link dev.rein.provider.ModelDefaults#serverUri()}: rein-anthropic's and rein-openai's models give their
         * base URL), from its creation, and leaves it out when the model names none; the run span then has none.
         *
         * @throws ReinException when {@code address} is null or blank (a port names no server without its address, as
         *                       {@code server.port} goes with {@code server.address}: leave this out to have each chat span
         *                       name its model's server) or {@code port} is not 1-65535
         */
        public Builder server(String address, int port) {
            String example = "give the model API's host and port, e.g. server(\"api.anthropic.com\", 443), or leave server(...) out"
                    + " so that each chat span names the server of the model its call goes to";
            if (address == null) {
                throw new ReinException("server(null, " + port + ") was given no address: " + example);
            }
            if (address.isBlank()) {
                throw new ReinException("server(\"" + address + "\", " + port + ") was given a blank address: " + example);
            }
            if (port <= 0 || port > 65535) {
                throw new ReinException("server(\"" + address + "\", " + port + ") was given port " + port
                        + ", not a port 1-65535: " + example);
            }
            this.serverAddress = Server.unbracketed(address.strip());
            this.serverPort = port;
            return this;
        }

        /** {@code server.address} and {@code server.port} from the model API's base URL (default ports for http and https). */
        public Builder server(URI baseUrl) {
            given(baseUrl, "server", "pass the model API's base URL, e.g. URI.create(\"https://api.anthropic.com\")");
            if (baseUrl.getHost() == null) {
                throw new ReinException("the model API URL '" + baseUrl + "' has no host; give one like https://api.example.com");
            }
            Server server = Server.of(baseUrl);
            return server(server.address(), server.port());
        }

        /**
         * Records message content on the spans: the goal and answer, system instructions, input and
         * output messages, tool arguments and results (as JSON strings, secrets masked). Off by default.
         */
        public Builder captureContent(boolean capture) {
            this.captureContent = capture;
            return this;
        }

        /** Where the span of each run segment is remembered for the link from its resumption (default: in memory). */
        public Builder spanLinks(SpanLinkStore store) {
            this.links = given(store, "spanLinks", "pass a SpanLinkStore, e.g. SpanLinkStore.inMemory() (the default)"
                    + " or SpanLinkStore.directory(path)");
            return this;
        }

        /**
         * The propagator that writes the trace headers model calls carry. By default the
         * OpenTelemetry's own, or W3C Trace Context when it has none (an SDK built without
         * propagators). Give the configured one to honour an explicit choice of none
         * ({@code TextMapPropagator.noop()}: no headers), as the CLI does for {@code OTEL_PROPAGATORS=none}.
         */
        public Builder propagator(TextMapPropagator propagator) {
            this.propagator = given(propagator, "propagator", "pass the propagator to use, or TextMapPropagator.noop() to send no"
                    + " trace headers");
            return this;
        }

        public ReinTelemetry build() {
            if (agentName == null || agentName.isBlank()) {
                throw new ReinException("the agent name for telemetry is empty; give a short, stable name such as \"support-agent\"");
            }
            refuseBlank(agentId, "agent id", "\"support-agent-eu-1\"");
            refuseBlank(agentDescription, "agent description", "\"Answers questions about orders\"");
            refuseBlank(agentVersion, "agent version", "\"1.4.0\"");
            if (providerName != null && providerName.isBlank()) {
                throw new ReinException("the provider name for telemetry is blank; leave it unset or give one such as \"anthropic\"");
            }
            if (defaultProviderName != null && defaultProviderName.isBlank()) {
                throw new ReinException("the default provider name for telemetry is blank; leave it unset or give one such as \"anthropic\"");
            }
            return new ReinTelemetry(this);
        }

        /** A value that is given but blank is a mistake: unset, the attribute is simply left out. */
        private static void refuseBlank(String value, String what, String example) {
            if (value != null && value.isBlank()) {
                throw new ReinException("the " + what + " for telemetry is blank; leave it unset or give one such as " + example);
            }
        }
    }
}
