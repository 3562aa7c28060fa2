package dev.rein.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.ReinException;
import dev.rein.context.TokenEstimator;
import dev.rein.json.Json;
import dev.rein.model.ModelException;
import dev.rein.model.StreamObserver;
import dev.rein.model.Usage;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds the final message from the events of one streamed response, working on the events' JSON
 * so that blocks Rein does not interpret keep every field, and forwards text and tool-call
 * fragments to a {@link StreamObserver} as they arrive.
 *
 * <p>Why not the SDK's {@code MessageAccumulator}: it keeps block types it does not model but
 * drops their deltas (its visitor returns the block unchanged for an unknown delta), so a streamed
 * {@code compaction} block would lose its summary, and such blocks must be sent back intact.
 *
 * <p>Empty fragments (the API opens each tool_use block with {@code "partial_json": ""}) are not forwarded.
 *
 * <p>Delta rules: {@code text_delta} and {@code thinking_delta} append, {@code signature_delta}
 * sets the signature, {@code input_json_delta} fragments are joined and parsed when the block
 * stops, {@code citations_delta} appends a citation, and any other delta (for example
 * {@code compaction_delta}) sets its fields on the block, as the SDK's beta accumulator does for
 * compaction. A tool input that is not valid JSON is accepted, as an empty object, only when the
 * message stopped at {@code max_tokens}, at the context window or with a refusal, which can cut a
 * tool call short.
 */
final class StreamAssembler {
    private final StreamObserver observer;
    private ObjectNode message;
    private final TreeMap<Integer, ObjectNode> blocks = new TreeMap<>();
    private final Map<Integer, StringBuilder> inputs = new HashMap<>();
    private final Map<Integer, StringBuilder> texts = new HashMap<>();
    private final Map<Integer, String> textFields = new HashMap<>();
    private boolean stopped;
    /**
     * Whether a message_delta carried an output count: its cumulative counts are the final ones. A usage object without
     * output_tokens (a gateway's that sends only the input there) leaves message_start's placeholder, no count.
     */
    private boolean finalUsage;
    /** The first tool input that was not valid JSON, held until the stop reason says whether it was cut off. */
    private ModelException unreadableInput;

    StreamAssembler(StreamObserver observer) {
        this.observer = observer;
    }

    /** Whether {@code message_start} has arrived. */
    boolean started() {
        return message != null;
    }

    /**
     * Takes the usage of {@code whole}, a whole JSON message a server sent instead of a stream, so that a failure to read
     * the rest of it says and carries that usage ({@link #usageNote}, {@link #reportedUsage()}) as a stream's failure
     * after {@code message_start} does. Its output count is final: it is no placeholder.
     */
    void usageOf(ObjectNode whole) {
        message = Json.object();
        if (whole.get("usage") instanceof ObjectNode usage) {
            message.set("usage", usage.deepCopy());
        }
        finalUsage = true;
    }

    void accept(JsonNode event) throws ModelException {
        switch (event.path("type").asText()) {
            // The events are trees parsed for this call alone, so they are used without copying.
            case "message_start" -> messageStart(event);
            case "content_block_start" -> start(index(event), object(event.get("content_block"), "content_block"));
            case "content_block_delta" -> delta(index(event), object(event.get("delta"), "delta"));
            case "content_block_stop" -> stop(index(event));
            case "message_delta" -> messageDelta(event);
            case "message_stop" -> stopped = true;
            default -> { } // ping and event types added later carry nothing the message needs
        }
    }

    /**
     * What the stream reported of its usage, said after the message of a failure that came after {@code
     * message_start} (an {@code error} event, a stream cut before {@code message_stop}): a failed call's usage reaches
     * no budget, though {@code message_start} already reported the input, so the message says it for a person to read
     * (and the failure carries it as data, {@link #reportedUsage()}). The output counts only once {@code message_delta}
     * carried an output count (its counts are cumulative; message_start's output_tokens is a placeholder). Empty before
     * message_start.
     *
     * @param server how the message names the server ({@link ErrorMapper#server()})
     */
    String usageNote(String server) {
        if (message == null || !(message.get("usage") instanceof ObjectNode usage)) {
            return "";
        }
        // the counts the failure carries (reportedUsage): a compaction's iterations included, which the top level leaves out
        Usage counted = ResponseMapper.usage(usage, () -> 0);
        long read = counted.cacheReadInputTokens();
        long written = counted.cacheWriteInputTokens();
        long input = counted.inputTokens() + read + written;
        String cache = read > 0 && written > 0 ? ", " + read + " of them read from the cache and " + written + " written to it"
                : read > 0 ? ", " + read + " of them read from the cache"
                : written > 0 ? ", " + written + " of them written to the cache" : "";
        String output = finalUsage && usage.path("output_tokens").canConvertToLong()
                ? (cache.isEmpty() ? "" : ",") + " and " + counted.outputTokens() + " output tokens"
                : "; no output count came before the failure";
        return "; " + server + " reported usage for it (" + input + " input tokens" + cache + output + "), which the run's"
                + " token and money budgets do not count, as a failed call charges nothing";
    }

    /**
     * The usage the stream reported, for a failure that came after {@code message_start} to carry ({@link
     * ModelException#reportedUsage()}); null before message_start. As for a response whose {@code message_delta}
     * carried no output count, the output is then Rein's estimate from what the stream delivered, and the usage is
     * marked estimated: message_start's output_tokens is a placeholder.
     */
    Usage reportedUsage() {
        if (message == null || !(message.get("usage") instanceof ObjectNode usage)) {
            return null;
        }
        ObjectNode counted = usage;
        if (!finalUsage) {
            counted = usage.deepCopy();
            counted.remove("output_tokens");
        }
        return ResponseMapper.usage(counted, this::streamedOutput);
    }

    /** An estimate of the output tokens the stream delivered so far: its blocks' text, thinking and tool inputs. */
    private long streamedOutput() {
        long tokens = 0;
        for (Map.Entry<Integer, ObjectNode> open : blocks.entrySet()) {
            ObjectNode block = open.getValue();
            StringBuilder text = texts.get(open.getKey());
            StringBuilder input = inputs.get(open.getKey());
            tokens += TokenEstimator.text(text != null ? text.toString() : textOf(block, "text") + textOf(block, "thinking"));
            JsonNode whole = block.path("input");
            tokens += TokenEstimator.text(input != null ? input.toString()
                    : whole.isObject() && !whole.isEmpty() ? whole.toString() : "");
        }
        return tokens;
    }

    private static long count(JsonNode usage, String field) {
        JsonNode value = usage.path(field);
        return value.canConvertToLong() ? Math.max(0, value.asLong()) : 0;
    }

    /** The assembled message, in the shape of a non-streamed Messages API response. */
    ObjectNode message() throws ModelException {
        if (message == null || !stopped) {
            throw new ModelException(ModelException.Kind.CONNECTION, 0,
                    "the response stream ended before message_stop; the connection was probably dropped",
                    true, null, null, null);
        }
        // A block the stream never stopped (message_stop still says the message is whole) keeps
        // its input: read it now rather than leave the call with an empty one.
        if (!inputs.isEmpty()) { // nearly always empty: no copy of the keys for every response
            for (Integer open : new java.util.ArrayList<>(inputs.keySet())) {
                stop(open);
            }
        }
        if (unreadableInput != null && !cutOff(message.path("stop_reason").textValue())) {
            throw unreadableInput;
        }
        if (!finalUsage && message.get("usage") instanceof ObjectNode usage) {
            // message_start's output_tokens is a placeholder (1): without message_delta's count the
            // output was not reported, and the mapper estimates it instead.
            usage.remove("output_tokens");
        }
        blocks.forEach(this::flushText);
        ArrayNode content = message.putArray("content");
        blocks.values().forEach(content::add);
        return message;
    }

    /**
     * A stream carries one message: a second message_start (the reader reads nothing after message_stop) would drop
     * what came before it, so the stream is refused as the official SDK's accumulator refuses it.
     */
    private void messageStart(JsonNode event) throws ModelException {
        if (message != null) {
            throw ErrorMapper.malformed("the response stream sent a second message_start before message_stop", null);
        }
        message = object(event.get("message"), "message_start.message");
    }

    private void start(int index, ObjectNode block) throws ModelException {
        requireStarted();
        if (blocks.putIfAbsent(index, block) != null) {
            // Replacing it would lose what the block said so far, as the SDK's accumulator refuses it too.
            throw ErrorMapper.malformed("the response stream started block " + index + " twice", null);
        }
        // What the start already carries (the API sends it empty; a server may open a block with its
        // first text, or a call with its whole input) is part of the answer, so listeners get it too.
        String type = block.path("type").asText();
        if ("text".equals(type) && !textOf(block, "text").isEmpty()) {
            observer.onTextDelta(textOf(block, "text"));
        } else if ("thinking".equals(type) && !textOf(block, "thinking").isEmpty()) {
            observer.onThinkingDelta(textOf(block, "thinking"));
        } else if ("tool_use".equals(type)) {
            String id = block.path("id").asText();
            observer.onToolUseStart(id, block.path("name").asText());
            if (block.path("input").isObject() && !block.path("input").isEmpty()) {
                observer.onToolInputDelta(id, block.get("input").toString());
            }
        }
    }

    private void delta(int index, ObjectNode delta) throws ModelException {
        ObjectNode block = blocks.get(index);
        if (block == null) {
            throw ErrorMapper.malformed("the response stream sent a delta for block " + index + " before it started", null);
        }
        switch (delta.path("type").asText()) {
            case "text_delta" -> {
                String text = textOf(delta, "text");
                if (!text.isEmpty()) {
                    append(index, block, "text", text);
                    observer.onTextDelta(text);
                }
            }
            case "thinking_delta" -> {
                String thinking = textOf(delta, "thinking");
                append(index, block, "thinking", thinking);
                if (!thinking.isEmpty()) {
                    observer.onThinkingDelta(thinking);
                }
            }
            case "signature_delta" -> block.put("signature", textOf(delta, "signature"));
            case "input_json_delta" -> {
                String fragment = textOf(delta, "partial_json");
                inputs.computeIfAbsent(index, i -> new StringBuilder()).append(fragment);
                // The API opens each block with an empty fragment: it carries no argument, as an empty text delta carries no text.
                if (!fragment.isEmpty() && "tool_use".equals(block.path("type").asText())) {
                    observer.onToolInputDelta(block.path("id").asText(), fragment);
                }
            }
            case "citations_delta" -> {
                JsonNode citations = block.get("citations");
                ArrayNode list = citations instanceof ArrayNode a ? a : block.putArray("citations");
                list.add(delta.path("citation"));
            }
            default -> {
                for (Map.Entry<String, JsonNode> field : delta.properties()) {
                    if (!field.getKey().equals("type")) {
                        block.set(field.getKey(), field.getValue());
                    }
                }
            }
        }
    }

    /** Appends a text fragment; joined once at the block's end instead of copying the text per delta. */
    private void append(int index, ObjectNode block, String field, String fragment) {
        texts.computeIfAbsent(index, i -> new StringBuilder(textOf(block, field))).append(fragment);
        textFields.put(index, field);
    }

    /**
     * The text a block was opened with, or a delta carries: "" when it has none, also for a JSON null
     * (a gateway's writer that keeps null fields, a proxy carrying over an OpenAI chunk's "content":
     * null), whose asText() would be the word "null".
     */
    private static String textOf(ObjectNode block, String field) {
        JsonNode value = block.get(field);
        return value != null && value.isTextual() ? value.textValue() : "";
    }

    private void stop(int index) throws ModelException {
        ObjectNode block = blocks.get(index);
        if (block == null) {
            throw ErrorMapper.malformed("the response stream stopped block " + index + " before it started", null);
        }
        flushText(index, block);
        StringBuilder input = inputs.remove(index);
        if (input != null && !input.toString().isBlank()) {
            try {
                // The whole text: readTree would read a first value and drop what follows it ({"q":"a"}{"q":"b"}).
                block.set("input", Json.parseWhole(input.toString()));
            } catch (ReinException e) {
                // A response cut off at max_tokens may end inside a tool call's input: the API
                // documents that as a normal max_tokens response, so the block keeps an empty input
                // and the failure stands only if the stop reason does not explain the cut.
                if (unreadableInput == null) {
                    unreadableInput = ErrorMapper.malformed("the input of " + block.path("type").asText() + " block " + index
                            + " is " + e.getMessage(), e);
                }
                block.putObject("input");
            }
        } else if (input != null && !block.has("input")) {
            block.putObject("input");
        }
    }

    /**
     * Stop reasons that end generation mid-output, so the last block may be incomplete: the limits,
     * and a streaming classifier's refusal, which stops the stream wherever it intervenes.
     */
    private static boolean cutOff(String stopReason) {
        return "max_tokens".equals(stopReason) || "model_context_window_exceeded".equals(stopReason)
                || "refusal".equals(stopReason);
    }

    private void flushText(int index, ObjectNode block) {
        StringBuilder text = texts.remove(index);
        if (text != null) {
            block.put(textFields.remove(index), text.toString());
        }
    }

    private void messageDelta(JsonNode event) throws ModelException {
        requireStarted();
        merge(message, event.get("delta"));
        JsonNode usage = event.get("usage");
        if (usage instanceof ObjectNode) {
            finalUsage |= usage.path("output_tokens").canConvertToLong();
            JsonNode current = message.get("usage");
            merge(current instanceof ObjectNode o ? o : message.putObject("usage"), usage);
        }
    }

    /** Copies the non-null fields of {@code from} onto {@code into} (later values win). */
    private static void merge(ObjectNode into, JsonNode from) {
        if (from == null || !from.isObject()) {
            return;
        }
        for (Map.Entry<String, JsonNode> field : from.properties()) {
            if (!field.getValue().isNull() || !into.has(field.getKey())) {
                into.set(field.getKey(), field.getValue());
            }
        }
    }

    private void requireStarted() throws ModelException {
        if (message == null) {
            throw ErrorMapper.malformed("the response stream sent content before message_start", null);
        }
    }

    private static int index(JsonNode event) throws ModelException {
        JsonNode index = event.get("index");
        if (index == null || !index.canConvertToInt()) {
            throw ErrorMapper.malformed("a " + event.path("type").asText() + " event has no block index", null);
        }
        return index.intValue();
    }

    private static ObjectNode object(JsonNode node, String what) throws ModelException {
        if (node instanceof ObjectNode o) {
            return o;
        }
        throw ErrorMapper.malformed("the response stream has no object for " + what, null);
    }
}
