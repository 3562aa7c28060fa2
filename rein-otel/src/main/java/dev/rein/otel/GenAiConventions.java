package dev.rein.otel;

import static io.opentelemetry.api.common.AttributeKey.booleanKey;
import static io.opentelemetry.api.common.AttributeKey.doubleKey;
import static io.opentelemetry.api.common.AttributeKey.longKey;
import static io.opentelemetry.api.common.AttributeKey.stringArrayKey;
import static io.opentelemetry.api.common.AttributeKey.stringKey;

import io.opentelemetry.api.common.AttributeKey;
import java.util.List;

/**
 * The names Rein uses from the OpenTelemetry GenAI semantic conventions (status "development",
 * now maintained in the semantic-conventions-genai repository). Defined here rather than taken
 * from the incubating semconv artifact, whose GenAI constants are deprecated and renamed often:
 * what Rein emits is pinned by these constants and by its tests.
 *
 * <p>The version followed: the GenAI conventions of semantic-conventions v1.41.0 with the first
 * changes semantic-conventions-genai made to them (its changelog's first breaking changes):
 * {@code gen_ai.request.top_k} an int (#217) and no {@code gen_ai.agent.id} on an internal
 * {@code invoke_agent} span (#242), and the two metrics it added that v1.41.0 does not have,
 * {@link #METRIC_INVOKE_AGENT_DURATION} and {@link #METRIC_EXECUTE_TOOL_DURATION} (#201, with #322's attributes).
 * docs/observability.md lists its later changes Rein does not follow yet.
 */
public final class GenAiConventions {
    private GenAiConventions() {}

    // Operations (gen_ai.operation.name values; span names are "{operation} {target}").
    public static final String OPERATION_INVOKE_AGENT = "invoke_agent";
    public static final String OPERATION_CHAT = "chat";
    public static final String OPERATION_EXECUTE_TOOL = "execute_tool";

    public static final AttributeKey<String> OPERATION_NAME = stringKey("gen_ai.operation.name");
    public static final AttributeKey<String> PROVIDER_NAME = stringKey("gen_ai.provider.name");
    public static final AttributeKey<String> AGENT_NAME = stringKey("gen_ai.agent.name");
    /**
     * A hosted agent's stable id, for client {@code invoke_agent} and {@code create_agent} spans; not on an
     * internal {@code invoke_agent} span such as Rein's run span (semantic-conventions-genai #242), where the
     * id the application gives is {@link ReinConventions#AGENT_ID}.
     */
    public static final AttributeKey<String> AGENT_ID = stringKey("gen_ai.agent.id");
    /** Conditionally required on {@code invoke_agent} "when available": set only when the application gives one. */
    public static final AttributeKey<String> AGENT_DESCRIPTION = stringKey("gen_ai.agent.description");
    /** Conditionally required on {@code invoke_agent} "when available": set only when the application gives one. */
    public static final AttributeKey<String> AGENT_VERSION = stringKey("gen_ai.agent.version");
    public static final AttributeKey<String> CONVERSATION_ID = stringKey("gen_ai.conversation.id");

    public static final AttributeKey<String> REQUEST_MODEL = stringKey("gen_ai.request.model");
    public static final AttributeKey<Long> REQUEST_MAX_TOKENS = longKey("gen_ai.request.max_tokens");
    public static final AttributeKey<Double> REQUEST_TEMPERATURE = doubleKey("gen_ai.request.temperature");
    public static final AttributeKey<Double> REQUEST_TOP_P = doubleKey("gen_ai.request.top_p");
    /**
     * An int, as providers take it (semantic-conventions-genai #217; a double up to semantic-conventions
     * v1.41.0, as earlier 0.1.0 snapshots recorded it: this constant was an {@code AttributeKey<Double>}).
     */
    public static final AttributeKey<Long> REQUEST_TOP_K = longKey("gen_ai.request.top_k");
    public static final AttributeKey<List<String>> REQUEST_STOP_SEQUENCES = stringArrayKey("gen_ai.request.stop_sequences");
    /** Set only when the request asks for a seed: a {@link dev.rein.model.SamplingSeed} option (rein-openai's {@code OpenAiSeed}). */
    public static final AttributeKey<Long> REQUEST_SEED = longKey("gen_ai.request.seed");

    /** The kind of output requested; set only when the request asks for one. */
    public static final AttributeKey<String> OUTPUT_TYPE = stringKey("gen_ai.output.type");
    /** A request for an answer that matches a JSON Schema ({@link dev.rein.model.OutputSchema}). */
    public static final String OUTPUT_TYPE_JSON = "json";

    /** Set (true) only on a streamed call; an absent value means not streamed. */
    public static final AttributeKey<Boolean> REQUEST_STREAM = booleanKey("gen_ai.request.stream");
    /** Seconds from sending a streamed request to its first chunk. */
    public static final AttributeKey<Double> RESPONSE_TIME_TO_FIRST_CHUNK = doubleKey("gen_ai.response.time_to_first_chunk");

    public static final AttributeKey<String> RESPONSE_ID = stringKey("gen_ai.response.id");
    public static final AttributeKey<String> RESPONSE_MODEL = stringKey("gen_ai.response.model");
    public static final AttributeKey<List<String>> RESPONSE_FINISH_REASONS = stringArrayKey("gen_ai.response.finish_reasons");
    /**
     * The service tier OpenAI served the call at (the OpenAI attribute group of the conventions), as the response named
     * it ({@link dev.rein.model.ModelResponse#providerServiceTier()}): set on a call to provider {@code openai} whose
     * response names a tier, the standard {@code default} too ({@code flex}, {@code priority}).
     */
    public static final AttributeKey<String> OPENAI_RESPONSE_SERVICE_TIER = stringKey("openai.response.service_tier");
    /**
     * The backend configuration OpenAI says served the call (the OpenAI attribute group of the conventions), as the
     * response named it ({@link dev.rein.model.ModelResponse#systemFingerprint()}, such as {@code fp_44709d6fcb}): set
     * on a call to provider {@code openai} whose response names one, and on its token and duration metric points.
     */
    public static final AttributeKey<String> OPENAI_RESPONSE_SYSTEM_FINGERPRINT = stringKey("openai.response.system_fingerprint");
    /**
     * The OpenAI API a call to provider {@code openai} was made to (the OpenAI attribute group of the conventions), as the
     * model the call reached says ({@link dev.rein.provider.ModelDefaults#apiType()}); absent when it says none.
     */
    public static final AttributeKey<String> OPENAI_API_TYPE = stringKey("openai.api.type");
    /** The Chat Completions API, the one rein-openai's {@code OpenAiModel} says it calls. */
    public static final String OPENAI_API_TYPE_CHAT_COMPLETIONS = "chat_completions";

    /** All input tokens, cached ones included (as the conventions ask). */
    public static final AttributeKey<Long> USAGE_INPUT_TOKENS = longKey("gen_ai.usage.input_tokens");
    public static final AttributeKey<Long> USAGE_OUTPUT_TOKENS = longKey("gen_ai.usage.output_tokens");
    public static final AttributeKey<Long> USAGE_CACHE_READ_INPUT_TOKENS = longKey("gen_ai.usage.cache_read.input_tokens");
    public static final AttributeKey<Long> USAGE_CACHE_CREATION_INPUT_TOKENS = longKey("gen_ai.usage.cache_creation.input_tokens");
    /** The output tokens spent reasoning, a part of {@link #USAGE_OUTPUT_TOKENS}; set only when the provider reports them. */
    public static final AttributeKey<Long> USAGE_REASONING_OUTPUT_TOKENS = longKey("gen_ai.usage.reasoning.output_tokens");

    public static final AttributeKey<String> TOOL_NAME = stringKey("gen_ai.tool.name");
    public static final AttributeKey<String> TOOL_CALL_ID = stringKey("gen_ai.tool.call.id");
    public static final AttributeKey<String> TOOL_TYPE = stringKey("gen_ai.tool.type");
    public static final AttributeKey<String> TOOL_DESCRIPTION = stringKey("gen_ai.tool.description");
    /** Tools Rein runs are functions the application executes. */
    public static final String TOOL_TYPE_FUNCTION = "function";

    // Opt-in content, recorded as JSON strings, as the conventions allow on spans (see docs/observability.md, what is opt-in).
    public static final AttributeKey<String> SYSTEM_INSTRUCTIONS = stringKey("gen_ai.system_instructions");
    public static final AttributeKey<String> INPUT_MESSAGES = stringKey("gen_ai.input.messages");
    public static final AttributeKey<String> OUTPUT_MESSAGES = stringKey("gen_ai.output.messages");
    public static final AttributeKey<String> TOOL_DEFINITIONS = stringKey("gen_ai.tool.definitions");
    public static final AttributeKey<String> TOOL_CALL_ARGUMENTS = stringKey("gen_ai.tool.call.arguments");
    public static final AttributeKey<String> TOOL_CALL_RESULT = stringKey("gen_ai.tool.call.result");

    public static final AttributeKey<String> TOKEN_TYPE = stringKey("gen_ai.token.type");
    public static final String TOKEN_TYPE_INPUT = "input";
    public static final String TOKEN_TYPE_OUTPUT = "output";

    // General conventions used by the GenAI ones.
    public static final AttributeKey<String> ERROR_TYPE = stringKey("error.type");
    public static final AttributeKey<String> SERVER_ADDRESS = stringKey("server.address");
    public static final AttributeKey<Long> SERVER_PORT = longKey("server.port");
    public static final AttributeKey<Long> HTTP_RESPONSE_STATUS_CODE = longKey("http.response.status_code");

    // Metrics.
    public static final String METRIC_TOKEN_USAGE = "gen_ai.client.token.usage";
    public static final String METRIC_OPERATION_DURATION = "gen_ai.client.operation.duration";
    /** Recorded for streamed calls only, with the buckets of {@link #METRIC_OPERATION_DURATION}. */
    public static final String METRIC_TIME_TO_FIRST_CHUNK = "gen_ai.client.operation.time_to_first_chunk";
    /** Streamed calls: the time from the end of the previous chunk to the end of each chunk after the first. */
    public static final String METRIC_TIME_PER_OUTPUT_CHUNK = "gen_ai.client.operation.time_per_output_chunk";
    /** One point per invoke_agent span (a run segment), its value the span's duration. */
    public static final String METRIC_INVOKE_AGENT_DURATION = "gen_ai.invoke_agent.duration";
    /** The explicit bucket boundaries (seconds) the conventions give for {@link #METRIC_INVOKE_AGENT_DURATION}. */
    public static final List<Double> INVOKE_AGENT_DURATION_BUCKETS = List.of(0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4, 12.8, 25.6,
            51.2, 102.4, 204.8, 409.6);
    /** One point per execute_tool span but a call's pause for approval, its value the span's duration; the buckets of {@link #METRIC_OPERATION_DURATION}. */
    public static final String METRIC_EXECUTE_TOOL_DURATION = "gen_ai.execute_tool.duration";
    /** The explicit bucket boundaries the conventions give for {@link #METRIC_TOKEN_USAGE}. */
    public static final List<Long> TOKEN_USAGE_BUCKETS = List.of(1L, 4L, 16L, 64L, 256L, 1024L, 4096L, 16384L, 65536L,
            262144L, 1048576L, 4194304L, 16777216L, 67108864L);
    /** The explicit bucket boundaries (seconds) the conventions give for {@link #METRIC_OPERATION_DURATION}. */
    public static final List<Double> OPERATION_DURATION_BUCKETS = List.of(0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28,
            2.56, 5.12, 10.24, 20.48, 40.96, 81.92);
}
