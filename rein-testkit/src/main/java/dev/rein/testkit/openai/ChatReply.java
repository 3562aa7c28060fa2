package dev.rein.testkit.openai;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One scripted answer of a {@link FakeChatCompletionsServer}: what the server does with the next
 * {@code POST /v1/chat/completions}. A {@link Completion} is sent as one {@code chat.completion}
 * JSON body to a request without {@code "stream": true} and as {@code data:} chunks ending with
 * {@code data: [DONE]} to one with it.
 */
public sealed interface ChatReply {

    /** {@code finish_reason} when the model finished its turn. */
    String STOP = "stop";
    /** {@code finish_reason} when the model asks for tools. */
    String TOOL_CALLS = "tool_calls";
    /** {@code finish_reason} when the output limit was reached. */
    String LENGTH = "length";
    /** {@code finish_reason} when the output was filtered. */
    String CONTENT_FILTER = "content_filter";

    /**
     * One tool call of the assistant message.
     *
     * @param id the {@code id}, e.g. {@code call_abc}
     * @param name the function name
     * @param arguments the {@code function.arguments} text, sent verbatim
     */
    record ToolCall(String id, String name, String arguments) {
        /** All parts are required; the arguments may be any text. */
        public ToolCall {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(arguments, "arguments");
        }
    }

    /**
     * Token usage as the API reports it.
     *
     * @param promptTokens {@code prompt_tokens}, cached ones included
     * @param completionTokens {@code completion_tokens}
     * @param cachedTokens {@code prompt_tokens_details.cached_tokens}
     * @param reasoningTokens {@code completion_tokens_details.reasoning_tokens}, the part of the completion a reasoning
     *     model spent thinking
     */
    record Usage(long promptTokens, long completionTokens, long cachedTokens, long reasoningTokens) {
        /** Counts cannot be negative, the cached part cannot exceed the prompt nor the reasoning part the completion. */
        public Usage {
            if (promptTokens < 0 || completionTokens < 0 || cachedTokens < 0 || cachedTokens > promptTokens) {
                throw new IllegalArgumentException("usage counts must be >= 0 and cached <= prompt");
            }
            if (reasoningTokens < 0 || reasoningTokens > completionTokens) {
                throw new IllegalArgumentException("reasoning tokens must be >= 0 and <= completion tokens (they are a part"
                        + " of them), were " + reasoningTokens + " of " + completionTokens);
            }
        }

        /** Usage without reasoning tokens. */
        public Usage(long promptTokens, long completionTokens, long cachedTokens) {
            this(promptTokens, completionTokens, cachedTokens, 0);
        }
    }

    /**
     * A successful completion with one choice.
     *
     * @param content the assistant text, or {@code null} (sent as {@code "content": null})
     * @param refusal the {@code refusal} text, or {@code null}
     * @param toolCalls the tool calls, in order
     * @param finishReason the {@code finish_reason}, e.g. {@link #STOP}
     * @param usage the usage, or {@code null} to let the server estimate it (characters / 4)
     */
    record Completion(String content, String refusal, List<ToolCall> toolCalls, String finishReason, Usage usage)
            implements ChatReply {
        /** Copies the calls so a reply cannot change after it was enqueued. */
        public Completion {
            toolCalls = List.copyOf(Objects.requireNonNull(toolCalls, "toolCalls"));
            Objects.requireNonNull(finishReason, "finishReason");
        }
    }

    /**
     * An HTTP error with the API's body {@code {"error":{"message","type","param","code"}}}, or
     * a verbatim body (e.g. Ollama's {@code {"error":"..."}} or a proxy's HTML page).
     *
     * @param status the status, 4xx or 5xx
     * @param type {@code error.type}, e.g. {@code rate_limit_exceeded}
     * @param code {@code error.code}, or {@code null}
     * @param message {@code error.message}
     * @param headers extra response headers, e.g. {@code retry-after}, {@code retry-after-ms}
     * @param rawBody a body sent instead of the API's, or {@code null}
     */
    record HttpError(int status, String type, String code, String message, Map<String, String> headers, String rawBody)
            implements ChatReply {
        /** Keeps the header order but forbids later changes. */
        public HttpError {
            if (status < 400 || status > 599) {
                throw new IllegalArgumentException("an error status is 4xx or 5xx, got " + status);
            }
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(message, "message");
            headers = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(headers, "headers")));
        }

        /**
         * The same error with one more header.
         *
         * @param name the header name
         * @param value its value
         * @return a new reply
         */
        public HttpError withHeader(String name, String value) {
            Map<String, String> more = new LinkedHashMap<>(headers);
            more.put(name, value);
            return new HttpError(status, type, code, message, more, rawBody);
        }
    }

    /**
     * An error after HTTP 200 began a stream: the first {@code afterChunks} chunks of {@code
     * partial}, then {@code data: {"error":{...}}}, then the body ends. To a non-streaming request:
     * HTTP 500 with the same error.
     *
     * @param partial the completion cut short
     * @param afterChunks how many of its chunks are sent first
     * @param type {@code error.type}
     * @param message {@code error.message}
     */
    record StreamError(Completion partial, int afterChunks, String type, String message) implements ChatReply {
        /** A negative count is a scripting mistake. */
        public StreamError {
            Objects.requireNonNull(partial, "partial");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(message, "message");
            if (afterChunks < 0) {
                throw new IllegalArgumentException("afterChunks must not be negative");
            }
        }
    }

    /**
     * A dropped connection. With {@code partial == null} before any byte; otherwise, for a stream,
     * after the first {@code afterChunks} chunks of {@code partial}, and for a JSON answer after
     * half of its body.
     *
     * @param partial the completion cut short, or {@code null}
     * @param afterChunks for a stream, how many chunks are sent before the drop
     */
    record Disconnect(Completion partial, int afterChunks) implements ChatReply {
        /** A negative count is a scripting mistake. */
        public Disconnect {
            if (afterChunks < 0) {
                throw new IllegalArgumentException("afterChunks must not be negative");
            }
        }
    }

    /**
     * A stream whose body ends cleanly after every chunk of {@code completion} (usage included) but
     * without {@code data: [DONE]}. To a non-streaming request: the plain JSON completion.
     *
     * @param completion the completion
     */
    record NoDone(Completion completion) implements ChatReply {
        /** The completion is required. */
        public NoDone {
            Objects.requireNonNull(completion, "completion");
        }
    }

    /**
     * HTTP 200 whose body cannot be parsed: verbatim, as {@code application/json} to a
     * non-streaming request and as {@code text/event-stream} to a streaming one.
     *
     * @param body the body, or {@code null} for a default truncated chunk or completion
     */
    record Malformed(String body) implements ChatReply {}

    /**
     * Waits, then answers with another reply; ends early with a dropped connection on close.
     *
     * @param delay how long to wait
     * @param reply the answer after the wait
     */
    record Delayed(Duration delay, ChatReply reply) implements ChatReply {
        /** A negative delay is a scripting mistake. */
        public Delayed {
            Objects.requireNonNull(delay, "delay");
            Objects.requireNonNull(reply, "reply");
            if (delay.isNegative()) {
                throw new IllegalArgumentException("delay must not be negative");
            }
        }
    }

    /** Never answers; the connection drops when the server closes. */
    record Hang() implements ChatReply {}

    /**
     * A text answer with {@code finish_reason} {@code stop}.
     *
     * @param text the text
     * @return the reply
     */
    static Completion text(String text) {
        return new Completion(text, null, List.of(), STOP, null);
    }

    /**
     * One tool call with {@code finish_reason} {@code tool_calls}.
     *
     * @param id the call id
     * @param name the function name
     * @param arguments the argument text
     * @return the reply
     */
    static Completion toolCall(String id, String name, String arguments) {
        return new Completion(null, null, List.of(new ToolCall(id, name, arguments)), TOOL_CALLS, null);
    }

    /**
     * A builder for any completion.
     *
     * @return a new builder
     */
    static CompletionBuilder completion() {
        return new CompletionBuilder();
    }

    /**
     * An error with the API's body.
     *
     * @param status the status
     * @param type {@code error.type}
     * @param message {@code error.message}
     * @return the reply
     */
    static HttpError error(int status, String type, String message) {
        return new HttpError(status, type, null, message, Map.of(), null);
    }

    /**
     * A 429 {@code rate_limit_exceeded} with a {@code retry-after} of {@code seconds}.
     *
     * @param seconds the wait hint
     * @return the reply
     */
    static HttpError rateLimited(int seconds) {
        return new HttpError(429, "requests", "rate_limit_exceeded", "Rate limit reached for requests",
                Map.of("retry-after", String.valueOf(seconds)), null);
    }

    /**
     * A dropped connection before any byte.
     *
     * @return the reply
     */
    static Disconnect disconnect() {
        return new Disconnect(null, 0);
    }

    /** Builder for {@link Completion}. */
    final class CompletionBuilder {
        private String content;
        private String refusal;
        private final List<ToolCall> calls = new ArrayList<>();
        private String finishReason;
        private Usage usage;
        private long reasoningTokens;

        private CompletionBuilder() {}

        /** The assistant text. */
        public CompletionBuilder text(String text) {
            this.content = text;
            return this;
        }

        /** The refusal text; the finish reason stays {@code stop} unless set. */
        public CompletionBuilder refusal(String refusal) {
            this.refusal = refusal;
            return this;
        }

        /** One more tool call. */
        public CompletionBuilder toolCall(String id, String name, String arguments) {
            calls.add(new ToolCall(id, name, arguments));
            return this;
        }

        /** The finish reason; default {@code tool_calls} with calls, else {@code stop}. */
        public CompletionBuilder finishReason(String finishReason) {
            this.finishReason = finishReason;
            return this;
        }

        /** The usage to report. */
        public CompletionBuilder usage(long prompt, long completion, long cached) {
            this.usage = new Usage(prompt, completion, cached);
            return this;
        }

        /**
         * The part of the usage's completion tokens a reasoning model spent thinking ({@code
         * completion_tokens_details.reasoning_tokens}); needs {@link #usage}.
         */
        public CompletionBuilder reasoningTokens(long reasoning) {
            this.reasoningTokens = reasoning;
            return this;
        }

        /** The completion. */
        public Completion build() {
            String reason = finishReason != null ? finishReason : calls.isEmpty() ? STOP : TOOL_CALLS;
            if (reasoningTokens != 0 && usage == null) {
                throw new IllegalArgumentException("reasoning tokens are a part of the usage's completion tokens: set usage too");
            }
            Usage reported = usage == null ? null
                    : new Usage(usage.promptTokens(), usage.completionTokens(), usage.cachedTokens(), reasoningTokens);
            return new Completion(content, refusal, calls, reason, reported);
        }
    }
}
