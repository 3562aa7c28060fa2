package dev.rein.otel.internal;

import static dev.rein.otel.GenAiConventions.AGENT_NAME;
import static dev.rein.otel.GenAiConventions.CONVERSATION_ID;
import static dev.rein.otel.GenAiConventions.OPERATION_NAME;

import dev.rein.model.Model;
import dev.rein.model.ModelRequest;
import dev.rein.provider.ModelDefaults;
import dev.rein.run.Reason;
import dev.rein.run.RunStatus;
import dev.rein.otel.GenAiConventions;
import dev.rein.otel.ReinConventions;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The telemetry of one run (one segment of it: a resumed run gets a new listener): the
 * {@code invoke_agent} span and what hangs off it, built from the run's trace events. The events
 * arrive already masked, so opt-in content carries no secret the JSONL trace would not.
 */
final class RunTelemetry implements RunListener {
    private static final Logger LOG = LoggerFactory.getLogger(RunTelemetry.class);

    /**
     * The reasons whose end message quotes the conversation: the model's refusal text, the agent's
     * own failure summary or question, a stall notice (it may quote tool arguments), the
     * verifiers' or the schema's objections to the answer. Without the content opt-in such a run's
     * span has no status description; the other messages are Rein's own words.
     */
    private static final Set<String> QUOTES_CONVERSATION = Set.of(Reason.REFUSAL.wire(), Reason.AGENT_FAILED.wire(),
            Reason.NEEDS_USER_INPUT.wire(), Reason.STALLED.wire(), Reason.VERIFICATION_FAILED.wire(), Reason.INVALID_OUTPUT.wire());

    private final Telemetry telemetry;
    private final String runId;
    private final Context parent;
    private final ModelSpans model = new ModelSpans(this);
    private final ToolSpans tools = new ToolSpans(this);
    private volatile Span span;
    private volatile Context context;
    /**
     * The provider's name, from the settings, else from the agent's model, else (it names none) the settings' default,
     * else (the run was not told its model) from the model of the first call; until then {@link #providerName()} is the default.
     */
    private volatile String providerName;
    private final UsageSum usage = new UsageSum();
    /** Whether the run span has gen_ai.request.model (a resumption and a start name the model; a reply does not). */
    private volatile boolean modelSet;
    /** The run span's gen_ai.request.model, for gen_ai.invoke_agent.duration; null until known. */
    private volatile String requestModel;
    /** When the run span started, for gen_ai.invoke_agent.duration (the span's duration). */
    private volatile Instant startedAt;
    /** This segment began with a reply's turn; its state change names the status it continued from. */
    private volatile boolean replyOpened;
    private volatile boolean resumedFromSet;
    /** Whether the run span has this segment's first step's request parameters. */
    private volatile boolean requestParametersSet;
    /** Null until the first event; then whether this listener traces the run (false: its telemetry is on the agent twice). */
    private volatile Boolean tracing;
    /** Whether the run is a replay from a recorded trace ({@link #replays}): its spans say so, and it records no metric. */
    private final boolean replay;


    RunTelemetry(Telemetry telemetry, String runId, Context parent, Model model) {
        this.telemetry = telemetry;
        this.runId = runId;
        this.parent = parent;
        this.context = parent;
        this.replay = replays(model);
        // At span creation, as the conventions ask (samplers see it): the configured name, else the agent's model's,
        // else (a model that names none) the default; a run not told its model learns it from the first call.
        String configured = telemetry.settings.providerName();
        String own = model instanceof ModelDefaults defaults ? defaults.providerName() : null;
        this.providerName = configured != null ? configured : own != null || model == null ? own : telemetry.settings.defaultProviderName();
    }

    /**
     * Whether {@code model} answers from a recorded trace (a replay): no provider is called, so a replayed call has no
     * latency, streams nothing and spends no tokens that the recorded run did not report already.
     */
    static boolean replays(Model model) {
        return dev.rein.replay.Replay.answersFromRecording(model);
    }

    /** Whether this run is a replay: its spans carry {@code rein.replay}, and it records no metric. */
    boolean replay() {
        return replay;
    }

    /** The instruments this run records with: none for a replay, whose calls were counted when the run was recorded. */
    Instruments instruments() {
        return replay ? telemetry.replayInstruments : telemetry.instruments;
    }

    /** Where this run's segments remember their spans for the next segment's link: a replay's are its own. */
    private dev.rein.otel.SpanLinkStore links() {
        return replay ? telemetry.replayLinks : telemetry.links;
    }

    /** The run's provider: as {@link #providerName} has it, else the settings' default (for a model that names none), else null. */
    String providerName() {
        String name = providerName;
        return name != null ? name : telemetry.settings.defaultProviderName();
    }

    /**
     * Learns the provider's name from the model a call goes to, when the settings name none: it is
     * required on the run span, the chat spans and the client metrics. The chat span of the call
     * was opened with the agent's model's provider (or none, when the run was not told its model or
     * that names none), so it gets the name of the model the call reached here. Each call names the
     * provider of its own model (a critic or a fallback may use another provider's); the run span
     * keeps the agent's, or takes the first call's when it had none. The API the model says it calls
     * ({@link ModelDefaults#apiType()}) is kept for the span's {@code openai.api.type}, set when the span's provider is
     * {@code openai} and the model's own name (or the configured or default one, for a model naming none) is too
     * ({@code ModelSpans.openAi}). Returns the call's provider, null when unknown.
     */
    String learnProvider(Model model, Span chat) {
        String name = model instanceof ModelDefaults defaults ? defaults.providerName() : null;
        // the finish reasons are in the words of the API the model speaks, whatever name the provider is given
        this.model.speaks(chat, name, apiType(model));
        if (telemetry.settings.providerName() != null) {
            return providerName; // configured (say for a gateway): every span says it
        }
        if (name == null) {
            return this.model.provider(chat);
        }
        this.model.calledProvider(chat, name);
        if (providerName == null) {
            providerName = name;
            Span run = span;
            if (run != null) {
                run.setAttribute(GenAiConventions.PROVIDER_NAME, name);
            }
        }
        return name;
    }

    /** The API {@code model} says it calls ({@link ModelDefaults#apiType()}); null when it says none or fails to say. */
    private static String apiType(Model model) {
        try {
            return model instanceof ModelDefaults defaults ? defaults.apiType() : null;
        } catch (RuntimeException e) {
            return null; // an application's model that fails to say: tracing must not fail the call
        }
    }

    /**
     * The server the call whose span is {@code chat} goes to with {@code model}: the configured one, else the
     * model's own ({@link ModelDefaults#serverUri()}; a fallback's may differ from the one the span began with),
     * else the one the span has; null when none is known.
     */
    Server learnServer(Model model, Span chat) {
        Server configured = telemetry.settings.server();
        if (configured != null) {
            return configured;
        }
        Server own;
        try {
            own = Server.of(model instanceof ModelDefaults defaults ? defaults.serverUri() : null);
        } catch (RuntimeException e) {
            own = null; // an application's model that fails to say: tracing must not fail the call
        }
        if (own == null) {
            return this.model.server(chat);
        }
        this.model.calledServer(chat, own);
        return own;
    }

    /**
     * An attempt of the call whose span is {@code chat} asks for {@code requestModel} of {@code provider}
     * (see {@link ModelSpans#attemptAsks}).
     */
    int attemptAsks(Span chat, String requestModel, String provider, Server server) {
        return model.attemptAsks(chat, requestModel, provider, server);
    }

    /** An attempt of the call whose span is {@code chat} failed (see {@link ModelSpans#attemptFailed}). */
    void attemptFailed(Span chat, int attempt, String kind, int httpStatus, dev.rein.model.Usage reportedUsage) {
        model.attemptFailed(chat, attempt, kind, httpStatus, reportedUsage);
    }

    /**
     * The agent's first step of this segment asks with {@code request}: the invoke_agent span takes its request
     * parameters the conventions list for it (max_tokens, temperature, top_p, stop_sequences, and the seed it sends to a
     * model of {@code provider}, null when unknown), as the agent's, and
     * with the content opt-in its system instructions and tool definitions (opt-in on the span there too). Later
     * steps ask alike (a step limited by the budget may ask for fewer tokens); a policy's or a critic's call does not count.
     */
    void agentRequested(ModelRequest request, String provider) {
        Span run = span;
        if (run != null && !requestParametersSet) {
            requestParametersSet = true;
            run.setAttribute(GenAiConventions.REQUEST_MAX_TOKENS, (long) request.maxTokens());
            // top_k is the inference span's, not listed for invoke_agent
            run.setAllAttributes(ModelSpans.samplingParameters(request, provider).toBuilder().remove(GenAiConventions.REQUEST_TOP_K).build());
            if (capture()) {
                // the agent's instructions and tools, opt-in attributes of the internal invoke_agent span too
                if (!request.system().isEmpty()) {
                    run.setAttribute(GenAiConventions.SYSTEM_INSTRUCTIONS, Content.systemInstructions(request.system()));
                }
                if (!request.tools().isEmpty()) {
                    run.setAttribute(GenAiConventions.TOOL_DEFINITIONS, Content.toolDefinitions(request.tools()));
                }
            }
        }
    }

    /** The agent's model answered (a step or the final summary) for {@code finishReasons}: the latest is the run's. */
    void agentAnswered(List<String> finishReasons) {
        Span run = span;
        if (run != null) {
            run.setAttribute(GenAiConventions.RESPONSE_FINISH_REASONS, finishReasons);
        }
    }

    /** The run's answer must match an output schema: the agent invocation asks for JSON, as its model calls do. */
    void requestedJson() {
        Span run = span;
        if (run != null) {
            run.setAttribute(GenAiConventions.OUTPUT_TYPE, GenAiConventions.OUTPUT_TYPE_JSON);
        }
    }

    @Override
    public void onEvent(TraceEvent event) {
        if (tracing == null) { // a run's events come one at a time
            tracing = telemetry.claim(runId, this, event);
        }
        if (!tracing) {
            return;
        }
        switch (event) {
            case TraceEvent.RunStarted e -> started(e);
            case TraceEvent.RunResumed e -> resumed(e);
            case TraceEvent.ModelRequested e -> {
                requestedModel(e.request().model());
                tools.offered(e.request().tools());
                model.requested(e);
            }
            case TraceEvent.ModelResponded e -> {
                model.responded(e);
                usage.add(e.usage());
                tools.proposed(e.response().toolUses());
            }
            case TraceEvent.ModelRetry e -> model.retry(e);
            case TraceEvent.ModelFailed e -> model.failed(e);
            case TraceEvent.ModelFallback e -> { } // the span's rein.model.fallback event comes from the attempts themselves
            case TraceEvent.ToolCalled e -> tools.called(e);
            case TraceEvent.ToolCompleted e -> tools.completed(e);
            case TraceEvent.ToolRetry e -> tools.event(e.callId(), ReinConventions.EVENT_TOOL_RETRY, Attributes.of(
                    ReinConventions.ATTEMPT, (long) e.attempt(), ReinConventions.ERROR_CLASS, e.errorClass(),
                    ReinConventions.DELAY_MS, e.delayMillis()), e.time());
            case TraceEvent.OutputTruncated e -> truncated(e);
            case TraceEvent.StallDetected e -> stall(e);
            case TraceEvent.Intervention e -> intervention(e);
            case TraceEvent.ContextEdited e -> runEvent(ReinConventions.EVENT_CONTEXT_EDITED, Attributes.of(
                    ReinConventions.CONTEXT_EDIT, e.edit(), ReinConventions.TOKENS_BEFORE, e.tokensBefore(),
                    ReinConventions.TOKENS_AFTER, e.tokensAfter()), e.time());
            case TraceEvent.ApprovalRequested e -> {
                tools.approvalRequested(e);
                instruments().approval(context, "requested");
            }
            case TraceEvent.ApprovalDecided e -> {
                tools.approvalDecided(e);
                runEvent(ReinConventions.EVENT_APPROVAL_DECIDED, decisionAttributes(e), e.time());
                instruments().approval(context, e.decision());
            }
            case TraceEvent.Audit e -> audit(e);
            case TraceEvent.StateChanged e -> stateChanged(e);
            case TraceEvent.TokensCounted e -> { } // an estimate for a context policy, not a generation
            case TraceEvent.UsageEstimated e -> { } // the estimated usage reached the spans with its model_response
            case TraceEvent.TurnStarted e -> turnStarted(e);
            case TraceEvent.RunFinished e -> finished(e);
        }
    }

    private void started(TraceEvent.RunStarted e) {
        SpanBuilder b = runSpan(e.time());
        if (e.model() != null) {
            b.setAttribute(GenAiConventions.REQUEST_MODEL, e.model());
            requestModel = e.model();
            modelSet = true;
        }
        limits(b, e.limits());
        begin(b);
        if (capture()) {
            span.setAttribute(GenAiConventions.INPUT_MESSAGES, Content.goal(e.goal()));
        }
    }

    private void resumed(TraceEvent.RunResumed e) {
        SpanBuilder b = runSpan(e.time());
        if (e.from() != null) {
            b.setAttribute(ReinConventions.RUN_RESUMED_FROM, e.from().name());
        }
        if (e.model() != null) { // absent in traces written before the resumption recorded it
            b.setAttribute(GenAiConventions.REQUEST_MODEL, e.model());
            requestModel = e.model();
            modelSet = true;
        }
        limits(b, e.limits());
        Optional<SpanContext> earlier = recall();
        earlier.ifPresent(b::addLink);
        begin(b);
    }

    /**
     * A reply (agent.reply, rein reply) opens its segment with the turn, not with a resumption:
     * the segment continues the run all the same, so its span links to the previous segment's,
     * and with the opt-in the reply is its input.
     */
    private void turnStarted(TraceEvent.TurnStarted e) {
        if (span == null) {
            SpanBuilder b = runSpan(e.time());
            if (e.model() != null) { // absent in traces written before the turn recorded it: the first call names it
                b.setAttribute(GenAiConventions.REQUEST_MODEL, e.model());
                requestModel = e.model();
                modelSet = true;
            }
            limits(b, e.limits()); // the replying agent's, which may differ from the first segment's
            recall().ifPresent(b::addLink);
            begin(b);
            replyOpened = true;
            if (capture() && e.text() != null) {
                span.setAttribute(GenAiConventions.INPUT_MESSAGES, Content.goal(e.text()));
            }
        }
        runEvent(ReinConventions.EVENT_TURN_STARTED, Attributes.of(ReinConventions.TURN, (long) e.turn()), e.time());
    }

    /** The status a reply's segment continued from comes with the state change that follows the turn. */
    private void stateChanged(TraceEvent.StateChanged e) {
        Span run = span;
        if (replyOpened && run != null && e.to() == RunStatus.RUNNING && e.from() != null && !resumedFromSet) {
            run.setAttribute(ReinConventions.RUN_RESUMED_FROM, e.from().name());
            resumedFromSet = true;
        }
    }

    /** A reply's turn written before it recorded the model does not name it: the segment's first call does. */
    private void requestedModel(String model) {
        Span run = span;
        if (!modelSet && run != null && model != null) {
            run.setAttribute(GenAiConventions.REQUEST_MODEL, model);
            requestModel = model;
            modelSet = true;
        }
    }

    private SpanBuilder runSpan(Instant time) {
        Settings s = telemetry.settings;
        if (span == null) {
            startedAt = time;
        }
        SpanBuilder b = telemetry.tracer.spanBuilder(GenAiConventions.OPERATION_INVOKE_AGENT + " " + s.agentName())
                .setParent(parent)
                .setSpanKind(SpanKind.INTERNAL)
                .setStartTimestamp(time)
                .setAttribute(OPERATION_NAME, GenAiConventions.OPERATION_INVOKE_AGENT)
                .setAttribute(AGENT_NAME, s.agentName())
                .setAttribute(CONVERSATION_ID, runId)
                .setAttribute(ReinConventions.RUN_ID, runId);
        if (replay) {
            b.setAttribute(ReinConventions.REPLAY, true);
        }
        if (s.agentId() != null) {
            // not gen_ai.agent.id: the conventions keep it off internal agent spans (semantic-conventions-genai #242)
            b.setAttribute(ReinConventions.AGENT_ID, s.agentId());
        }
        if (s.agentDescription() != null) {
            b.setAttribute(GenAiConventions.AGENT_DESCRIPTION, s.agentDescription());
        }
        if (s.agentVersion() != null) {
            b.setAttribute(GenAiConventions.AGENT_VERSION, s.agentVersion());
        }
        String provider = providerName();
        if (provider != null) {
            b.setAttribute(GenAiConventions.PROVIDER_NAME, provider);
        }
        if (s.serverAddress() != null) {
            b.setAttribute(GenAiConventions.SERVER_ADDRESS, s.serverAddress()).setAttribute(GenAiConventions.SERVER_PORT, (long) s.serverPort());
        }
        return b;
    }

    private static void limits(SpanBuilder b, Map<String, Object> limits) {
        if (limits == null) {
            return;
        }
        if (limits.get("max_steps") instanceof Number n) {
            b.setAttribute(ReinConventions.BUDGET_MAX_STEPS, n.longValue());
        }
        if (limits.get("max_cost_usd") instanceof Number n) {
            b.setAttribute(ReinConventions.BUDGET_MAX_COST_USD, n.doubleValue());
        }
        if (limits.get("max_seconds") instanceof Number n) {
            b.setAttribute(ReinConventions.BUDGET_MAX_SECONDS, n.doubleValue());
        }
        if (limits.get("max_input_tokens") instanceof Number n) {
            b.setAttribute(ReinConventions.BUDGET_MAX_INPUT_TOKENS, n.longValue());
        }
        if (limits.get("max_output_tokens") instanceof Number n) {
            b.setAttribute(ReinConventions.BUDGET_MAX_OUTPUT_TOKENS, n.longValue());
        }
    }

    private void begin(SpanBuilder b) {
        if (span != null) {
            return; // one span per listener: a second start event is ignored
        }
        span = b.startSpan();
        context = parent.with(span);
        try {
            links().remember(runId, span.getSpanContext());
        } catch (RuntimeException ex) {
            LOG.warn("could not remember the span of run {} for its resumption: {}", runId, ex.getMessage());
        }
    }

    private Optional<SpanContext> recall() {
        try {
            return links().recall(runId);
        } catch (RuntimeException ex) {
            LOG.warn("could not find the earlier span of run {}: {}", runId, ex.getMessage());
            return Optional.empty();
        }
    }

    private void truncated(TraceEvent.OutputTruncated e) {
        AttributesBuilder a = Attributes.builder().put(ReinConventions.TRUNCATED_TOTAL_CHARS, (long) e.totalChars())
                .put(ReinConventions.TRUNCATED_SHOWN_CHARS, (long) e.shownChars());
        if (e.sha256() != null) {
            a.put(ReinConventions.TRUNCATED_SHA256, e.sha256());
        }
        if (e.part() != null) {
            // without it, a cut of the person's part reads as a second cut of what the model saw
            a.put(ReinConventions.TRUNCATED_PART, e.part());
        }
        if (!tools.event(e.callId(), ReinConventions.EVENT_OUTPUT_TRUNCATED, a.build(), e.time())) {
            runEvent(ReinConventions.EVENT_OUTPUT_TRUNCATED, a.put(GenAiConventions.TOOL_CALL_ID, e.callId()).build(), e.time());
        }
    }

    private void stall(TraceEvent.StallDetected e) {
        instruments().stall(context, e.detector(), e.action());
        AttributesBuilder b = Attributes.builder().put(ReinConventions.STALL_DETECTOR, e.detector())
                .put(ReinConventions.STALL_ACTION, e.action());
        if (capture()) {
            // The notice is what the model is told, and may quote the calls' arguments (a rewording's queries).
            b.put(ReinConventions.MESSAGE, e.message() == null ? "" : e.message());
        }
        Attributes a = b.build();
        boolean notRun = e.callId() != null && ("blocked".equals(e.action()) || "stopped".equals(e.action()));
        if (notRun && tools.span(e.callId()) == null) {
            tools.blocked(e, a);
        } else {
            tools.event(e.callId(), ReinConventions.EVENT_STALL, a, e.time());
        }
        if (!"blocked".equals(e.action())) {
            runEvent(ReinConventions.EVENT_STALL, a, e.time()); // a warning or a stop concerns the whole run
        }
    }

    private void intervention(TraceEvent.Intervention e) {
        if ("budget".equals(e.kind())) {
            Object budget = e.evidence() == null ? null : e.evidence().get("budget");
            runEvent(ReinConventions.EVENT_BUDGET_STOP, Attributes.of(ReinConventions.BUDGET, String.valueOf(budget),
                    ReinConventions.MESSAGE, e.message()), e.time());
            return;
        }
        runEvent(ReinConventions.EVENT_INTERVENTION, Attributes.of(ReinConventions.INTERVENTION_KIND, e.kind()), e.time());
    }

    private void audit(TraceEvent.Audit e) {
        Attributes a = Attributes.of(ReinConventions.AUDIT_KIND, e.kind());
        // a call refused before validation has no span yet: its refusal comes just before its result, which makes the span
        if ("refused".equals(e.kind()) && tools.span(e.callId()) == null && tools.heldForResult(e.callId(), a, e.time())) {
            return;
        }
        if (!tools.event(e.callId(), ReinConventions.EVENT_AUDIT, a, e.time())) {
            runEvent(ReinConventions.EVENT_AUDIT, a, e.time());
        }
    }

    private void finished(TraceEvent.RunFinished e) {
        ensureSpan(e.time());
        model.endOpen(e.time(), e.reason(), "the run ended before the model answered");
        tools.endAll(e.time());
        String status = e.status().name();
        span.setAttribute(ReinConventions.RUN_STATUS, status);
        span.setAttribute(ReinConventions.RUN_REASON, e.reason());
        span.setAttribute(ReinConventions.RUN_STEPS, (long) e.step());
        double cost = e.costUsd() == null ? 0 : e.costUsd().doubleValue();
        span.setAttribute(ReinConventions.RUN_COST_USD, cost);
        usage.record(span);
        if (e.status() == RunStatus.FAILED) {
            span.setAttribute(GenAiConventions.ERROR_TYPE, e.reason());
            // The reason is error.type already; a message that quotes the conversation is content.
            ErrorStatus.set(span, capture() || !QUOTES_CONVERSATION.contains(e.reason()) ? e.message() : null);
        }
        if (capture() && e.answer() != null && !e.answer().isEmpty()) {
            span.setAttribute(GenAiConventions.OUTPUT_MESSAGES, Content.answer(e.answer(), FinishReasons.ofRun(e.status(), e.reason())));
        }
        span.end(e.time());
        if (startedAt != null) {
            instruments().agentInvoked(context, telemetry.settings.agentName(), requestModel,
                    e.status() == RunStatus.FAILED ? e.reason() : null,
                    Math.max(0, java.time.Duration.between(startedAt, e.time()).toNanos()) / 1e9);
        }
        instruments().runEnded(context, status, e.reason(), e.status().terminal(), e.step(), cost);
    }

    private void runEvent(String name, Attributes attributes, Instant time) {
        ensureSpan(time);
        span.addEvent(name, attributes, time);
    }

    /**
     * A run whose start event this listener missed still gets a span: also a segment that has none,
     * such as the end {@code Runs.cancel} tells of a paused run. It continues the run, so it links to
     * the previous segment's span, as a resumed one does.
     */
    private void ensureSpan(Instant time) {
        if (span == null) {
            SpanBuilder b = runSpan(time);
            recall().ifPresent(b::addLink);
            begin(b);
        }
    }

    @Override
    public void close() {
        telemetry.finished(runId, this);
    }

    static Attributes decisionAttributes(TraceEvent.ApprovalDecided e) {
        AttributesBuilder a = Attributes.builder().put(ReinConventions.APPROVAL_DECISION, e.decision())
                .put(ReinConventions.APPROVAL_ACTION_HASH, e.actionHash() == null ? "" : e.actionHash());
        if (e.decidedBy() != null) {
            a.put(ReinConventions.APPROVAL_DECIDED_BY, e.decidedBy());
        }
        return a.build();
    }

    Telemetry telemetry() {
        return telemetry;
    }

    String runId() {
        return runId;
    }

    Context context() {
        return context;
    }

    ToolSpans tools() {
        return tools;
    }

    boolean capture() {
        return telemetry.settings.captureContent();
    }
}
