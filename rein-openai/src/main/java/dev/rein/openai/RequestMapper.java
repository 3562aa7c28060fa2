package dev.rein.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.openai.core.JsonArray;
import com.openai.core.JsonValue;
import com.openai.core.ObjectMappers;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.rein.ReinException;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.ModelRequest;
import dev.rein.model.OpaqueBlock;
import dev.rein.model.OutputSchema;
import dev.rein.model.ParallelToolCalls;
import dev.rein.model.RedactedThinkingBlock;
import dev.rein.model.Role;
import dev.rein.model.TextBlock;
import dev.rein.model.ThinkingBlock;
import dev.rein.model.ToolChoice;
import dev.rein.model.ToolDefinition;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.provider.WireCache;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Translates a provider-neutral {@link ModelRequest} into a Chat Completions request body.
 *
 * <p>The system prompt is the first message; each assistant turn becomes one {@code assistant}
 * message whose {@code tool_calls} repeat the calls exactly as the model sent them (the
 * argument text included, see {@link RawArguments}); each user turn becomes one {@code tool}
 * message per tool result, in the order of the calls, followed by a {@code user} message with its
 * text, if any. Thinking blocks of other providers are left out: Chat Completions has no place
 * for them. {@code top_k} is not part of the protocol and is not sent.
 *
 * <p>History messages and tool definitions are immutable, so each is converted to its wire form
 * once (an SDK {@link JsonValue}, see {@link WireCache}) and reused by every later request of the
 * run: a call converts only what was added since the previous one. The wire forms put their keys
 * in the order the SDK's typed classes write them, so the body is the same, byte for byte, as
 * when the whole request went through the SDK's typed model.
 *
 * <p>Half a UTF-16 surrogate pair is sent as U+FFFD ({@link WellFormedText}), checked once per
 * converted message or tool.
 */
final class RequestMapper {
    /** Which field carries the output limit: the public API wants the newer one, local servers the older. */
    enum MaxTokensField {
        MAX_COMPLETION_TOKENS("max_completion_tokens"),
        MAX_TOKENS("max_tokens");

        final String wire;

        MaxTokensField(String wire) {
            this.wire = wire;
        }
    }

    /**
     * The wire messages of one history message. A user turn's tool messages follow the call order
     * of the assistant turn before it, so its form is valid only after that same turn; an assistant
     * turn's carries its {@code reasoning_content} or not ({@code reasoning}), as its place decides.
     */
    private record Wire(Message after, boolean reasoning, String family, boolean skipSignature, List<JsonValue> messages) {}

    /** Changes at most once, from max_tokens to max_completion_tokens, when the server refuses the older field. */
    private volatile MaxTokensField maxTokensField;
    private final boolean adaptive;
    /** Whether a model named as a reasoning model gets max_completion_tokens from the start (Azure OpenAI; {@link #reasoningModel}). */
    private final boolean reasoningByName;
    /** Whether requests go to Mistral's own API, whose tool call ids are 9 letters or digits whatever the model. */
    private final boolean mistralHost;
    /** The server requests go to ({@link Origin}); null when unknown. */
    private final String origin;
    /**
     * Whether tool descriptions are cut to OpenAI's limit: on the public API and Azure OpenAI from the start, on another
     * server once it refused a longer one in the API's words (a proxy in front of OpenAI).
     */
    private volatile boolean openAiLimits;
    /** Turned off once, when a server refuses {@code stream_options} (older Azure OpenAI API versions). */
    private volatile boolean streamOptions = true;
    private final WireCache<Message, Wire> messages = new WireCache<>();
    /** Replaced when descriptions begin to be cut, so no tool keeps a wire form with a longer one. */
    private volatile WireCache<ToolDefinition, JsonValue> tools = new WireCache<>();
    private final AtomicLong converted = new AtomicLong();

    /**
     * @param adaptive whether a refusal of {@code max_tokens} may switch to {@code max_completion_tokens}
     *     (the field was chosen automatically, not by the user)
     * @param mistralHost whether requests go to Mistral's own API ({@link ToolCallIds#mistralHost})
     */
    RequestMapper(MaxTokensField maxTokensField, boolean adaptive, boolean mistralHost) {
        this(maxTokensField, adaptive, mistralHost, null);
    }

    /**
     * @param origin the server requests go to ({@link Origin#of}): fields outside the protocol that another
     *     server sent are not echoed to it; null echoes them all
     */
    RequestMapper(MaxTokensField maxTokensField, boolean adaptive, boolean mistralHost, String origin) {
        this(maxTokensField, adaptive, mistralHost, origin, false);
    }

    /**
     * @param openAiLimits whether requests go to the public API or Azure OpenAI, which refuse a tool description over
     *     {@value RequestLimits#MAX_DESCRIPTION} characters ({@link RequestLimits#description})
     */
    RequestMapper(MaxTokensField maxTokensField, boolean adaptive, boolean mistralHost, String origin, boolean openAiLimits) {
        this(maxTokensField, adaptive, mistralHost, origin, openAiLimits, false);
    }

    /**
     * @param reasoningByName whether a request for a model named as one of OpenAI's reasoning models ({@link
     *     #reasoningModel}) carries {@code max_completion_tokens} from the start, when the field is chosen automatically:
     *     on Azure OpenAI, where they "only work with the max_completion_tokens parameter" and a deployment is mostly
     *     named for its model
     */
    RequestMapper(MaxTokensField maxTokensField, boolean adaptive, boolean mistralHost, String origin, boolean openAiLimits,
                  boolean reasoningByName) {
        this.maxTokensField = maxTokensField;
        this.adaptive = adaptive;
        this.mistralHost = mistralHost;
        this.origin = origin;
        this.openAiLimits = openAiLimits;
        this.reasoningByName = reasoningByName && adaptive;
    }

    /**
     * Whether a model (an Azure deployment) is named as one of OpenAI's reasoning models, which refuse {@code max_tokens}:
     * the o-series (o1, o3-mini, o4-mini), the gpt-5 family and codex-mini.
     */
    static boolean reasoningModel(String model) {
        String name = model.toLowerCase(java.util.Locale.ROOT);
        return name.matches("o[1-9][0-9]*(-.*)?") || name.startsWith("gpt-5") || name.startsWith("codex-mini");
    }

    /**
     * Sends {@code max_completion_tokens} from now on, if the field was chosen automatically: a
     * server refused a request that carried {@code max_tokens} (deprecated), as reasoning models do.
     *
     * @return whether requests now carry {@code max_completion_tokens} (switched by this call or by
     *     a concurrent one), so the refused request is worth sending again
     */
    boolean switchToMaxCompletionTokens() {
        if (!adaptive) {
            return false;
        }
        maxTokensField = MaxTokensField.MAX_COMPLETION_TOKENS;
        return true;
    }

    /**
     * Sends no {@code stream_options} from now on: a server refused a request for naming it (older
     * Azure OpenAI API versions: "Unrecognized request argument supplied: stream_options"). Such a
     * server reports no usage in a stream, so the run estimates it, as for one that ignores the field.
     */
    void dropStreamOptions() {
        streamOptions = false;
    }

    /**
     * Cuts tool descriptions to OpenAI's limit from now on ({@link RequestLimits#description}): a server refused a longer
     * one ("Invalid 'tools[0].function.description': string too long", a proxy in front of OpenAI).
     *
     * @return whether that changes what is sent, so the refused request is worth sending again
     */
    boolean cutDescriptions() {
        if (openAiLimits) {
            return false;
        }
        tools = new WireCache<>();
        openAiLimits = true;
        return true;
    }

    /** The SDK body: the settings through the SDK's typed model, the history and tools as reused wire forms. */
    ChatCompletionCreateParams.Body body(ModelRequest request) {
        MaxTokensField field = maxTokensField;
        if (field == MaxTokensField.MAX_TOKENS && reasoningByName && reasoningModel(request.model())) {
            field = MaxTokensField.MAX_COMPLETION_TOKENS; // refused otherwise, a 400 and a second request per model
        }
        requireForcedToolPresent(request);
        ObjectNode settings = settings(request, field);
        WellFormedText.of(settings); // stop sequences, the output schema: small, rebuilt every call anyway
        if (!streamOptions) {
            settings.remove("stream_options");
        }
        ChatCompletionCreateParams.Body.Builder body =
                ObjectMappers.jsonMapper().convertValue(settings, ChatCompletionCreateParams.Body.class).toBuilder();
        body.messages(JsonArray.of(messages(request)));
        if (!request.tools().isEmpty()) {
            body.tools(JsonArray.of(request.tools().stream().map(t -> tools.get(t, this::tool)).toList()));
        }
        return body.build();
    }

    /** The field the output limit goes in now (tests). */
    MaxTokensField maxTokensField() {
        return maxTokensField;
    }

    /** How many history messages were converted to wire form so far (each once; tests). */
    long converted() {
        return converted.get();
    }

    private List<JsonValue> messages(ModelRequest request) {
        List<JsonValue> wire = new ArrayList<>(request.messages().size() + 1);
        if (!request.system().isEmpty()) {
            String role = request.option(OpenAiSystemRole.class).orElse(OpenAiSystemRole.SYSTEM).role();
            wire.add(wire(Json.object().put("content", request.systemText()).put("role", role)));
        }
        Message assistant = null;
        // DeepSeek's rule for reasoning_content: between two user messages with a tool call between them it goes back on
        // every assistant message (refused without, 400); between two without, it is not to be sent (deepseek-reasoner
        // refuses it, 400; thinking mode ignores it).
        boolean toolCallSinceUser = false;
        // Reasoning another host sent goes back to a model of its family here too (Origin.family).
        String family = Origin.family(origin, request.model());
        // Gemini 3 on Google's endpoints: a call no Google host here signed gets the documented skip value.
        boolean skipSignature = ExtraContent.skipsSignatureCheck(origin, request.model());
        for (Message message : request.messages()) {
            boolean fromAssistant = message.role() == Role.ASSISTANT;
            Message after = fromAssistant ? null : assistant;
            boolean reasoning = fromAssistant && (toolCallSinceUser || callsTools(message));
            Wire cached = messages.get(message, m -> convert(m, after, reasoning, family, skipSignature));
            if (cached.after() != after || cached.reasoning() != reasoning || !java.util.Objects.equals(cached.family(), family)
                    || cached.skipSignature() != skipSignature) {
                cached = convert(message, after, reasoning, family, skipSignature); // the same turn after another one: rare, not kept
            }
            wire.addAll(cached.messages());
            if (fromAssistant) {
                assistant = message;
                toolCallSinceUser |= callsTools(message);
            } else if (sendsUserMessage(message)) {
                toolCallSinceUser = false;
            }
        }
        return wire;
    }

    private Wire convert(Message message, Message after, boolean reasoning, String family, boolean skipSignature) {
        converted.incrementAndGet();
        List<JsonValue> wire = message.role() == Role.ASSISTANT
                ? List.of(assistant(message, mistralHost, origin, reasoning, family, skipSignature))
                : user(message, after == null ? Map.of() : callOrder(after), mistralHost);
        return new Wire(after, reasoning, family, skipSignature, wire);
    }

    private static boolean callsTools(Message message) {
        for (ContentBlock block : message.content()) {
            if (block instanceof ToolUseBlock) {
                return true;
            }
        }
        return false;
    }

    /** Whether a user turn goes out with a {@code user} message (text, or no tool results), not only {@code tool} ones. */
    private static boolean sendsUserMessage(Message message) {
        boolean results = false;
        for (ContentBlock block : message.content()) {
            if (block instanceof TextBlock) {
                return true;
            }
            results |= block instanceof ToolResultBlock;
        }
        return !results;
    }

    /**
     * The API refuses {@code tool_choice} without tools, so {@link #settings} leaves it out then; for {@code auto} or
     * {@code none} that changes nothing, but a forced choice left out would let the model answer without the tool the
     * caller made it call, so such a request is refused before sending.
     */
    static void requireForcedToolPresent(ModelRequest request) {
        if (!request.tools().isEmpty()) {
            return;
        }
        String forced = switch (request.toolChoice()) {
            case ToolChoice.Any a -> "ToolChoice.any()";
            case ToolChoice.Tool t -> "ToolChoice.tool(\"" + t.name() + "\")";
            case ToolChoice.Auto a -> null;
            case ToolChoice.None n -> null;
        };
        if (forced != null) {
            throw new ReinException(forced + " makes the model call a tool, but the request has no tools, and the API"
                    + " refuses a tool_choice without tools (400 \"'tool_choice' is only allowed when 'tools' are specified.\"):"
                    + " add the tool to the request's tools, or use ToolChoice.auto()");
        }
    }

    /**
     * Everything but the history and the tools, in the form the SDK's typed body reads; the
     * settings are small and change from call to call (tool choice, options).
     */
    static ObjectNode settings(ModelRequest request, MaxTokensField maxTokensField) {
        ObjectNode body = Json.object();
        body.put("model", request.model());
        if (!request.tools().isEmpty()) {
            // The API refuses tool_choice without tools; the summary call sends both (choice none).
            body.set("tool_choice", toolChoice(request.toolChoice()));
            if (ParallelToolCalls.disabledFor(request)) {
                body.put("parallel_tool_calls", false); // the API refuses it without tools, like tool_choice
            }
        }
        request.option(OpenAiReasoningEffort.class).ifPresent(effort -> body.put("reasoning_effort", effort.effort()));
        body.put(maxTokensField.wire, request.maxTokens());
        if (request.temperature() != null) {
            body.put("temperature", request.temperature());
        }
        if (request.topP() != null) {
            body.put("top_p", request.topP());
        }
        request.option(OpenAiSeed.class).ifPresent(seed -> body.put("seed", seed.seed()));
        if (!request.stopSequences().isEmpty()) {
            ArrayNode stop = body.putArray("stop");
            request.stopSequences().forEach(stop::add);
        }
        request.option(OutputSchema.class)
                .filter(schema -> request.option(OpenAiStructuredOutput.class).map(OpenAiStructuredOutput::enabled).orElse(false))
                .ifPresent(schema -> body.set("response_format", responseFormat(schema)));
        body.put("stream", true);
        body.putObject("stream_options").put("include_usage", true);
        return body;
    }

    /** The SDK form of a wire message or tool, its text made well-formed first ({@link WellFormedText}). */
    private static JsonValue wire(ObjectNode node) {
        return JsonValue.fromJsonNode(WellFormedText.of(node));
    }

    static JsonNode toolChoice(ToolChoice choice) {
        return switch (choice) {
            case ToolChoice.Auto a -> Json.mapper().getNodeFactory().textNode("auto");
            case ToolChoice.None n -> Json.mapper().getNodeFactory().textNode("none");
            case ToolChoice.Any a -> Json.mapper().getNodeFactory().textNode("required");
            case ToolChoice.Tool t -> {
                ObjectNode named = Json.object().put("type", "function");
                named.putObject("function").put("name", t.name());
                yield named;
            }
        };
    }

    /**
     * {@code response_format} for the output schema. Not strict: strict mode refuses schemas with
     * optional properties or keywords outside its subset, and Rein validates the answer anyway. An
     * array without {@code items} gets {@code "items": {}}, as in a tool's parameters. A top that is not an object is sent
     * as it is: servers such as Ollama and vLLM take it; the public API and Azure OpenAI, which do not, are not sent it
     * ({@link RequestLimits#exceeded}).
     */
    static ObjectNode responseFormat(OutputSchema schema) {
        ObjectNode format = Json.object().put("type", "json_schema");
        ObjectNode jsonSchema = format.putObject("json_schema");
        jsonSchema.put("name", wireName(schema.name()));
        JsonNode wire = schema.schema().deepCopy();
        giveArraysItems(wire); // refused without items here too, as in a tool's parameters
        jsonSchema.set("schema", wire);
        jsonSchema.put("strict", false);
        return format;
    }

    /** The API allows only a-z, A-Z, 0-9, '_' and '-' in the name, at most 64 characters. */
    static String wireName(String name) {
        String wire = name.replaceAll("[^A-Za-z0-9_-]", "_");
        if (wire.length() > 64) {
            wire = wire.substring(0, 64);
        }
        return wire.isEmpty() ? "output" : wire;
    }

    private JsonValue tool(ToolDefinition tool) {
        ObjectNode json = Json.object();
        ObjectNode function = json.putObject("function");
        function.put("name", tool.name());
        function.put("description", openAiLimits ? RequestLimits.description(tool.description()) : tool.description());
        ObjectNode parameters = tool.inputSchema().deepCopy();
        giveArraysItems(parameters);
        function.set("parameters", parameters);
        json.put("type", "function");
        return wire(json);
    }

    /**
     * Adds {@code "items": {}} to every array schema without {@code items}: Chat Completions refuses the whole
     * request for one ("array schema missing items", code {@code invalid_function_parameters}), whether or not
     * the tool is called, and many MCP servers declare arrays so. A tuple ({@code prefixItems} alone) is refused
     * the same way. Without {@code items} any item (after a tuple's) is valid, as with {@code {}}: the schema
     * means the same.
     */
    private static void giveArraysItems(JsonNode schema) {
        if (schema instanceof ObjectNode object) {
            JsonNode type = object.get("type");
            boolean array = type != null && (type.isTextual() ? type.asText().equals("array")
                    : type.isArray() && java.util.stream.StreamSupport.stream(type.spliterator(), false)
                            .anyMatch(t -> t.asText().equals("array")));
            if (array && !object.has("items")) {
                object.putObject("items");
            }
            for (var field : object.properties()) {
                // rein-core's one table: it has draft 7's dependencies (missing here), and decides "example" once
                if (dev.rein.internal.schema.SchemaKeywords.holdsNamedSchemas(field.getKey())) {
                    // names, not keywords: a property called "default" is still a schema
                    field.getValue().forEach(RequestMapper::giveArraysItems);
                } else if (!dev.rein.internal.schema.SchemaKeywords.DATA.contains(field.getKey())) {
                    giveArraysItems(field.getValue());
                }
            }
        } else if (schema != null && schema.isArray()) {
            schema.forEach(RequestMapper::giveArraysItems); // anyOf, allOf, oneOf, prefixItems
        }
    }

    /** The position of each call of an assistant turn, by call id. */
    private static Map<String, Integer> callOrder(Message assistant) {
        Map<String, Integer> order = new HashMap<>();
        for (ContentBlock block : assistant.content()) {
            if (block instanceof ToolUseBlock use) {
                order.put(use.id(), order.size());
            }
        }
        return order;
    }

    /**
     * @param reasoning whether its kept {@code reasoning_content} goes back (DeepSeek's rule, see {@link #messages})
     * @param family the model family of the request ({@link Origin#family}), which another host's reasoning of that
     *     family goes back to; null for none
     * @param skipSignature whether the first call gets Google's skip value when no call of the message carries a
     *     signature for this server ({@link ExtraContent#skipsSignatureCheck})
     */
    private static JsonValue assistant(Message message, boolean mistralIds, String origin, boolean reasoning, String family,
                                       boolean skipSignature) {
        StringBuilder text = new StringBuilder();
        Map<String, String> raw = RawArguments.of(message.content());
        Map<String, JsonNode> extra = ExtraContent.of(message.content(), origin);
        ArrayNode calls = Json.mapper().createArrayNode();
        // Adjacent text blocks are one paragraph split up (a cited answer's blocks split its sentences, and Rein's own
        // text of the turn joins them as they are); a text after a call or another block starts a new paragraph.
        boolean afterOtherBlock = false;
        for (ContentBlock block : message.content()) {
            if (!(block instanceof TextBlock)) {
                afterOtherBlock = true;
            }
            switch (block) {
                case TextBlock t -> {
                    if (!t.text().isEmpty()) {
                        if (afterOtherBlock) {
                            appendParagraph(text, t.text());
                        } else {
                            text.append(t.text());
                        }
                        afterOtherBlock = false;
                    }
                }
                case ToolUseBlock use -> {
                    ObjectNode call = calls.addObject().put("id", ToolCallIds.wire(use.id(), mistralIds));
                    call.putObject("function").put("arguments", RawArguments.echo(raw.get(use.id()), use.input()))
                            .put("name", use.name());
                    call.put("type", "function");
                    if (extra.containsKey(use.id())) {
                        call.set("extra_content", extra.get(use.id()).deepCopy()); // as the server sent it (Gemini's signature)
                    }
                }
                case ToolResultBlock r -> { } // never in an assistant turn; the validator stops it earlier
                case ThinkingBlock t -> { }
                case RedactedThinkingBlock r -> { }
                case OpaqueBlock o -> { }
            }
        }
        if (skipSignature && !calls.isEmpty() && extra.isEmpty()) {
            // Gemini signs the first call of a step (parallel calls: that one only) and checks it on Gemini 3
            ((ObjectNode) calls.get(0)).set("extra_content", ExtraContent.skipSignature());
        }
        ObjectNode json = Json.object().put("role", "assistant");
        if (text.isEmpty() && !calls.isEmpty()) {
            json.putNull("content"); // as the API itself returns a message with only tool calls
        } else {
            json.put("content", text.toString());
        }
        if (!calls.isEmpty()) {
            json.set("tool_calls", calls);
        }
        // Only to the server that sent them (or the same model family elsewhere): another one (Groq, Cerebras) refuses
        // fields outside the protocol.
        ReasoningContent.Echo reasoned = reasoning ? ReasoningContent.of(message.content(), origin, family) : null;
        if (reasoned != null) {
            reasoned.wire(json); // DeepSeek's thinking mode refuses a tool-using turn without it
        }
        ReasoningDetails.echo(message.content(), json, origin); // OpenRouter's, which Gemini 3 and Claude behind it check
        return wire(json);
    }

    private static List<JsonValue> user(Message message, Map<String, Integer> callOrder, boolean mistralIds) {
        List<ToolResultBlock> results = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (ContentBlock block : message.content()) {
            if (block instanceof ToolResultBlock r) {
                results.add(r);
            } else if (block instanceof TextBlock t) {
                appendParagraph(text, t.text());
            }
        }
        // Tool messages come first and in the order of the calls, as the API requires.
        results.sort((a, b) -> Integer.compare(callOrder.getOrDefault(a.toolUseId(), Integer.MAX_VALUE),
                callOrder.getOrDefault(b.toolUseId(), Integer.MAX_VALUE)));
        List<JsonValue> wire = new ArrayList<>(results.size() + 1);
        for (ToolResultBlock result : results) {
            wire.add(wire(Json.object().put("content", result.isError() ? "Error: " + result.content() : result.content())
                    .put("role", "tool").put("tool_call_id", ToolCallIds.wire(result.toolUseId(), mistralIds))));
        }
        if (!text.isEmpty() || results.isEmpty()) {
            wire.add(wire(Json.object().put("content", text.toString()).put("role", "user")));
        }
        return List.copyOf(wire);
    }

    /**
     * Adds a text block to a turn's one content string, a blank line after the text before it: a user's blocks, and an
     * assistant's text before and after a tool call, are separate paragraphs, not one run-on sentence.
     */
    private static void appendParagraph(StringBuilder text, String block) {
        if (block.isEmpty()) {
            return; // an empty block is no paragraph: no blank lines of its own
        }
        if (!text.isEmpty()) {
            text.append("\n\n");
        }
        text.append(block);
    }
}
