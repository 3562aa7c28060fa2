package dev.rein.anthropic;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.ReinException;
import dev.rein.provider.ProviderConfig;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.ServerContextEdit;
import dev.rein.model.StreamObserver;
import dev.rein.model.TextBlock;
import dev.rein.model.ThinkingBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.TraceContextHeaders;
import dev.rein.budget.PriceTable;
import dev.rein.provider.ModelDefaults;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@link Model} backed by the Anthropic Messages API.
 *
 * <pre>{@code
 * // ANTHROPIC_API_KEY (and optionally ANTHROPIC_BASE_URL) from the environment:
 * try (AnthropicModel model = AnthropicModel.builder().build()) {
 *     RunResult result = Agent.builder().model(model).build().run("What date is 100 days from today?");
 * }
 * }</pre>
 *
 * <p>Every call is streamed: text and tool-call fragments reach the {@link StreamObserver} of the
 * call as they arrive, and the final message is assembled from the events. Nothing is retried here
 * (the Rein runtime retries, traced and within the run's deadline); failures come back as
 * {@link ModelException}s whose {@code retryable} flag and {@code retryAfter} follow the API's
 * status codes and headers. Interrupting the calling thread aborts the HTTP exchange and the call
 * ends with {@link InterruptedException}; that is how the runtime enforces the run's deadline, so
 * the model does not watch {@link ModelCallContext#deadline()} itself (a deadline stays a budget
 * stop instead of turning into a provider timeout).
 *
 * <p>The HTTP client is the JDK's ({@code java.net.http}): it sets {@code TCP_NODELAY} on every
 * connection and serves many concurrent calls on one selector thread. The call runs on the
 * caller's thread. Request bodies reuse the JSON of every history message already sent once.
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
    /** The API's public base URL, used when ANTHROPIC_BASE_URL is unset or empty. */
    public static final String DEFAULT_BASE_URL = "https://api.anthropic.com";

    private final Transport transport;
    private final RequestMapper requests;
    private final ErrorMapper errors;
    private final AnthropicOptions defaults;
    /** The base URL calls go to (an http(s) URL with a host: the builder checks it). */
    private final URI serverUri;

    private AnthropicModel(Transport transport, Clock clock, PromptCaching caching, String baseUrl, boolean credentials) {
        this.transport = transport;
        this.serverUri = URI.create(baseUrl);
        this.requests = new RequestMapper(serverUri);
        this.errors = new ErrorMapper(clock, baseUrl, credentials);
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

    /** {@value AnthropicProvider#NAME}, as telemetry names the provider. */
    @Override
    public String providerName() {
        return AnthropicProvider.NAME;
    }

    /** The base URL calls go to: {@value #DEFAULT_BASE_URL}, or the one given or set in {@code ANTHROPIC_BASE_URL}. */
    @Override
    public URI serverUri() {
        return serverUri;
    }

    /** Every call is a streamed request ({@code "stream": true}), as telemetry reports it. */
    @Override
    public boolean streams() {
        return true;
    }

    /** The request with this model's default options when it carries no {@link AnthropicOptions}. */
    private ModelRequest withDefaults(ModelRequest request) {
        return request.option(AnthropicOptions.class).isPresent() ? request : request.toBuilder().option(defaults).build();
    }

    /**
     * A model configured from the environment: {@code ANTHROPIC_API_KEY} and, when set,
     * {@code ANTHROPIC_BASE_URL}, with the default timeouts.
     */
    public static AnthropicModel fromEnv() {
        return builder().build();
    }

    /** A builder; with no settings the client is configured from the environment. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * True: the JDK client's {@code send} aborts the exchange when the calling thread is
     * interrupted (JDK 21+), and a read of the response body waiting for bytes ends with an
     * {@link IOException} that {@link #call} turns back into {@link InterruptedException}; the
     * exchange is closed on the way out. So the runtime runs the call on the run's own thread.
     */
    @Override
    public boolean abortsOnInterrupt() {
        return true;
    }

    @Override
    public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(context, "context");
        ModelRequest effective = requests.forModel(withDefaults(request));
        int breakpoints = requests.maxBreakpoints();
        boolean drop = requests.dropsStaleBlocks(effective); // once, for the header and the body
        WireBuffer body = build(() -> requests.create(effective, breakpoints, drop));
        int size = body.length(); // for a 413's message; the exchange gives the buffer back to its pool
        List<String> betas = betas(effective, drop);
        StreamAssembler assembler = new StreamAssembler(context.stream());
        try (Exchange exchange = transport.stream(body, betas, effective.option(TraceContextHeaders.class)
                .map(TraceContextHeaders::headers).orElse(Map.of())); SseReader reader = new SseReader(exchange, errors)) {
            try {
                requireSuccess(exchange, size);
            } catch (ModelException e) {
                throw gatewayBreakpoints(e, effective, breakpoints);
            }
            // From here on the response headers have arrived: every failure names their request id.
            try {
                if (wholeMessage(exchange)) {
                    ObjectNode whole = jsonMessage(exchange);
                    assembler.usageOf(whole); // for a failure reading the rest to say
                    ModelResponse response = ResponseMapper.response(whole);
                    toListeners(response, context.stream());
                    return response;
                }
                reader.readAll(assembler::accept);
                if (!assembler.started()) {
                    // A complete body without a single event: not a cut stream but something else
                    // answering, e.g. a proxy's error page.
                    throw ErrorMapper.malformed(errors.server() + " answered HTTP " + exchange.status() + " ("
                            + String.join(", ", exchange.headers().allValues("content-type"))
                            + ") without a message_start event", null);
                }
                return ResponseMapper.response(assembler.message());
            } catch (IOException e) {
                throw ErrorMapper.withUsage(ErrorMapper.withRequestId(failure(e), exchange.requestId()),
                        assembler.usageNote(errors.server()), assembler.reportedUsage());
            } catch (ModelException e) {
                throw ErrorMapper.withUsage(ErrorMapper.withRequestId(e, exchange.requestId()),
                        assembler.usageNote(errors.server()), assembler.reportedUsage());
            }
        } catch (IOException e) {
            throw failure(e);
        }
    }

    /** The API's 400 for too many cache breakpoints: "A maximum of 4 blocks with cache_control may be provided. Found 5." */
    private static final Pattern TOO_MANY_BREAKPOINTS =
            Pattern.compile("A maximum of (\\d+) blocks with cache_control may be provided\\. Found (\\d+)");

    /**
     * Rein places at most the API's four breakpoints, so a 400 that found more means a gateway or proxy
     * at the base URL added its own (some relays do): no mistake of the request that a retry would
     * repeat. This model's requests leave room for them from now on, and the call is retryable. When
     * Rein placed none (caching off), a retry would draw the same 400: the message says whose the extra ones
     * are and what helps, and the call is not retried; the room is left all the same, as the gateway adds its
     * own whatever Rein places, so that this model's later requests with caching on are not refused for them.
     */
    private ModelException gatewayBreakpoints(ModelException e, ModelRequest request, int limit) {
        Matcher found = e.httpStatus() == 400 && e.getMessage() != null
                ? TOO_MANY_BREAKPOINTS.matcher(e.getMessage()) : null;
        if (found == null || !found.find()) {
            return e;
        }
        // A server tool's cache_control is the caller's, not a gateway's; kept apart from Rein's own, since only those
        // can Rein leave out: with none of Rein's, fewer from Rein changes nothing and each retry would draw the same 400.
        int rein = CacheBreakpoints.plan(request, limit).count();
        int own = CacheBreakpoints.serverToolBreakpoints(request);
        int max = Integer.parseInt(found.group(1));
        int added = Integer.parseInt(found.group(2)) - rein - own;
        if (added <= 0) {
            return e;
        }
        // The whole request's, own included; also when Rein placed none, for its later requests with caching on.
        requests.lowerMaxBreakpoints(max - added);
        if (rein == 0) {
            // Rein placed none (caching off, or the server tools' own fill the limit): fewer from Rein cannot help and
            // each retry would draw the same 400, but the caller can be told whose the extra ones are and what helps.
            int over = own + added - max;
            return new ModelException(e.kind(), e.httpStatus(), e.getMessage() + " (Rein placed none"
                    + (own > 0 ? ", your server tools " + own : "") + ", so a gateway or proxy at the base URL added " + added
                    + " of its own: " + (own >= over ? "take cache_control off " + over + " of your server tools, or keep"
                            + " the gateway from adding its own" : "keep the gateway from adding its own")
                    + "; with caching on, Rein's later requests place at most " + requests.maxBreakpoints() + " per request"
                    + (own > 0 ? ", your server tools' included" : "") + ")",
                    false, e.retryAfter(), e.requestId(), e.reportedUsage().orElse(null), e.getCause());
        }
        return new ModelException(e.kind(), e.httpStatus(), e.getMessage() + " (Rein placed " + rein
                + (own > 0 ? ", your server tools " + own : "") + ", so a gateway or proxy at the base URL added " + added
                + " of its own: Rein now places at most " + requests.maxBreakpoints() + " per request"
                + (own > 0 ? ", your server tools' included" : "") + ")", true, e.retryAfter(),
                e.requestId(), e.reportedUsage().orElse(null), e.getCause());
    }

    /**
     * A whole message's thinking, text and tool calls, in block order, as a stream would have delivered them:
     * the run's listeners (the CLI's live view, agent.stream's text) see what the answer holds.
     */
    private static void toListeners(ModelResponse response, StreamObserver observer) {
        for (ContentBlock block : response.content()) {
            if (block instanceof TextBlock text && !text.text().isEmpty()) {
                observer.onTextDelta(text.text());
            } else if (block instanceof ThinkingBlock thinking && !thinking.thinking().isEmpty()) {
                observer.onThinkingDelta(thinking.thinking());
            } else if (block instanceof ToolUseBlock use) {
                observer.onToolUseStart(use.id(), use.name());
                if (!use.input().isEmpty()) {
                    observer.onToolInputDelta(use.id(), use.input().toString());
                }
            }
        }
    }

    /**
     * The {@code anthropic-beta} values of {@code request}: its server-side edits', its thinking's (a display only a
     * beta defines, the block binding of a rewritten history when {@code drop}, the request's
     * {@link AnthropicThinking#dropsStaleBlocks} decision), its server tools' (a tool version only a beta defines), then its
     * {@link AnthropicBetas}, each once.
     */
    private static List<String> betas(ModelRequest request, boolean drop) {
        List<ServerContextEdit> edits = RequestMapper.edits(request);
        Optional<AnthropicBetas> chosen = request.option(AnthropicBetas.class);
        Optional<AnthropicServerTools> tools = request.option(AnthropicServerTools.class);
        List<String> thinking = new ArrayList<>(request.option(AnthropicThinking.class).map(AnthropicThinking::betas).orElse(List.of()));
        if (drop) {
            thinking.add(AnthropicThinking.BINDING_BETA);
        }
        if (chosen.isEmpty() && tools.isEmpty() && thinking.isEmpty()) {
            return edits.isEmpty() ? List.of() : List.copyOf(ContextEdits.betas(edits));
        }
        Set<String> all = new LinkedHashSet<>(edits.isEmpty() ? Set.of() : ContextEdits.betas(edits));
        all.addAll(thinking);
        tools.ifPresent(t -> all.addAll(t.betas()));
        chosen.ifPresent(c -> all.addAll(c.names()));
        return List.copyOf(all);
    }

    /**
     * Counts input tokens with {@code POST /v1/messages/count_tokens} (before any server-side edits),
     * with the betas the messages call would carry.
     */
    @Override
    public long countTokens(ModelRequest request) throws ModelException, InterruptedException {
        Objects.requireNonNull(request, "request");
        ModelRequest sent = requests.forModel(request);
        ModelRequest effective = withDefaults(sent);
        boolean drop = requests.dropsStaleBlocks(effective);
        WireBuffer body = build(() -> requests.countTokens(sent, drop));
        int size = body.length();
        // The same betas as the call: the prompt may hold what only they define (a compaction block sent back).
        try (Exchange exchange = transport.json(body, betas(effective, drop))) {
            requireSuccess(exchange, size);
            byte[] answer = exchange.readAll();
            JsonNode tokens;
            try {
                tokens = Json.mapper().readTree(answer).path("input_tokens");
            } catch (IOException e) {
                throw ErrorMapper.malformed("the count_tokens answer is not JSON: " + e.getMessage(), e);
            }
            if (!tokens.canConvertToLong()) {
                throw ErrorMapper.malformed("the count_tokens answer has no input_tokens number", null);
            }
            return tokens.asLong();
        } catch (IOException e) {
            throw failure(e);
        }
    }

    /** The HTTP transport, for tests that inspect its connections. */
    Transport transport() {
        return transport;
    }

    /** The request writer, for tests of its reuse. */
    RequestMapper requests() {
        return requests;
    }

    @Override
    public void close() {
        transport.close();
    }

    /**
     * Whether a successful answer is a whole JSON body instead of an event stream: a server that
     * ignores {@code "stream": true} (a gateway that does not stream, a test server written from the
     * API's non-streaming example) sends the message at once. It is read as that message rather than
     * failing the run as a stream without events.
     */
    private static boolean wholeMessage(Exchange exchange) throws IOException {
        String type = exchange.headers().firstValue("content-type").orElse("");
        // An event stream mislabelled as JSON still starts with "event:" or "data:", never with '{'.
        return type.strip().toLowerCase(Locale.ROOT).startsWith("application/json") && exchange.firstByteIs('{');
    }

    /** The message of a whole JSON body; an {@code error} object in it is the failure it reports. */
    private ObjectNode jsonMessage(Exchange exchange) throws IOException, ModelException {
        JsonNode body;
        try {
            body = Json.mapper().readTree(exchange.readAll());
        } catch (JsonProcessingException e) {
            throw ErrorMapper.malformed(errors.server() + " answered HTTP " + exchange.status()
                    + " with a JSON body Rein could not read: " + e.getOriginalMessage(), e);
        }
        String type = body == null ? "" : body.path("type").asText("");
        if (body instanceof ObjectNode message && type.equals("message")) {
            return message;
        }
        if (type.equals("error")) {
            throw errors.bodyError(body, exchange.headers(), exchange.requestId());
        }
        throw ErrorMapper.malformed(errors.server() + " answered HTTP " + exchange.status()
                + " with JSON that is neither a message nor an error (type '" + type + "')", null);
    }

    private void requireSuccess(Exchange exchange, int requestBytes) throws IOException, ModelException {
        if (exchange.status() / 100 != 2) {
            throw errors.httpError(exchange.status(), exchange.headers(), exchange.requestId(), exchange.readAll(), requestBytes);
        }
    }

    /** An I/O failure, unless it is only the echo of an interrupt, which must stay an interrupt. */
    private ModelException failure(IOException e) throws InterruptedException {
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("the model call was interrupted");
        }
        return errors.ioError(e);
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
     * Builder for {@link AnthropicModel}. Unset values come from the environment as the SDK reads
     * it ({@code ANTHROPIC_API_KEY}, {@code ANTHROPIC_AUTH_TOKEN}, {@code ANTHROPIC_BASE_URL} and
     * the matching {@code anthropic.*} system properties); explicit values win.
     */
    public static final class Builder {
        private String apiKey;
        private String authToken;
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
            if (caching == null) {
                throw new ReinException("caching(...) was given null: pass PromptCaching.DEFAULT (on, 5-minute entries; the"
                        + " default), PromptCaching.DISABLED or new PromptCaching(true, CacheTtl.ONE_HOUR)");
            }
            this.caching = caching;
            return this;
        }

        /** The API key; default {@code ANTHROPIC_API_KEY}. */
        public Builder apiKey(String apiKey) {
            this.apiKey = apiKey;
            return this;
        }

        /**
         * A bearer token, sent as {@code Authorization: Bearer <token>} (for example to a gateway
         * that expects one); default {@code ANTHROPIC_AUTH_TOKEN}. With an API key as well, both
         * headers are sent, as the official SDKs do.
         */
        public Builder authToken(String authToken) {
            this.authToken = authToken;
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
            if (clock == null) {
                throw new ReinException("clock(...) was given null: pass a Clock, e.g. Clock.systemUTC() (the default)");
            }
            this.clock = clock;
            return this;
        }

        /**
         * Creates the model and its HTTP client. Without an API key (or an auth token) requests are sent
         * without credentials and the API answers 401, which ends a run as an {@code AUTHENTICATION}
         * failure carrying the API's message and saying where to set a key.
         *
         * @throws ReinException if a timeout is not positive, the API key or auth token is blank or
         *                       has a character other than visible ASCII (no HTTP header can carry
         *                       it), or the base URL is not an http(s) URL or carries a user name,
         *                       password, query or fragment
         */
        public AnthropicModel build() {
            requirePositive("connectTimeout", connectTimeout);
            requirePositive("readTimeout", readTimeout);
            requirePositive("requestTimeout", requestTimeout);
            if (apiKey != null && apiKey.isBlank()) {
                throw new ReinException("the API key is blank: pass a key or leave it unset to read ANTHROPIC_API_KEY");
            }
            if (authToken != null && authToken.isBlank()) {
                throw new ReinException("the auth token is blank: pass a token or leave it unset to read ANTHROPIC_AUTH_TOKEN");
            }
            if (baseUrl != null && !ProviderConfig.isHttpUrl(baseUrl)) {
                throw new ReinException("the base URL must be an http:// or https:// URL with a host, e.g. "
                        + DEFAULT_BASE_URL + ", was '" + baseUrl + "'" + ProviderConfig.hostAdvice(baseUrl));
            }
            String key = apiKey != null ? apiKey : setting("anthropic.apiKey", "ANTHROPIC_API_KEY");
            // Both, like the SDKs' fromEnv(): each credential is read on its own and sent when set.
            String token = authToken != null ? authToken : setting("anthropic.authToken", "ANTHROPIC_AUTH_TOKEN");
            requireSendable(apiKey != null ? "the API key" : "ANTHROPIC_API_KEY", key, "key");
            requireSendable(authToken != null ? "the auth token" : "ANTHROPIC_AUTH_TOKEN", token, "token");
            String base = baseUrl != null ? baseUrl : setting("anthropic.baseUrl", "ANTHROPIC_BASE_URL");
            if (base == null) {
                base = DEFAULT_BASE_URL;
            } else if (!ProviderConfig.isHttpUrl(base)) {
                throw new ReinException("ANTHROPIC_BASE_URL must be an http:// or https:// URL with a host, e.g. "
                        + DEFAULT_BASE_URL + ", was '" + base + "'" + ProviderConfig.hostAdvice(base));
            }
            requireServerAddress(baseUrl != null ? "the base URL" : "ANTHROPIC_BASE_URL", base);
            return new AnthropicModel(new Transport(base, key, token, connectTimeout, readTimeout, requestTimeout), clock, caching,
                    base, key != null || token != null);
        }

        /**
         * Refuses parts of an http(s) base URL Rein cannot use: a user name or password (the JDK client
         * sends none from a URL, and messages naming the server would show it) and a query or fragment
         * (Rein appends {@code /v1/messages}, which would end up inside them). The password is never shown.
         */
        static void requireServerAddress(String name, String url) {
            URI uri = URI.create(url);
            if (uri.getRawUserInfo() != null) {
                throw new ReinException(name + " must not carry a user name or password, was '"
                        + url.replace(uri.getRawUserInfo() + "@", "***@") + "': Rein sends none from a URL; give the key"
                        + " with ANTHROPIC_API_KEY, or a bearer token with ANTHROPIC_AUTH_TOKEN");
            }
            if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
                throw new ReinException(name + " must not have a query or fragment, was '" + url + "': Rein appends"
                        + " /v1/messages to the base URL, so leave out everything from '?' or '#' on");
            }
        }

        /** A system property, else an environment variable; blank counts as unset. */
        private static String setting(String property, String variable) {
            String value = System.getProperty(property);
            if (value == null || value.isBlank()) {
                value = System.getenv(variable);
            }
            return value == null || value.isBlank() ? null : value.strip();
        }

        /**
         * Refuses a credential the HTTP client could not send as a header (the JDK client fails the
         * call with the value in its message): a key copied from a web page or a document may carry
         * an invisible or typographic character, or start with the {@code Bearer } of the header a
         * gateway's docs show. The message says which character and where, never the value itself.
         */
        static void requireSendable(String name, String value, String what) {
            // The header as a gateway's docs write it, copied whole: the space would read as a bad character.
            if (value != null && value.regionMatches(true, 0, "Bearer ", 0, 7)) {
                throw new ReinException(name + " starts with '" + value.substring(0, 7) + "': give the " + what
                        + " alone, Rein sends it as " + ("key".equals(what) ? "'x-api-key: <key>'" : "'Authorization: Bearer <token>'"));
            }
            String problem = unsendable(value);
            if (problem != null) {
                throw new ReinException(name + " has a character no HTTP header can carry (" + problem + "), so no request"
                        + " could be sent with it: copy the " + what + " again (a copy from a web page or a document can add"
                        + " invisible or typographic characters)");
            }
        }

        /** The first character of {@code value} that is not visible ASCII, as "U+XXXX, character N of M"; else null. */
        static String unsendable(String value) {
            if (value == null) {
                return null;
            }
            int length = value.codePointCount(0, value.length());
            int position = 0;
            for (int i = 0; i < value.length(); ) {
                int c = value.codePointAt(i);
                position++;
                if (c < 0x21 || c > 0x7e) {
                    return String.format(Locale.ROOT, "U+%04X, character %d of %d", c, position, length);
                }
                i += Character.charCount(c);
            }
            return null;
        }

        private static void requirePositive(String name, Duration value) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new ReinException(name + " must be a positive duration, was " + value);
            }
        }
    }
}
