package dev.rein.otel.internal;

import static dev.rein.otel.GenAiConventions.ERROR_TYPE;
import static dev.rein.otel.GenAiConventions.OPERATION_NAME;
import static dev.rein.otel.GenAiConventions.PROVIDER_NAME;
import static dev.rein.otel.GenAiConventions.REQUEST_MODEL;
import static dev.rein.otel.GenAiConventions.RESPONSE_MODEL;
import static dev.rein.otel.GenAiConventions.SERVER_ADDRESS;
import static dev.rein.otel.GenAiConventions.SERVER_PORT;
import static dev.rein.otel.GenAiConventions.TOKEN_TYPE;

import dev.rein.otel.GenAiConventions;
import dev.rein.otel.ReinConventions;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.LongHistogram;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.context.Context;

/**
 * The metric instruments: the GenAI client and agent metrics and Rein's run, stall and approval metrics. Each point is
 * recorded with the context of the span of what it measures (a chat span's for the client metrics, a tool's for
 * execute_tool, the run's for the agent and {@code rein.*} metrics), not the thread's current one: the events arrive
 * where no Rein span is current, and the SDK's default {@code trace_based} exemplar filter samples only a point whose
 * context has a sampled span, which the exemplar then names.
 */
final class Instruments {
    private final Settings settings;
    private final LongHistogram tokenUsage;
    private final DoubleHistogram duration;
    private final DoubleHistogram firstChunk;
    private final DoubleHistogram laterChunk;
    private final DoubleHistogram agentDuration;
    private final DoubleHistogram toolDuration;
    private final DoubleHistogram runCost;
    private final LongHistogram runSteps;
    private final LongCounter stops;
    private final LongCounter stalls;
    private final LongCounter approvals;

    Instruments(Meter meter, Settings settings) {
        this.settings = settings;
        this.tokenUsage = meter.histogramBuilder(GenAiConventions.METRIC_TOKEN_USAGE).ofLongs().setUnit("{token}")
                .setDescription("Number of input and output tokens used.")
                .setExplicitBucketBoundariesAdvice(GenAiConventions.TOKEN_USAGE_BUCKETS).build();
        this.duration = meter.histogramBuilder(GenAiConventions.METRIC_OPERATION_DURATION).setUnit("s")
                .setDescription("GenAI operation duration.")
                .setExplicitBucketBoundariesAdvice(GenAiConventions.OPERATION_DURATION_BUCKETS).build();
        this.firstChunk = meter.histogramBuilder(GenAiConventions.METRIC_TIME_TO_FIRST_CHUNK).setUnit("s")
                .setDescription("Time from sending a streamed request to its first chunk.")
                .setExplicitBucketBoundariesAdvice(GenAiConventions.OPERATION_DURATION_BUCKETS).build();
        this.laterChunk = meter.histogramBuilder(GenAiConventions.METRIC_TIME_PER_OUTPUT_CHUNK).setUnit("s")
                .setDescription("Time from the end of a streamed response's previous chunk to the end of this one, for each chunk after the first.")
                .setExplicitBucketBoundariesAdvice(GenAiConventions.OPERATION_DURATION_BUCKETS).build();
        this.agentDuration = meter.histogramBuilder(GenAiConventions.METRIC_INVOKE_AGENT_DURATION).setUnit("s")
                .setDescription("The end-to-end duration of a single agent invocation.")
                .setExplicitBucketBoundariesAdvice(GenAiConventions.INVOKE_AGENT_DURATION_BUCKETS).build();
        this.toolDuration = meter.histogramBuilder(GenAiConventions.METRIC_EXECUTE_TOOL_DURATION).setUnit("s")
                .setDescription("The duration of a single tool execution.")
                .setExplicitBucketBoundariesAdvice(GenAiConventions.OPERATION_DURATION_BUCKETS).build();
        this.runCost = meter.histogramBuilder(ReinConventions.METRIC_RUN_COST).setUnit("USD")
                .setDescription("What a finished run cost, in US dollars.")
                .setExplicitBucketBoundariesAdvice(ReinConventions.RUN_COST_BUCKETS).build();
        this.runSteps = meter.histogramBuilder(ReinConventions.METRIC_RUN_STEPS).ofLongs().setUnit("{step}")
                .setDescription("Steps (model calls of the loop) a finished run took.").build();
        this.stops = meter.counterBuilder(ReinConventions.METRIC_RUN_STOPS).setUnit("{run}")
                .setDescription("Runs that ended or paused, by status and reason.").build();
        this.stalls = meter.counterBuilder(ReinConventions.METRIC_STALL_INTERVENTIONS).setUnit("{intervention}")
                .setDescription("Stall detector findings, by detector and action (blocked, warned, stopped).").build();
        this.approvals = meter.counterBuilder(ReinConventions.METRIC_APPROVALS).setUnit("{approval}")
                .setDescription("Approvals asked for and decided, by decision (requested, approve, reject, edit).").build();
    }

    /**
     * A model call that answered. {@code usageReported} false: the provider reported no token
     * counts, and the conventions say an instrumentation that cannot obtain them "MUST NOT report
     * usage metric" (Rein's estimate is on the span, marked estimated), so only the duration is recorded.
     * {@code openAi} are the attributes the conventions' OpenAI metrics add to both, for an OpenAI call (empty for
     * another provider's): {@code openai.response.service_tier} and {@code openai.response.system_fingerprint} when the
     * response named them (both recommended).
     */
    void modelCall(Context chat, String provider, Server server, String requestModel, String responseModel, Attributes openAi,
                   long inputTokens, long outputTokens, boolean usageReported, double seconds) {
        AttributesBuilder base = chatAttributes(provider, server, requestModel, responseModel).putAll(openAi);
        if (usageReported) {
            tokens(chat, base, inputTokens, outputTokens);
        }
        duration.record(seconds, base.build(), chat);
    }

    /** The tokens a provider reported for a model call: an answer's, or a failed attempt's (its response model then null). */
    void tokensUsed(Context chat, String provider, Server server, String requestModel, String responseModel,
                    long inputTokens, long outputTokens) {
        tokens(chat, chatAttributes(provider, server, requestModel, responseModel), inputTokens, outputTokens);
    }

    /** The input and output points, with {@code base}'s attributes ({@code base} itself is left as it was). */
    private void tokens(Context chat, AttributesBuilder base, long inputTokens, long outputTokens) {
        Attributes attributes = base.build();
        tokenUsage.record(inputTokens, attributes.toBuilder().put(TOKEN_TYPE, GenAiConventions.TOKEN_TYPE_INPUT).build(), chat);
        tokenUsage.record(outputTokens, attributes.toBuilder().put(TOKEN_TYPE, GenAiConventions.TOKEN_TYPE_OUTPUT).build(), chat);
    }

    /** The response model is not known yet at the first chunk, so the point goes without it. */
    void firstChunk(Context chat, String provider, Server server, String requestModel, double seconds) {
        firstChunk.record(seconds, chatAttributes(provider, server, requestModel, null).build(), chat);
    }

    /** The attributes of a call's {@link #laterChunk} points, made once per call (the response model is not known yet). */
    Attributes chunkAttributes(String provider, Server server, String requestModel) {
        return chatAttributes(provider, server, requestModel, null).build();
    }

    /** A streamed chunk after the first came {@code seconds} after the one before it. */
    void laterChunk(Context chat, Attributes chunkAttributes, double seconds) {
        laterChunk.record(seconds, chunkAttributes, chat);
    }

    void failedModelCall(Context chat, String provider, Server server, String requestModel, String errorType, double seconds) {
        duration.record(seconds, chatAttributes(provider, server, requestModel, null).put(ERROR_TYPE, errorType).build(), chat);
    }

    /**
     * A run segment's invoke_agent span ended after {@code seconds}: gen_ai.invoke_agent.duration,
     * required of an instrumentation of agent invocations, with the agent's name, its model when
     * known and {@code errorType} when the run failed (null otherwise).
     */
    void agentInvoked(Context run, String agentName, String requestModel, String errorType, double seconds) {
        AttributesBuilder b = Attributes.builder().put(GenAiConventions.AGENT_NAME, agentName);
        putIfSet(b, REQUEST_MODEL, requestModel);
        putIfSet(b, ERROR_TYPE, errorType);
        agentDuration.record(seconds, b.build(), run);
    }

    /** A tool call's execute_tool span ended after {@code seconds}, with {@code errorType} when it ended in an error. */
    void toolExecuted(Context toolCall, String tool, String errorType, double seconds) {
        AttributesBuilder b = Attributes.builder().put(GenAiConventions.AGENT_NAME, settings.agentName())
                .put(GenAiConventions.TOOL_TYPE, GenAiConventions.TOOL_TYPE_FUNCTION);
        putIfSet(b, GenAiConventions.TOOL_NAME, tool);
        putIfSet(b, ERROR_TYPE, errorType);
        toolDuration.record(seconds, b.build(), toolCall);
    }

    void runEnded(Context run, String status, String reason, boolean terminal, long steps, double costUsd) {
        Attributes byStatus = Attributes.of(ReinConventions.RUN_STATUS, status);
        stops.add(1, byStatus.toBuilder().put(ReinConventions.RUN_REASON, reason).build(), run);
        if (terminal) {
            runSteps.record(steps, byStatus, run);
            runCost.record(costUsd, byStatus, run);
        }
    }

    void stall(Context run, String detector, String action) {
        stalls.add(1, Attributes.of(ReinConventions.STALL_DETECTOR, detector, ReinConventions.STALL_ACTION, action), run);
    }

    void approval(Context run, String decision) {
        approvals.add(1, Attributes.of(ReinConventions.APPROVAL_DECISION, decision), run);
    }

    /** {@code server}: the call's (the configured one, else its model's), null when unknown. */
    private AttributesBuilder chatAttributes(String provider, Server server, String requestModel, String responseModel) {
        AttributesBuilder b = Attributes.builder().put(OPERATION_NAME, GenAiConventions.OPERATION_CHAT);
        putIfSet(b, PROVIDER_NAME, provider);
        putIfSet(b, REQUEST_MODEL, requestModel);
        putIfSet(b, RESPONSE_MODEL, responseModel);
        if (server != null) {
            b.put(SERVER_ADDRESS, server.address()).put(SERVER_PORT, (long) server.port());
        }
        return b;
    }

    private static void putIfSet(AttributesBuilder b, io.opentelemetry.api.common.AttributeKey<String> key, String value) {
        if (value != null) {
            b.put(key, value);
        }
    }
}
