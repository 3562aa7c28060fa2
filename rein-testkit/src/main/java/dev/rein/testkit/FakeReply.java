package dev.rein.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One scripted answer of a {@link FakeMessagesServer}: what the server does with the next request.
 *
 * <p>The same reply serves streaming and non-streaming requests: a {@link Message} is sent as JSON
 * to a request without {@code "stream": true} and as server-sent events to one with it. Each
 * record documents how it behaves in both modes.
 */
public sealed interface FakeReply {

    /** {@code stop_reason} when the model finished its turn. */
    String END_TURN = "end_turn";
    /** {@code stop_reason} when the model asks for tools. */
    String TOOL_USE = "tool_use";
    /** {@code stop_reason} when {@code max_tokens} was reached. */
    String MAX_TOKENS = "max_tokens";
    /** {@code stop_reason} when a stop sequence was generated. */
    String STOP_SEQUENCE = "stop_sequence";
    /** {@code stop_reason} when a long server-side turn was paused and may be continued. */
    String PAUSE_TURN = "pause_turn";
    /** {@code stop_reason} when the model declined to answer. */
    String REFUSAL = "refusal";
    /** {@code stop_reason} when the context window filled up. */
    String MODEL_CONTEXT_WINDOW_EXCEEDED = "model_context_window_exceeded";

    /**
     * A successful assistant message.
     *
     * <p>Non-streaming: HTTP 200 with the message JSON. Streaming: HTTP 200 with the full event
     * sequence ({@code message_start}, per block {@code content_block_start} / {@code
     * content_block_delta}s / {@code content_block_stop}, a {@code ping}, {@code message_delta},
     * {@code message_stop}). The {@code model} field echoes the request's.
     *
     * @param content the content blocks, in order; may be empty
     * @param stopReason the {@code stop_reason}, e.g. {@link #END_TURN}
     * @param stopSequence the {@code stop_sequence}, or {@code null}
     * @param usage the usage to report, or {@code null} to let the server estimate it from the
     *     request and the content (characters / 4)
     * @param stopDetailsJson the {@code stop_details} object as JSON text (a refusal's {@code
     *     category} and {@code explanation}), sent on the message and, streamed, on {@code
     *     message_delta}; {@code null} for none
     * @param containerJson the {@code container} object as JSON text ({@code {"id": ..., "expires_at":
     *     ...}}: the code execution tool's container, which a client sends back as the next request's
     *     {@code container}), sent on the message and, streamed, on {@code message_delta} (null in
     *     {@code message_start}), as the SDKs' accumulators read it; {@code null} for none
     */
    record Message(List<FakeBlock> content, String stopReason, String stopSequence, FakeUsage usage, String stopDetailsJson,
                   String containerJson)
            implements FakeReply {
        /** Copies the content so that a reply cannot change after it was enqueued; checks the details are a JSON object. */
        public Message {
            content = List.copyOf(Objects.requireNonNull(content, "content"));
            Objects.requireNonNull(stopReason, "stopReason");
            requireObject("stop_details", stopDetailsJson);
            if (containerJson != null && !requireObject("container", containerJson).path("id").isTextual()) {
                throw new IllegalArgumentException("container needs its \"id\" text: " + containerJson);
            }
        }

        /**
         * A message without a container.
         *
         * @param content the content blocks
         * @param stopReason the {@code stop_reason}
         * @param stopSequence the {@code stop_sequence}, or {@code null}
         * @param usage the usage, or {@code null} for the server's estimate
         * @param stopDetailsJson the {@code stop_details} object as JSON text, or {@code null}
         */
        public Message(List<FakeBlock> content, String stopReason, String stopSequence, FakeUsage usage,
                       String stopDetailsJson) {
            this(content, stopReason, stopSequence, usage, stopDetailsJson, null);
        }

        /** The JSON object {@code json} holds (null for null); anything else is refused, naming the field. */
        private static JsonNode requireObject(String field, String json) {
            if (json == null) {
                return null;
            }
            JsonNode node;
            try {
                node = Json.MAPPER.readTree(json);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalArgumentException(field + " is not valid JSON: " + json, e);
            }
            if (node == null || !node.isObject()) {
                throw new IllegalArgumentException(field + " must be a JSON object: " + json);
            }
            return node;
        }

        /**
         * A message without {@code stop_details}.
         *
         * @param content the content blocks
         * @param stopReason the {@code stop_reason}
         * @param stopSequence the {@code stop_sequence}, or {@code null}
         * @param usage the usage, or {@code null} for the server's estimate
         */
        public Message(List<FakeBlock> content, String stopReason, String stopSequence, FakeUsage usage) {
            this(content, stopReason, stopSequence, usage, null);
        }
    }

    /**
     * An HTTP error with the API's error body {@code {"type":"error","error":{"type":..,"message":..},"request_id":..}}.
     * Sent the same way to streaming and non-streaming requests, as the real API does for errors
     * found before the answer starts.
     *
     * @param status the HTTP status, e.g. 429
     * @param errorType {@code error.type}, e.g. {@code "rate_limit_error"}
     * @param message {@code error.message}
     * @param headers extra response headers, e.g. {@code retry-after}, {@code x-should-retry}
     * @param errorCode {@code error.details.error_code}, e.g. {@code "enforced_spend_limit_reached"},
     *     or {@code null} for an error without details
     */
    record HttpError(int status, String errorType, String message, Map<String, String> headers, String errorCode)
            implements FakeReply {
        /** Keeps the header order for readable dumps but forbids later changes. */
        public HttpError {
            if (status < 400 || status > 599) {
                throw new IllegalArgumentException("an error status is 4xx or 5xx, got " + status);
            }
            Objects.requireNonNull(errorType, "errorType");
            Objects.requireNonNull(message, "message");
            headers = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(headers, "headers")));
        }

        /**
         * An error without {@code error.details}.
         *
         * @param status the HTTP status
         * @param errorType {@code error.type}
         * @param message {@code error.message}
         * @param headers extra response headers
         */
        public HttpError(int status, String errorType, String message, Map<String, String> headers) {
            this(status, errorType, message, headers, null);
        }

        /**
         * The same error with one more response header.
         *
         * @param name the header name, e.g. {@code "retry-after-ms"}
         * @param value its value
         * @return a new reply
         */
        public HttpError withHeader(String name, String value) {
            Map<String, String> more = new LinkedHashMap<>(headers);
            more.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
            return new HttpError(status, errorType, message, more, errorCode);
        }
    }

    /**
     * An error that happens after the stream started: HTTP 200, the first {@code afterEvents}
     * events of {@code partial}'s stream, then {@code event: error} with
     * {@code {"type":"error","error":{"type":..,"message":..}}}, then the stream ends.
     *
     * <p>Sent to a non-streaming request, where no such thing can happen, it becomes the plain
     * HTTP error of that type (the status of {@link ApiErrorType} for a known type, else 500).
     *
     * @param partial the message whose stream is cut short
     * @param afterEvents how many of its events are sent first (at most all of them)
     * @param errorType {@code error.type}, e.g. {@code "overloaded_error"}
     * @param message {@code error.message}
     */
    record StreamError(Message partial, int afterEvents, String errorType, String message) implements FakeReply {
        /** A negative count is a scripting mistake. */
        public StreamError {
            Objects.requireNonNull(partial, "partial");
            Objects.requireNonNull(errorType, "errorType");
            Objects.requireNonNull(message, "message");
            if (afterEvents < 0) {
                throw new IllegalArgumentException("afterEvents must not be negative");
            }
        }
    }

    /**
     * A dropped connection: the server closes the TCP connection without completing the response,
     * so a client sees an I/O error (connection reset, premature end of stream), never a status.
     *
     * <p>With {@code partial == null} nothing at all is sent. Otherwise the connection drops
     * mid-response: for a streaming request after the first {@code afterEvents} events of {@code
     * partial}'s stream, for a non-streaming request after the status line and the first half of
     * the message JSON.
     *
     * @param partial the message cut short, or {@code null} to drop before any byte
     * @param afterEvents for a stream, how many events are sent before the drop
     */
    record Disconnect(Message partial, int afterEvents) implements FakeReply {
        /** A negative count is a scripting mistake. */
        public Disconnect {
            if (afterEvents < 0) {
                throw new IllegalArgumentException("afterEvents must not be negative");
            }
        }
    }

    /**
     * HTTP 200 whose body cannot be parsed: sent verbatim with {@code application/json} to a
     * non-streaming request and with {@code text/event-stream} to a streaming one.
     *
     * @param body the body, or {@code null} for a default truncated message (for a stream: a
     *     {@code message_start} event whose data is truncated JSON)
     */
    record Malformed(String body) implements FakeReply {}

    /**
     * Waits, then answers with another reply; for testing timeouts and deadlines. The wait ends
     * early, with a dropped connection, when the server closes.
     *
     * @param delay how long to wait before answering
     * @param reply the answer after the wait
     */
    record Delayed(Duration delay, FakeReply reply) implements FakeReply {
        /** A negative delay is a scripting mistake. */
        public Delayed {
            Objects.requireNonNull(delay, "delay");
            Objects.requireNonNull(reply, "reply");
            if (delay.isNegative()) {
                throw new IllegalArgumentException("delay must not be negative");
            }
        }
    }

    /** Never answers: the request hangs until the server closes, which drops the connection. */
    record Hang() implements FakeReply {}

    /**
     * The answer of {@code POST /v1/messages/count_tokens}: {@code {"input_tokens": N}}. Only for
     * {@link FakeMessagesServer#enqueueCountTokens(FakeReply...)}.
     *
     * @param inputTokens the count to report
     */
    record TokenCount(int inputTokens) implements FakeReply {
        /** A negative count is a scripting mistake. */
        public TokenCount {
            if (inputTokens < 0) {
                throw new IllegalArgumentException("inputTokens must not be negative");
            }
        }
    }

    // ---- factories -------------------------------------------------------------------------

    /**
     * A message with one text block and {@code stop_reason} {@code end_turn}.
     *
     * @param text the answer
     * @return the reply
     */
    static Message text(String text) {
        return message().text(text).build();
    }

    /**
     * A message with one tool use block and {@code stop_reason} {@code tool_use}.
     *
     * @param id the tool use id, e.g. {@code "toolu_01"}
     * @param name the tool name
     * @param inputJson the input, a JSON object
     * @return the reply
     */
    static Message toolUse(String id, String name, String inputJson) {
        return message().toolUse(id, name, inputJson).build();
    }

    /**
     * A builder for a message with several blocks, a chosen stop reason or usage.
     *
     * @return a new builder
     */
    static MessageBuilder message() {
        return new MessageBuilder();
    }

    /**
     * An HTTP error of a known type with the type's default message.
     *
     * @param type the error type, which also gives the status
     * @return the reply
     */
    static HttpError error(ApiErrorType type) {
        return error(type, type.defaultMessage());
    }

    /**
     * An HTTP error of a known type.
     *
     * @param type the error type, which also gives the status
     * @param message {@code error.message}
     * @return the reply
     */
    static HttpError error(ApiErrorType type, String message) {
        return new HttpError(type.status(), type.wireName(), message, Map.of());
    }

    /**
     * Any HTTP error, including statuses and types not in {@link ApiErrorType}.
     *
     * @param status the HTTP status
     * @param errorType {@code error.type}
     * @param message {@code error.message}
     * @return the reply
     */
    static HttpError error(int status, String errorType, String message) {
        return new HttpError(status, errorType, message, Map.of());
    }

    /**
     * 429 {@code rate_limit_error} with a {@code retry-after} header in whole seconds, rounded up.
     *
     * @param retryAfter the wait the client is asked for
     * @return the reply
     */
    static HttpError rateLimited(Duration retryAfter) {
        long seconds = (retryAfter.toMillis() + 999) / 1000;
        return error(ApiErrorType.RATE_LIMIT).withHeader("retry-after", Long.toString(seconds));
    }

    /**
     * 429 {@code rate_limit_error} with {@code error.details.error_code}
     * {@code enforced_spend_limit_reached} and no {@code retry-after}: the organization's monthly
     * spend cap is reached, and requests fail until the next month (or a higher tier).
     *
     * @return the reply
     */
    static HttpError spendLimitReached() {
        return new HttpError(429, "rate_limit_error",
                "You have reached your API usage limits; access resumes at the start of next month.", Map.of(),
                "enforced_spend_limit_reached");
    }

    /**
     * 529 {@code overloaded_error}.
     *
     * @return the reply
     */
    static HttpError overloaded() {
        return error(ApiErrorType.OVERLOADED);
    }

    /**
     * An {@code overloaded_error} event after the stream of a partial text answer began: {@code
     * message_start}, {@code content_block_start}, {@code ping} and one text delta are sent first.
     *
     * @return the reply
     */
    static StreamError overloadedMidStream() {
        return streamError(text("Partial answer"), 4, ApiErrorType.OVERLOADED);
    }

    /**
     * An error event after part of a stream.
     *
     * @param partial the message whose stream is cut short
     * @param afterEvents how many of its events are sent first
     * @param type the error type
     * @return the reply
     */
    static StreamError streamError(Message partial, int afterEvents, ApiErrorType type) {
        return new StreamError(partial, afterEvents, type.wireName(), type.defaultMessage());
    }

    /**
     * A connection dropped before any byte of the response.
     *
     * @return the reply
     */
    static Disconnect disconnect() {
        return new Disconnect(null, 0);
    }

    /**
     * A connection dropped in the middle of the response.
     *
     * @param partial the message cut short
     * @param afterEvents for a stream, how many events are sent before the drop
     * @return the reply
     */
    static Disconnect disconnectMidStream(Message partial, int afterEvents) {
        return new Disconnect(Objects.requireNonNull(partial, "partial"), afterEvents);
    }

    /**
     * HTTP 200 with a default unparseable body.
     *
     * @return the reply
     */
    static Malformed malformed() {
        return new Malformed(null);
    }

    /**
     * HTTP 200 with the given body, sent verbatim.
     *
     * @param body the body
     * @return the reply
     */
    static Malformed malformed(String body) {
        return new Malformed(Objects.requireNonNull(body, "body"));
    }

    /**
     * Another reply after a wait.
     *
     * @param delay the wait
     * @param reply the answer after it
     * @return the reply
     */
    static Delayed delayed(Duration delay, FakeReply reply) {
        return new Delayed(delay, reply);
    }

    /**
     * A request that is never answered.
     *
     * @return the reply
     */
    static Hang hang() {
        return new Hang();
    }

    /**
     * A scripted {@code count_tokens} answer.
     *
     * @param inputTokens the count
     * @return the reply
     */
    static TokenCount tokenCount(int inputTokens) {
        return new TokenCount(inputTokens);
    }

    /**
     * Builds a {@link Message}. Without an explicit stop reason, the message stops with {@code
     * tool_use} if it has a tool use block and with {@code end_turn} otherwise.
     */
    final class MessageBuilder {
        private final List<FakeBlock> content = new ArrayList<>();
        private String stopReason;
        private String stopSequence;
        private FakeUsage usage;
        private String stopDetailsJson;
        private String containerJson;

        private MessageBuilder() {}

        /**
         * Adds a text block.
         *
         * @param text the text
         * @return this builder
         */
        public MessageBuilder text(String text) {
            return block(FakeBlock.text(text));
        }

        /**
         * Adds a text block with citations, as a web search answer has them.
         *
         * @param text the text
         * @param citationsJson its {@code citations}, a JSON array, e.g. {@code [{"type": "web_search_result_location",
         *     "url": "https://example.com/", "title": "Example", "encrypted_index": "Eo8B", "cited_text": "..."}]}
         * @return this builder
         */
        public MessageBuilder text(String text, String citationsJson) {
            return block(new FakeBlock.Text(text, citationsJson));
        }

        /**
         * Adds a tool use block.
         *
         * @param id the tool use id
         * @param name the tool name
         * @param inputJson the input, a JSON object
         * @return this builder
         */
        public MessageBuilder toolUse(String id, String name, String inputJson) {
            return block(FakeBlock.toolUse(id, name, inputJson));
        }

        /**
         * Adds a tool use block that code running in the code execution tool issued (programmatic
         * tool calling): its {@code caller} is {@code {"type": codeExecutionType, "tool_id": serverToolUseId}},
         * the code execution tool's version and the id of the {@code server_tool_use} block whose code
         * made the call. The client answers it with a {@code tool_result} as any call, and must send the
         * response's container back with it.
         *
         * @param id the tool use id
         * @param name the tool name
         * @param inputJson the input, a JSON object
         * @param codeExecutionType the code execution tool's type, e.g. {@code "code_execution_20260120"}
         * @param serverToolUseId the id of the code execution's {@code server_tool_use} block, e.g. {@code "srvtoolu_01"}
         * @return this builder
         */
        public MessageBuilder toolUseFromCode(String id, String name, String inputJson, String codeExecutionType,
                                              String serverToolUseId) {
            com.fasterxml.jackson.databind.node.ObjectNode caller = Json.MAPPER.createObjectNode();
            caller.put("type", Objects.requireNonNull(codeExecutionType, "codeExecutionType"));
            caller.put("tool_id", Objects.requireNonNull(serverToolUseId, "serverToolUseId"));
            return block(new FakeBlock.ToolUse(id, name, inputJson, caller.toString()));
        }

        /**
         * Adds a thinking block.
         *
         * @param thinking the thinking text
         * @param signature its signature
         * @return this builder
         */
        public MessageBuilder thinking(String thinking, String signature) {
            return block(FakeBlock.thinking(thinking, signature));
        }

        /**
         * Adds a redacted thinking block.
         *
         * @param data the opaque payload
         * @return this builder
         */
        public MessageBuilder redactedThinking(String data) {
            return block(FakeBlock.redactedThinking(data));
        }

        /**
         * Adds any block.
         *
         * @param block the block
         * @return this builder
         */
        public MessageBuilder block(FakeBlock block) {
            content.add(Objects.requireNonNull(block, "block"));
            return this;
        }

        /**
         * Sets the stop reason, e.g. {@link FakeReply#MAX_TOKENS}.
         *
         * @param stopReason the {@code stop_reason}
         * @return this builder
         */
        public MessageBuilder stopReason(String stopReason) {
            this.stopReason = Objects.requireNonNull(stopReason, "stopReason");
            return this;
        }

        /**
         * Stops on a stop sequence: sets {@code stop_reason} to {@code stop_sequence} and {@code
         * stop_sequence} to the given one.
         *
         * @param stopSequence the sequence that was generated
         * @return this builder
         */
        public MessageBuilder stopSequence(String stopSequence) {
            this.stopReason = STOP_SEQUENCE;
            this.stopSequence = Objects.requireNonNull(stopSequence, "stopSequence");
            return this;
        }

        /**
         * A refusal: sets {@code stop_reason} to {@code refusal} and {@code stop_details} to {@code
         * {"type":"refusal","category":..,"explanation":..}}, as a classifier refusal carries them.
         *
         * @param category the policy category, e.g. {@code "cyber"}, or {@code null}
         * @param explanation the explanation meant for the user, or {@code null}
         * @return this builder
         */
        public MessageBuilder refusal(String category, String explanation) {
            com.fasterxml.jackson.databind.node.ObjectNode details = Json.MAPPER.createObjectNode();
            details.put("type", "refusal");
            details.put("category", category);
            details.put("explanation", explanation);
            this.stopReason = REFUSAL;
            this.stopDetailsJson = details.toString();
            return this;
        }

        /**
         * Sets {@code stop_details} verbatim.
         *
         * @param stopDetailsJson a JSON object, or {@code null} for none
         * @return this builder
         */
        public MessageBuilder stopDetails(String stopDetailsJson) {
            this.stopDetailsJson = stopDetailsJson;
            return this;
        }

        /**
         * Sets the {@code container} the code execution tool ran in: {@code {"id": id, "expires_at":
         * expiresAt}}, which a client is to send back as the next request's {@code container}.
         *
         * @param id the container id, e.g. {@code "container_011CPR5CNjB747bTd36fQLFk"}
         * @param expiresAt when it expires (RFC 3339), e.g. {@code "2026-12-05T01:13:31.749448Z"}
         * @return this builder
         */
        public MessageBuilder container(String id, String expiresAt) {
            com.fasterxml.jackson.databind.node.ObjectNode container = Json.MAPPER.createObjectNode();
            container.put("id", Objects.requireNonNull(id, "id"));
            container.put("expires_at", Objects.requireNonNull(expiresAt, "expiresAt"));
            return container(container.toString());
        }

        /**
         * Sets {@code container} verbatim.
         *
         * @param containerJson a JSON object with an {@code id}, or {@code null} for none
         * @return this builder
         */
        public MessageBuilder container(String containerJson) {
            this.containerJson = containerJson;
            return this;
        }

        /**
         * Sets the usage reported instead of the server's estimate.
         *
         * @param usage the usage
         * @return this builder
         */
        public MessageBuilder usage(FakeUsage usage) {
            this.usage = Objects.requireNonNull(usage, "usage");
            return this;
        }

        /**
         * Sets the usage without prompt caching.
         *
         * @param inputTokens input tokens
         * @param outputTokens output tokens
         * @return this builder
         */
        public MessageBuilder usage(int inputTokens, int outputTokens) {
            return usage(FakeUsage.of(inputTokens, outputTokens));
        }

        /**
         * Builds the message.
         *
         * @return the reply
         */
        public Message build() {
            String reason = stopReason;
            if (reason == null) {
                reason = content.stream().anyMatch(b -> b instanceof FakeBlock.ToolUse) ? TOOL_USE : END_TURN;
            }
            return new Message(content, reason, stopSequence, usage, stopDetailsJson, containerJson);
        }
    }
}
