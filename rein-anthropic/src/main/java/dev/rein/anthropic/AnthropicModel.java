package dev.rein.anthropic;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.ObjectMappers;
import com.anthropic.core.Timeout;
import com.anthropic.core.http.HttpResponseFor;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.models.messages.MessageCountTokensParams;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.ReinException;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.StreamObserver;
import dev.rein.budget.PriceTable;
import dev.rein.provider.ModelDefaults;
import java.time.Clock;
import java.time.Duration;
import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;

/**
 * A {@link Model} backed by the Anthropic Messages API through the official Java SDK.
 *
 * <pre>{@code
 * // ANTHROPIC_API_KEY (and optionally ANTHROPIC_BASE_URL) from the environment:
 * try (AnthropicModel model = AnthropicModel.builder().build()) {
 *     RunResult result = Agent.builder().model(model).build().run("What date is 100 days from today?");
 * }
 * }</pre>
 *
 * <p>Every call is streamed: text and tool-call fragments reach the {@link StreamObserver} of the
 * call as they arrive, and the final message is assembled from the events. The SDK does not retry
 * (the Rein runtime retries, traced and within the run's deadline); failures come back as
 * {@link ModelException}s whose {@code retryable} flag and {@code retryAfter} follow the API's
 * status codes and headers. Interrupting the calling thread aborts the HTTP exchange and the call
 * ends with {@link InterruptedException}; that is how the runtime enforces the run's deadline, so
 * the model does not watch {@link ModelCallContext#deadline()} itself (a deadline stays a budget
 * stop instead of turning into a provider timeout).
 *
 * <p>Instances are immutable and thread-safe. {@link #close()} releases the HTTP client.
 */
public final class AnthropicModel implements Model, ModelDefaults, AutoCloseable {
    /** Default time to establish a connection. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(30);
    /** Default longest silence while reading; the API sends pings during long generations. */
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofMinutes(10);
    /** Default limit for a whole call; long on purpose, the run's deadline is the real limit. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofMinutes(60);

    private final AnthropicClient client;
    private final ErrorMapper errors;
    private final AnthropicOptions defaults;

    private AnthropicModel(AnthropicClient client, Clock clock, PromptCaching caching) {
        this.client = client;
        this.errors = new ErrorMapper(clock);
        this.defaults = AnthropicOptions.caching(caching);
    }

    /** {@value AnthropicProvider#DEFAULT_MODEL}. */
    @Override
    public String defaultModelName() {
        return AnthropicProvider.DEFAULT_MODEL;
    }

    /** {@link AnthropicProvider#PRICES}. */
    @Override
    public PriceTable prices() {
        return AnthropicProvider.PRICES;
    }

    /** The request with this model's default options when it carries no {@link AnthropicOptions}. */
    private ModelRequest withDefaults(ModelRequest request) {
        return request.option(AnthropicOptions.class).isPresent() ? request : request.toBuilder().option(defaults).build();
    }

    /** A builder; with no settings the client is configured from the environment. */
    /** The API's public base URL, used when ANTHROPIC_BASE_URL is unset or empty. */
    public static final String DEFAULT_BASE_URL = "https://api.anthropic.com";

    /**
     * A model configured from the environment: {@code ANTHROPIC_API_KEY} and, when set,
     * {@code ANTHROPIC_BASE_URL}, with the default timeouts.
     */
    public static AnthropicModel fromEnv() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(context, "context");
        ModelRequest effective = withDefaults(request);
        MessageCreateParams params = build(() -> RequestMapper.create(effective));
        return interruptibly(() -> stream(params, context.stream()));
    }

    /** Counts input tokens with {@code POST /v1/messages/count_tokens} (before any server-side edits). */
    @Override
    public long countTokens(ModelRequest request) throws ModelException, InterruptedException {
        Objects.requireNonNull(request, "request");
        MessageCountTokensParams params = build(() -> RequestMapper.countTokens(request));
        return interruptibly(() -> {
            try {
                return client.messages().countTokens(params).inputTokens();
            } catch (RuntimeException e) {
                throw failure(e);
            }
        });
    }

    @Override
    public void close() {
        client.close();
    }

    private ModelResponse stream(MessageCreateParams params, StreamObserver observer) throws ModelException, InterruptedException {
        StreamAssembler assembler = new StreamAssembler(observer);
        try (HttpResponseFor<StreamResponse<RawMessageStreamEvent>> raw =
                     client.messages().withRawResponse().createStreaming(params);
             StreamResponse<RawMessageStreamEvent> events = raw.parse()) {
            Iterator<RawMessageStreamEvent> it = events.iterator();
            while (hasNext(it)) {
                JsonNode event = ObjectMappers.jsonMapper().valueToTree(it.next());
                assembler.accept(event);
            }
            if (!assembler.started()) {
                // A complete body without a single event: not a cut stream (OkHttp reports those as
                // I/O errors) but something else answering, e.g. a proxy's error page.
                throw ErrorMapper.malformed("the Anthropic API answered HTTP " + raw.statusCode() + " ("
                        + String.join(", ", raw.headers().values("content-type"))
                        + ") without a message_start event", null);
            }
        } catch (RuntimeException e) {
            throw failure(e);
        }
        return ResponseMapper.response(assembler.message());
    }

    private static boolean hasNext(Iterator<?> it) throws InterruptedException {
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("the model call was interrupted");
        }
        return it.hasNext();
    }

    /** An SDK failure, unless it is only the echo of an interrupt, which must stay an interrupt. */
    private ModelException failure(RuntimeException e) throws InterruptedException {
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("the model call was interrupted");
        }
        return errors.map(e);
    }

    private static <T> T build(Supplier<T> mapping) throws ModelException {
        try {
            return mapping.get();
        } catch (RuntimeException e) {
            throw new ModelException(ModelException.Kind.INVALID_REQUEST, 0,
                    "the request could not be built for the Anthropic API: " + e.getMessage(), false, null, null, e);
        }
    }

    /**
     * Runs the blocking SDK call on its own virtual thread and waits for it. If the waiting thread
     * is interrupted, the worker is interrupted too: blocking socket reads in a virtual thread are
     * interruptible (the socket is closed), so the HTTP exchange ends at once whatever kind of
     * thread called us.
     */
    private static <T> T interruptibly(Callable<T> work) throws ModelException, InterruptedException {
        FutureTask<T> task = new FutureTask<>(work);
        Thread.ofVirtual().name("rein-anthropic-call").start(task);
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
            throw new ModelException(ModelException.Kind.OTHER, 0, "the Anthropic call failed with "
                    + cause.getClass().getSimpleName() + ": " + cause.getMessage(), false, null, null, cause);
        }
    }

    /**
     * Builder for {@link AnthropicModel}. Unset values come from the environment as the SDK reads
     * it ({@code ANTHROPIC_API_KEY}, {@code ANTHROPIC_AUTH_TOKEN}, {@code ANTHROPIC_BASE_URL} and
     * the matching {@code anthropic.*} system properties); explicit values win.
     */
    public static final class Builder {
        private String apiKey;
        private String baseUrl;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private Duration readTimeout = DEFAULT_READ_TIMEOUT;
        private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
        private Clock clock = Clock.systemUTC();
        private PromptCaching caching = PromptCaching.DEFAULT;

        private Builder() {}

        /**
         * Prompt caching for requests that carry no {@link AnthropicOptions} (default: on, 5-minute
         * entries); a request's own options win.
         */
        public Builder caching(PromptCaching caching) {
            this.caching = Objects.requireNonNull(caching, "caching");
            return this;
        }

        /** The API key; default {@code ANTHROPIC_API_KEY}. */
        public Builder apiKey(String apiKey) {
            this.apiKey = apiKey;
            return this;
        }

        /** The API base URL, e.g. a proxy or a test server; default {@code ANTHROPIC_BASE_URL} or the public API. */
        public Builder baseUrl(String baseUrl) {
            this.baseUrl = baseUrl;
            return this;
        }

        /** Time to establish a connection (default 30 s). */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = timeout;
            return this;
        }

        /** Longest silence while sending or receiving (default 10 min). */
        public Builder readTimeout(Duration timeout) {
            this.readTimeout = timeout;
            return this;
        }

        /**
         * Limit for one whole call including the streamed generation (default 60 min). Keep it
         * longer than your longest generation; the run's deadline stops a run in any case.
         */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = timeout;
            return this;
        }

        /** The clock used to read HTTP-date {@code retry-after} headers (for tests). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Creates the model and its HTTP client.
         *
         * @throws ReinException if a timeout is not positive, the API key is blank or the base URL
         *                       is not an http(s) URL
         */
        public AnthropicModel build() {
            requirePositive("connectTimeout", connectTimeout);
            requirePositive("readTimeout", readTimeout);
            requirePositive("requestTimeout", requestTimeout);
            if (apiKey != null && apiKey.isBlank()) {
                throw new ReinException("the API key is blank: pass a key or leave it unset to read ANTHROPIC_API_KEY");
            }
            if (baseUrl != null && !baseUrl.startsWith("http://") && !baseUrl.startsWith("https://")) {
                throw new ReinException("the base URL must start with http:// or https://, was " + baseUrl);
            }
            AnthropicOkHttpClient.Builder sdk = AnthropicOkHttpClient.builder()
                    .fromEnv()
                    // Retries belong to the Rein runtime, which traces them and respects the deadline.
                    .maxRetries(0)
                    .timeout(Timeout.builder()
                            .connect(connectTimeout)
                            .read(readTimeout)
                            .write(readTimeout)
                            .request(requestTimeout)
                            .build());
            if (apiKey != null) {
                sdk.apiKey(apiKey);
            }
            String key = apiKey != null ? apiKey : System.getenv("ANTHROPIC_API_KEY");
            if (key != null && !key.isBlank()) {
                // The Messages API documents x-api-key; with it present the SDK adds no Bearer header.
                sdk.putHeader("x-api-key", key);
            }
            if (baseUrl != null) {
                sdk.baseUrl(baseUrl);
            } else if (System.getenv("ANTHROPIC_BASE_URL") != null && System.getenv("ANTHROPIC_BASE_URL").isBlank()) {
                // An exported but empty variable means "not set"; the SDK would reject it at the first call.
                sdk.baseUrl(DEFAULT_BASE_URL);
            }
            return new AnthropicModel(sdk.build(), clock, caching);
        }

        private static void requirePositive(String name, Duration value) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new ReinException(name + " must be a positive duration, was " + value);
            }
        }
    }
}
