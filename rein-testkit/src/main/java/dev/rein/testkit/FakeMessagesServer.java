package dev.rein.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Deque;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fake of the Anthropic Messages API HTTP server, for tests of clients built on it (the official
 * SDKs, the {@code rein} command through {@code ANTHROPIC_BASE_URL}).
 *
 * <p>The server answers from a script: each {@code POST /v1/messages} takes the next {@link
 * FakeReply} from a FIFO queue and answers with JSON, or with server-sent events when the request
 * body has {@code "stream": true}. Replies can be messages (text, tool use, thinking), HTTP errors
 * with the API's error body and headers, errors after a stream began, dropped connections,
 * malformed bodies, delays and hangs. When the queue is empty the server answers 500 {@code
 * api_error} "script exhausted" with {@code x-should-retry: false}, so a test that makes one call
 * too many fails at once instead of being retried.
 *
 * <p>{@code POST /v1/messages/count_tokens} answers {@code {"input_tokens": N}}: the next reply of
 * its own queue ({@link #enqueueCountTokens}) if there is one, else an estimate of characters / 4
 * of the request body. Any other path answers 404 {@code not_found_error}.
 *
 * <p>Each message answered (whole or streamed) carries the API's rate limit headers ({@code
 * anthropic-ratelimit-requests-*}, {@code -input-tokens-*}, {@code -output-tokens-*}, {@code -tokens-*}: limit,
 * remaining, reset) of an organization well under its limits; a scripted error carries only the headers it is given.
 *
 * <p>Every request is recorded, whatever the answer: {@link #requests()}, {@link #takeRequest()},
 * {@link #lastRequest()}.
 *
 * <p>Requests are validated like the real API does where that is cheap (on by default, see {@link
 * #validateRequests(boolean)}): a body of at most 32 MiB (else 413 {@code request_too_large}), an {@code x-api-key} or {@code authorization} header (else 401),
 * an {@code anthropic-version} header, a JSON body with {@code model}, {@code max_tokens} ≥ 1, no stop sequence
 * without a non-whitespace character ("stop_sequences: each stop sequence must contain non-whitespace"), no {@code
 * thinking} block with an empty signature ("messages.1.content.0: Invalid `signature` in `thinking` block")
 * (at count_tokens none of the messages call's own fields: "max_tokens: Extra inputs are not permitted", and the same
 * for {@code stream}, {@code stop_sequences}, {@code temperature}, {@code top_p}, {@code top_k}, {@code metadata},
 * {@code service_tier} and {@code container}); under {@code anthropic-version} 2026-10-21 or later, no {@code
 * temperature}, {@code top_p} or {@code top_k} ("temperature: Extra inputs are not permitted"), no {@code document}
 * block in an assistant message and no non-empty {@code citations} on a user message's text block) and a non-empty {@code messages} list of {@code user}/{@code assistant}
 * messages, no empty text block or content ("messages: text content blocks must be non-empty") and no message of
 * whitespace-only text ("messages: text content blocks must contain non-whitespace text"), {@code tool_use} ids unique
 * in the request ("messages.1.content.1: `tool_use` ids must be unique") and within {@code ^[a-zA-Z0-9_-]+$}, {@code
 * tool_use} names of at most 200 characters, at most four blocks with {@code cache_control} (tools, system and message blocks),
 * each {@code tool_result} answering a {@code tool_use} of the assistant message just
 * before it, and each {@code tool_use} answered in the next message; a last message of the assistant's (a prefill,
 * a paused turn sent back) not ending in whitespace ("messages: final assistant content cannot end with trailing
 * whitespace"); a thinking budget ({@code "type": "enabled"}) of at least 1024 tokens ("thinking.enabled.budget_tokens:
 * Input should be greater than or equal to 1024") and below {@code max_tokens} ("`max_tokens` must be greater than
 * `thinking.budget_tokens`. ...", unless the request carries the beta {@code interleaved-thinking-2025-05-14});
 * a forced tool choice with tools to force:
 * {@code any} or {@code tool} without {@code tools} ("tool_choice may only be specified while providing tools.", also at
 * count_tokens), {@code tool} naming none of them ("tool_choice.name: no tool named 'x' is in tools.", this server's
 * words: the docs give none); and what the newest models refuse, as
 * their "What's new" pages word it: thinking off or with a manual budget on {@code claude-opus-5-5},
 * {@code claude-fable-5-1} and {@code claude-mythos-5-1} (and {@code claude-fable-5} and {@code claude-mythos-5}),
 * a manual budget on every model from Claude 4.7 on, thinking off on {@code claude-sonnet-5-5} (and
 * {@code between_tools} there at effort {@code xhigh} or {@code max}, and on any other model), thinking off on
 * {@code claude-opus-5} at effort {@code xhigh} or {@code max}, and a forced tool choice ({@code any} or a named
 * tool, also at count_tokens) on {@code claude-opus-5-5}, {@code claude-fable-5-1}, {@code claude-mythos-5-1} and
 * {@code claude-sonnet-5-5} (each also with a date suffix, {@code claude-opus-5-5-20261015}, read as Rein's price table
 * reads one: {@link dev.rein.model.ModelIds#dates}); thinking ({@code enabled} or {@code adaptive}) with a forced tool
 * choice on every model ("Thinking may not be enabled when tool_choice forces tool use."); with thinking {@code enabled},
 * tool results after an assistant turn that does not start with its thinking ("messages.1.content.0.type: Expected
 * `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must
 * start with a thinking block ...": the first assistant message of the tool-use run that ends the request is checked);
 * {@code cache_control} on a thinking or redacted thinking block, also at count_tokens
 * ("messages.1.content.0.thinking.cache_control: Extra inputs are not permitted"); and, on the models with
 * preserved thinking
 * ({@code claude-opus-5-5}, {@code claude-sonnet-5-5}, {@code claude-haiku-5-5}, {@code claude-fable-5-1} and
 * {@code -5-2}, {@code claude-mythos-5-1} and {@code -5-2}), the prefix check of a thinking block this server made
 * and the request sends back: when the system prompt, the tools or a message before it changed since (not counting
 * {@code cache_control}), or a thinking block made before it in its turn was left out or moved, 400 "The block is bound to a different conversation", as for an account created from 31
 * August 2026 on, unless the request sets {@code thinking.block_binding.prefix_mismatch_behavior} to
 * {@code "drop_block"} with the beta {@code thinking-binding-controls-2026-08-01}; on every model, a thinking block this
 * server made that comes back with its text changed ("Invalid `signature` in `thinking` block", as the extended
 * thinking docs ask for the complete unmodified block, and, on the other models, one that comes back after other
 * thinking blocks than it was made after, as the docs forbid rearranging the sequence; a block it did not make is left
 * alone). A rejected request gets 400
 * {@code invalid_request_error} with a message worded like the real one and consumes no reply.
 *
 * <pre>{@code
 * try (FakeMessagesServer server = FakeMessagesServer.start()) {
 *     server.enqueue(FakeReply.toolUse("toolu_01", "read_file", "{\"path\":\"a.txt\"}"));
 *     server.enqueue(FakeReply.text("Done."));
 *     // point the client at server.baseUrl(), run it ...
 *     RecordedRequest second = server.requests().get(1);
 *     assertThat(second.body().at("/messages/2/content/0/type").asText()).isEqualTo("tool_result");
 * }
 * }</pre>
 *
 * <h2>Standalone use</h2>
 *
 * <p>{@code java -cp CLASSPATH dev.rein.testkit.FakeMessagesServer [--port N] [--no-validate]
 * [--record FILE] [--url-file FILE] SCRIPT.json} starts a server on 127.0.0.1 (port 0, the
 * default, picks a free one), prints its base URL as the first line of standard output, appends
 * each request to the record file as one JSON object per line ({@link RecordedRequest#toJson()}),
 * and runs until it is killed. A bad command line, a script that cannot be read or parsed, a
 * port that cannot be bound, or a record or URL file that cannot be written is one line on standard
 * error and exit code 2, and no server is left running.
 *
 * <h2>JSON script format</h2>
 *
 * <p>A script is a JSON array of replies for {@code /v1/messages}, or an object {@code
 * {"messages": [...], "count_tokens": [...]}}. Each reply is an object with a {@code "type"} (the
 * {@code //} comments below explain; they are not part of the format):
 *
 * <pre>{@code
 * {"type": "message",                        // the shape of a real response: one can be pasted in
 *  "content": [
 *    {"type": "text", "text": "Hello"},           // "citations": [...] kept too (streamed as citations_delta)
 *    {"type": "tool_use", "id": "toolu_01", "name": "read_file", "input": {"path": "a.txt"}},
 *    {"type": "thinking", "thinking": "Let me see.", "signature": "sig_1"},
 *    {"type": "redacted_thinking", "data": "opaque"},
 *    {"type": "web_search_tool_result", ...}],  // server-side blocks (*_tool_use, *_tool_result,
 *                                            //   compaction, container_upload) go as given
 *  "stop_reason": "tool_use",                // optional: tool_use if a tool_use block, else end_turn
 *  "stop_sequence": null,                    // optional; a string also sets stop_reason stop_sequence
 *  "stop_details": null,                     // optional, e.g. {"type": "refusal", "category": "cyber",
 *                                            //   "explanation": "..."} with "stop_reason": "refusal"
 *  "container": null,                        // optional, the code execution tool's {"id": "container_01...",
 *                                            //   "expires_at": "..."}; streamed on message_delta
 *  "usage": {"input_tokens": 10, "output_tokens": 5,          // optional: else estimated
 *            "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
 *            "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
 *            "server_tool_use": {"web_search_requests": 1}}}   // optional; streamed on message_delta
 *
 * {"type": "error", "status": 429,           // status optional for the known error types (402, 409, 504 too)
 *  "error": {"type": "rate_limit_error", "message": "Slow down"},   // message optional
 *  "headers": {"retry-after": "1", "x-should-retry": "true"}}      // optional
 *
 * {"type": "stream_error", "after_events": 4,                       // an event: error after 200
 *  "error": {"type": "overloaded_error", "message": "Overloaded"},  // default overloaded_error
 *  "partial": {"type": "message", "content": [...]}}               // default: text "Partial answer"
 *
 * {"type": "disconnect"}                     // drop the connection before any response byte
 * {"type": "disconnect", "after_events": 3, "partial": {"type": "message", "content": [...]}}
 * {"type": "malformed"}                      // 200 with a truncated body; or "body": "verbatim"
 * {"type": "delayed", "delay_ms": 2000, "reply": {...any reply...}}
 * {"type": "hang"}                           // never answer; the connection drops on close
 * {"type": "token_count", "input_tokens": 42}   // only in "count_tokens"
 * }</pre>
 *
 * <p>Instances are independent and thread-safe; each serves on its own ephemeral port with
 * virtual threads.
 */
public final class FakeMessagesServer extends FakeApiServer<FakeMessagesServer> {
    private final Deque<FakeReply> replies = new ConcurrentLinkedDeque<>();
    private final Deque<FakeReply> countTokensReplies = new ConcurrentLinkedDeque<>();
    private final ThinkingBinding thinkingBinding = new ThinkingBinding();
    private final AtomicInteger messageCounter = new AtomicInteger();

    private FakeMessagesServer(int port) throws IOException {
        super(port);
        ReplyWriter writer = new ReplyWriter(() -> "msg_fake_%03d".formatted(messageCounter.incrementAndGet()), closedSignal());
        serve(new MessagesHandler(this, writer));
    }

    /**
     * Starts a server on an ephemeral port of 127.0.0.1.
     *
     * @return the running server
     * @throws UncheckedIOException if the server cannot bind
     */
    public static FakeMessagesServer start() {
        return start(0);
    }

    /**
     * Starts a server on a given port of 127.0.0.1.
     *
     * @param port the port, or 0 for an ephemeral one
     * @return the running server
     * @throws UncheckedIOException if the server cannot bind
     */
    public static FakeMessagesServer start(int port) {
        try {
            return new FakeMessagesServer(port);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the fake Messages API server on port " + port, e);
        }
    }

    /**
     * The base URL, e.g. {@code http://127.0.0.1:43123}, without a trailing slash: the value for
     * {@code ANTHROPIC_BASE_URL}, to which clients append {@code /v1/messages}.
     *
     * @return the base URL
     */
    @Override
    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    /**
     * Queues replies for {@code POST /v1/messages}, answered in order.
     *
     * @param replies the replies
     * @return this server
     */
    public FakeMessagesServer enqueue(FakeReply... replies) {
        for (FakeReply reply : replies) {
            this.replies.addLast(Objects.requireNonNull(reply, "reply"));
        }
        return this;
    }

    /**
     * Queues the replies of a loaded script for both endpoints.
     *
     * @param script the script
     * @return this server
     */
    public FakeMessagesServer enqueue(FakeScript script) {
        script.messages().forEach(replies::addLast);
        script.countTokens().forEach(countTokensReplies::addLast);
        return this;
    }

    /**
     * Queues replies for {@code POST /v1/messages/count_tokens}: {@link FakeReply#tokenCount(int)}
     * or a failure (error, disconnect, malformed, delayed, hang). Without one the endpoint
     * answers an estimate.
     *
     * @param replies the replies
     * @return this server
     */
    public FakeMessagesServer enqueueCountTokens(FakeReply... replies) {
        for (FakeReply reply : replies) {
            countTokensReplies.addLast(Objects.requireNonNull(reply, "reply"));
        }
        return this;
    }

    /**
     * How many {@code /v1/messages} replies are still queued; 0 at the end of a test that used
     * its whole script.
     *
     * @return the number of unanswered replies
     */
    public int pendingReplies() {
        return replies.size();
    }

    /**
     * Runs the server as a process; see "Standalone use" above.
     *
     * @param args {@code [--port N] [--no-validate] [--record FILE] [--url-file FILE] SCRIPT.json}
     * @throws Exception if the server fails after it started
     */
    public static void main(String[] args) throws Exception {
        StandaloneMain.main(args);
    }

    // ---- used by MessagesHandler -------------------------------------------------------------

    /** The prefix check of the thinking blocks this server made (preserved thinking). */
    ThinkingBinding thinkingBinding() {
        return thinkingBinding;
    }

    /** The next reply of the endpoint's queue, or {@code null} when it is empty. */
    FakeReply nextReply(boolean countTokens) {
        return countTokens ? countTokensReplies.pollFirst() : replies.pollFirst();
    }
}
