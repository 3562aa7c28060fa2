package dev.rein.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.core.JsonValue;
import com.openai.errors.OpenAIException;
import com.openai.errors.OpenAIInvalidDataException;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.OpenAIRetryableException;
import com.openai.errors.OpenAIServiceException;
import dev.rein.model.ModelException;
import dev.rein.model.ModelException.Kind;
import dev.rein.model.ModelRequest;
import dev.rein.model.Usage;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns SDK and stream failures into {@link ModelException}s carrying the server's own message,
 * the HTTP status, the request id, a {@link Kind}, whether a retry can help and the server's wait
 * hint ({@code retry-after-ms}, {@code retry-after}; for a 429 without them, the wait its message names, else a
 * Google error's {@code RetryInfo} (for any status), else when the rate limit that ran out resets, {@code
 * x-ratelimit-reset-requests} / {@code -tokens}).
 *
 * <p>Retryable: 408, 409, 429, 5xx, Groq's 498 (its flex tier at capacity), connection failures and timeouts, a stream cut before {@code
 * data: [DONE]}, and an error object inside a stream that began with HTTP 200 (unless its type
 * says the request was invalid, or its numeric code is a final status). Final: 400, 401, 403, 404,
 * 422 and the other 4xx, a 429 {@code insufficient_quota} (out of credits, not a rate limit), a 429
 * for a quota of 0 (Google's: no quota for the model at all), and a body Rein cannot read. The
 * server's {@code x-should-retry} header overrides that default for an HTTP status either way, as
 * the official SDK obeys it; only an exhausted quota, or none, stays final.
 */
final class ErrorMapper {
    private static final String QUOTA = "insufficient_quota";

    private final Clock clock;
    private final String server;
    private final String baseUrl;

    /**
     * @param server how messages name the server, e.g. "the OpenAI API" or "the server at URL"
     * @param baseUrl the base URL requests go to
     */
    ErrorMapper(Clock clock, String server, String baseUrl) {
        this.clock = clock;
        this.server = server;
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    }

    /**
     * @param requestId the response's {@code x-request-id} when its headers arrived, else null
     *     (an HTTP error brings its own)
     * @param request what was asked for, whose settings name what to change when the server refuses one
     */
    ModelException map(RuntimeException failure, String requestId, ModelRequest request) {
        if (failure instanceof OpenAIServiceException e) {
            return httpError(e, request);
        }
        if (failure instanceof OpenAIIoException || failure instanceof OpenAIRetryableException) {
            return ioError(failure, requestId);
        }
        if (failure instanceof OpenAIInvalidDataException e) {
            return malformed(server + " sent a response Rein could not read: " + e.getMessage(), requestId, e);
        }
        String what = failure instanceof OpenAIException ? "the OpenAI SDK failed" : "the call to " + server + " failed";
        return new ModelException(Kind.OTHER, 0, what + " with " + failure.getClass().getSimpleName() + ": "
                + failure.getMessage(), false, null, requestId, failure);
    }

    /**
     * {@code e} carrying {@code usage}, what the stream reported before it failed ({@link ChunkAssembler#reportedUsage}),
     * as data for the trace and telemetry (its message says it for a person, {@link ChunkAssembler#usageNote}); {@code
     * e} itself when the stream reported none.
     */
    static ModelException withUsage(ModelException e, Usage usage) {
        if (usage == null) {
            return e;
        }
        ModelException carrying = new ModelException(e.kind(), e.httpStatus(), e.getMessage(), e.retryable(), e.retryAfter(),
                e.requestId(), usage, e.getCause());
        carrying.setStackTrace(e.getStackTrace());
        return carrying;
    }

    /** A read failure while the stream was open: the connection broke mid-way, which a retry may fix. */
    ModelException broken(IOException e, String requestId) {
        return ioError(e, requestId);
    }

    /**
     * A stream that ended without {@code data: [DONE]}: cut off, so a retry may succeed.
     *
     * @param usageNote what its usage chunk reported, if one came ({@link ChunkAssembler#usageNote}); may be empty
     */
    ModelException cutOff(String detail, String usageNote, String requestId) {
        return new ModelException(Kind.CONNECTION, 0, "the response stream from " + server
                + " ended before data: [DONE] (" + detail + ")" + usageNote, true, null, requestId, null);
    }

    /** A stream that ended with {@code data: [DONE]} before any chunk: the server failed without saying why. */
    ModelException noChunk(String requestId) {
        return new ModelException(Kind.SERVER_ERROR, 0, "the response stream from " + server
                + " ended with data: [DONE] before any chunk: the server sent no completion", true, null, requestId, null);
    }

    /**
     * A stream ended with {@code data: [DONE]} whose chunks held no choice (only usage, or Azure's prompt filter results),
     * or a whole {@code chat.completion} with none: no completion, as a stream with no chunk at all.
     *
     * @param chunks how many chunks the stream held; -1 for a whole {@code chat.completion}
     * @param usageNote what its usage reported ({@link ChunkAssembler#usageNote}), said after the message; may be empty
     */
    ModelException noChoice(int chunks, String usageNote, String requestId) {
        return new ModelException(Kind.SERVER_ERROR, 0, (chunks < 0 ? server + " answered with a chat.completion"
                : "the response stream from " + server + " ended with data: [DONE] after " + chunks + " chunk"
                + (chunks == 1 ? "" : "s")) + " without a choice: the server sent no completion" + usageNote, true, null,
                requestId, null);
    }

    /**
     * A stream the server said it stopped early (Groq's {@code x_groq.error}, which names why): what came is cut, not
     * an answer, and another attempt may be served; a reason about capacity ({@code over_capacity}) is an overload.
     *
     * @param usageNote what the stream's usage reported ({@link ChunkAssembler#usageNote}), said after the message; may be empty
     */
    ModelException stoppedEarly(String reason, boolean overloaded, String usageNote, String requestId) {
        return new ModelException(overloaded ? Kind.OVERLOADED : Kind.SERVER_ERROR, 0, "the response stream from " + server
                + " was stopped early (" + reason + "): what came is no answer" + usageNote, true, null, requestId, null);
    }

    /**
     * An {@code error} object sent after HTTP 200, as a chunk or as the whole JSON body. A {@code
     * code} that is an HTTP status (vLLM: {@code "code": 400}, LiteLLM: {@code "code": "400"}), else a {@code
     * status_code} (Groq's, beside a code naming the error), is classified like that status; a 429 or a {@code rate_limit_exceeded} one as an HTTP 429 (its
     * wait the one its message or its limit headers name); otherwise it is retryable unless its type says the request itself was wrong
     * (but for a {@linkplain #sampledGenerationFailed failed generation}) or it is a content filter's refusal, Azure's
     * code {@code content_filter} or Moonshot/Kimi's type {@code content_filter} (its own or relayed: final, with the
     * advice of the HTTP 400), or it is LM Studio's answer
     * to a path it does not serve. The HTTP status is 0 because the exchange itself succeeded.
     *
     * @param usageNote what the stream's usage reported ({@link ChunkAssembler#usageNote}), said after the message; may be empty
     */
    ModelException streamError(JsonNode error, String usageNote, String requestId) {
        String type = error.path("type").asText(null);
        String message = message(error);
        if (message != null && message.startsWith("Unexpected endpoint or method")) {
            // LM Studio's answer, with HTTP 200, to a path it does not serve (lmstudio-bug-tracker#618):
            // the base URL lacks /v1, which no retry changes.
            return new ModelException(Kind.NOT_FOUND, 0, "error in the response from " + server + ": " + message
                    + pathAdvice(), false, null, requestId, null);
        }
        JsonNode code = error.path("code");
        // LiteLLM's proxy writes the status as text ("code": "400"); Groq's may carry it as status_code beside a code that
        // names the error ("code": "tool_use_failed", "status_code": 400).
        int status = code.isIntegralNumber() ? code.asInt()
                : code.isTextual() && code.asText().matches("[45][0-9][0-9]") ? Integer.parseInt(code.asText())
                : error.path("status_code").isIntegralNumber() && error.path("status_code").asText().matches("[45][0-9][0-9]")
                ? error.path("status_code").asInt() : 0;
        // a gateway's relaying of the provider's error (OpenRouter's metadata.raw) is that error: resampled and shown alike
        JsonNode provider = relayed(error);
        Kind kind;
        boolean retryable;
        java.time.Duration wait = null;
        boolean overLimit = false;
        if (status == 429 || (status == 0 && rateLimit(error))) {
            // A rate limit met after HTTP 200: "code": 429 (OpenRouter, LiteLLM's "429"), or the public API's and Groq's
            // rate_limit_exceeded (type the limit's: "tokens", "requests"): a 429's kind, verdict and wait, so it is
            // traced and waited for as one.
            kind = Kind.RATE_LIMITED;
            overLimit = message != null && OVER_MINUTE_LIMIT.matcher(message).find();
            retryable = !quotaExhausted(error) && !overLimit;
            wait = !retryable ? null : RateLimitHints.inMessage(message);
            if (retryable && wait == null) {
                // OpenRouter's limit headers inside the error (metadata.headers), else a Google error's RetryInfo
                wait = RateLimitHints.errorHeadersReset(error, clock);
                wait = wait != null ? wait : RateLimitHints.retryInfo(error);
            }
        } else if (status >= 400 && status <= 599) {
            kind = kindOfStatus(status);
            retryable = kind.retryableByDefault();
        } else {
            // A content filter's refusal is its HTTP 400's, final: Azure's (type null, code content_filter, its 400 only
            // as "status", if at all) and Moonshot/Kimi's (type content_filter). Flagged input stays in the conversation,
            // so a retry meets the same filter.
            boolean invalid = type != null && (type.startsWith("invalid_request") || type.equals("BadRequestError")
                    || type.equals("validation")) || contentFilter(provider);
            kind = invalid ? Kind.INVALID_REQUEST : Kind.SERVER_ERROR;
            retryable = kind.retryableByDefault() && !quotaExhausted(error);
        }
        boolean resample = kind == Kind.INVALID_REQUEST && sampledGenerationFailed(provider);
        return new ModelException(kind, 0, "error in the response from " + server
                + (type == null ? "" : " (" + type + ")") + ": " + (message == null ? error.toString() : message)
                + (message != null && kind == Kind.INVALID_REQUEST ? relayedOutputLimitAdvice(message, error) : "")
                // with no message too: the filter's type is all that such an error says, and the advice is about the run
                + (kind == Kind.INVALID_REQUEST ? contentFilterAdvice(provider) : "")
                + (overLimit ? OVER_MINUTE_LIMIT_ADVICE : "") + (resample ? RESAMPLE_NOTE : "") + cutNote(provider)
                + failedGeneration(provider) + usageNote,
                retryable || resample, wait, requestId, null);
    }

    /**
     * Whether an error sent after HTTP 200 is a rate limit: code {@code rate_limit_exceeded} (the public API, Groq), or
     * an exhausted quota ({@code insufficient_quota}, final as for a 429), or a proxy's {@code rate_limit_error} type.
     */
    private static boolean rateLimit(JsonNode error) {
        String code = error.path("code").asText("");
        String type = error.path("type").asText("");
        return code.equals("rate_limit_exceeded") || type.equals("rate_limit_exceeded") || type.equals("rate_limit_error")
                || quotaExhausted(error);
    }

    /**
     * Whether an error refuses what the model generated rather than the request: Groq's {@code tool_use_failed} (a tool
     * call its parser could not read, or one naming a tool the request does not offer) and {@code json_validate_failed}
     * (JSON mode's output that is not valid JSON), both with the generation in {@code failed_generation}. The output was
     * sampled, so the same request sent again usually gets a readable one (pydantic-ai resends it); the retry policy
     * bounds how often. Not so for a request the server refuses before generating, which these codes never name, nor for
     * a generation {@linkplain #cutAtOutputLimit cut at the output limit}, which every resend meets again.
     */
    static boolean sampledGenerationFailed(JsonNode error) {
        if (error == null) {
            return false;
        }
        String code = error.path("code").asText("");
        return (code.equals("tool_use_failed") || code.equals("json_validate_failed")) && !cutAtOutputLimit(error);
    }

    /**
     * Whether a {@code json_validate_failed} or {@code tool_use_failed} says the output limit cut the generation off
     * (Groq: "max completion tokens reached before generating a valid document", in its message or as the whole {@code
     * failed_generation}): not a bad sample, since the same request sent again is cut at the same limit. A {@code
     * failed_generation} is the model's output, so only one that starts with those words counts: output that quotes
     * them (a model writing about token limits) is still a bad sample.
     */
    static boolean cutAtOutputLimit(JsonNode error) {
        if (error == null) {
            return false;
        }
        String code = error.path("code").asText("");
        if (!code.equals("tool_use_failed") && !code.equals("json_validate_failed")) {
            return false;
        }
        return error.path("message").asText("").toLowerCase(java.util.Locale.ROOT).contains(OUTPUT_LIMIT_REACHED)
                || error.path("failed_generation").asText("").strip().toLowerCase(java.util.Locale.ROOT).startsWith(OUTPUT_LIMIT_REACHED);
    }

    /** Groq's words for a generation its output limit cut off. */
    private static final String OUTPUT_LIMIT_REACHED = "max completion tokens reached";

    /** What a message adds for a generation {@linkplain #cutAtOutputLimit cut at the output limit}: why it is final. */
    private static final String CUT_NOTE = " (the model's output reached the output limit before it was whole, so every"
            + " resend is cut the same way: raise the output limit with --max-tokens (maxTokens in the library, max_tokens"
            + " in a suite file), or ask the model for shorter output; for a reasoning model, a lower reasoning effort"
            + " (--reasoning-effort) leaves more of the limit to the answer)";

    /** {@link #CUT_NOTE} for an error {@linkplain #cutAtOutputLimit cut at the output limit}, else empty. */
    private static String cutNote(JsonNode error) {
        return cutAtOutputLimit(error) ? CUT_NOTE : "";
    }

    /** What a message adds for a {@linkplain #sampledGenerationFailed failed generation}: why a 400 is retried. */
    private static final String RESAMPLE_NOTE = " (the model wrote a call or JSON the server could not read; another"
            + " sampling of the same request may not, so it is retried under the agent's RetryPolicy)";

    /** How much of a {@code failed_generation} a message shows: enough to see what the model wrote instead of a call. */
    private static final int FAILED_GENERATION_LIMIT = 1000;

    /**
     * The {@code failed_generation} of an error (Groq's {@code tool_use_failed} and {@code json_validate_failed}: what the
     * model wrote that its parser could not read), whose message says "See 'failed_generation' for more details": left
     * out, the message points to a field nobody sees. A long one is cut, saying so. Empty when the error has none.
     */
    static String failedGeneration(JsonNode error) {
        JsonNode generation = error == null ? null : error.get("failed_generation");
        if (generation == null || !generation.isTextual() || generation.asText().isBlank()) {
            return "";
        }
        String text = generation.asText();
        // not between the two halves of a surrogate pair
        int cut = Character.isHighSurrogate(text.charAt(FAILED_GENERATION_LIMIT - 1 < text.length()
                ? FAILED_GENERATION_LIMIT - 1 : 0)) ? FAILED_GENERATION_LIMIT - 1 : FAILED_GENERATION_LIMIT;
        return " (failed_generation: " + (text.length() <= FAILED_GENERATION_LIMIT ? text
                : text.substring(0, cut) + "... (" + text.length() + " characters, cut to "
                + FAILED_GENERATION_LIMIT + ")") + ")";
    }

    /**
     * {@code e} with what to do when a server other than the public API refuses the model Rein names by
     * default ({@value OpenAiProvider#DEFAULT_MODEL}, the OpenAI API's, sent when no model was named): a
     * 400 or 404 whose message names it (Ollama: "model ... not found, try pulling it first", vLLM: "The
     * model ... does not exist") is about the model, and what the server serves is another name.
     */
    static ModelException defaultModelAdvice(ModelException e, String model, boolean publicApi) {
        if (publicApi || !OpenAiProvider.DEFAULT_MODEL.equals(model) || (e.httpStatus() != 400 && e.httpStatus() != 404)
                || e.getMessage() == null || !e.getMessage().contains(model)) {
            return e;
        }
        return new ModelException(e.kind(), e.httpStatus(), e.getMessage() + " (" + model + " is Rein's default model,"
                + " for the OpenAI API: name a model this server serves with --model (modelName in the library),"
                + " e.g. --model qwen3:8b)", e.retryable(), e.retryAfter(), e.requestId(), e.reportedUsage().orElse(null),
                e.getCause()); // the usage too: a copy must not drop what a budget or the trace is told
    }

    static ModelException malformed(String message, String requestId, Throwable cause) {
        return new ModelException(Kind.MALFORMED_RESPONSE, 0, message, false, null, requestId, cause);
    }

    private ModelException httpError(OpenAIServiceException e, ModelRequest request) {
        int status = e.statusCode();
        Kind kind = kindOfStatus(status);
        Boolean override = dev.rein.retry.RetryAfter.shouldRetry(e.headers()::values);
        JsonNode body = node(e.body());
        String message = apiMessage(body);
        boolean noQuota = status == 429 && zeroQuota(body, message);
        // One request needing more than the tokens-per-minute limit: sent again, it needs as many. Groq says so with 413.
        boolean overLimit = (status == 429 || status == 413) && message != null && OVER_MINUTE_LIMIT.matcher(message).find();
        // Groq's refusal of what the model wrote, not of the request: sampled again, it usually succeeds.
        // A gateway's relaying of it (OpenRouter's metadata.raw) is the same refusal: the provider's error is read.
        JsonNode provider = relayed(errorObject(body));
        boolean resample = status == 400 && sampledGenerationFailed(provider);
        // The header wins either way, as in the SDK ("if the server explicitly says whether to retry,
        // obey"); an exhausted quota, or none at all, is not waited out whatever a proxy in between says.
        boolean retryable = quotaExhausted(body) || noQuota || overLimit ? false
                : override != null ? override : kind.retryableByDefault() || resample;
        String plain = body != null && body.path(OkHttpTransport.PLAIN_TEXT).isTextual()
                ? body.path(OkHttpTransport.PLAIN_TEXT).asText() : noRoute(status, body);
        if (plain != null) {
            // Not the API's error shape: a proxy's page, or a path the server does not serve (Ollama
            // without /v1 answers "404 page not found"). The text, as the official Python SDK shows it.
            message = "HTTP " + status + " from " + server + ": " + plain + (status == 404 ? pathAdvice() : "");
        }
        if (status == 413 && !overLimit) {
            // The request grows with the conversation: sent again, or at any later step, it is refused the same way.
            message = (message != null ? message : "HTTP 413 from " + server) + " (the server takes no request this large,"
                    + " and a gateway or proxy in front of it may take less than the model could read: make the conversation"
                    + " smaller with a ContextPolicy (a lower toolOutputLimit, tool result clearing or compaction))";
        }
        if (status == 404 && "Resource not found".equals(message)) {
            message += azureAdvice();
        }
        if (status == 400 && message != null) {
            // A gateway's relaying of the provider's error is advised on as that error: the provider's words and fields.
            JsonNode error = relayed(errorObject(body));
            String words = error == errorObject(body) ? message : java.util.Objects.requireNonNullElse(message(error), message);
            message += outputLimitAdvice(words, error) + modelMaximumAdvice(words, request) + RequestLimits.advice(words)
                    + RequestLimits.objectTopAdvice(words, request) + samplingAdvice(error, request)
                    + toolsWithReasoningAdvice(error, words, request);
        }
        if (noQuota) {
            message = (message != null ? message : "HTTP 429 from " + server) + " (the project's quota for this model is 0,"
                    + " so no wait helps: use a model the project has quota for, or give the project one (on the Gemini API,"
                    + " enable billing for it: its free tier has no quota for some models);"
                    + " see https://ai.google.dev/gemini-api/docs/rate-limits)";
        }
        if (status == 400 && message == null && contentFilter(provider)) {
            // A filter's refusal with no message ({"error":{"type":"content_filter"}}) is still one: the error is shown,
            // as after HTTP 200, so that the advice below has what it is about.
            message = "HTTP 400 from " + server + ": " + errorObject(body);
        }
        if (status == 400 && message != null) {
            message += contentFilterAdvice(provider) + (resample && retryable ? RESAMPLE_NOTE : "") + cutNote(provider);
        }
        if (message != null) {
            // At any status: a relayed provider's error is shown without it (upstreamReason), so it is not lost.
            message += failedGeneration(provider);
        }
        if (status == 402 && message != null) {
            message += creditAdvice(message);
        }
        if (overLimit) {
            message += OVER_MINUTE_LIMIT_ADVICE;
        }
        String location = e.headers().values("location").stream().findFirst().orElse(null);
        // A quota of 0 is final: a wait its message or details name is no hint.
        java.time.Duration wait = noQuota ? null : waitHint(e, status, message, body);
        return new ModelException(kind, status, (message != null ? message : "HTTP " + status + " from " + server)
                + dev.rein.provider.ProviderConfig.redirectAdvice(status, location, "/chat/completions", baseUri()), retryable,
                wait, requestId(e), e);
    }

    /**
     * The server's wait hint: {@code retry-after-ms} / {@code retry-after}; for a 429 without them the wait its message
     * names; else a Google error's {@code RetryInfo}; else, for a 429, when the rate limit that ran out resets (OpenAI's
     * headers, or OpenRouter's inside the error). Null when none.
     */
    private java.time.Duration waitHint(OpenAIServiceException e, int status, String message, JsonNode body) {
        java.time.Duration wait = dev.rein.retry.RetryAfter.from(e.headers()::values, clock);
        if (wait == null && status == 429) {
            // No retry-after: the public API's message names the wait ("Please try again in 1.8s."), and its
            // rate-limit headers say when the limit that ran out resets.
            wait = RateLimitHints.inMessage(message);
        }
        if (wait == null) {
            // Google's endpoints name it in the error's details (RetryInfo), Vertex AI's nowhere else.
            wait = RateLimitHints.retryInfo(body);
        }
        if (wait == null && status == 429) {
            wait = RateLimitHints.rateLimitReset(e.headers()::values);
        }
        if (wait == null && status == 429) {
            // OpenRouter's: the limit's headers inside the error (metadata.headers), none on the response.
            wait = RateLimitHints.errorHeadersReset(body, clock);
        }
        return wait;
    }

    /**
     * What to change when the public API refuses an output limit above what the model can write ("max_tokens
     * is too large: 8192. This model supports at most 4096 completion tokens"), or a server refuses messages
     * plus the output limit beyond the model's context
     * (vLLM, and the public API in the same words: "(50 in the messages, 8192 in the completion)";
     * newer vLLM: "'max_tokens' or 'max_completion_tokens' is too large"): the completion's share is
     * the run's output limit, which Rein sends whatever the server's context, so say which setting it
     * is; Groq's "Please reduce the length of the messages or completion." names no share, so both settings. When the
     * messages alone are beyond the context ({@code context_length_exceeded}, llama.cpp's
     * {@code exceed_context_size_error}), that the conversation must be made smaller. Empty for any other message.
     */
    private static String outputLimitAdvice(String message, JsonNode error) {
        java.util.regex.Matcher most = MODEL_MAXIMUM.matcher(message);
        if (most.find()) {
            // The public API: the limit is above what the model can write at all, whatever the messages.
            return " (" + most.group(1) + " is the run's output limit, more than the " + most.group(2) + " this model can"
                    + " write: lower it with --max-tokens (maxTokens in the library, max_tokens in a suite file))";
        }
        java.util.regex.Matcher completion = COMPLETION_SHARE.matcher(message);
        String limit = completion.find() ? completion.group(1) + " in the completion"
                : message.contains("'max_tokens' or 'max_completion_tokens' is too large") ? "max_tokens" : null;
        if (limit != null) {
            return " (" + limit + " is the run's output limit: lower it with --max-tokens (maxTokens in the"
                    + " library, max_tokens in a suite file) so it fits beside the messages)";
        }
        if (message.strip().startsWith(MESSAGES_OR_COMPLETION)) {
            // Groq's, with no numbers: the two together, so either setting can make room.
            return " (the messages and the run's output limit together are more than the model's context window: lower the"
                    + " output limit with --max-tokens (maxTokens in the library, max_tokens in a suite file), or make the"
                    + " conversation smaller with a ContextPolicy (tool result clearing or compaction, a lower toolOutputLimit))";
        }
        // The messages alone: the conversation grows with every step, so every later call fails the same way.
        boolean window = error != null && ("context_length_exceeded".equals(error.path("code").asText(null))
                || "exceed_context_size_error".equals(error.path("type").asText(null)))
                || CONTEXT_WINDOW.matcher(message).find();
        return window ? " (the conversation no longer fits the model's context window: make it smaller with a ContextPolicy"
                + " (tool result clearing or compaction, a lower toolOutputLimit))" : "";
    }

    /**
     * What to change when a server refuses an output limit above what the model can write in words that do not name the
     * value sent (Groq: "`max_tokens` must be less than or equal to `16384`, the maximum value for `max_tokens` is less
     * than the `context_window` for this model", also without backticks and for {@code max_completion_tokens}): the field
     * is the run's output limit, which the request names. Empty for any other message.
     */
    private static String modelMaximumAdvice(String message, ModelRequest request) {
        java.util.regex.Matcher most = AT_MOST.matcher(message);
        if (!most.find() || request == null) {
            return "";
        }
        return " (" + request.maxTokens() + " is the run's output limit, more than the " + most.group(1) + " this model can"
                + " write: lower it with --max-tokens (maxTokens in the library, max_tokens in a suite file))";
    }

    /** Groq's refusal of an output limit above the model's maximum. */
    private static final java.util.regex.Pattern AT_MOST = java.util.regex.Pattern.compile(
            "^`?max_(?:completion_)?tokens`? must be less than or equal to `?(\\d+)`?");

    /**
     * What to change when a model refuses a sampling setting itself (OpenAI's reasoning models, o1 to the gpt-5 family,
     * take only their default: 400 {@code unsupported_value} "Unsupported value: 'temperature' does not support 0.2 with
     * this model. Only the default (1) value is supported.", or {@code unsupported_parameter}): the API names its request
     * field, the user set the agent's temperature (or a request's topP). So for a refused {@code reasoning_effort}, the
     * {@link OpenAiReasoningEffort} option, for a refused {@code stop} (o3, o4-mini), the request's stop sequences, and for
     * a refused {@code parallel_tool_calls} (o1, o3, o3-mini, o4-mini), the ParallelToolCalls option. A later gpt-5.N (gpt-5.1 and on) takes a temperature or top_p only with
     * reasoning effort none (its default), so when the request asked it for another effort, "only its own default" is
     * not so, and asking for no reasoning is the other way to run it. Empty for any other error.
     */
    private static String samplingAdvice(JsonNode error, ModelRequest request) {
        if (error == null) {
            return "";
        }
        String code = error.path("code").asText("");
        if (!code.equals("unsupported_value") && !code.equals("unsupported_parameter")) {
            return "";
        }
        String param = error.path("param").asText("");
        String effort = request.option(OpenAiReasoningEffort.class).map(OpenAiReasoningEffort::effort).orElse("none");
        if ((param.equals("temperature") || param.equals("top_p")) && !effort.equals("none")
                && samplesOnlyWithoutReasoning(request.model())) {
            String unset = param.equals("temperature")
                    ? "leave the agent's temperature unset (Agent.Builder.temperature(null))"
                    : "leave the request's topP unset (ModelRequest.Builder.topP(null))";
            return " (gpt-5.1 and later take a " + param + " only with reasoning effort none, and this request asked for "
                    + effort + ": " + unset + ", or ask for no reasoning with " + NO_REASONING + ")";
        }
        return switch (error.path("param").asText("")) {
            case "temperature" -> " (this model takes only its own default temperature: leave the agent's temperature unset"
                    + " (Agent.Builder.temperature(null)) to run it)";
            case "top_p" -> " (this model takes only its own default top_p: leave the request's topP unset"
                    + " (ModelRequest.Builder.topP(null)) to run it)";
            // The API reference: stop is not supported with the latest reasoning models (o3, o4-mini).
            case "stop" -> " (this model takes no stop sequences: leave the request's stop sequences out"
                    + " (ModelRequest.Builder.stopSequences) to run it)";
            // o1, o3, o3-mini and o4-mini refuse the field whatever its value; Rein sends it only for the option.
            case "parallel_tool_calls" -> " (this model takes no parallel_tool_calls: leave out the ParallelToolCalls model"
                    + " option to run it; the calls of a response that holds several are run in order as always)";
            // A model that does not reason refuses the field (gpt-4o, gpt-4.1); one that does, a value it lacks.
            case "reasoning_effort" -> code.equals("unsupported_parameter")
                    ? " (this model does not reason: leave out the OpenAiReasoningEffort model option (--reasoning-effort) to run it)"
                    : " (the OpenAiReasoningEffort model option (--reasoning-effort) asked for it: give it one of the values this model"
                    + " takes)";
            default -> "";
        };
    }

    /** How to ask for no reasoning, in the library's and the command line's terms. */
    private static final String NO_REASONING = "modelOption(OpenAiReasoningEffort.NONE) (--reasoning-effort none on the command"
            + " line)";

    /**
     * What to change when a model refuses function tools together with reasoning on Chat Completions (gpt-5.4 and
     * later: 400, {@code param} {@code reasoning_effort}, code null, "Function tools with reasoning_effort are not
     * supported for MODEL in /v1/chat/completions." then "Please use /v1/responses instead." or "To use function tools,
     * use /v1/responses or set reasoning_effort to 'none'."). The Responses API is no setting of Rein, which speaks
     * Chat Completions; asking for no reasoning is. Such a model reasons by default, so the request needs no effort of
     * its own to be refused. Empty for any other error, and when the request already asked for none (nothing here to
     * change).
     */
    private static String toolsWithReasoningAdvice(JsonNode error, String message, ModelRequest request) {
        if (error == null || !"reasoning_effort".equals(error.path("param").asText(null))
                || !message.startsWith("Function tools with reasoning_effort are not supported")) {
            return "";
        }
        String effort = request.option(OpenAiReasoningEffort.class).map(OpenAiReasoningEffort::effort).orElse(null);
        if ("none".equals(effort)) {
            return "";
        }
        return " (Rein speaks Chat Completions, where this model takes function tools only with reasoning effort none, and "
                + (effort == null ? "without a reasoning effort the model reasons by default" : "this request asked for " + effort)
                + ": ask for no reasoning with " + NO_REASONING + ", or run a model that takes function"
                + " tools with reasoning on Chat Completions)";
    }

    /** Whether the model is a later gpt-5.N (gpt-5.1 and on, not a chat model): it samples only with reasoning effort none. */
    private static boolean samplesOnlyWithoutReasoning(String model) {
        String name = model.toLowerCase(java.util.Locale.ROOT);
        return name.matches("gpt-5\\.[0-9]+.*") && !name.contains("-chat");
    }

    /**
     * The messages alone beyond the model's context, in the words of the public API (older and newer), vLLM,
     * llama.cpp and MiniMax's API ("invalid params, context window exceeds limit (2013)"), for servers that give no
     * {@code context_length_exceeded} code.
     */
    private static final java.util.regex.Pattern CONTEXT_WINDOW = java.util.regex.Pattern.compile(
            "maximum context length is \\d+ tokens\\. However, (?:your messages resulted in|you requested \\d+ tokens in the messages)"
                    + "|Your input exceeds the context window of this model|exceeds the available context size"
                    + "|context window exceeds limit");

    /** Groq's refusal of messages and output limit beyond the context, the whole message (vLLM's ends so, after numbers). */
    private static final String MESSAGES_OR_COMPLETION = "Please reduce the length of the messages or completion";

    /** The public API's refusal of a limit above the model's own maximum output. */
    private static final java.util.regex.Pattern MODEL_MAXIMUM = java.util.regex.Pattern.compile(
            "max_(?:completion_)?tokens is too large: (\\d+)\\. This model supports at most (\\d+) completion tokens");

    private static final java.util.regex.Pattern COMPLETION_SHARE =
            java.util.regex.Pattern.compile("maximum context length.*\\(\\d+ in the messages, (\\d+) in the completion\\)");

    /**
     * Where requests went when the server serves no such path, and what to change: a base URL copied with the
     * endpoint on it (a curl example's URL) doubles it, any other most likely lacks /v1.
     */
    private String pathAdvice() {
        String path = baseUrl.replaceAll("/+$", "");
        if (path.endsWith("/chat/completions")) {
            return " (requests go to " + path + "/chat/completions: leave /chat/completions out of the base URL, Rein adds it)";
        }
        return " (requests go to " + baseUrl + "/chat/completions; most servers want a base URL ending in /v1)";
    }

    /**
     * Where requests went and what Azure OpenAI takes, for its 404 "Resource not found": its answer to a path it does
     * not serve, such as a deployment's without {@code ?api-version=} (through a gateway on a domain of its own, which
     * the SDK does not know as Azure's).
     */
    private String azureAdvice() {
        return " (requests go to " + baseUrl + "/chat/completions; Azure OpenAI answers so to a path it does not serve,"
                + " such as a deployment's without ?api-version=: give its v1 API as the base URL,"
                + " https://RESOURCE.openai.azure.com/openai/v1, and the deployment's name as the model)";
    }

    /** The base URL as a URI, or null when it is not one (it was checked when the model was built). */
    private java.net.URI baseUri() {
        try {
            return java.net.URI.create(baseUrl);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private ModelException ioError(Exception e, String requestId) {
        // OkHttp's timeouts close the socket and carry that as their cause: the root would read "Socket closed".
        Throwable timedOut = timeoutCause(e);
        boolean timeout = timedOut != null;
        Throwable root = timeout ? timedOut : rootCause(e);
        Kind kind = timeout ? Kind.TIMEOUT : Kind.CONNECTION;
        String detail = root.getMessage() == null ? root.getClass().getSimpleName()
                : root.getClass().getSimpleName() + ": " + root.getMessage();
        String message = (timeout ? server + " did not answer in time: " : "the connection to " + server + " failed: ")
                + detail;
        return new ModelException(kind, 0, message, true, null, requestId, e);
    }

    /**
     * A server's answer to a path it does not serve, as text like a plain 404 page, else null:
     * FastAPI's own {@code {"detail":"Not Found"}} (vLLM and other servers built on it) and the
     * public API's {@code Unknown request URL: POST /chat/completions. ...} (code {@code unknown_url};
     * {@code Invalid URL (POST /chat/completions)} before), both addressed without /v1, and
     * llama-server's {@code File Not Found} for any path it does not serve.
     */
    private static String noRoute(int status, JsonNode body) {
        if (status != 404 || body == null || !body.isObject()) {
            return null;
        }
        if (body.size() == 1 && "Not Found".equals(body.path("detail").asText(null))) {
            return "Not Found";
        }
        String message = body.path("message").asText("");
        return message.startsWith("Invalid URL (") || message.startsWith("Unknown request URL: ")
                || message.equals("File Not Found") ? message : null;
    }

    static Kind kindOfStatus(int status) {
        return switch (status) {
            case 400, 422 -> Kind.INVALID_REQUEST;
            case 401 -> Kind.AUTHENTICATION;
            case 403 -> Kind.PERMISSION;
            case 404 -> Kind.NOT_FOUND;
            case 408, 504 -> Kind.TIMEOUT;
            case 409 -> Kind.CONFLICT;
            case 413 -> Kind.REQUEST_TOO_LARGE;
            case 429 -> Kind.RATE_LIMITED;
            // 498: Groq's own, its flex tier at capacity ("You can try again later", its error codes)
            case 503, 498 -> Kind.OVERLOADED;
            default -> status >= 500 && status <= 599 ? Kind.SERVER_ERROR : Kind.OTHER;
        };
    }

    private static String requestId(OpenAIServiceException e) {
        var values = e.headers().values("x-request-id");
        return values.isEmpty() ? null : values.get(0);
    }

    /**
     * The server's own message. The SDK hands over the {@code error} object of the body when
     * there is one (OpenAI: {@code {"error":{"message":..}}}), else the whole body (vLLM:
     * {@code {"message":..}}), a string for Ollama's {@code {"error":"..."}}, and a list for
     * Google's OpenAI-compatible endpoint ({@code [{"error":{"code":400,"message":..}}]}).
     */
    private static String apiMessage(JsonNode node) {
        if (node == null) {
            return null;
        }
        if (node.isTextual()) {
            return node.asText().isBlank() ? null : node.asText().strip();
        }
        if (node.isArray()) {
            for (JsonNode item : node) {
                String message = item.isObject() ? message(item) : null;
                if (message != null) {
                    return message;
                }
            }
            return null;
        }
        return message(node);
    }

    /**
     * Whether a 400 refuses the {@code max_tokens} field itself (OpenAI's reasoning models: code
     * {@code unsupported_parameter}, param {@code max_tokens}, or a message pointing to {@code
     * max_completion_tokens}), rather than its value (a limit too large names the field too, vLLM's
     * message both fields).
     */
    static boolean refusesMaxTokens(ModelException e) {
        if (e.httpStatus() != 400 || !(e.getCause() instanceof OpenAIServiceException service)) {
            return false;
        }
        JsonNode error = errorObject(node(service.body()));
        if (error == null) {
            return false;
        }
        boolean unsupported = "unsupported_parameter".equals(error.path("code").asText(null))
                && "max_tokens".equals(error.path("param").asText(null));
        String message = error.path("message").asText("");
        // vLLM's "'max_tokens' or 'max_completion_tokens' is too large" names both, of a value over the context
        return unsupported || (message.contains("max_tokens") && message.contains("max_completion_tokens")
                && !message.contains("too large"));
    }

    /** Whether a 400 refuses a tool's description for its length, in the public API's words (a proxy in front of it). */
    static boolean refusesLongDescription(ModelException e) {
        return e.httpStatus() == 400 && e.getMessage() != null && LONG_DESCRIPTION.matcher(e.getMessage()).find();
    }

    private static final java.util.regex.Pattern LONG_DESCRIPTION = java.util.regex.Pattern.compile(
            "Invalid 'tools\\[\\d+\\]\\.function\\.description': string too long");

    /**
     * Whether a 400 (or a validation 422) refuses the {@code stream_options} field: older Azure OpenAI
     * API versions say "Unrecognized request argument supplied: stream_options", others "Unknown
     * parameter: 'stream_options'" with {@code param} naming it, servers built on pydantic list it in
     * {@code detail[].loc}, a proxy may say it in plain text. Rein always streams, so a refusal that
     * names the field is about the field itself; a copy of the request in the error (pydantic's
     * {@code input}, vLLM's {@code input_value=...}) names it too and does not count.
     */
    static boolean refusesStreamOptions(ModelException e) {
        if ((e.httpStatus() != 400 && e.httpStatus() != 422) || !(e.getCause() instanceof OpenAIServiceException service)) {
            return false;
        }
        JsonNode body = node(service.body());
        return body != null && namesStreamOptions(body);
    }

    /** Whether an error body names {@code stream_options} anywhere but in an echo of the request. */
    private static boolean namesStreamOptions(JsonNode node) {
        if (node.isTextual()) {
            String text = node.asText();
            for (String echo : new String[] {"input_value=", "'input':"}) {
                int at = text.indexOf(echo);
                text = at < 0 ? text : text.substring(0, at);
            }
            return text.contains("stream_options");
        }
        for (var field : node.properties()) {
            // pydantic's copy of what it refused: at the body's root, the whole request
            if (!field.getKey().equals("input") && namesStreamOptions(field.getValue())) {
                return true;
            }
        }
        if (node.isArray()) {
            for (JsonNode item : node) {
                if (namesStreamOptions(item)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * OpenAI's 429 {@code insufficient_quota}: the account is out of credits or at its spending
     * limit, which no wait fixes (unlike a rate limit, also a 429).
     */
    private static boolean quotaExhausted(JsonNode body) {
        JsonNode error = errorObject(body);
        return error != null && (QUOTA.equals(error.path("code").asText(null)) || QUOTA.equals(error.path("type").asText(null)));
    }

    /**
     * Whether a 429 from Google's endpoints is for a quota of 0 (the project has none for the model at all, as a free-tier
     * project for a model without a free tier): a {@code google.rpc.QuotaFailure} detail whose violation has {@code
     * quotaValue} "0", or the Gemini API's message naming it ("Quota exceeded for metric: ..., limit: 0, model: ...").
     * Unlike a spent rate limit, no wait refills it.
     */
    private static boolean zeroQuota(JsonNode body, String message) {
        if (message != null && ZERO_LIMIT.matcher(message).find()) {
            return true;
        }
        for (JsonNode detail : RateLimitHints.googleDetails(body, "google.rpc.QuotaFailure")) {
            for (JsonNode violation : detail.path("violations")) {
                if (violation.path("quotaValue").asText("").equals("0")) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether {@code error} is a content filter's refusal: Azure OpenAI's (code {@code content_filter}) or
     * Moonshot/Kimi's (type {@code content_filter}, https://platform.kimi.ai/docs/api/errors).
     */
    private static boolean contentFilter(JsonNode error) {
        return error != null && ("content_filter".equals(error.path("code").asText(null))
                || "content_filter".equals(error.path("type").asText(null)));
    }

    /**
     * What a content filter's refusal means for the run. Azure OpenAI's (code {@code content_filter}) names the
     * categories it flagged ({@code innererror.content_filter_result}) and, in {@code param}, what it filtered; its
     * examples show {@code prompt} (taken so with no param too): its message asks to "modify your prompt", but in a run
     * the flagged text may be a tool's result (Prompt Shields' {@code indirect_attack}) as well as the user's, and it
     * stays in the conversation, so every later step is refused the same way. Azure documents no error naming
     * {@code param} {@code completion} (its output filter normally ends the answer with {@code finish_reason}
     * {@code content_filter}); if a filter error does name it, the flagged text is the model's answer, which the
     * conversation does not keep, so the task is what to change. Moonshot/Kimi's (type {@code content_filter}) says
     * only that the input or the generated content may be flagged; it gets its advice with no message too. Empty for
     * any other error.
     */
    private static String contentFilterAdvice(JsonNode error) {
        if (!contentFilter(error)) {
            return "";
        }
        if (!"content_filter".equals(error.path("code").asText(null))) {
            return " (the input or the model's answer holds what the content filter refuses; if it is the input, the"
                    + " task's or a tool result's, it stays in the conversation, so every later step would be refused the"
                    + " same way)";
        }
        java.util.Map<String, String> filtered = ChunkAssembler.filteredCategories(
                error.path("innererror").path("content_filter_result"));
        return " (" + (filtered.isEmpty() ? "" : "filtered: " + String.join(", ", filtered.values()) + "; ")
                + ("completion".equals(error.path("param").asText(null))
                        ? "the model's answer was filtered, not the conversation: rephrase the task so that it asks for"
                                + " something else)"
                        : "the flagged text, the task's or a tool result's, stays in the conversation, so every later"
                                + " step would be refused the same way)");
    }

    /**
     * What to change when OpenRouter refuses an output limit the account's credits do not cover (402 "This request
     * requires more credits, or fewer max_tokens. You requested up to 16384 tokens, but can only afford 3919."): the
     * max_tokens it names is the run's output limit. Empty for any other message, and when the credits cover no output
     * (no limit helps then, and the message says what does).
     */
    private static String creditAdvice(String message) {
        java.util.regex.Matcher credits = CREDITS.matcher(message);
        if (!credits.find() || credits.group(2).matches("0+")) {
            return "";
        }
        return " (" + credits.group(1) + " is the run's output limit, more than the " + credits.group(2) + " the credits cover:"
                + " lower it with --max-tokens (maxTokens in the library, max_tokens in a suite file), or add credits)";
    }

    private static final java.util.regex.Pattern CREDITS = java.util.regex.Pattern.compile(
            "or fewer max_tokens\\. You requested up to (\\d+) tokens, but can only afford (\\d+)");

    /**
     * The public API's 429 for one request larger than the organization's tokens-per-minute limit: "Request too large for
     * gpt-4o in organization org-... on tokens per min (TPM): Limit 30000, Requested 36278. The input or output tokens
     * must be reduced in order to run successfully." (code {@code rate_limit_exceeded}, as for a limit to wait for);
     * Groq's (its HTTP 413, same code): "Request too large for model `m` in organization `o` service tier `on_demand` on
     * tokens per minute (TPM): Limit 6000, Requested 14810, please reduce your message size and try again."
     */
    private static final String OVER_MINUTE_LIMIT_ADVICE = " (this one request needs more tokens than the rate limit allows"
            + " in a minute, so no wait helps: the limit counts its messages and its output limit, so lower the output limit"
            + " with --max-tokens (maxTokens in the library, max_tokens in a suite file) or make the conversation smaller with"
            + " a ContextPolicy (tool result clearing or compaction, a lower toolOutputLimit); or raise the organization's"
            + " rate limits)";

    private static final java.util.regex.Pattern OVER_MINUTE_LIMIT = java.util.regex.Pattern.compile(
            "^Request too large for .*(\\. The input or output tokens must be reduced|, please reduce your message size)",
            java.util.regex.Pattern.DOTALL);

    private static final java.util.regex.Pattern ZERO_LIMIT =
            java.util.regex.Pattern.compile("Quota exceeded for metric: [^,\\n]*, limit: 0\\b(?!\\.)");

    /** The error object of a body: its {@code error} member (OpenAI's shape), else the body itself; null when not an object. */
    private static JsonNode errorObject(JsonNode body) {
        if (body == null || !body.isObject()) {
            return null;
        }
        return body.path("error").isObject() ? body.path("error") : body;
    }

    private static String message(JsonNode node) {
        for (String field : new String[] {"message", "detail", "error"}) {
            JsonNode value = node.get(field);
            if (value != null && value.isTextual() && !value.asText().isBlank()) {
                return value.asText() + upstreamReason(node);
            }
            if (value != null && value.isObject()) {
                String nested = message(value);
                if (nested != null) {
                    return nested;
                }
            }
            if (value != null && value.isArray() && field.equals("detail")) {
                // FastAPI's validation errors (servers built on it, e.g. llama-cpp-python):
                // {"detail":[{"loc":["body","messages"],"msg":"Field required",...}]}
                List<String> problems = new ArrayList<>();
                for (JsonNode item : value) {
                    String msg = item.path("msg").asText("");
                    if (!msg.isBlank()) {
                        List<String> loc = new ArrayList<>();
                        item.path("loc").forEach(part -> loc.add(part.asText()));
                        problems.add(loc.isEmpty() ? msg : String.join(".", loc) + ": " + msg);
                    }
                }
                if (!problems.isEmpty()) {
                    return String.join("; ", problems);
                }
            }
        }
        return null;
    }

    /** {@link #outputLimitAdvice} for {@code error}, or for the provider's error it relays ({@link #relayed}). */
    private static String relayedOutputLimitAdvice(String message, JsonNode error) {
        JsonNode provider = relayed(error);
        return provider == error ? outputLimitAdvice(message, error) : outputLimitAdvice(message(provider), provider);
    }

    /**
     * The provider's error a gateway relays in {@code error} (OpenRouter's {@code metadata.raw}, the provider's error JSON
     * as text, or as JSON): its error object, read as {@link #errorObject} reads a body; else {@code error} itself (also
     * when it is null, or {@code raw} is other text).
     */
    private static JsonNode relayed(JsonNode error) {
        if (error == null) {
            return null;
        }
        JsonNode provider = errorObject(parsed(error.path("metadata").path("raw")));
        return provider != null && message(provider) != null ? provider : error;
    }

    /** A gateway's {@code metadata.raw} as JSON: itself when it is an object, parsed when it is JSON text; else null. */
    private static JsonNode parsed(JsonNode raw) {
        if (raw.isObject()) {
            return raw;
        }
        if (raw.isTextual() && raw.asText().strip().startsWith("{")) {
            try {
                return dev.rein.json.Json.mapper().readTree(raw.asText());
            } catch (java.io.IOException notJson) {
                return null; // shown as its text (upstreamReason), advised on as the gateway's message
            }
        }
        return null;
    }

    /**
     * {@code raw} without the {@code failed_generation} of the provider's error it holds, when there is one to show: the
     * message gives it on its own after the note ({@link #failedGeneration}), and shown in the provider's error too it
     * would be there twice. {@code raw} itself otherwise.
     */
    private static JsonNode withoutFailedGeneration(JsonNode raw) {
        JsonNode parsed = parsed(raw);
        JsonNode provider = errorObject(parsed);
        if (provider == null || failedGeneration(provider).isEmpty() || message(provider) == null) {
            return raw;
        }
        JsonNode copy = parsed.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) errorObject(copy)).remove("failed_generation");
        return copy;
    }

    /** How much of the provider's error a gateway relays ({@link #upstreamReason}) a message shows, in characters. */
    static final int UPSTREAM_LIMIT = 1000;

    /**
     * The reason a gateway's error carries from the provider behind it, as OpenRouter's does in {@code metadata.raw} (a
     * string, often the provider's error JSON; typed {@code unknown}, so other JSON is shown as its text) under the
     * message "Provider returned error", named by {@code metadata.provider_name}: on one line, its control characters
     * escaped (a terminal or log shows a message), cut after {@value #UPSTREAM_LIMIT} characters saying so, as
     * rein-anthropic shows it. Empty when there is none.
     */
    private static String upstreamReason(JsonNode error) {
        JsonNode metadata = error.path("metadata");
        JsonNode raw = withoutFailedGeneration(metadata.path("raw"));
        String text = dev.rein.internal.text.OneLine.of(raw.isTextual() ? raw.asText() : raw.isContainerNode() ? raw.toString()
                : "", UPSTREAM_LIMIT);
        if (text.isEmpty()) {
            return "";
        }
        JsonNode name = metadata.path("provider_name");
        String provider = name.isTextual() && !name.asText().isBlank()
                ? dev.rein.internal.text.Controls.visible(name.asText().strip(), false) + ": " : "";
        return " (" + provider + text + ")";
    }

    private static JsonNode node(JsonValue body) {
        if (body == null || body.isMissing() || body.isNull()) {
            return null;
        }
        try {
            return body.convert(JsonNode.class);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * The timeout in a failure's causes: a socket read or connect that timed out, or OkHttp's
     * {@code InterruptedIOException("timeout")} for a call past its whole-call limit; else null.
     */
    private static Throwable timeoutCause(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SocketTimeoutException
                    || (c instanceof InterruptedIOException && "timeout".equalsIgnoreCase(c.getMessage()))) {
                return c;
            }
        }
        return null;
    }

    private static Throwable rootCause(Throwable t) {
        Throwable current = t;
        while (current.getCause() != null && current.getCause() != current) {
            current = current.getCause();
        }
        return current;
    }
}
