package dev.rein.otel.internal;

import static dev.rein.otel.GenAiConventions.ERROR_TYPE;
import static dev.rein.otel.GenAiConventions.OPERATION_NAME;
import static dev.rein.otel.GenAiConventions.PROVIDER_NAME;
import static dev.rein.otel.GenAiConventions.REQUEST_MODEL;

import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.OutputSchema;
import dev.rein.model.SamplingSeed;
import dev.rein.model.StopReason;
import dev.rein.model.Usage;
import dev.rein.otel.GenAiConventions;
import dev.rein.otel.ReinConventions;
import dev.rein.trace.TraceEvent;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * The {@code chat} spans of one run, from the model-call trace events: one span per call of the
 * loop (its retries are span events), a child of the run span. The loop makes one model call at
 * a time, so at most one is open.
 */
final class ModelSpans {
    /** The purposes of the agent's own model calls (AgentLoop's): a step, and the summary of a run stopped early. */
    private static final String AGENT_STEP = "step";
    private static final String FINAL_SUMMARY = "final_summary";

    private final RunTelemetry run;
    private Span open;
    private String openModel;
    /** The provider of the open call: the run's, or its own model's once that is known (a critic's may differ). */
    private String openProvider;
    /** The provider name the open call's model gives itself, whose API's words its finish reasons are in; null when unknown. */
    private String openDialect;
    /**
     * The API the model the open call's latest attempt reached says it calls ({@link dev.rein.provider.ModelDefaults#apiType()}),
     * the span's {@code openai.api.type} on a call to provider {@code openai}; null before an attempt or when it says none.
     */
    private String openApiType;
    /** The open call's request. */
    private ModelRequest openRequest;
    /** The server of the open call: the configured one, else its model's (a critic's or a fallback's may differ); null when unknown. */
    private Server openServer;
    private Instant openedAt;
    /** The open call's purpose: the agent's own ("step", "final_summary") answer the run, a policy's do not. */
    private String openPurpose;
    /** The model and provider the open call's latest attempt went to; null before its first attempt. */
    private String attemptModel;
    private String attemptProvider;
    /** The server the open call's latest attempt went to (null: unknown); the span's learns the next attempt's. */
    private Server attemptServer;
    /** How the latest attempt failed (its error.type and HTTP status, 0 for none); null while it runs or when it answered. */
    private String attemptError;
    private int attemptStatus;
    /**
     * The usage the latest failed attempt's server reported, until an event says it: its retry's or the call's failure
     * (from the trace), else the fallback event of the attempt a stage moved on to (or, when a stage called the same
     * model again, the token metric alone); null when none is left to say.
     */
    private Usage attemptUsage;
    /**
     * The usages the fallback events of the open call have said, of the attempts a stage moved on from (by identity: the
     * failure a stage rethrows carries its own), so a stage rethrowing such a failure as the call's (a backup failed
     * too) does not count it again. A retry's event is not among them: the retry stage sits below every application
     * stage and never lets a failure it retried out. Two attempts may report one Usage instance (a model with a constant
     * usage for its failures), so the last attempt's usage, not yet said, comes before this in {@link #failed}.
     */
    private final Set<Usage> saidUsages = Collections.newSetFromMap(new IdentityHashMap<>());
    /**
     * The usages of failed attempts after which a stage called the same model again, counted in the token metric but said
     * by no event (by identity, as {@link #saidUsages}): a stage rethrowing such a failure as the call's does not count it
     * again, but the span still shows it when the last attempt left no usage of its own.
     */
    private final Set<Usage> countedUsages = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Counts the open call's attempts, so a late failure of one the deadline stage abandoned is not taken for a later one's. */
    private int attempts;

    ModelSpans(RunTelemetry run) {
        this.run = run;
    }

    synchronized void requested(TraceEvent.ModelRequested e) {
        endOpen(e.time(), "_OTHER", "a new model call began before this one ended");
        ModelRequest r = e.request();
        Settings s = run.telemetry().settings;
        SpanBuilder b = run.telemetry().tracer.spanBuilder(GenAiConventions.OPERATION_CHAT + " " + r.model())
                .setParent(run.context())
                .setSpanKind(SpanKind.CLIENT)
                .setStartTimestamp(e.time())
                .setAttribute(OPERATION_NAME, GenAiConventions.OPERATION_CHAT)
                .setAttribute(REQUEST_MODEL, r.model())
                .setAttribute(GenAiConventions.REQUEST_MAX_TOKENS, (long) r.maxTokens())
                .setAttribute(GenAiConventions.CONVERSATION_ID, run.runId())
                .setAttribute(ReinConventions.MODEL_PURPOSE, e.purpose());
        if (run.replay()) {
            b.setAttribute(ReinConventions.REPLAY, true);
        }
        // At span creation, as the conventions ask (samplers see it): the configured name, else the called model's own
        // (a critic's may be another provider's than the agent's), else the run's
        String provider = run.telemetry().settings.providerName() == null && e.provider() != null ? e.provider() : run.providerName();
        if (provider != null) {
            b.setAttribute(PROVIDER_NAME, provider);
        }
        // Likewise the server: the configured one, else the called model's (sampling-relevant in the conventions too)
        Server server = s.server() != null ? s.server() : Server.of(e.server());
        if (server != null) {
            b.setAttribute(GenAiConventions.SERVER_ADDRESS, server.address()).setAttribute(GenAiConventions.SERVER_PORT, (long) server.port());
        }
        b.setAllAttributes(samplingParameters(r, e.provider()));
        if (AGENT_STEP.equals(e.purpose())) {
            run.agentRequested(r, e.provider());
        }
        // Conditionally required when the request asks for an output format: an output schema asks for JSON.
        if (r.option(OutputSchema.class).isPresent()) {
            b.setAttribute(GenAiConventions.OUTPUT_TYPE, GenAiConventions.OUTPUT_TYPE_JSON);
            run.requestedJson();
        }
        open = b.startSpan();
        openModel = r.model();
        openProvider = provider;
        openDialect = e.provider();
        openApiType = null;
        openRequest = r;
        openServer = server;
        openedAt = e.time();
        openPurpose = e.purpose();
        attemptModel = null;
        attemptProvider = null;
        attemptServer = null;
        attemptError = null;
        attemptUsage = null;
        saidUsages.clear();
        countedUsages.clear();
        run.telemetry().offerChat(run.context().with(open), run);
        if (run.capture()) {
            if (!r.system().isEmpty()) {
                open.setAttribute(GenAiConventions.SYSTEM_INSTRUCTIONS, Content.systemInstructions(r.system()));
            }
            open.setAttribute(GenAiConventions.INPUT_MESSAGES, Content.inputMessages(r.messages()));
            if (!r.tools().isEmpty()) {
                open.setAttribute(GenAiConventions.TOOL_DEFINITIONS, Content.toolDefinitions(r.tools()));
            }
        }
    }

    /** The open call goes to a model of {@code provider}: its span, finish reasons and metrics say so. */
    synchronized void calledProvider(Span chat, String provider) {
        chat.setAttribute(PROVIDER_NAME, provider);
        if (open == chat) {
            openProvider = provider;
        }
    }

    /** The open call goes to a model whose calls go to {@code server} (not configured): its span and metrics say so. */
    synchronized void calledServer(Span chat, Server server) {
        chat.setAttribute(GenAiConventions.SERVER_ADDRESS, server.address());
        chat.setAttribute(GenAiConventions.SERVER_PORT, (long) server.port());
        if (open == chat) {
            openServer = server;
        }
    }

    /** The server the open call's span names, when {@code chat} is that span; else the configured one (null: none). */
    synchronized Server server(Span chat) {
        return open == chat ? openServer : run.telemetry().settings.server();
    }

    /**
     * The open call goes to a model that names its provider {@code dialect} (null: it names none), whatever the spans call
     * it, and says it calls API {@code apiType} (null: it says none).
     */
    synchronized void speaks(Span chat, String dialect, String apiType) {
        if (open == chat) {
            openDialect = dialect;
            openApiType = apiType;
            // the seed this model sends, learnt only now (a model that named no provider when the call began)
            SamplingSeed.sentTo(dialect, openRequest).ifPresent(seed -> chat.setAttribute(GenAiConventions.REQUEST_SEED, seed));
        }
    }

    /**
     * An attempt of the open call asks for {@code requestModel} of {@code provider} (null: unknown): a stage may
     * have changed the request's model after the span was opened (a fallback's {@code request.withModel(backup)}),
     * or the model it calls ({@code call.withModel}), maybe another provider's. The conventions name the span
     * {@code {gen_ai.operation.name} {gen_ai.request.model}}, the model the request is made to, so the span's
     * name, its attribute and the call's metrics follow the attempt; the last attempt's is the one kept. An
     * attempt that goes to another model or provider than the one before it is a fallback: a
     * {@code rein.model.fallback} event keeps which model and provider the call moved from, to which, and how
     * the attempt before failed, as a retry's event does (a retry of the same model has its own event).
     * {@code server} is the one the attempt goes to (null: unknown), which the tokens of a failed attempt the next
     * one leaves are counted with: by then the span has learnt the next attempt's server.
     * Returns the attempt's number, for {@link #attemptFailed}; 0 when {@code chat} is not the open call's span.
     */
    synchronized int attemptAsks(Span chat, String requestModel, String provider, Server server) {
        if (open != chat) {
            return 0;
        }
        if (attemptModel != null && (!requestModel.equals(attemptModel) || !Objects.equals(provider, attemptProvider))) {
            AttributesBuilder a = Attributes.builder().put(ReinConventions.FALLBACK_FROM_MODEL, attemptModel);
            if (attemptProvider != null) {
                a.put(ReinConventions.FALLBACK_FROM_PROVIDER, attemptProvider);
            }
            a.put(ReinConventions.FALLBACK_TO_MODEL, requestModel);
            if (provider != null) {
                a.put(ReinConventions.FALLBACK_TO_PROVIDER, provider);
            }
            if (attemptError != null) { // none when the stage moved on from an answer it did not take
                a.put(ERROR_TYPE, attemptError);
            }
            if (attemptStatus > 0) {
                a.put(GenAiConventions.HTTP_RESPONSE_STATUS_CODE, (long) attemptStatus);
            }
            if (attemptUsage != null) { // a stage moved on from it: no trace event of the run says this usage
                a.putAll(usage(attemptUsage));
                saidUsages.add(attemptUsage);
                if (!attemptUsage.estimated()) {
                    run.instruments().tokensUsed(chatContext(), attemptProvider, attemptServer, attemptModel, null,
                            attemptUsage.totalInputTokens(), attemptUsage.outputTokens());
                }
            }
            open.addEvent(ReinConventions.EVENT_MODEL_FALLBACK, a.build());
        } else if (attemptUsage != null) {
            // an application's stage called the same model again after a failure the retry stage (below every such
            // stage) did not retry: no retry or fallback event says that attempt, so its tokens are counted here, and
            // remembered, should the stage rethrow that failure as the call's (the span then shows it, uncounted)
            countedUsages.add(attemptUsage);
            if (!attemptUsage.estimated()) {
                run.instruments().tokensUsed(chatContext(), attemptProvider, attemptServer, attemptModel, null,
                        attemptUsage.totalInputTokens(), attemptUsage.outputTokens());
            }
        }
        attemptModel = requestModel;
        attemptProvider = provider;
        attemptServer = server;
        attemptError = null;
        attemptStatus = 0;
        attemptUsage = null;
        if (!requestModel.equals(openModel)) {
            open.updateName(GenAiConventions.OPERATION_CHAT + " " + requestModel);
            open.setAttribute(REQUEST_MODEL, requestModel);
            openModel = requestModel;
        }
        return ++attempts;
    }

    /**
     * Attempt {@code attempt} of the open call failed with {@code kind} (a {@link dev.rein.model.ModelException.Kind}'s
     * name), {@code httpStatus} (0: none) and the usage its server reported ({@code reportedUsage}, null: none), kept
     * for the fallback event of the attempt that may follow.
     */
    synchronized void attemptFailed(Span chat, int attempt, String kind, int httpStatus, Usage reportedUsage) {
        if (open == chat && attempt == attempts) {
            attemptError = errorType(kind, httpStatus);
            attemptStatus = httpStatus;
            attemptUsage = reportedUsage;
        }
    }

    /** The provider the open call's span names, when {@code chat} is that span; else the run's. */
    synchronized String provider(Span chat) {
        return open == chat ? openProvider : run.providerName();
    }

    /**
     * The request's sampling parameters (the seed it sends to a model of {@code provider}, the called model's own name
     * for its provider, null when unknown, among them): only those it sets, as unset ones are the provider's defaults,
     * not ours to report. The chat span and (for the agent's first step) the run span take them.
     */
    static Attributes samplingParameters(ModelRequest r, String provider) {
        AttributesBuilder a = Attributes.builder();
        if (r.temperature() != null) {
            a.put(GenAiConventions.REQUEST_TEMPERATURE, r.temperature());
        }
        if (r.topP() != null) {
            a.put(GenAiConventions.REQUEST_TOP_P, r.topP());
        }
        if (r.topK() != null) {
            a.put(GenAiConventions.REQUEST_TOP_K, r.topK().longValue());
        }
        if (!r.stopSequences().isEmpty()) {
            a.put(GenAiConventions.REQUEST_STOP_SEQUENCES, r.stopSequences());
        }
        // conditionally required when the request includes one: an option only the called model's provider sends
        SamplingSeed.sentTo(provider, r).ifPresent(seed -> a.put(GenAiConventions.REQUEST_SEED, seed));
        return a.build();
    }

    synchronized void retry(TraceEvent.ModelRetry e) {
        if (open == null) {
            return;
        }
        AttributesBuilder a = Attributes.builder().put(ReinConventions.ATTEMPT, (long) e.attempt())
                .put(ERROR_TYPE, errorType(e.errorKind(), e.httpStatus()))
                .put(ReinConventions.DELAY_MS, e.delayMillis())
                .put(ReinConventions.MESSAGE, e.message() == null ? "" : e.message());
        if (e.httpStatus() > 0) {
            a.put(GenAiConventions.HTTP_RESPONSE_STATUS_CODE, (long) e.httpStatus());
        }
        if (e.reportedUsage() != null) { // the failed attempt's: the span's own are the answer's, or the last failure's
            a.putAll(usage(e.reportedUsage()));
            reportedTokens(e.reportedUsage());
        }
        attemptUsage = null; // said here, when there was any: not again on a fallback event
        open.addEvent(ReinConventions.EVENT_MODEL_RETRY, a.build(), e.time());
    }

    synchronized void responded(TraceEvent.ModelResponded e) {
        if (open == null) {
            return;
        }
        ModelResponse r = e.response();
        Usage u = e.usage();
        StopReason stop = r.stopReason() == null ? StopReason.UNKNOWN : r.stopReason();
        if (r.id() != null) {
            open.setAttribute(GenAiConventions.RESPONSE_ID, r.id());
        }
        if (r.model() != null) {
            open.setAttribute(GenAiConventions.RESPONSE_MODEL, r.model());
        }
        // The provider's own word when the model gave it (a reason Rein has no value for stays itself, not "unknown")
        List<String> finishReasons = List.of(r.providerStopReason() != null && !r.providerStopReason().isBlank()
                ? r.providerStopReason() : FinishReasons.asReported(stop, openDialect != null ? openDialect : openProvider));
        open.setAttribute(GenAiConventions.RESPONSE_FINISH_REASONS, finishReasons);
        if (AGENT_STEP.equals(openPurpose) || FINAL_SUMMARY.equals(openPurpose)) {
            run.agentAnswered(finishReasons);
        }
        open.setAllAttributes(usage(u));
        if (e.costUsd() != null) {
            open.setAttribute(ReinConventions.MODEL_COST_USD, e.costUsd().doubleValue());
        }
        if (r.serviceTier() != null) {
            open.setAttribute(ReinConventions.MODEL_SERVICE_TIER, r.serviceTier());
        }
        // the conventions' attribute is OpenAI's own, "the service tier used for the response" as OpenAI named it, the
        // standard "default" too (which is no tier for pricing); a trace written before the provider's name has the tier
        String servedTier = r.providerServiceTier() != null ? r.providerServiceTier() : r.serviceTier();
        // the conventions' OpenAI metrics add the tier and the fingerprint to the call's token and duration points
        AttributesBuilder openAiMetric = Attributes.builder();
        if (openAi()) {
            if (servedTier != null) {
                openAiMetric.put(GenAiConventions.OPENAI_RESPONSE_SERVICE_TIER, servedTier);
            }
            if (r.systemFingerprint() != null) {
                openAiMetric.put(GenAiConventions.OPENAI_RESPONSE_SYSTEM_FINGERPRINT, r.systemFingerprint());
            }
            open.setAllAttributes(openAiMetric.build());
        }
        if (e.pricing() != null) {
            open.setAttribute(ReinConventions.MODEL_PRICING, e.pricing());
        }
        if (run.capture()) {
            open.setAttribute(GenAiConventions.OUTPUT_MESSAGES, Content.outputMessages(r.content(), FinishReasons.wellKnown(stop)));
        }
        endSpan(e.time());
        run.instruments().modelCall(chatContext(), openProvider, openServer, openModel, r.model(), openAiMetric.build(), u.totalInputTokens(),
                u.outputTokens(), !u.estimated(), e.durationMillis() / 1000.0);
        open = null;
    }

    /**
     * Whether the open call goes to provider {@code openai}, whose attributes of the conventions (their OpenAI page) its
     * span and metrics take: decided by the provider the span names, as a compatible server named otherwise ({@code groq})
     * is not OpenAI, and by the model the call's last attempt reached, whose answer (or failure) it is: the configured
     * provider name when one is (it names every model), else that model's own name, else (it names none) the default
     * name. A call a fallback stage moved from rein-openai's model to one naming no provider keeps the span's
     * {@code openai}, the call's first attempt's, but its answer's fingerprint and tier are not OpenAI's.
     */
    private boolean openAi() {
        Settings s = run.telemetry().settings;
        String answering = s.providerName() != null ? s.providerName() : openDialect != null ? openDialect : s.defaultProviderName();
        return "openai".equals(openProvider) && "openai".equals(answering);
    }

    /**
     * Ends the open call's span, answered or failed, with {@code openai.api.type} on a call to provider {@code openai}
     * ({@link #openAi()}) when the model its last attempt reached said which API it calls: not from the provider's name,
     * as a model of one's own naming provider {@code openai} may call the Responses API. A failed call went to that API
     * all the same; a call no model was reached for has none.
     */
    private void endSpan(Instant time) {
        if (openAi() && openApiType != null) {
            open.setAttribute(GenAiConventions.OPENAI_API_TYPE, openApiType);
        }
        open.end(time);
        run.telemetry().withdrawChat();
    }

    /** The open call's span in the run's context: what the call's metric points are recorded with, for their exemplars. */
    private Context chatContext() {
        return run.context().with(open);
    }

    /**
     * A call's {@code gen_ai.usage.*} (input with the cached part, as the conventions ask; the reasoning part only when a
     * provider reports it apart, as OpenAI's reasoning_tokens) and {@code rein.usage.estimated} when they are an estimate.
     */
    private static Attributes usage(Usage u) {
        AttributesBuilder a = Attributes.builder()
                .put(GenAiConventions.USAGE_INPUT_TOKENS, u.totalInputTokens())
                .put(GenAiConventions.USAGE_OUTPUT_TOKENS, u.outputTokens())
                .put(GenAiConventions.USAGE_CACHE_READ_INPUT_TOKENS, u.cacheReadInputTokens())
                .put(GenAiConventions.USAGE_CACHE_CREATION_INPUT_TOKENS, u.cacheWriteInputTokens());
        if (u.reasoningOutputTokens() > 0) {
            a.put(GenAiConventions.USAGE_REASONING_OUTPUT_TOKENS, u.reasoningOutputTokens());
        }
        if (u.estimated()) {
            a.put(ReinConventions.USAGE_ESTIMATED, true);
        }
        return a.build();
    }

    /**
     * The tokens a failed attempt's server reported it used, into {@code gen_ai.client.token.usage} (the conventions ask
     * for it when the usage is "readily available", as in a streamed response), but not an estimate, as for an answer.
     */
    private void reportedTokens(Usage u) {
        if (!u.estimated()) {
            run.instruments().tokensUsed(chatContext(), openProvider, openServer, openModel, null, u.totalInputTokens(), u.outputTokens());
        }
    }

    synchronized void failed(TraceEvent.ModelFailed e) {
        if (e.httpStatus() > 0 && open != null) {
            open.setAttribute(GenAiConventions.HTTP_RESPONSE_STATUS_CODE, (long) e.httpStatus());
        }
        Usage reported = e.reportedUsage();
        // the last attempt's failure, or one whose usage no event said nor the metric counted (one that was: a stage
        // rethrew that attempt's failure as the call's); the last attempt's first, as an earlier one may have reported
        // the same instance
        if (reported != null && open != null && (reported == attemptUsage
                || !saidUsages.contains(reported) && !countedUsages.contains(reported))) {
            // what the server reported before the call failed: no cost (a failed call charges nothing), nor in the run's sum
            open.setAllAttributes(usage(reported));
            reportedTokens(reported);
        } else if (attemptUsage != null && open != null) {
            // a stage ended the call with another failure than its last attempt's (an earlier one's, or its own): the
            // last attempt's usage, which no event says, is still what the call's server reported
            open.setAllAttributes(usage(attemptUsage));
            if (!attemptUsage.estimated()) {
                run.instruments().tokensUsed(chatContext(), attemptProvider, attemptServer, attemptModel, null,
                        attemptUsage.totalInputTokens(), attemptUsage.outputTokens());
            }
        } else if (reported != null && open != null && !saidUsages.contains(reported)) {
            // a stage rethrew the failure of an attempt after which it called the same model again, and the last attempt
            // left no usage: no event says the rethrown failure's usage, so the span does; the metric counted it already
            open.setAllAttributes(usage(reported));
        }
        attemptUsage = null;
        // The provider's message only with the opt-in; without it the description would repeat error.type.
        endOpen(e.time(), errorType(e.errorKind(), e.httpStatus()), run.capture() ? e.message() : null);
    }

    /**
     * Ends a call the run gave up on without a model event (its deadline passed, it was cancelled),
     * or that failed; {@code description} is null when there is nothing to say beyond the error type.
     */
    synchronized void endOpen(Instant time, String errorType, String description) {
        if (open == null) {
            return;
        }
        open.setAttribute(ERROR_TYPE, errorType);
        ErrorStatus.set(open, description);
        endSpan(time);
        run.instruments().failedModelCall(chatContext(), openProvider, openServer, openModel, errorType, Duration.between(openedAt, time).toMillis() / 1000.0);
        open = null;
    }

    /**
     * A low-cardinality error type: the failure's kind (rate_limited, overloaded, timeout...); the
     * HTTP status is its own attribute. A failure of no known kind (OTHER) takes the conventions'
     * fallback value _OTHER, which they say must be used where it applies.
     */
    static String errorType(String kind, int httpStatus) {
        return kind == null || kind.isBlank() || kind.equalsIgnoreCase("other") ? "_OTHER" : kind.toLowerCase(Locale.ROOT);
    }
}
