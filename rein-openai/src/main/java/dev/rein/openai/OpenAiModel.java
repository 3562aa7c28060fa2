package dev.rein.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.openai.client.OpenAIClient;
import com.openai.core.http.HttpResponseFor;
import com.openai.core.http.StreamResponse;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.rein.budget.PriceTable;
import dev.rein.json.Json;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.StreamObserver;
import dev.rein.model.Usage;
import dev.rein.model.TraceContextHeaders;
import dev.rein.provider.ModelDefaults;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * A {@link Model} speaking OpenAI Chat Completions through the official OpenAI Java SDK: OpenAI
 * itself and every compatible server (Ollama, vLLM, LM Studio, llama.cpp).
 *
 * <pre>{@code
 * // OPENAI_API_KEY and OPENAI_BASE_URL from the environment:
 * try (OpenAiModel model = OpenAiModel.builder().build()) {
 *     RunResult result = Agent.builder().model(model).modelName("gpt-4.1-mini").build().run("...");
 * }
 * // A local Ollama, no key needed:
 * OpenAiModel local = OpenAiModel.builder().baseUrl("http://localhost:11434/v1").build();
 * }</pre>
 *
 * <p>Every call is streamed with {@code stream_options.include_usage}: text and tool-call
 * fragments reach the call's {@link StreamObserver} as they arrive, tool-call argument fragments
 * are joined by their index, and a stream that ends before {@code data: [DONE]} or breaks mid-way
 * is a retryable failure. A server that ignores {@code stream} and answers with one JSON body is
 * read too. A response without usage (a server that ignores {@code include_usage}) has {@link
 * dev.rein.model.Usage#NOT_REPORTED}, never zero, so a run charges an estimate. The SDK does not retry (the Rein runtime retries, traced and within the run's
 * deadline); failures come back as {@link ModelException}s with the server's own message, whose
 * {@code retryable} flag and {@code retryAfter} follow its status and headers. Interrupting the
 * calling thread aborts the HTTP exchange and the call ends with {@link InterruptedException}.
 *
 * <p>As {@link ModelDefaults} it names {@value OpenAiProvider#DEFAULT_MODEL} as the default model
 * and brings OpenAI's prices; a model on another server needs a name and a price from the agent.
 *
 * <p>Instances are immutable and thread-safe. {@link #close()} releases the HTTP client.
 */
public final class OpenAiModel implements Model, ModelDefaults, AutoCloseable {
    /** The public API, used when neither the builder nor {@code OPENAI_BASE_URL} names another server. */
    public static final String DEFAULT_BASE_URL = OpenAiModelBuilder.DEFAULT_BASE_URL;

    /** How far into a body its first byte is looked for (past blank lines, which an event stream may begin with). */
    private static final int PEEK_LIMIT = 8192;

    private final OpenAIClient client;
    private final okhttp3.OkHttpClient http;
    private final ErrorMapper errors;
    private final RequestMapper requests;
    private final String baseUrl;
    /** The server's origin, kept with the fields of its responses that only it wants back ({@link Origin}). */
    private final String origin;
    /** How messages name the server whose request limits are OpenAI's documented ones (RequestLimits); null for others. */
    private final String limitsOf;
    /** Where a model's content carries its reasoning in think tags ({@link OpenAiModelBuilder#thinkTags}). */
    private final OpenAiModelBuilder.ThinkTags thinkTags;

    OpenAiModel(OpenAIClient client, okhttp3.OkHttpClient http, ErrorMapper errors, RequestMapper.MaxTokensField maxTokensField,
                boolean adaptiveMaxTokensField, String baseUrl, OpenAiModelBuilder.ThinkTags thinkTags) {
        this.client = client;
        this.thinkTags = thinkTags;
        this.http = http;
        this.errors = errors;
        this.origin = Origin.of(baseUrl);
        this.limitsOf = OpenAiModelBuilder.isPublicApi(baseUrl) ? "the OpenAI API"
                : OpenAiModelBuilder.isAzure(baseUrl) ? "Azure OpenAI" : null;
        this.requests = new RequestMapper(maxTokensField, adaptiveMaxTokensField, ToolCallIds.mistralHost(baseUrl),
                origin, limitsOf != null, OpenAiModelBuilder.isAzure(baseUrl));
        this.baseUrl = baseUrl;
    }

    /**
     * A builder; with no settings the model reads {@code OPENAI_API_KEY} and {@code OPENAI_BASE_URL}.
     *
     * @return a new builder
     */
    public static OpenAiModelBuilder builder() {
        return new OpenAiModelBuilder();
    }

    /**
     * A model configured from the environment.
     *
     * @return the model
     * @throws dev.rein.ReinException if the public API is addressed without {@code OPENAI_API_KEY}
     */
    public static OpenAiModel fromEnv() {
        return builder().build();
    }

    /**
     * The base URL calls go to, e.g. {@code https://api.openai.com/v1}.
     *
     * @return the base URL
     */
    public String baseUrl() {
        return baseUrl;
    }

    /** {@value OpenAiProvider#DEFAULT_MODEL}, used when the agent names no model. */
    @Override
    public String defaultModelName() {
        return OpenAiProvider.DEFAULT_MODEL;
    }

    /** OpenAI's published prices ({@link OpenAiPrices}); other servers' models need a price of their own. */
    @Override
    public PriceTable prices() {
        return OpenAiPrices.TABLE;
    }

    /** {@value OpenAiProvider#NAME}, as telemetry names the provider. */
    @Override
    public String providerName() {
        return OpenAiProvider.NAME;
    }

    /**
     * {@code chat_completions}: every call goes to the Chat Completions API, as telemetry reports it (the conventions'
     * {@code openai.api.type}, on a call to provider {@code openai}).
     */
    @Override
    public String apiType() {
        return "chat_completions";
    }

    /** {@link #baseUrl()}, the server calls go to (an http(s) URL with a host: the builder checks it). */
    @Override
    public URI serverUri() {
        return URI.create(baseUrl);
    }

    /** Every call is a streamed request ({@code "stream": true}), as telemetry reports it. */
    @Override
    public boolean streams() {
        return true;
    }

    /**
     * True: the blocking exchange runs on a virtual thread of its own that is interrupted when the
     * calling thread is, and a virtual thread's socket read ends on interrupt; the call returns
     * with {@link InterruptedException} at once. So the runtime needs no thread of its own for the
     * deadline.
     */
    @Override
    public boolean abortsOnInterrupt() {
        return true;
    }

    @Override
    public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(context, "context");
        ModelException exceeded = limitsOf != null ? RequestLimits.exceeded(request, limitsOf)
                : Origin.isMiniMaxApi(origin) ? RequestLimits.miniMax(request) : null;
        if (exceeded != null) {
            throw exceeded; // refused at every step otherwise, in words that name no setting of the run
        }
        // Each refusal of a field is answered once (a server may refuse both, one after the other).
        boolean maxTokensSwitched = false;
        boolean streamOptionsDropped = false;
        boolean descriptionsCut = false;
        while (true) {
            ChatCompletionCreateParams params = params(request);
            try {
                return interruptibly(() -> stream(params, request, context.stream()));
            } catch (ModelException e) {
                // max_tokens is deprecated and reasoning models refuse it; a 400 streamed nothing, so send
                // the request once more with max_completion_tokens, which this model keeps using.
                if (!maxTokensSwitched && ErrorMapper.refusesMaxTokens(e) && params.maxTokens().isPresent()
                        && requests.switchToMaxCompletionTokens()) {
                    maxTokensSwitched = true;
                    continue;
                }
                // Older Azure OpenAI API versions refuse stream_options: without it, the usage they do not
                // report is estimated by the run (marked so), as for a server that ignores the field.
                if (!streamOptionsDropped && ErrorMapper.refusesStreamOptions(e) && params.streamOptions().isPresent()) {
                    requests.dropStreamOptions();
                    streamOptionsDropped = true;
                    continue;
                }
                // A proxy in front of OpenAI refuses a tool description over its limit, at every step: cut them.
                if (!descriptionsCut && ErrorMapper.refusesLongDescription(e) && requests.cutDescriptions()) {
                    descriptionsCut = true;
                    continue;
                }
                throw ErrorMapper.defaultModelAdvice(e, request.model(), OpenAiModelBuilder.isPublicApi(baseUrl));
            }
        }
    }

    /** The request writer (tests look at what it converted). */
    RequestMapper requests() {
        return requests;
    }

    @Override
    public void close() {
        client.close();
        OkHttpTransport.release(http);
    }

    /** The OkHttp client under the SDK (tests look at its sockets). */
    okhttp3.OkHttpClient http() {
        return http;
    }

    private ChatCompletionCreateParams params(ModelRequest request) throws ModelException {
        try {
            ChatCompletionCreateParams.Builder params = ChatCompletionCreateParams.builder().body(requests.body(request));
            // The caller's trace context (traceparent), so the API call joins the run's trace.
            request.option(TraceContextHeaders.class).ifPresent(trace -> trace.headers().forEach(params::putAdditionalHeader));
            return params.build();
        } catch (RuntimeException e) {
            throw new ModelException(ModelException.Kind.INVALID_REQUEST, 0,
                    "the request could not be built for Chat Completions: " + e.getMessage(), false, null, null, e);
        }
    }

    private ModelResponse stream(ChatCompletionCreateParams params, ModelRequest request, StreamObserver observer)
            throws ModelException, InterruptedException {
        // Read once the headers are in: every failure after that carries it, as HTTP errors do.
        String requestId = null;
        ChunkAssembler assembler = null;
        try (HttpResponseFor<StreamResponse<ChatCompletionChunk>> raw =
                     client.chat().completions().withRawResponse().createStreaming(params)) {
            requestId = raw.headers().values("x-request-id").stream().findFirst().orElse(null);
            assembler = new ChunkAssembler(observer, requestId, origin, request.model(), thinkTags);
            String contentType = String.join(", ", raw.headers().values("content-type"));
            InputStream body = new BufferedInputStream(raw.body());
            if (isJsonDocument(body)) {
                String text = new String(body.readAllBytes(), StandardCharsets.UTF_8);
                JsonNode completion = readJson(text, "chat.completion", requestId);
                failOnError(completion, assembler, requestId);
                if (!completion.path("choices").isArray()) {
                    throw ErrorMapper.malformed("the server at " + baseUrl + " answered HTTP 200 with JSON that is not"
                            + " a chat.completion: " + abbreviate(text), requestId, null);
                }
                assembler.accept(asChunk(completion));
                if (!assembler.choiceSeen()) {
                    // read as an empty answer, the run would blame the model
                    throw ErrorMapper.withUsage(errors.noChoice(-1, assembler.usageNote(), requestId), assembler.reportedUsage());
                }
            } else {
                readEvents(new EventStream(body), assembler, contentType, requestId);
            }
            return assembler.response(request.model());
        } catch (ModelException e) {
            throw afterUsage(e, assembler);
        } catch (IOException e) {
            interruptedCheck();
            throw afterUsage(errors.broken(e, requestId), assembler);
        } catch (RuntimeException e) {
            interruptedCheck();
            throw afterUsage(errors.map(e, requestId, request), assembler);
        }
    }

    /**
     * {@code e} saying and carrying the usage the stream reported before it failed, whatever failed after it (a broken
     * connection, an unreadable line): the server billed those tokens, which no budget counts for a failed call. {@code
     * e} itself when no usage came or it carries it already (the failures that said it where they were raised).
     */
    private static ModelException afterUsage(ModelException e, ChunkAssembler assembler) {
        if (assembler == null || assembler.reportedUsage() == null || e.reportedUsage().isPresent()
                || e.getClass() != ModelException.class) {
            return e;
        }
        ModelException carrying = new ModelException(e.kind(), e.httpStatus(), e.getMessage() + assembler.usageNote(),
                e.retryable(), e.retryAfter(), e.requestId(), assembler.reportedUsage(), e.getCause());
        carrying.setStackTrace(e.getStackTrace());
        return carrying;
    }

    private void readEvents(EventStream events, ChunkAssembler assembler, String contentType, String requestId)
            throws IOException, ModelException, InterruptedException {
        String data;
        while ((data = events.next()) != null) {
            interruptedCheck();
            if (data.strip().equals(EventStream.DONE)) {
                if (assembler.chunks() == 0) {
                    // No chunk at all is no turn the model ended (a proxy that lost its upstream, say):
                    // read as an empty answer, the run would blame the model for saying nothing.
                    throw errors.noChunk(requestId);
                }
                if (!assembler.choiceSeen()) {
                    // Only usage, or Azure's prompt filter results: no completion either.
                    throw ErrorMapper.withUsage(errors.noChoice(assembler.chunks(), assembler.usageNote(), requestId),
                            assembler.reportedUsage());
                }
                return;
            }
            JsonNode chunk = readJson(data, "chat.completion.chunk", requestId);
            failOnError(chunk, assembler, requestId);
            assembler.accept(chunk);
        }
        if (assembler.chunks() == 0 && !contentType.startsWith("text/event-stream")) {
            // Not a cut stream but something else answering, e.g. a proxy's page: what it says.
            String other = OkHttpTransport.readable(events.other());
            throw ErrorMapper.malformed("the server at " + baseUrl + " answered HTTP 200 (" + contentType
                    + ") without a chat.completion.chunk" + (other.isEmpty() ? "" : ": " + other), requestId, null);
        }
        // After the finish reason the generation was whole: perhaps the server never sends [DONE] (ik_llama.cpp,
        // older TGI), and every call will fail so; say it, or it reads as a network fault.
        String finished = assembler.finishReason() == null ? "" : "; finish_reason " + assembler.finishReason() + " had arrived"
                + ": if the server never ends its streams with data: [DONE], as OpenAI-compatible streaming does,"
                + " every call fails so";
        throw ErrorMapper.withUsage(errors.cutOff(assembler.chunks() == 0 ? "no chunk arrived" : "after " + assembler.chunks()
                + (assembler.chunks() == 1 ? " chunk" : " chunks") + finished,
                assembler.usageNote(), requestId), assembler.reportedUsage());
    }

    /**
     * Whether the body is one JSON document (a server that ignored {@code stream}) rather than an
     * event stream, told by its first byte that is not white space or a byte order mark: an event
     * stream's lines begin with a field name or a colon, never with a bracket. Not by the content
     * type: the official SDKs read a streamed request's body as events whatever it is labelled, so
     * a server or proxy that labels its chunks {@code application/json} works with them.
     */
    private static boolean isJsonDocument(InputStream body) throws IOException {
        body.mark(PEEK_LIMIT);
        try {
            for (int i = 0, b; i < PEEK_LIMIT - 1 && (b = body.read()) != -1; i++) {
                if (b != ' ' && b != '\t' && b != '\r' && b != '\n' && b != 0xEF && b != 0xBB && b != 0xBF) {
                    return b == '{' || b == '[';
                }
            }
            return false;
        } finally {
            body.reset();
        }
    }

    /**
     * An {@code error} object where a chunk or a completion was expected, or in its first choice (OpenRouter's), or
     * Groq's {@code x_groq.error} beside a chunk: the server failed after HTTP 200. The usage the failing chunk reports
     * (Groq's last chunk carries {@code x_groq.usage}) is kept by {@code assembler} first, for the message to say.
     *
     * @param assembler what the stream assembled so far; null where there is none (an array's items)
     */
    private void failOnError(JsonNode body, ChunkAssembler assembler, String requestId) throws ModelException {
        JsonNode error = body.get("error");
        JsonNode stopped = body.path("x_groq").path("error");
        boolean fails = (error != null && !error.isNull()) || (stopped.isTextual() && !stopped.asText().isBlank())
                || (stopped.isObject() && !stopped.isEmpty());
        if (fails && assembler != null) {
            assembler.usageOf(body);
        }
        String usageNote = assembler == null ? "" : assembler.usageNote();
        Usage reported = assembler == null ? null : assembler.reportedUsage();
        if (error != null && !error.isNull()) {
            ObjectNode text = Json.object().put("message", error.asText());
            if (body.path("error_type").isTextual()) {
                // A text error may name its kind beside it (Hugging Face TGI: "error_type": "validation").
                text.put("type", body.path("error_type").asText());
            }
            throw ErrorMapper.withUsage(errors.streamError(error.isObject() ? error : text, usageNote, requestId), reported);
        }
        if (stopped.isTextual() && !stopped.asText().isBlank()) {
            // Groq's chunk schema: "an error string indicating why a stream was stopped early" (over_capacity), on a
            // chunk that may carry a finish_reason and is followed by data: [DONE]: what came before it is cut.
            throw ErrorMapper.withUsage(errors.stoppedEarly("x_groq.error: " + stopped.asText(),
                    stopped.asText().contains("capacity"), usageNote, requestId), reported);
        }
        if (stopped.isObject() && !stopped.isEmpty()) {
            // Not the documented string but an error object: its message, type and status, as an error chunk's.
            throw ErrorMapper.withUsage(errors.streamError(stopped, usageNote, requestId), reported);
        }
        for (JsonNode choice : body.path("choices")) {
            // OpenRouter puts a failed generation's error in the choice itself (error: {code, message, metadata}),
            // beside finish_reason error or none: its message says what failed, its code is an HTTP status.
            JsonNode failed = choice.get("error");
            if (choice.path("index").asInt(0) == 0 && failed != null && failed.isObject() && !failed.isEmpty()) {
                if (assembler != null) {
                    assembler.usageOf(body);
                }
                throw ErrorMapper.withUsage(errors.streamError(failed, assembler == null ? "" : assembler.usageNote(), requestId),
                        assembler == null ? null : assembler.reportedUsage());
            }
        }
    }

    /**
     * The JSON object a body or a {@code data:} line holds, {@code what} naming what belongs there. A list holding
     * an error object (the shape of Google's error bodies) fails with that error; any other value that is not an
     * object is malformed, said with where requests go, since a server that is not an OpenAI-compatible API is the
     * likely cause.
     */
    private JsonNode readJson(String text, String what, String requestId) throws ModelException {
        JsonNode node;
        try {
            node = Json.mapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw ErrorMapper.malformed("the server sent a response that is not valid JSON (" + e.getOriginalMessage()
                    + "): " + abbreviate(text), requestId, e);
        }
        if (node != null && node.isObject()) {
            return node;
        }
        if (node != null && node.isArray()) {
            for (JsonNode item : node) {
                if (item.isObject()) {
                    failOnError(item, null, requestId);
                }
            }
        }
        String value = node == null ? "no JSON value" : node.isArray() ? "a JSON array"
                : "JSON that is not an object (" + node.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + ")";
        String base = baseUrl.replaceAll("/+$", "");
        throw ErrorMapper.malformed("the server at " + base + " answered HTTP 200 with " + value + " where a " + what
                + " object belongs: " + abbreviate(text) + " (requests go to " + base + "/chat/completions: the base URL"
                + " must name an OpenAI-compatible API)", requestId, null);
    }

    /** A whole {@code chat.completion} read as one chunk: its message is the delta. */
    private static JsonNode asChunk(JsonNode completion) {
        ObjectNode chunk = completion.deepCopy();
        for (JsonNode choice : chunk.path("choices")) {
            if (choice instanceof ObjectNode c && c.has("message")) {
                c.set("delta", c.remove("message"));
            }
        }
        return chunk;
    }

    private static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }

    private static void interruptedCheck() throws InterruptedException {
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("the model call was interrupted");
        }
    }

    /**
     * Runs the blocking call on its own virtual thread and waits for it. If the waiting thread is
     * interrupted, the worker is interrupted too: blocking socket reads in a virtual thread are
     * interruptible, so the HTTP exchange ends at once whatever kind of thread called us.
     */
    private static <T> T interruptibly(Callable<T> work) throws ModelException, InterruptedException {
        FutureTask<T> task = new FutureTask<>(work);
        Thread.ofVirtual().name("rein-openai-call").start(task);
        try {
            return task.get();
        } catch (InterruptedException e) {
            task.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof ModelException me) {
                throw me;
            }
            if (cause instanceof InterruptedException ie) {
                throw ie;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new ModelException(ModelException.Kind.OTHER, 0, "the Chat Completions call failed with "
                    + cause.getClass().getSimpleName() + ": " + cause.getMessage(), false, null, null, cause);
        }
    }
}
