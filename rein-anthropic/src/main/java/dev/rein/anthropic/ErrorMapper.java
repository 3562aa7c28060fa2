package dev.rein.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.rein.json.Json;
import dev.rein.model.ModelException;
import dev.rein.model.ModelException.Kind;
import dev.rein.model.Usage;
import dev.rein.retry.RetryAfter;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpHeaders;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;

/**
 * Turns failed exchanges into {@link ModelException}s carrying the API's own message, the HTTP status,
 * the request id, a {@link Kind}, whether a retry can help and the server's wait hint.
 *
 * <p>Retryable by default: 408, 409, 429, 5xx (including 529 overloaded), connection failures and
 * timeouts, and an {@code error} event that arrives after HTTP 200 (the request was accepted, so
 * the failure is the server's). Not retryable: the other 4xx, a body Rein cannot read, an
 * https:// base URL whose server answers in plain HTTP and a certificate the JVM does not trust. The
 * server's {@code x-should-retry} header overrides that default either way, as in the official
 * SDKs: {@code false} vetoes a retry, {@code true} makes any failure retryable (the server knows
 * best; the retry policy still bounds the attempts and the deadline).
 */
final class ErrorMapper {

    /** The {@code error.details.error_code} of a 429 for the usage tier's monthly spend cap. */
    static final String SPEND_LIMIT_REACHED = "enforced_spend_limit_reached";

    /**
     * The {@code error.details.error_code}s of a 429 that no retry can help: a spend limit holds
     * until the month ends or someone raises it (the tier's monthly cap, a contract's limit, the
     * limit or credit of the organization linked to the request's user profile), unlike a rate
     * limit, which passes within seconds. The SDKs type a contract's as a {@code RateLimitError}.
     */
    static final java.util.Set<String> SPEND_LIMITS = java.util.Set.of(SPEND_LIMIT_REACHED,
            "contract_spend_limit_reached", "linked_organization_spend_limit_reached");

    private final Clock clock;
    /** How messages name the server: the public API, or the base URL a gateway or proxy is reached at. */
    private final String server;
    private final URI baseUrl;
    private final boolean credentials;

    ErrorMapper(Clock clock) {
        this(clock, AnthropicModel.DEFAULT_BASE_URL);
    }

    ErrorMapper(Clock clock, String baseUrl) {
        this(clock, baseUrl, true);
    }

    /**
     * @param credentials whether requests carry an API key or an auth token: a 401 to a request
     *                    without either says where Rein reads them from
     */
    ErrorMapper(Clock clock, String baseUrl, boolean credentials) {
        this.clock = clock;
        this.credentials = credentials;
        String trimmed = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.server = trimmed.equals(AnthropicModel.DEFAULT_BASE_URL) ? "the Anthropic API" : "the server at " + trimmed;
        URI uri;
        try {
            uri = URI.create(trimmed);
        } catch (IllegalArgumentException e) {
            uri = null;
        }
        this.baseUrl = uri;
    }

    /** How messages name the server: "the Anthropic API", or "the server at BASE_URL" for a gateway or proxy. */
    String server() {
        return server;
    }

    static ModelException malformed(String message, Throwable cause) {
        return new ModelException(Kind.MALFORMED_RESPONSE, 0, message, false, null, null, cause);
    }

    /** A response with a status other than 2xx; {@code body} is what it sent. */
    ModelException httpError(int status, HttpHeaders headers, String requestId, byte[] body) {
        return httpError(status, headers, requestId, body, -1);
    }

    /**
     * The same, for a request of {@code requestBytes} bytes (-1 when unknown), which a 413 names.
     */
    ModelException httpError(int status, HttpHeaders headers, String requestId, byte[] body, long requestBytes) {
        Kind kind = kindOfStatus(status);
        Boolean override = RetryAfter.shouldRetry(values(headers));
        JsonNode root = errorBody(body);
        JsonNode error = root.path("error");
        // The header names the request; every API error body names it too, for when a proxy dropped the header.
        String id = requestId != null ? requestId : root.path("request_id").isTextual() ? root.get("request_id").asText() : null;
        boolean retryable = override != null ? override
                : kind.retryableByDefault() && !spendLimit(error);
        // Without a body, name who answered: a gateway or proxy at the base URL, not the API behind it.
        String apiText = error.path("message").asText("");
        // A 404 naming a model reached the API's endpoint: no doubled path to point at.
        String notFound = status == 404 && UNKNOWN_MODEL.matcher(apiText).find() ? UNKNOWN_MODEL_ADVICE : doubledVersion(status);
        // The API's words are looked for in the error's messages only, a gateway's relaying them included: other text
        // (a guardrail's flagged_text) may quote the conversation.
        java.util.List<Words> refusal = status == 400 ? refusals(root, body) : java.util.List.of();
        String message = apiMessage(error, body, "HTTP " + status + " from " + server) + notFound
                + tooLarge(status, requestBytes)
                + (status == 400 ? contextAdvice(refusal) + settingAdvice(refusal) + signatureAdvice(refusal) : "")
                + (status == 401 && !credentials ? NO_CREDENTIALS : "")
                + dev.rein.provider.ProviderConfig.redirectAdvice(status,
                        headers == null ? null : headers.firstValue("location").orElse(null), "/v1/messages", baseUrl);
        Duration wait = RetryAfter.from(values(headers), clock);
        if (wait == null && status == 429) { // a proxy that drops retry-after may keep the rate-limit headers
            wait = RateLimitReset.of(values(headers), clock);
        }
        return new ModelException(kind, status, message, retryable, wait, id, null);
    }

    /** Whether {@code error} is a reached spend limit ({@link #SPEND_LIMITS}), which every retry would meet again. */
    private static boolean spendLimit(JsonNode error) {
        JsonNode code = error.path("details").path("error_code");
        return code.isTextual() && SPEND_LIMITS.contains(code.asText());
    }

    /**
     * For a 401 to a request sent without a key or a token: the API's words name its header
     * ("x-api-key header is required"), not where Rein reads the key from.
     */
    static final String NO_CREDENTIALS = " (no API key was sent: set ANTHROPIC_API_KEY, or give one with"
            + " AnthropicModel.builder().apiKey(...); for a gateway that takes a bearer token, ANTHROPIC_AUTH_TOKEN or authToken(...))";

    /** The most a Messages API request may weigh (the errors page's request size limits). */
    static final long MAX_REQUEST_MB = 32;

    /**
     * For a 413, what to do: the request grows with the conversation (tool results, documents,
     * images), and sending it again cannot help, so it says how large it was and how to shrink it.
     */
    private static String tooLarge(int status, long requestBytes) {
        if (status != 413) {
            return "";
        }
        return " (" + (requestBytes >= 0 ? "the request was " + requestBytes + " bytes; " : "")
                + "the Anthropic API takes at most " + MAX_REQUEST_MB + " MB per request, and a gateway or proxy may take less:"
                + " make the conversation smaller with a ContextPolicy (a lower toolOutputLimit, tool result clearing or"
                + " compaction), or leave large documents and images out of it)";
    }

    /** The API's 404 for a model name it does not know: "model: sonnet4". */
    private static final java.util.regex.Pattern UNKNOWN_MODEL = java.util.regex.Pattern.compile("^model: \\S");
    /** What that 404 means, and where a run's model name is set. */
    private static final String UNKNOWN_MODEL_ADVICE = " (the API knows no model of that name, or this key may not use it:"
            + " check the model name, --model for the rein command (modelName in the library); GET /v1/models lists the"
            + " models the key can use)";

    /**
     * A message's text from where the API's words would begin: its start, after a gateway's prefix
     * ({@link #GATEWAY_PREFIX}) or after the {@code "message":"} of an error JSON nested in it.
     */
    private record Words(String text, int from) {
        /** {@code words} matched from {@link #from} on, or null. */
        java.util.regex.Matcher begin(java.util.regex.Pattern words) {
            java.util.regex.Matcher matcher = words.matcher(text).region(from, text.length());
            return matcher.lookingAt() ? matcher : null;
        }
    }

    /**
     * What a gateway puts before the API's words it relays in its own message: LiteLLM's exception names
     * ({@code litellm.BadRequestError: AnthropicException - }, {@code litellm.BadRequestError:
     * litellm.ContextWindowExceededError: AnthropicError - }, {@code BedrockException - }, {@code VertexAIException
     * BadRequestError - }) and Amazon Bedrock's ({@code The model returned the following errors: }), in that order.
     */
    private static final java.util.regex.Pattern GATEWAY_PREFIX = java.util.regex.Pattern.compile(
            "(?:litellm\\.\\w+: )*(?:\\w+(?:Exception|Error)(?: \\w+Error)? - )?(?:The model returned the following errors: )?");
    /**
     * Where the message of an error JSON nested in a message's text begins, its quotes escaped there (up to three times
     * over) or not; the escapes are counted so a long run of backslashes is not searched again from each of them.
     */
    private static final java.util.regex.Pattern NESTED_MESSAGE =
            java.util.regex.Pattern.compile("\\\\{0,7}\"message\\\\{0,7}\"\\s*:\\s*\\\\{0,7}\"");
    /** How deep error JSON nested as a message's text is read (a gateway's, in a gateway's, in the API's). */
    private static final int NESTED_JSON_LIMIT = 3;

    /**
     * Where the advice for a 400 looks for the API's words: the text of each {@code message} in the error body (or
     * event) at any depth ({@code error.message}, a gateway's {@code upstream_error.error.message}, Bedrock's
     * {@code message}, a FastAPI proxy's {@code detail}), and an {@code error} given as text, each at its start or after a
     * gateway's prefix; an error
     * JSON given as such a text is read the same way, and the message of one that cannot be read as JSON (cut short,
     * shown as Python bytes) is taken from its {@code "message":"} on. A body that is not JSON is one such text.
     * Nothing else is read: a guardrail's {@code flagged_text}, an echoed prompt, and words further into a message may
     * quote the conversation, which can hold the API's words without the request being refused for them.
     */
    private static java.util.List<Words> refusals(JsonNode root, byte[] body) {
        java.util.List<Words> found = new java.util.ArrayList<>();
        if (root.isContainerNode()) {
            messages(root, found, 0);
        } else if (root.isTextual()) {
            words(root.asText(), found, 0);
        } else if (root.isMissingNode() && body != null && body.length > 0) {
            words(new String(body, StandardCharsets.UTF_8).strip(), found, 0);
        }
        return found;
    }

    private static void messages(JsonNode node, java.util.List<Words> found, int nested) {
        if (node.isArray()) {
            node.forEach(element -> messages(element, found, nested));
            return;
        }
        for (java.util.Map.Entry<String, JsonNode> field : node.properties()) {
            JsonNode value = field.getValue();
            if (value.isTextual() && (field.getKey().equals("message") || field.getKey().equals("error")
                    || field.getKey().equals("detail"))) { // a FastAPI proxy's error is its 'detail'
                words(value.asText(), found, nested);
            } else if (value.isContainerNode()) {
                if (field.getKey().equals("metadata") && value.path("raw").isTextual()) {
                    // OpenRouter's: the upstream provider's error as it sent it, its JSON read as nested JSON is
                    words(value.get("raw").asText(), found, nested);
                }
                messages(value, found, nested);
            }
        }
    }

    private static void words(String text, java.util.List<Words> found, int nested) {
        int from = afterPrefix(text, 0);
        found.add(new Words(text, from));
        if (nested < NESTED_JSON_LIMIT && text.startsWith("{", from)) {
            try (com.fasterxml.jackson.core.JsonParser parser = Json.mapper().createParser(text.substring(from))) {
                JsonNode json = Json.mapper().readTree(parser); // the first JSON value: a gateway may add text after it
                if (json != null && json.isObject()) {
                    messages(json, found, nested + 1);
                }
            } catch (IOException notJson) {
                // its message is still found after its "message":" below
            }
        }
        // Only a message that is an error JSON (or one printed as Python bytes) is searched for its nested message: in a
        // gateway's own words, such JSON may be quoted from the conversation.
        if (text.startsWith("{", from) || text.startsWith("b'", from) || text.startsWith("b\"", from)) {
            java.util.regex.Matcher message = NESTED_MESSAGE.matcher(text);
            while (message.find()) {
                found.add(new Words(text, afterPrefix(text, message.end())));
            }
        }
    }

    private static int afterPrefix(String text, int from) {
        java.util.regex.Matcher prefix = GATEWAY_PREFIX.matcher(text).region(from, text.length());
        return prefix.lookingAt() ? prefix.end() : from;
    }

    /** The first of {@code words} that begins with {@code pattern}'s words, matched, or null. */
    private static java.util.regex.Matcher first(java.util.List<Words> words, java.util.regex.Pattern pattern) {
        for (Words w : words) {
            java.util.regex.Matcher matched = w.begin(pattern);
            if (matched != null) {
                return matched;
            }
        }
        return null;
    }

    /** The API's 400 when the conversation alone is beyond the context window: "prompt is too long: N tokens > M maximum". */
    private static final java.util.regex.Pattern PROMPT_TOO_LONG = java.util.regex.Pattern.compile("(?i)prompt is too long: \\d+ tokens > \\d+");
    /** The 400 when the conversation and max_tokens together are: "input length and `max_tokens` exceed context limit: ...". */
    private static final java.util.regex.Pattern INPUT_AND_OUTPUT_TOO_LONG =
            java.util.regex.Pattern.compile("(?i)input length and `max_tokens` exceed context limit");
    /** The 400 when max_tokens is above the model's own output limit: "max_tokens: N > M, which is the maximum allowed ...". */
    private static final java.util.regex.Pattern OUTPUT_LIMIT =
            java.util.regex.Pattern.compile("max_tokens: \\d+ > (\\d+), which is the maximum allowed number of output tokens");

    /**
     * For a 400 that says the request does not fit the model, what to change in Rein's terms: the
     * conversation grows with every step, so the same request fails at every later call, and the
     * API's words name neither Rein's context policy nor the setting its max_tokens comes from.
     * The words are looked for where {@link #refusals} says. Empty for any other refusal.
     */
    private static String contextAdvice(java.util.List<Words> refusal) {
        if (first(refusal, PROMPT_TOO_LONG) != null) {
            return " (the conversation no longer fits the model's context window: make it smaller with a ContextPolicy"
                    + " (tool result clearing or compaction, a lower toolOutputLimit), or leave large documents and images out of it)";
        }
        if (first(refusal, INPUT_AND_OUTPUT_TOO_LONG) != null) {
            return " (max_tokens is the run's output limit: lower it with " + MAX_TOKENS_SETTINGS
                    + ", or make the conversation smaller with a ContextPolicy)";
        }
        java.util.regex.Matcher limit = first(refusal, OUTPUT_LIMIT);
        if (limit != null) {
            return " (max_tokens is the run's output limit: lower it to " + limit.group(1) + " or less with " + MAX_TOKENS_SETTINGS + ")";
        }
        return "";
    }

    /**
     * A double quote of the API's words, also as an error JSON nested in a gateway's message shows it when it is not
     * read as JSON (escaped: {@code \"}).
     */
    private static final String Q = "\\\\{0,7}\"";

    /**
     * The 400 of a model that always thinks (Claude Opus 5.5, Sonnet 5.5, Fable 5 and 5.1, Mythos 5 and 5.1) to thinking off:
     * "\"thinking.type.disabled\" is not supported for this model. ...".
     */
    private static final java.util.regex.Pattern THINKING_OFF_NOT_SUPPORTED =
            java.util.regex.Pattern.compile(Q + "thinking\\.type\\.disabled" + Q + " is not supported for this model");
    /**
     * The same 400 to a manual budget ({@code "thinking.type.enabled"}), which more models refuse than those that always
     * think: the thinking troubleshooting docs say every model from Claude 4.7 on (Claude Sonnet 5 and Opus 5 too).
     */
    private static final java.util.regex.Pattern BUDGET_NOT_SUPPORTED =
            java.util.regex.Pattern.compile(Q + "thinking\\.type\\.enabled" + Q + " is not supported for this model");
    /** What to do instead of a budget, in Rein's terms: the API's words name its fields, not Rein's options. */
    static final String NO_BUDGET_ADVICE = " (this model takes no thinking budget, as no model from Claude 4.7 on does: use"
            + " AnthropicThinking.adaptive() or leave AnthropicThinking out (for the rein command, --thinking adaptive, or leave"
            + " --thinking out), and set how much it thinks with AnthropicEffort)";
    /** What to do instead of thinking off, in Rein's terms: the API's words name its fields, not Rein's options. */
    static final String ALWAYS_THINKS_ADVICE = " (this model always thinks: leave AnthropicThinking out or use"
            + " AnthropicThinking.adaptive() (for the rein command, leave --thinking out or give --thinking adaptive), and set"
            + " how much it thinks with AnthropicEffort; on Claude Sonnet 5.5, AnthropicThinking.betweenTools() leaves out the"
            + " thinking before the first tool call)";
    /** The 400 of a model that refuses a forced tool choice: "tool_choice: type \"tool\" and \"any\" are not supported for this model.". */
    private static final java.util.regex.Pattern FORCED_TOOL_CHOICE_NOT_SUPPORTED =
            java.util.regex.Pattern.compile("tool_choice: type " + Q + "tool" + Q + " and " + Q + "any" + Q + " are not supported");
    /** What to do instead: let the model choose, and ask for a shape with structured output. */
    static final String NO_FORCED_TOOL_CHOICE_ADVICE = " (this model chooses its tools itself: leave the tool choice at"
            + " ToolChoice.auto() and say in the prompt when to use the tool; for an answer of a given shape use structured"
            + " output (AnthropicStructuredOutput.ENABLED with the agent's output type))";

    /**
     * The 400 of API version 2026-10-21 (the one Rein sends) to a sampling parameter, even at its default:
     * "temperature: Extra inputs are not permitted" (or top_p, top_k).
     */
    private static final java.util.regex.Pattern SAMPLING_NOT_TAKEN =
            java.util.regex.Pattern.compile("(temperature|top_p|top_k): Extra inputs are not permitted");
    /**
     * What to do instead, in Rein's terms: the API's words name a wire field, not the setting it came from, and every
     * step of the run would be refused the same way.
     */
    static final String NO_SAMPLING_ADVICE = " (API version " + Transport.API_VERSION + ", which Rein speaks, takes no"
            + " temperature, top_p or top_k, even at their defaults: leave Agent.Builder.temperature(...) unset, and"
            + " ModelRequest.Builder's temperature, topP and topK; they are sent only when set, for a gateway that still"
            + " takes them)";

    /**
     * For a 400 refusing a setting the model does not take (thinking off or with a budget, a forced tool choice), or
     * that the API version Rein speaks does not take (a sampling parameter), what to use instead in Rein's terms; the
     * words are looked for where {@link #refusals} says (so {@code metadata.top_p: ...} is not the sampling one). Empty
     * for any other refusal.
     */
    private static String settingAdvice(java.util.List<Words> refusal) {
        if (first(refusal, SAMPLING_NOT_TAKEN) != null) {
            return NO_SAMPLING_ADVICE;
        }
        if (first(refusal, THINKING_OFF_NOT_SUPPORTED) != null) {
            return ALWAYS_THINKS_ADVICE;
        }
        if (first(refusal, BUDGET_NOT_SUPPORTED) != null) {
            return NO_BUDGET_ADVICE;
        }
        return first(refusal, FORCED_TOOL_CHOICE_NOT_SUPPORTED) != null ? NO_FORCED_TOOL_CHOICE_ADVICE : "";
    }

    /**
     * The API's 400 for a thinking block whose signature it cannot verify: "messages.1.content.0: Invalid `signature` in
     * `thinking` block", looked for where {@link #refusals} says (Vertex AI behind a proxy nests the API's error JSON in
     * its message).
     */
    private static final java.util.regex.Pattern UNVERIFIED_SIGNATURE = java.util.regex.Pattern.compile(
            "messages\\.(\\d+)\\.content\\.(\\d+): Invalid `signature` in `(redacted_thinking|thinking)` block");
    /**
     * The preserved-thinking refusal, which begins with the same words and goes on to say its own cause and what to do
     * ("... block. The block is bound to a different conversation. Remove the block, or set ..."): it gets no advice.
     */
    private static final String BOUND_TO_ANOTHER_CONVERSATION = "The block is bound to a different conversation";

    /**
     * For that 400, its cause and what to do: the API's words name a position only, and the history holds the block,
     * so every later request of the run is refused the same way. A block another Claude model made is dropped without
     * an error by a model with preserved thinking (its docs), but may be refused by an older one (the Python SDK's
     * maintainers, anthropics/anthropic-sdk-python#1598); an unsigned one goes only to a model without "claude" in its
     * name ({@link RequestMapper#forModel}). Empty for any other refusal.
     */
    private static String signatureAdvice(java.util.List<Words> refusal) {
        java.util.regex.Matcher refused = null;
        for (Words w : refusal) {
            java.util.regex.Matcher matched = w.begin(UNVERIFIED_SIGNATURE);
            // The binding refusal begins with the same words and goes on with its own.
            if (matched != null && !w.text().substring(matched.end()).contains(BOUND_TO_ANOTHER_CONVERSATION)) {
                refused = matched;
                break;
            }
        }
        if (refused == null) {
            return "";
        }
        return " (the " + refused.group(3).replace('_', ' ') + " block at messages[" + refused.group(1) + "].content["
                + refused.group(2) + "] of the request carries a signature the API cannot verify: it takes such a block"
                + " back only exactly as a Claude model made it, so this one was changed after the model made it (its text or"
                + " signature edited, by code that rewrote the history, or re-encoded by a gateway or proxy) or was made"
                + " elsewhere (by another provider's Anthropic-compatible endpoint, which signs its thinking its own way, or"
                + " written by hand; an empty signature goes only to a model without 'claude' in its name, so name a gateway's"
                + " Claude model claude-...), or by another Claude model than this request's (a fallback, a ModelInterceptor's"
                + " switch, a handed-over history: models with preserved thinking drop a block they cannot read, others may"
                + " refuse it); every later request of the run sends it again and is refused the same way: send the"
                + " history's thinking blocks exactly as the model returned them, or leave that thinking out of the history"
                + " (a ModelInterceptor can remove ThinkingBlock and RedactedThinkingBlock from the request's messages))";
    }

    /** Where a run's max_tokens is set, as rein-openai's advice names it. */
    private static final String MAX_TOKENS_SETTINGS = "--max-tokens (maxTokens in the library, max_tokens in a suite file)";

    /**
     * For a 404 from a base URL ending in {@code /v1} (as OpenAI-style servers want theirs) or in
     * {@code /v1/messages} (the endpoint pasted from a curl example), where the request went: Rein
     * adds {@code /v1/messages} itself, so the path had it twice.
     */
    private String doubledVersion(int status) {
        String path = status != 404 || baseUrl == null || baseUrl.getPath() == null ? ""
                : baseUrl.getPath().toLowerCase(java.util.Locale.ROOT);
        String extra = path.endsWith("/v1") ? "/v1" : path.endsWith("/v1/messages") ? "/v1/messages" : null;
        if (extra == null) {
            return "";
        }
        return " (requests go to " + baseUrl + "/v1/messages: leave " + extra + " out of the base URL, Rein adds it)";
    }

    /**
     * An {@code error} event inside a stream that began with HTTP 200. The HTTP status is reported
     * as 0 because the HTTP exchange itself succeeded; the kind comes from the error's type.
     */
    ModelException streamError(JsonNode event, HttpHeaders headers, String requestId) {
        return errorAfterHttp200(event, headers, requestId, "error event in the response stream");
    }

    /** The headers as the provider-neutral lookup {@link RetryAfter} reads; null when the answer had none. */
    private static java.util.function.Function<String, java.util.List<String>> values(HttpHeaders headers) {
        return headers == null ? null : headers::allValues;
    }

    /**
     * An {@code error} event whose data is not JSON (a proxy's own text): an error of no known type,
     * so a server failure, with the text as its message.
     */
    ModelException streamError(String text, HttpHeaders headers, String requestId) {
        String shown = text.isBlank() ? "no message" : summary(text.strip());
        Boolean override = RetryAfter.shouldRetry(values(headers));
        boolean retryable = override != null ? override : Kind.SERVER_ERROR.retryableByDefault();
        return new ModelException(Kind.SERVER_ERROR, 0, "error event in the response stream (no type): " + shown, retryable,
                RetryAfter.from(values(headers), clock), requestId, null);
    }

    /**
     * An error object as the whole JSON body of an HTTP 200 answer (a gateway that ignored
     * {@code "stream": true}); reported like an error event in a stream.
     */
    ModelException bodyError(JsonNode body, HttpHeaders headers, String requestId) {
        return errorAfterHttp200(body, headers, requestId, "error object in the HTTP 200 response body");
    }

    private ModelException errorAfterHttp200(JsonNode event, HttpHeaders headers, String requestId, String where) {
        JsonNode typeNode = event.path("error").get("type");
        String type = typeNode != null && typeNode.isTextual() ? typeNode.asText() : null;
        // A gateway's error without the API's type (OpenRouter's errors page: {code, message, metadata}, code the HTTP
        // status its error would have had; or a type of the gateway's own beside the code) is classified by that status,
        // as its HTTP error is: 402, out of credits, is no failure a retry can help.
        int status = type == null || !API_TYPES.containsKey(type) ? statusCode(event.path("error").path("code")) : 0;
        Kind kind = status != 0 ? kindOfStatus(status) : kindOfType(type);
        Boolean override = RetryAfter.shouldRetry(values(headers));
        // A spend limit means the same after HTTP 200 as with a 429: every retry would meet it again.
        boolean retryable = override != null ? override : kind.retryableByDefault() && !spendLimit(event.path("error"));
        // A gateway may give its error as text alone ("error": "upstream timeout").
        JsonNode text = event.path("error").isTextual() ? event.get("error") : event.path("error").get("message");
        // Without a message, an error object holding more than its type (a gateway's, with the upstream's error nested
        // in it) is shown as the body of an HTTP error would be: its words are the only account of the failure.
        String apiMessage = text != null && text.isTextual() && !text.asText().isBlank()
                ? text.asText() + upstreamReason(event.path("error"))
                : event.path("error").size() > (typeNode == null ? 0 : 1) ? summary(event.toString()) : "no message";
        // A gateway relaying the API's 400 after its own 200: the same request meets it at every later step, so the
        // same advice as for the 400.
        java.util.List<Words> refusal = kind == Kind.INVALID_REQUEST ? refusals(event, null) : java.util.List.of();
        String advice = contextAdvice(refusal) + settingAdvice(refusal) + signatureAdvice(refusal);
        String named = type != null && status != 0 ? type + ", code " + status
                : type != null ? type : status != 0 ? "code " + status : "no type";
        String message = where + " (" + named + "): " + apiMessage + advice;
        // The header names the request; the error object names it too, for when a proxy dropped the header.
        String id = requestId != null ? requestId : event.path("request_id").isTextual() ? event.get("request_id").asText() : null;
        return new ModelException(kind, 0, message, retryable, RetryAfter.from(values(headers), clock), id, null);
    }

    /** An error's {@code code} when it is an HTTP error status, as a number or as text ({@code "402"}); else 0. */
    private static int statusCode(JsonNode code) {
        String text = code.isIntegralNumber() || code.isTextual() ? code.asText().strip() : "";
        return text.matches("[45][0-9][0-9]") ? Integer.parseInt(text) : 0;
    }

    /** {@code e} with {@code requestId} when it names none (a failure after the response headers). */
    static ModelException withRequestId(ModelException e, String requestId) {
        if (e.requestId() != null || requestId == null) {
            return e;
        }
        ModelException named = new ModelException(e.kind(), e.httpStatus(), e.getMessage(), e.retryable(), e.retryAfter(), requestId,
                e.reportedUsage().orElse(null), e.getCause());
        named.setStackTrace(e.getStackTrace());
        return named;
    }

    /**
     * {@code e} with {@code usageNote} (what the stream reported of its usage, {@link StreamAssembler#usageNote}) after
     * its message, for a person, and carrying {@code usage} ({@link StreamAssembler#reportedUsage}), as data for the
     * trace and telemetry; {@code e} itself when the stream reported none (the note is empty).
     */
    static ModelException withUsage(ModelException e, String usageNote, Usage usage) {
        if (usageNote.isEmpty() || usage == null) {
            return e;
        }
        ModelException said = new ModelException(e.kind(), e.httpStatus(), e.getMessage() + usageNote, e.retryable(),
                e.retryAfter(), e.requestId(), usage, e.getCause());
        said.setStackTrace(e.getStackTrace());
        return said;
    }

    /**
     * A failure to connect, send or receive: worth a retry, except an https:// base URL whose server
     * answers in plain HTTP and a TLS certificate this JVM does not trust, which every attempt meets again.
     */
    ModelException ioError(IOException e) {
        boolean timeout = hasCause(e, HttpTimeoutException.class) || hasCause(e, SocketTimeoutException.class);
        Throwable root = rootCause(e);
        Kind kind = timeout ? Kind.TIMEOUT : Kind.CONNECTION;
        String detail = root.getMessage() == null ? root.getClass().getSimpleName()
                : root.getClass().getSimpleName() + ": " + root.getMessage();
        boolean addressed = !timeout && baseUrl != null && baseUrl.getHost() != null;
        if (addressed && plaintextAnswer(e) && "https".equalsIgnoreCase(baseUrl.getScheme())) {
            // An https:// base URL for a server that speaks plain HTTP: it answers every attempt the same way.
            return new ModelException(Kind.CONNECTION, 0, "the connection to " + server + " failed: it does not speak TLS"
                    + " (https) at " + baseUrl.getHost() + ":" + (baseUrl.getPort() > 0 ? baseUrl.getPort() : 443)
                    + ": set the base URL to http" + baseUrl.toString().substring("https".length()) + " (" + detail + ")",
                    false, null, null, e);
        }
        if (addressed && (hasCause(e, java.security.cert.CertificateException.class)
                || hasCause(e, java.security.cert.CertPathValidatorException.class)
                || hasCause(e, java.security.cert.CertPathBuilderException.class))) {
            // Not trusted, expired or for another name: every attempt meets the same certificate.
            return new ModelException(Kind.CONNECTION, 0, "the connection to " + server + " failed: its TLS certificate is not"
                    + " trusted by this JVM (" + detail + "): if it is a gateway's or a company proxy's own certificate (or its"
                    + " authority), add it to a trust store and give it to Java with -Djavax.net.ssl.trustStore=FILE (for the"
                    + " rein command: in REIN_JAVA_OPTS)", false, null, null, e);
        }
        if (addressed && (hasCause(e, UnresolvedAddressException.class) || hasCause(e, UnknownHostException.class))) {
            // A host name DNS cannot resolve also surfaces under a ConnectException: it is not a refused connection
            detail = "the host '" + baseUrl.getHost() + "' is not known (DNS found no address for it; check the host name"
                    + " and the network) (" + detail + ")";
        } else if (addressed && hasCause(e, ConnectException.class)) {
            // A refused connection surfaces as a bare ClosedChannelException: say it in plain words, with the address
            int port = baseUrl.getPort() > 0 ? baseUrl.getPort() : "https".equals(baseUrl.getScheme()) ? 443 : 80;
            detail = "nothing accepted a connection at " + baseUrl.getHost() + ":" + port + " (" + detail + ")";
        }
        String message = (timeout ? server + " did not answer in time: " : "the connection to " + server + " failed: ")
                + detail;
        return new ModelException(kind, 0, message, true, null, null, e);
    }

    /**
     * Whether the TLS handshake got a plain HTTP answer: the JDK says "Unrecognized SSL message,
     * plaintext connection?" (older versions "Unsupported or unrecognized SSL message").
     */
    private static boolean plaintextAnswer(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof javax.net.ssl.SSLException && t.getMessage() != null
                    && (t.getMessage().contains("plaintext connection") || t.getMessage().contains("unrecognized SSL message"))) {
                return true;
            }
        }
        return false;
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
            case 529 -> Kind.OVERLOADED;
            default -> status >= 500 && status <= 599 ? Kind.SERVER_ERROR : Kind.OTHER;
        };
    }

    /**
     * The error types the API's errors page lists, each with its kind; any other is a gateway's own, which says nothing
     * Rein reads. One table, so that the list and the classification cannot drift apart.
     */
    private static final java.util.Map<String, Kind> API_TYPES = java.util.Map.ofEntries(
            java.util.Map.entry("invalid_request_error", Kind.INVALID_REQUEST),
            java.util.Map.entry("authentication_error", Kind.AUTHENTICATION),
            java.util.Map.entry("permission_error", Kind.PERMISSION),
            java.util.Map.entry("not_found_error", Kind.NOT_FOUND),
            java.util.Map.entry("request_too_large", Kind.REQUEST_TOO_LARGE),
            java.util.Map.entry("rate_limit_error", Kind.RATE_LIMITED),
            java.util.Map.entry("overloaded_error", Kind.OVERLOADED),
            java.util.Map.entry("timeout_error", Kind.TIMEOUT),
            java.util.Map.entry("conflict_error", Kind.CONFLICT),
            java.util.Map.entry("billing_error", Kind.OTHER),
            java.util.Map.entry("api_error", Kind.SERVER_ERROR));

    /** The kind of a documented error type; an unknown or missing type after HTTP 200 counts as a server failure. */
    static Kind kindOfType(String type) {
        return type == null ? Kind.SERVER_ERROR : API_TYPES.getOrDefault(type, Kind.SERVER_ERROR);
    }

    /**
     * The body as JSON, read once, for its {@code error} object and {@code request_id}; a missing
     * node when the body is empty or not JSON. The error's {@code details.error_code} is
     * {@value #SPEND_LIMIT_REACHED} on a 429 when the organization's monthly spend cap is reached
     * (the rate limits page), or another of {@link #SPEND_LIMITS}: requests fail until the limit
     * is raised or resets, so retrying only spends the run's time.
     */
    private static JsonNode errorBody(byte[] body) {
        if (body == null || body.length == 0) {
            return MissingNode.getInstance();
        }
        try {
            JsonNode root = Json.mapper().readTree(body);
            return root == null ? MissingNode.getInstance() : root;
        } catch (IOException notJson) {
            return MissingNode.getInstance();
        }
    }

    /** How much of the provider's error a gateway relays ({@link #upstreamReason}) a message shows, in characters. */
    static final int UPSTREAM_LIMIT = 1000;

    /**
     * What the provider behind a gateway said, as OpenRouter relays it (its errors page): the error's {@code
     * metadata.raw} (a string, often that provider's error JSON) under OpenRouter's own "Provider returned error", named
     * by {@code metadata.provider_name}: {@code " (NAME: TEXT)"}, on one line, its control characters escaped (a
     * terminal or log shows a message), cut after {@value #UPSTREAM_LIMIT} characters saying so. Empty when there is none.
     */
    static String upstreamReason(JsonNode error) {
        JsonNode metadata = error.path("metadata");
        JsonNode raw = metadata.path("raw");
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

    /**
     * The API's own message ({@code error.message}) with what a gateway relays from the provider behind it ({@link
     * #upstreamReason}), else the raw body text, else {@code fallback}.
     */
    private static String apiMessage(JsonNode error, byte[] body, String fallback) {
        if (body == null || body.length == 0) {
            return fallback;
        }
        JsonNode message = error.get("message");
        if (message != null && message.isTextual() && !message.asText().isBlank()) {
            return message.asText() + upstreamReason(error);
        }
        // Else the raw text: a proxy's error page says more than nothing.
        String text = new String(body, StandardCharsets.UTF_8).strip();
        return text.isEmpty() ? fallback : summary(text);
    }

    /** The most of a body that is not the API's JSON the message shows, in characters. */
    static final int RAW_BODY_LIMIT = 500;
    private static final java.util.regex.Pattern TITLE = java.util.regex.Pattern.compile("(?is)<title[^>]*>(.*?)</title>");

    /**
     * A body that is not the API's JSON error, as a message: an HTML page (a proxy's or Cloudflare's,
     * which answers a 413 before the API sees the request) by its title, other text on one line and
     * at most {@value #RAW_BODY_LIMIT} characters, so the page is not printed whole in every message.
     */
    private static String summary(String text) {
        java.util.regex.Matcher title = TITLE.matcher(text);
        if (text.startsWith("<") && title.find() && !title.group(1).isBlank()) {
            return shortened(title.group(1).strip().replaceAll("\\s+", " ")) + " (an HTML page of " + text.length()
                    + " characters instead of the API's JSON error)";
        }
        return shortened(text.replaceAll("\\s+", " "));
    }

    private static String shortened(String line) {
        if (line.length() <= RAW_BODY_LIMIT) {
            return line;
        }
        int cut = Character.isHighSurrogate(line.charAt(RAW_BODY_LIMIT - 1)) ? RAW_BODY_LIMIT - 1 : RAW_BODY_LIMIT;
        return line.substring(0, cut) + "… (+" + (line.length() - cut) + " characters)";
    }

    private static Throwable rootCause(Throwable t) {
        Throwable current = t;
        while (current.getCause() != null && current.getCause() != current) {
            current = current.getCause();
        }
        return current;
    }

    private static boolean hasCause(Throwable t, Class<? extends Throwable> type) {
        for (Throwable current = t; current != null; current = current.getCause() == current ? null : current.getCause()) {
            if (type.isInstance(current)) {
                return true;
            }
        }
        return false;
    }
}
