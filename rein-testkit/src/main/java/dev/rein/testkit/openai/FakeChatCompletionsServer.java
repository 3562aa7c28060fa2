package dev.rein.testkit.openai;

import dev.rein.testkit.FakeApiServer;
import dev.rein.testkit.RecordedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Deque;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A fake of the OpenAI Chat Completions HTTP server, for tests of clients built on it (the
 * official SDK, {@code rein --provider openai} through {@code OPENAI_BASE_URL}).
 *
 * <p>Each {@code POST /v1/chat/completions} takes the next {@link ChatReply} from a FIFO queue and
 * answers with a {@code chat.completion} JSON body, or, when the body has {@code "stream": true},
 * with {@code data:} chunks ending in {@code data: [DONE]} (and a usage chunk with no choices
 * before it when {@code stream_options.include_usage} is set). Replies can be completions (text,
 * refusal, parallel tool calls), HTTP errors with the API's body and headers, errors after a stream
 * began, streams ending without {@code [DONE]}, dropped connections, malformed bodies, delays and
 * hangs. With an empty queue the server answers 500 "script exhausted" with {@code
 * x-should-retry: false}. Any other path answers 404 {@code unknown_url}.
 *
 * <p>Requests are validated like the real API does (on by default, see {@link
 * #validateRequests(boolean)}); a rejected request gets 400 {@code invalid_request_error} with a
 * message worded like the real one and consumes no reply: an assistant message with {@code
 * tool_calls} not followed by a {@code tool} message for each id, a {@code tool} message for an
 * unknown id, {@code tools} missing while the history holds tool calls, a {@code tool_choice}
 * without tools or naming an undefined function, {@code parallel_tool_calls} without tools, a tool whose parameters hold an array schema without
 * {@code items} ("array schema missing items"), a {@code response_format} of type {@code json_object} whose messages
 * never say "json" (as the JSON mode guide says), a strict {@code json_schema} or strict function whose schema has an
 * object without {@code additionalProperties: false} or with a property missing from {@code required} (the Structured
 * Outputs rules, {@code invalid_json_schema} / {@code invalid_function_parameters}), a missing model or messages, more than 128 tools or 4 stop
 * sequences ({@code array_above_max_length}), a function description over 1,024 characters or a tool call id
 * over 40 ({@code string_above_max_length}), {@code max_tokens} for one of OpenAI's reasoning models (o1, o3,
 * o4-mini, the gpt-5 family, codex-mini: {@code unsupported_parameter}, "Use 'max_completion_tokens' instead."), a
 * temperature or top_p other than 1 for the o-series and the first gpt-5 models ({@code unsupported_value}). No key is needed
 * unless {@link #requireApiKey(String)} is set, like a local Ollama.
 *
 * <pre>{@code
 * try (FakeChatCompletionsServer server = FakeChatCompletionsServer.start()) {
 *     server.enqueue(ChatReply.toolCall("call_1", "read_file", "{\"path\":\"a.txt\"}"), ChatReply.text("Done."));
 *     // OPENAI_BASE_URL=server.baseUrl() ...
 *     assertThat(server.requests().get(1).body().at("/messages/2/role").asText()).isEqualTo("tool");
 * }
 * }</pre>
 *
 * <h2>Standalone use</h2>
 *
 * <p>{@code java -cp CLASSPATH dev.rein.testkit.openai.FakeChatCompletionsServer [--port N]
 * [--no-validate] [--no-usage] [--api-key KEY] [--record FILE] [--url-file FILE] SCRIPT.json} prints its base
 * URL (ending in {@code /v1}, the value for {@code OPENAI_BASE_URL}) as the first line of standard
 * output, appends each request as one JSON line to the record file and runs until killed.
 *
 * <h2>JSON script format</h2>
 *
 * <p>A JSON array of replies ({@code //} comments explain; they are not part of the format):
 *
 * <pre>{@code
 * {"type": "completion", "content": "Hello",            // content, refusal: optional strings
 *  "tool_calls": [{"id": "call_1", "name": "read_file", "arguments": "{\"path\":\"a.txt\"}"}],
 *  "finish_reason": "tool_calls",                        // optional: tool_calls with calls, else stop
 *  "usage": {"prompt_tokens": 10, "completion_tokens": 5, "cached_tokens": 2,    // optional: estimated;
 *            "reasoning_tokens": 3}}                     // or the API's own shape, *_tokens_details
 * {"type": "error", "status": 429, "error": {"type": "requests", "code": "rate_limit_exceeded",
 *  "message": "Rate limit reached"}, "headers": {"retry-after-ms": "200"}, "body": "optional verbatim body"}
 * {"type": "stream_error", "after_chunks": 2, "error": {"type": "server_error", "message": "..."},
 *  "partial": {...a completion...}}
 * {"type": "no_done", "completion": {...}}              // a stream without data: [DONE]
 * {"type": "disconnect"}                                // or with "after_chunks" and "partial"
 * {"type": "malformed"}                                 // or "body": "verbatim"
 * {"type": "delayed", "delay_ms": 2000, "reply": {...}}
 * {"type": "hang"}
 * }</pre>
 *
 * <p>Instances are independent and thread-safe; each serves on its own ephemeral port with
 * virtual threads.
 */
public final class FakeChatCompletionsServer extends FakeApiServer<FakeChatCompletionsServer> {
    /**
     * The {@code system_fingerprint} of every completion and chunk the server writes (fixed, so recorded answers are
     * reproducible), for tests of what a client does with it.
     */
    public static final String SYSTEM_FINGERPRINT = "fp_fake";

    private final Deque<ChatReply> replies = new ConcurrentLinkedDeque<>();
    private final AtomicInteger completionCounter = new AtomicInteger();
    private volatile String apiKey;
    private volatile boolean usage = true;

    private FakeChatCompletionsServer(int port) throws IOException {
        super(port);
        serve(new ChatHandler(this));
    }

    /**
     * Starts a server on an ephemeral port of 127.0.0.1.
     *
     * @return the running server
     * @throws UncheckedIOException if the server cannot bind
     */
    public static FakeChatCompletionsServer start() {
        return start(0);
    }

    /**
     * Starts a server on a given port of 127.0.0.1.
     *
     * @param port the port, or 0 for an ephemeral one
     * @return the running server
     * @throws UncheckedIOException if the server cannot bind
     */
    public static FakeChatCompletionsServer start(int port) {
        try {
            return new FakeChatCompletionsServer(port);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the fake Chat Completions server on port " + port, e);
        }
    }

    /**
     * The base URL, e.g. {@code http://127.0.0.1:43123/v1}: the value for {@code OPENAI_BASE_URL},
     * to which clients append {@code /chat/completions}.
     *
     * @return the base URL
     */
    @Override
    public String baseUrl() {
        return "http://127.0.0.1:" + port() + "/v1";
    }

    /**
     * Queues replies, answered in order.
     *
     * @param replies the replies
     * @return this server
     */
    public FakeChatCompletionsServer enqueue(ChatReply... replies) {
        for (ChatReply reply : replies) {
            this.replies.addLast(Objects.requireNonNull(reply, "reply"));
        }
        return this;
    }

    /**
     * Queues the replies of a loaded script.
     *
     * @param script the script
     * @return this server
     */
    public FakeChatCompletionsServer enqueue(ChatScript script) {
        script.replies().forEach(replies::addLast);
        return this;
    }

    /**
     * How many replies are still queued.
     *
     * @return the number of unanswered replies
     */
    public int pendingReplies() {
        return replies.size();
    }

    /**
     * Reports usage (the default: the usage chunk a streamed request asks for with {@code
     * stream_options.include_usage}, the {@code usage} of a JSON body) or, with {@code false},
     * never, like a server that ignores {@code include_usage}.
     *
     * @param enabled whether to report usage
     * @return this server
     */
    public FakeChatCompletionsServer reportUsage(boolean enabled) {
        this.usage = enabled;
        return this;
    }

    boolean reportsUsage() {
        return usage;
    }

    /**
     * Requires {@code Authorization: Bearer KEY} like the public API, answering 401 with its error bodies otherwise:
     * without a key, "You didn't provide an API key. ..." (type {@code invalid_request_error}, code null); with another,
     * "Incorrect API key provided: sk-abcde***...wxyz. ..." (code {@code invalid_api_key}; the key masked but for its
     * first 8 and last 4 characters). {@code null}, the default, accepts any request like a local server.
     *
     * @param key the key, or {@code null}
     * @return this server
     */
    public FakeChatCompletionsServer requireApiKey(String key) {
        this.apiKey = key;
        return this;
    }

    String requiredApiKey() {
        return apiKey;
    }

    /**
     * Runs the server as a process; see "Standalone use" above.
     *
     * @param args {@code [--port N] [--no-validate] [--no-usage] [--api-key KEY] [--record FILE] [--url-file FILE] SCRIPT.json}
     * @throws Exception if the server cannot start
     */
    public static void main(String[] args) throws Exception {
        ChatStandaloneMain.main(args);
    }

    // Declared here so that this package's handler and standalone main can call them.

    @Override
    protected void record(RecordedRequest request) {
        super.record(request);
    }

    @Override
    protected void addListener(Consumer<RecordedRequest> listener) {
        super.addListener(listener);
    }

    @Override
    protected String nextRequestId() {
        return super.nextRequestId();
    }

    ChatReply nextReply() {
        return replies.pollFirst();
    }

    String nextCompletionId() {
        return "chatcmpl-fake%03d".formatted(completionCounter.incrementAndGet());
    }

    /** Waits for {@code delay} (null: until closed); a close meanwhile ends the wait with a dropped connection. */
    void waitOrDrop(Duration delay) {
        try {
            boolean isClosed = delay == null ? closedSignal().await(Long.MAX_VALUE, TimeUnit.DAYS)
                    : closedSignal().await(delay.toNanos(), TimeUnit.NANOSECONDS);
            if (isClosed) {
                throw new ChatHandler.ConnectionDrop();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ChatHandler.ConnectionDrop();
        }
    }
}
