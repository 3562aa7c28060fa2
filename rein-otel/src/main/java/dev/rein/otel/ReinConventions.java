package dev.rein.otel;

import static io.opentelemetry.api.common.AttributeKey.booleanKey;
import static io.opentelemetry.api.common.AttributeKey.doubleKey;
import static io.opentelemetry.api.common.AttributeKey.longKey;
import static io.opentelemetry.api.common.AttributeKey.stringKey;

import io.opentelemetry.api.common.AttributeKey;
import java.util.List;

/** Rein's own attributes ({@code rein.*}), span events and metrics, beside the GenAI conventions. */
public final class ReinConventions {
    private ReinConventions() {}

    // Run (invoke_agent span).
    /**
     * The agent's id as the application gives it ({@code ReinTelemetry.Builder.agentId}): the GenAI conventions keep
     * {@code gen_ai.agent.id} off internal {@code invoke_agent} spans (semantic-conventions-genai #242).
     */
    public static final AttributeKey<String> AGENT_ID = stringKey("rein.agent.id");
    public static final AttributeKey<String> RUN_ID = stringKey("rein.run.id");
    public static final AttributeKey<String> RUN_STATUS = stringKey("rein.run.status");
    public static final AttributeKey<String> RUN_REASON = stringKey("rein.run.reason");
    public static final AttributeKey<Long> RUN_STEPS = longKey("rein.run.steps");
    public static final AttributeKey<Double> RUN_COST_USD = doubleKey("rein.run.cost_usd");
    /** The status a resumed run continued from (WAITING_APPROVAL, RUNNING). */
    public static final AttributeKey<String> RUN_RESUMED_FROM = stringKey("rein.run.resumed_from");
    public static final AttributeKey<Long> BUDGET_MAX_STEPS = longKey("rein.budget.max_steps");
    public static final AttributeKey<Double> BUDGET_MAX_COST_USD = doubleKey("rein.budget.max_cost_usd");
    public static final AttributeKey<Double> BUDGET_MAX_SECONDS = doubleKey("rein.budget.max_seconds");
    public static final AttributeKey<Long> BUDGET_MAX_INPUT_TOKENS = longKey("rein.budget.max_input_tokens");
    public static final AttributeKey<Long> BUDGET_MAX_OUTPUT_TOKENS = longKey("rein.budget.max_output_tokens");
    /**
     * True on every span of a replay (a run re-executed from its recorded trace, {@code dev.rein.replay.Replay}: no model
     * or tool call of it is real); absent otherwise. A replay records no metric.
     */
    public static final AttributeKey<Boolean> REPLAY = booleanKey("rein.replay");

    // Model call (chat span).
    /** Why the loop called the model: "step", "final_summary" or a policy's name. */
    public static final AttributeKey<String> MODEL_PURPOSE = stringKey("rein.model.purpose");
    public static final AttributeKey<Double> MODEL_COST_USD = doubleKey("rein.model.cost_usd");
    /**
     * The service tier the provider served the call at, when the response names one other than its standard tier
     * ({@link dev.rein.model.ModelResponse#serviceTier()}), whatever the provider; absent otherwise.
     */
    public static final AttributeKey<String> MODEL_SERVICE_TIER = stringKey("rein.model.service_tier");
    /**
     * How the call's cost departs from what it was billed, when Rein knows it does (a service tier the model's price has
     * no rates for, charged at the base price: the trace's {@code pricing}); absent otherwise.
     */
    public static final AttributeKey<String> MODEL_PRICING = stringKey("rein.model.pricing");
    /**
     * True when the call's (or a retry's or fallback's event's) gen_ai.usage.* are, in part or whole, Rein's estimate: the
     * provider reported no usage, or a failed call's server reported the input and Rein estimated the output; absent
     * otherwise.
     */
    public static final AttributeKey<Boolean> USAGE_ESTIMATED = booleanKey("rein.usage.estimated");
    public static final AttributeKey<Long> ATTEMPT = longKey("rein.attempt");
    /** The turn of a conversation a reply started ({@code agent.reply}, {@code rein reply}). */
    public static final AttributeKey<Long> TURN = longKey("rein.turn");
    public static final AttributeKey<Long> DELAY_MS = longKey("rein.delay_ms");
    public static final AttributeKey<String> MESSAGE = stringKey("rein.message");
    /** A fallback's attempt before the move ({@link #EVENT_MODEL_FALLBACK}): the model its request asked for. */
    public static final AttributeKey<String> FALLBACK_FROM_MODEL = stringKey("rein.fallback.from_model");
    /** A fallback's attempt before the move: the provider of the model it went to, when known. */
    public static final AttributeKey<String> FALLBACK_FROM_PROVIDER = stringKey("rein.fallback.from_provider");
    /** A fallback's attempt after the move: the model its request asks for. */
    public static final AttributeKey<String> FALLBACK_TO_MODEL = stringKey("rein.fallback.to_model");
    /** A fallback's attempt after the move: the provider of the model it goes to, when known. */
    public static final AttributeKey<String> FALLBACK_TO_PROVIDER = stringKey("rein.fallback.to_provider");

    // Tool call (execute_tool span).
    public static final AttributeKey<String> TOOL_RISK = stringKey("rein.tool.risk");
    /** success, error, refused, rejected, blocked or awaiting_approval. */
    public static final AttributeKey<String> TOOL_OUTCOME = stringKey("rein.tool.outcome");
    public static final AttributeKey<String> ERROR_CLASS = stringKey("rein.error_class");
    public static final AttributeKey<String> TOOL_SOURCE = stringKey("rein.tool.source");

    // Event attributes.
    public static final AttributeKey<String> APPROVAL_DECISION = stringKey("rein.approval.decision");
    public static final AttributeKey<String> APPROVAL_ACTION_HASH = stringKey("rein.approval.action_hash");
    public static final AttributeKey<String> APPROVAL_DECIDED_BY = stringKey("rein.approval.decided_by");
    public static final AttributeKey<String> STALL_DETECTOR = stringKey("rein.stall.detector");
    public static final AttributeKey<String> STALL_ACTION = stringKey("rein.stall.action");
    public static final AttributeKey<String> INTERVENTION_KIND = stringKey("rein.intervention.kind");
    public static final AttributeKey<String> BUDGET = stringKey("rein.budget");
    public static final AttributeKey<Long> TRUNCATED_TOTAL_CHARS = longKey("rein.output.total_chars");
    public static final AttributeKey<Long> TRUNCATED_SHOWN_CHARS = longKey("rein.output.shown_chars");
    public static final AttributeKey<String> TRUNCATED_SHA256 = stringKey("rein.output.sha256");
    /** Which part of a tool's output was cut: absent for the content the model sees, {@code user_content} for the part for the person only. */
    public static final AttributeKey<String> TRUNCATED_PART = stringKey("rein.output.part");
    public static final AttributeKey<String> AUDIT_KIND = stringKey("rein.audit.kind");
    public static final AttributeKey<String> CONTEXT_EDIT = stringKey("rein.context.edit");
    public static final AttributeKey<Long> TOKENS_BEFORE = longKey("rein.context.tokens_before");
    public static final AttributeKey<Long> TOKENS_AFTER = longKey("rein.context.tokens_after");

    // Span events.
    public static final String EVENT_MODEL_RETRY = "rein.model.retry";
    /**
     * An attempt of a model call went to another model or another provider's than the attempt before it
     * (an application's fallback stage); the chat span names the last attempt's.
     */
    public static final String EVENT_MODEL_FALLBACK = "rein.model.fallback";
    public static final String EVENT_TOOL_RETRY = "rein.tool.retry";
    public static final String EVENT_APPROVAL_REQUESTED = "rein.approval.requested";
    public static final String EVENT_APPROVAL_DECIDED = "rein.approval.decided";
    public static final String EVENT_STALL = "rein.stall.intervention";
    public static final String EVENT_OUTPUT_TRUNCATED = "rein.output.truncated";
    public static final String EVENT_BUDGET_STOP = "rein.budget.stop";
    public static final String EVENT_INTERVENTION = "rein.intervention";
    public static final String EVENT_CONTEXT_EDITED = "rein.context.edited";
    /** A reply continued the run as a new turn. */
    public static final String EVENT_TURN_STARTED = "rein.turn.started";
    public static final String EVENT_AUDIT = "rein.audit";

    // Metrics.
    public static final String METRIC_RUN_COST = "rein.run.cost";
    /**
     * Bucket boundaries (USD) for {@link #METRIC_RUN_COST}: a run costs fractions of a dollar, which
     * the SDK's default buckets (0, 5, 10, 25, ...) would all put in one.
     */
    public static final List<Double> RUN_COST_BUCKETS = List.of(0.001, 0.002, 0.005, 0.01, 0.02, 0.05,
            0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0);
    public static final String METRIC_RUN_STEPS = "rein.run.steps";
    public static final String METRIC_RUN_STOPS = "rein.run.stops";
    public static final String METRIC_STALL_INTERVENTIONS = "rein.stall.interventions";
    public static final String METRIC_APPROVALS = "rein.approvals";
}
