package dev.rein.otel.internal;

import dev.rein.ReinException;
import dev.rein.model.Model;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.StreamObserver;
import dev.rein.model.TraceContextHeaders;
import dev.rein.otel.GenAiConventions;
import dev.rein.provider.ForwardingModel;
import dev.rein.provider.ModelDefaults;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts a model call's {@code chat} span in context for the rest of the model-call chain and for
 * the provider, and hands the provider the span's W3C trace context ({@code traceparent}) to
 * send with its HTTP request. The span itself is made by the run's listener when the call is
 * traced (the tracing stage is outermost), on this same thread, which is how this stage finds it.
 * The deadline stage may run the model on a thread of its own (a model that does not abort on
 * interrupt), so the model each attempt reaches is wrapped ({@link #aroundModel}) to make the span
 * current wherever it runs, a fallback model set by a stage added after this one included.
 */
final class ChatContextPropagation implements ModelInterceptor {
    private static final Logger LOG = LoggerFactory.getLogger(ChatContextPropagation.class);

    private final Telemetry telemetry;
    private final TextMapPropagator propagator;
    /** The names of headers said to be left out, so each is said once, not at every call. */
    private final Set<String> unsendable = ConcurrentHashMap.newKeySet();

    ChatContextPropagation(Telemetry telemetry, TextMapPropagator propagator) {
        this.telemetry = telemetry;
        this.propagator = propagator;
    }

    @Override
    public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
        Telemetry.ChatHandoff handoff = telemetry.offeredChat();
        if (handoff == null) {
            return chain.proceed(call);
        }
        Context chat = handoff.chat();
        if (handoff.run().replay()) {
            // a replay sends no request, so there is no HTTP request for the headers to go on
            try (Scope ignored = chat.makeCurrent()) {
                return chain.proceed(call);
            }
        }
        Map<String, String> headers = new LinkedHashMap<>();
        // HTTP header names are case-insensitive; propagators such as X-Ray's (X-Amzn-Trace-Id) and B3's write mixed case
        propagator.inject(chat, headers, (carrier, name, value) -> {
            if (name != null && value != null) {
                carrier.put(name.toLowerCase(Locale.ROOT), value);
            }
        });
        TraceContextHeaders sendable = sendable(headers);
        ModelRequest request = sendable == null ? call.request() : call.request().withOption(sendable);
        try (Scope ignored = chat.makeCurrent()) {
            return chain.proceed(call.withRequest(request));
        }
    }

    /**
     * The model each attempt reaches, in the chat span wherever it runs and naming its provider: the
     * one the call was made with or a fallback a stage added after this one set, which never passed
     * {@link #intercept}. Called on the chain's thread, where the span is offered.
     */
    @Override
    public Model aroundModel(ModelCall call) {
        Telemetry.ChatHandoff handoff = telemetry.offeredChat();
        if (handoff == null) {
            return call.model();
        }
        if (call.model() instanceof InContext in && in.context() == handoff.chat()) {
            return in; // this telemetry is on the agent twice and has wrapped the model already: its chunks are timed once
        }
        String provider = handoff.run().learnProvider(call.model(), Span.fromContext(handoff.chat()));
        Server server = handoff.run().learnServer(call.model(), Span.fromContext(handoff.chat()));
        return new InContext(call.model(), handoff.chat(), handoff.run(), provider, server, handoff.streamed(),
                startsWithArguments(call.model()));
    }

    /**
     * Whether {@code model} says it speaks Chat Completions ({@code chat_completions}, {@link ModelDefaults#apiType()}),
     * whose stream sends a tool call's id and name ahead of its arguments: rein-openai tells a call's start when its first
     * arguments come, so the start and the input fragment right after it are one chunk. The Messages API's
     * {@code content_block_start} is an event of its own, as is each later fragment, and so is the Responses API's
     * {@code response.output_item.added}: asked of the API, not the provider's name, since a model of one's own naming
     * provider {@code openai} may call that one (as {@code openai.api.type} is decided).
     */
    private static boolean startsWithArguments(Model model) {
        try {
            return model instanceof ModelDefaults defaults
                    && GenAiConventions.OPENAI_API_TYPE_CHAT_COMPLETIONS.equals(defaults.apiType());
        } catch (RuntimeException e) {
            return false; // an application's model that fails to say: tracing must not fail the call
        }
    }

    /**
     * The headers the request can carry, null when none: one a propagator wrote that no HTTP header
     * carries (a line break in its value, say) is left out and said once, since tracing must not fail
     * the model call it observes.
     */
    private TraceContextHeaders sendable(Map<String, String> headers) {
        if (headers.isEmpty()) {
            return null;
        }
        try {
            return new TraceContextHeaders(headers);
        } catch (ReinException e) {
            Map<String, String> kept = new LinkedHashMap<>();
            headers.forEach((name, value) -> {
                try {
                    new TraceContextHeaders(Map.of(name, value));
                    kept.put(name, value);
                } catch (ReinException refused) {
                    if (unsendable.add(name)) {
                        LOG.warn("the model requests do not carry the trace header the propagator wrote: {}", refused.getMessage());
                    }
                }
            });
            return kept.isEmpty() ? null : new TraceContextHeaders(kept);
        }
    }

    @Override
    public String toString() {
        return "opentelemetry";
    }

    /**
     * The model, called with the chat span current on whatever thread calls it; the request it is
     * called with names the span and its metrics (a stage may have asked for another model), and an attempt
     * going to another model or provider than the one before, with how that one failed, is a fallback
     * event on the span. An attempt of a model that says it streams its calls ({@link ModelDefaults#streams()}) sets
     * {@code gen_ai.request.stream} (conditionally required for streamed requests) before it is sent. Its stream
     * observer also tells the span that the call streamed: the first chunk sets
     * {@code gen_ai.request.stream} (for a model that does not say) and
     * {@code gen_ai.response.time_to_first_chunk} and records the time-to-first-chunk metric, once
     * per call however many attempts it takes; each later chunk records the time-per-output-chunk metric.
     * Everything else (which thread its calls run on, the wrapped model's defaults) is the wrapped model's,
     * forwarded by {@link ForwardingModel}: a stage outside this one sees the model's provider through it.
     */
    private static final class InContext extends ForwardingModel {
        private final Context context;
        private final RunTelemetry run;
        private final String provider;
        private final Server server;
        private final AtomicBoolean streamed;
        private final boolean startsWithArguments;

        InContext(Model model, Context context, RunTelemetry run, String provider, Server server, AtomicBoolean streamed,
                  boolean startsWithArguments) {
            super(model);
            this.context = context;
            this.run = run;
            this.provider = provider;
            this.server = server;
            this.streamed = streamed;
            this.startsWithArguments = startsWithArguments;
        }

        Context context() {
            return context;
        }

        @Override
        public ModelResponse call(ModelRequest request, ModelCallContext callContext) throws ModelException, InterruptedException {
            // the request this attempt sends, after every stage: its model may not be the one the span was opened with
            Span chat = Span.fromContext(context);
            int attempt = run.attemptAsks(chat, request.model(), provider, server);
            if (!run.replay() && streams(wrapped())) {
                // a streamed request whatever comes of it: also a call refused before its first chunk (HTTP 429, 400)
                chat.setAttribute(GenAiConventions.REQUEST_STREAM, true);
            }
            // a replay's text comes from the trace, not from a stream: it times no chunk of a call never made
            ModelCallContext observed = run.replay() ? callContext : new ModelCallContext(callContext.deadline(),
                    new FirstChunk(callContext.stream(), chat, run, provider, server, request.model(), streamed,
                            startsWithArguments, System.nanoTime()));
            // how the attempt failed, for the event of a fallback that may follow (the chain makes the same kinds of these)
            ModelResponse response;
            try (Scope ignored = context.makeCurrent()) {
                response = wrapped().call(request, observed);
            } catch (ModelException e) {
                run.attemptFailed(chat, attempt, e.kind().name(), e.httpStatus(), e.reportedUsage().orElse(null));
                throw e;
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception | Error e) {
                run.attemptFailed(chat, attempt, ModelException.Kind.OTHER.name(), 0, null);
                throw e;
            }
            if (response == null) {
                run.attemptFailed(chat, attempt, ModelException.Kind.MALFORMED_RESPONSE.name(), 0, null);
            }
            return response;
        }

        /** Whether {@code model} says it streams its calls ({@link ModelDefaults#streams()}); false when it fails to say. */
        private static boolean streams(Model model) {
            try {
                return model instanceof ModelDefaults defaults && defaults.streams();
            } catch (RuntimeException e) {
                return false; // an application's model that fails to say: tracing must not fail the call
            }
        }

        @Override
        public long countTokens(ModelRequest request) throws ModelException, InterruptedException {
            try (Scope ignored = context.makeCurrent()) {
                return wrapped().countTokens(request);
            }
        }
    }

    /**
     * Passes the stream on, marking the chat span at the first chunk of the attempt that sent one, and recording
     * the time each later chunk of the attempt took since the one before it. A chunk is one callback, but for a model
     * that tells a tool call's start with its first arguments ({@code startsWithArguments}): there the input fragment
     * right after the start of its call came in the same chunk, and is not counted again.
     */
    private static final class FirstChunk implements StreamObserver {
        private final StreamObserver next;
        private final Span span;
        private final RunTelemetry run;
        private final String provider;
        private final Server server;
        private final String requestModel;
        private final AtomicBoolean seen;
        private final boolean startsWithArguments;
        private final long sentNanos;
        /** The tool call whose start was the latest callback, when its first fragment would be in the same chunk; else null. */
        private String justStarted;
        /** When the attempt's last chunk came; 0 before its first (an attempt's chunks come on one thread). */
        private long lastChunkNanos;
        private Attributes chunkAttributes;

        FirstChunk(StreamObserver next, Span span, RunTelemetry run, String provider, Server server, String requestModel,
                   AtomicBoolean seen, boolean startsWithArguments, long sentNanos) {
            this.next = next;
            this.span = span;
            this.run = run;
            this.provider = provider;
            this.server = server;
            this.requestModel = requestModel;
            this.seen = seen;
            this.startsWithArguments = startsWithArguments;
            this.sentNanos = sentNanos;
        }

        private void chunk() {
            justStarted = null;
            long now = System.nanoTime();
            if (lastChunkNanos != 0) {
                if (chunkAttributes == null) {
                    chunkAttributes = run.instruments().chunkAttributes(provider, server, requestModel);
                }
                run.instruments().laterChunk(run.context().with(span), chunkAttributes, (now - lastChunkNanos) / 1e9);
            }
            lastChunkNanos = now;
            if (seen.compareAndSet(false, true)) {
                double seconds = (now - sentNanos) / 1e9;
                span.setAttribute(GenAiConventions.REQUEST_STREAM, true);
                span.setAttribute(GenAiConventions.RESPONSE_TIME_TO_FIRST_CHUNK, seconds);
                run.instruments().firstChunk(run.context().with(span), provider, server, requestModel, seconds);
            }
        }

        @Override
        public void onTextDelta(String text) {
            chunk();
            next.onTextDelta(text);
        }

        @Override
        public void onThinkingDelta(String thinking) {
            chunk();
            next.onThinkingDelta(thinking);
        }

        @Override
        public void onToolUseStart(String id, String name) {
            chunk();
            justStarted = startsWithArguments ? id : null;
            next.onToolUseStart(id, name);
        }

        @Override
        public void onToolInputDelta(String id, String partialJson) {
            if (justStarted != null && justStarted.equals(id)) {
                justStarted = null; // the chunk that started the call: counted at its start
            } else {
                chunk();
            }
            next.onToolInputDelta(id, partialJson);
        }
    }
}
