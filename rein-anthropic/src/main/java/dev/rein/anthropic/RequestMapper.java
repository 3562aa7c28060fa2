package dev.rein.anthropic;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import dev.rein.model.ServerContextEdit;
import dev.rein.model.ServerContextEdits;
import dev.rein.model.TextBlock;
import dev.rein.model.ThinkingBlock;
import dev.rein.model.ToolChoice;
import dev.rein.model.ToolDefinition;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.provider.WireCache;
import dev.rein.tool.ToolExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Writes a provider-neutral {@link ModelRequest} as a Messages API request body.
 *
 * <p>Work is proportional to what changed: each history message and tool definition is immutable,
 * so its JSON is produced once and copied as bytes into every later request that contains it
 * (see {@link WireCache}). Only blocks that carry a {@code cache_control} breakpoint in this request
 * (at most four) and the small request envelope are written afresh.
 *
 * <p>Text is written as well-formed UTF-8: half a surrogate pair becomes U+FFFD ({@link WellFormedJson}).
 *
 * <p>Sampling parameters ({@code temperature}, {@code top_p}, {@code top_k}) are sent only when the
 * request sets them: the API version this module speaks rejects them on every model, even at their
 * default values, but a gateway in front of it may still take them.
 */
final class RequestMapper {
    /**
     * The shared mapper's factory (its limits, buffer pool and codec for {@code writeTree}) writing a
     * character outside the Basic Multilingual Plane (an emoji, 𠮷) as its 4-byte UTF-8 form, not as
     * the 12-byte JSON escape of its UTF-16 pair, which Jackson's byte generator writes by default.
     * Bodies and each message's kept bytes both come from it, so every part of a request is alike.
     * Only whole pairs are combined; half a pair never reaches it ({@link WellFormedJson}). The
     * buffer pool is given again, as {@code rebuild} does not carry it over (package-private for
     * RequestFactoryTest).
     */
    static final JsonFactory JSON = Json.mapper().getFactory().rebuild()
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
            .recyclerPool(Json.mapper().getFactory()._getRecyclerPool())
            .build()
            .setCodec(Json.mapper());

    /** The cached form of a message with no block to send (compared by identity). */
    private static final RawJson NOTHING_TO_SEND = new RawJson(new byte[0]);

    /**
     * How a history message is written once for {@link #messages} and {@link #pausedTurns}; held here because a lambda
     * capturing {@code paused} in the loop over the history was a new object per message per request.
     */
    private static final Function<Message, RawJson> HISTORY_FORM = message -> historyForm(message, false);
    private static final Function<Message, RawJson> PAUSED_TURN_FORM = message -> historyForm(message, true);

    private final WireCache<Message, RawJson> messages = new WireCache<>();
    /** The wire form of a paused assistant turn followed by its continuation: as it was continued, see {@link #message}. */
    private final WireCache<Message, RawJson> pausedTurns = new WireCache<>();
    private final WireCache<ToolDefinition, RawJson> tools = new WireCache<>();
    /** The ids each request's tool calls and results go under ({@link WireIds}). */
    private final WireIds wireIds = new WireIds();
    /** The wire form of a message some of whose tool ids a request sends as others ({@link WireIds}), with those ids. */
    private final WireCache<Message, AtomicReference<Renamed>> renamed = new WireCache<>();
    /** The id of the newest container an assistant message names, "" for none ({@link #newestContainer}). */
    private final WireCache<Message, String> containers = new WireCache<>();
    /** The callers of an assistant message's calls from code ({@link #answersToCode}). */
    private final WireCache<Message, Map<String, JsonNode>> callers = new WireCache<>();
    /** Whether a message holds a thinking block ({@link #sendsThinkingBack}). */
    private final WireCache<Message, Boolean> thinking = new WireCache<>();
    /** Each message as a Claude model is sent it: without its unsigned thinking ({@link #forModel}), or itself. */
    private final WireCache<Message, Message> signedOnly = new WireCache<>();
    /** How many messages' blocks the per-request scans of the history have read (for tests). */
    private final AtomicLong messagesRead = new AtomicLong();
    private volatile int lastLength = 8192;
    /** The most breakpoints a request gets: the API's limit, less what a gateway was seen to add. */
    private volatile int maxBreakpoints = CacheBreakpoints.MAX_BREAKPOINTS;

    /** The most cache breakpoints a request gets now. */
    int maxBreakpoints() {
        return maxBreakpoints;
    }

    /** From now on at most {@code max} breakpoints per request (never more than before). */
    synchronized void lowerMaxBreakpoints(int max) {
        maxBreakpoints = Math.max(0, Math.min(maxBreakpoints, max));
    }

    /**
     * The request as its model takes it. A thinking block without a signature was made by an Anthropic-compatible
     * endpoint of another model (DeepSeek's), which takes it back with {@code "signature": ""} (and wants a tool-use
     * turn's thinking back). A Claude model verifies the signature of every thinking block it is sent and refuses an
     * unsigned one (400 "messages.1.content.0: Invalid `signature` in `thinking` block"), on every later request of
     * the run: to a Claude model (a fallback, a handed-over history) that thinking is left out, as the extended
     * thinking docs let a client leave thinking out, and the rest of its message goes as before. A message with such
     * a block is copied once, and the copy kept with it, so later requests reuse the copy and its wire form; any other
     * message is only looked over (its blocks' types, no lookup: nearly every request has none of these).
     */
    ModelRequest forModel(ModelRequest request) {
        if (claudeNamesOtherModels || !verifiesSignatures(request.model())) {
            return request;
        }
        List<Message> history = request.messages();
        List<Message> sent = null;
        for (int i = 0; i < history.size(); i++) {
            Message message = history.get(i);
            if (!holdsUnsignedThinking(message)) {
                continue;
            }
            if (sent == null) {
                sent = new ArrayList<>(history);
            }
            sent.set(i, signedOnly.get(message, RequestMapper::withoutUnsignedThinking));
        }
        return sent == null ? request : request.toBuilder().messages(sent).build();
    }

    /**
     * Whether the endpoint serves other models under Claude's names: DeepSeek's Anthropic API maps {@code claude-opus-*},
     * {@code claude-sonnet-*} and {@code claude-haiku-*} to its own models (its Anthropic API guide), which make
     * unsigned thinking and want a tool-use turn's thinking back, so there a Claude name says nothing of signatures.
     */
    private final boolean claudeNamesOtherModels;

    /** A mapper for requests to Anthropic's API (or an endpoint that serves Claude under its names). */
    RequestMapper() {
        this(URI.create(AnthropicModel.DEFAULT_BASE_URL));
    }

    /** A mapper for requests to {@code endpoint} (its host decides whether a Claude name is a Claude model). */
    RequestMapper(URI endpoint) {
        String host = endpoint.getHost() == null ? "" : endpoint.getHost().toLowerCase(java.util.Locale.ROOT);
        this.claudeNamesOtherModels = host.equals("deepseek.com") || host.endsWith(".deepseek.com");
    }

    /**
     * Whether {@code model} is a Claude model, which verifies thinking signatures wherever it is served (the API, a
     * cloud platform's id such as {@code anthropic.claude-...}, a gateway passing the id on).
     */
    static boolean verifiesSignatures(String model) {
        return model.toLowerCase(java.util.Locale.ROOT).contains("claude");
    }

    /** Whether {@code block} is a thinking block without a signature (another model's: see {@link #forModel}). */
    private static boolean unsignedThinking(ContentBlock block) {
        return block instanceof ThinkingBlock t && t.signature().isEmpty();
    }

    /** Whether {@code message} holds a thinking block without a signature. */
    private static boolean holdsUnsignedThinking(Message message) {
        for (ContentBlock block : message.content()) {
            if (unsignedThinking(block)) {
                return true;
            }
        }
        return false;
    }

    /** {@code message}, which {@linkplain #holdsUnsignedThinking holds unsigned thinking}, without those blocks. */
    private static Message withoutUnsignedThinking(Message message) {
        List<ContentBlock> kept = new ArrayList<>(message.content().size());
        for (ContentBlock block : message.content()) {
            if (!unsignedThinking(block)) {
                kept.add(block);
            }
        }
        // A message of unsigned thinking alone: an empty text is never sent, so the message is left out.
        return new Message(message.role(), kept.isEmpty() ? List.of(new TextBlock("")) : kept);
    }

    /** The body of a streamed {@code POST /v1/messages}; release the buffer when the exchange is over. */
    WireBuffer create(ModelRequest request) {
        return create(request, maxBreakpoints);
    }

    /** The same, with at most {@code breakpoints} cache breakpoints. */
    WireBuffer create(ModelRequest request, int breakpoints) {
        return create(request, breakpoints, dropsStaleBlocks(request));
    }

    /**
     * The same, with {@code drop} the request's {@link AnthropicThinking#dropsStaleBlocks} decision, which the caller
     * made once for the {@code anthropic-beta} header too.
     */
    WireBuffer create(ModelRequest request, int breakpoints, boolean drop) {
        // A request built by hand (an agent's were checked when it was built): refused here, not by the API's 400.
        request.option(AnthropicThinking.class).ifPresent(thinking -> thinking.checkBeforeSending(request));
        request.option(AnthropicServerTools.class).ifPresent(tools -> requireDistinctNames(tools, request));
        requireForcedToolPresent(request);
        requireNoThinkingWithForcedTool(request, drop);
        requireVisibleStopSequences(request);
        CacheBreakpoints.Plan plan = CacheBreakpoints.plan(request, breakpoints);
        return write(g -> {
            g.writeStringField("model", request.model());
            g.writeNumberField("max_tokens", request.maxTokens());
            g.writeBooleanField("stream", true);
            prompt(g, request, plan);
            if (!request.stopSequences().isEmpty()) {
                g.writeArrayFieldStart("stop_sequences");
                for (String stop : request.stopSequences()) {
                    g.writeString(stop);
                }
                g.writeEndArray();
            }
            if (request.temperature() != null) {
                g.writeNumberField("temperature", request.temperature());
            }
            if (request.topP() != null) {
                g.writeNumberField("top_p", request.topP());
            }
            if (request.topK() != null) {
                g.writeNumberField("top_k", request.topK());
            }
            List<ServerContextEdit> edits = edits(request);
            if (!edits.isEmpty()) {
                g.writeFieldName("context_management");
                g.writeTree(ContextEdits.body(edits));
            }
            thinkingAndOutput(g, request, drop);
            // The code execution tool's container, reused as its docs say; count_tokens takes no such field.
            // Only a request with server tools can have one (code execution is one): others skip the scan.
            String container = request.option(AnthropicServerTools.class).isPresent() ? newestContainer(request.messages()) : null;
            if (container == null) { // none named yet: the one the run was asked to start in, if any
                container = request.option(AnthropicContainer.class).map(AnthropicContainer::id).orElse(null);
            }
            if (container != null) {
                g.writeStringField("container", container);
            }
            // Only the messages call takes these two; count_tokens refuses unknown fields.
            Optional<AnthropicMetadata> metadata = request.option(AnthropicMetadata.class);
            if (metadata.isPresent()) {
                g.writeObjectFieldStart("metadata");
                g.writeStringField("user_id", metadata.get().userId());
                g.writeEndObject();
            }
            Optional<AnthropicServiceTier> tier = request.option(AnthropicServiceTier.class);
            if (tier.isPresent()) {
                g.writeStringField("service_tier", tier.get().tier());
            }
        });
    }

    /**
     * The API refuses a stop sequence without a non-whitespace character (400 "stop_sequences: each stop sequence must
     * contain non-whitespace"), on every request of the run: refused here, before sending, naming the setting that
     * carries it. count_tokens sends no stop sequences, so it does not check them.
     */
    static void requireVisibleStopSequences(ModelRequest request) {
        List<String> stops = request.stopSequences();
        for (int i = 0; i < stops.size(); i++) {
            if (stops.get(i).isBlank()) {
                throw new ReinException("stop sequence " + (i + 1) + " of " + stops.size() + " (ModelRequest.Builder.stopSequences) is "
                        + Json.mapper().valueToTree(stops.get(i)) + ", which has no character but whitespace, and the API"
                        + " refuses such a stop sequence (400 \"stop_sequences: each stop sequence must contain non-whitespace\"):"
                        + " leave it out, or give one with visible text (\"\\nEND\" rather than \"\\n\")");
            }
        }
    }

    /**
     * The API refuses a request whose tools share a name (HTTP 400), at every step of the run: a
     * server tool named like one of the agent's own tools is refused here, saying which and what to do.
     */
    static void requireDistinctNames(AnthropicServerTools serverTools, ModelRequest request) {
        for (ToolDefinition tool : request.tools()) {
            if (serverTools.names().contains(tool.name())) {
                throw new ReinException("the server tool '" + tool.name() + "' (AnthropicServerTools) has the name of"
                        + " a function tool of the agent, and the API refuses tools that share a name: give the agent's tool"
                        + " another name, or leave the server tool out");
            }
        }
    }

    /**
     * The API's tool choice {@code any} makes the model use one of the request's tools, and {@code tool} the one it
     * names; without tools the API refuses a tool choice (400 "tool_choice may only be specified while providing
     * tools."). A request built by hand (or changed by a {@code ModelInterceptor}) that forces a tool it does not have
     * is refused here, before anything is sent, saying what to do. Server tools are tools too.
     */
    static void requireForcedToolPresent(ModelRequest request) {
        ToolChoice choice = request.toolChoice();
        String forced = forcing(choice);
        if (forced == null) {
            return;
        }
        List<String> names = new ArrayList<>();
        request.option(AnthropicServerTools.class).ifPresent(serverTools -> names.addAll(serverTools.names()));
        for (ToolDefinition tool : request.tools()) {
            names.add(tool.name());
        }
        if (names.isEmpty()) {
            throw new ReinException(forced + " makes the model call a tool, but the request has no tools, and the API"
                    + " refuses a tool choice without tools (400 \"tool_choice may only be specified while providing"
                    + " tools.\"): add the tool to the request's tools (or AnthropicServerTools), or use ToolChoice.auto()");
        }
        if (choice instanceof ToolChoice.Tool t && !names.contains(t.name())) {
            throw new ReinException(forced + " names a tool the request does not have (its tools: " + String.join(", ", names)
                    + "), and the model can only call a tool the request gives it: name one of these, or add the tool to"
                    + " the request's tools");
        }
    }

    /**
     * The extended thinking docs: with thinking on, tool choice {@code auto} or {@code none} only; {@code any} or a named
     * tool is a 400 ("Thinking may not be enabled when tool_choice forces tool use."). Thinking is on when the request's
     * {@link AnthropicThinking} is a budget or adaptive, or when Rein sends adaptive thinking itself ({@code drop}).
     * Checked for the messages call only: the refusal is of generation, and the token counting docs take thinking and
     * tool_choice as inputs and name no such refusal, so a count is the API's to answer.
     */
    static void requireNoThinkingWithForcedTool(ModelRequest request, boolean drop) {
        String forced = forcing(request.toolChoice());
        if (forced == null) {
            return;
        }
        AnthropicThinking.Type type = request.option(AnthropicThinking.class).map(AnthropicThinking::type)
                .orElse(drop ? AnthropicThinking.Type.ADAPTIVE : null);
        if (type == AnthropicThinking.Type.ENABLED || type == AnthropicThinking.Type.ADAPTIVE) {
            throw new ReinException(forced + " makes the model call a tool, and the API refuses that with thinking on (400"
                    + " \"Thinking may not be enabled when tool_choice forces tool use.\"): use ToolChoice.auto() and say in"
                    + " the prompt when to use the tool, or send this request with AnthropicThinking.disabled() on a model"
                    + " that takes it");
        }
    }

    /** A choice that makes the model call a tool, as the Java that sets it ({@code ToolChoice.any()}), else null. */
    private static String forcing(ToolChoice choice) {
        return switch (choice) {
            case ToolChoice.Any a -> "ToolChoice.any()";
            case ToolChoice.Tool t -> "ToolChoice.tool(\"" + t.name() + "\")";
            case ToolChoice.Auto a -> null;
            case ToolChoice.None n -> null;
        };
    }

    /** {@code thinking} and {@code output_config}, when the request asks for them; count_tokens takes both too. */
    private static void thinkingAndOutput(JsonGenerator g, ModelRequest request, boolean drop) throws IOException {
        Optional<AnthropicThinking> thinking = request.option(AnthropicThinking.class);
        if (thinking.isPresent() || drop) {
            thinking(g, thinking.orElse(AnthropicThinking.adaptive()), drop);
        }
        Optional<AnthropicEffort> effort = request.option(AnthropicEffort.class);
        boolean structured = structuredOutput(request);
        if (structured || effort.isPresent()) {
            g.writeObjectFieldStart("output_config");
            if (effort.isPresent()) {
                g.writeStringField("effort", effort.get().level());
            }
            if (structured) {
                // The schema the final answer must fit, as the API's structured output (Rein validates either way).
                g.writeObjectFieldStart("format");
                g.writeStringField("type", "json_schema");
                g.writeFieldName("schema");
                g.writeTree(sentSchema(request.option(OutputSchema.class).orElseThrow()));
                g.writeEndObject();
            }
            g.writeEndObject();
        }
    }

    private static void thinking(JsonGenerator g, AnthropicThinking thinking, boolean drop) throws IOException {
        g.writeObjectFieldStart("thinking");
        g.writeStringField("type", thinking.type().wire());
        if (thinking.budgetTokens() != null) {
            g.writeNumberField("budget_tokens", thinking.budgetTokens());
        }
        if (thinking.display() != null) {
            g.writeStringField("display", thinking.display().wire());
        }
        if (drop) {
            // Rein rewrote earlier turns: the API drops the thinking they invalidated instead of refusing the request.
            g.writeObjectFieldStart("block_binding");
            g.writeStringField("prefix_mismatch_behavior", "drop_block");
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    /** The output schema as the API's structured outputs take it: see {@link SentSchema#of}. */
    static ObjectNode sentSchema(OutputSchema schema) {
        return SentSchema.of(schema);
    }

    /** Whether the request opts in with {@link AnthropicStructuredOutput} and has an output schema to send. */
    private static boolean structuredOutput(ModelRequest request) {
        return request.option(AnthropicStructuredOutput.class).map(AnthropicStructuredOutput::enabled).orElse(false)
                && request.option(OutputSchema.class).isPresent();
    }

    /**
     * The body of {@code POST /v1/messages/count_tokens}: the same prompt, thinking and output
     * settings, without breakpoints or generation limits. Thinking and an output format change the
     * count (with thinking on, earlier turns' thinking is not counted; a format adds its schema).
     */
    WireBuffer countTokens(ModelRequest request) {
        return countTokens(request, dropsStaleBlocks(request));
    }

    /** The same, with {@code drop} the request's {@link AnthropicThinking#dropsStaleBlocks} decision. */
    WireBuffer countTokens(ModelRequest request, boolean drop) {
        requireForcedToolPresent(request);
        return write(g -> {
            g.writeStringField("model", request.model());
            prompt(g, request, CacheBreakpoints.Plan.NONE);
            thinkingAndOutput(g, request, drop);
        });
    }

    /**
     * The request's {@link AnthropicThinking#dropsStaleBlocks} decision (asking the API to drop thinking whose prefix
     * changed), made once per request for its {@code anthropic-beta} header and its body alike.
     */
    boolean dropsStaleBlocks(ModelRequest request) {
        return AnthropicThinking.dropsStaleBlocks(request, this::sendsThinkingBack);
    }

    /**
     * Whether any message holds a thinking block. From the newest back, stopping at the first that does (these
     * models think on most turns); each message's blocks are read once, when a request first holds it, and
     * remembered with it as its wire form is, so a history without thinking yet is not read again at every step.
     */
    private boolean sendsThinkingBack(List<Message> history) {
        for (int i = history.size() - 1; i >= 0; i--) {
            if (thinking.get(history.get(i), this::holdsThinking)) {
                return true;
            }
        }
        return false;
    }

    private Boolean holdsThinking(Message message) {
        messagesRead.incrementAndGet();
        return AnthropicThinking.holdsThinking(message);
    }

    /** How many messages' blocks the scans of the history (thinking, containers, calls from code) have read so far (for tests). */
    long messagesRead() {
        return messagesRead.get();
    }

    /** The server-side context edits the request asks for (the neutral option), or none. */
    static List<ServerContextEdit> edits(ModelRequest request) {
        return request.option(ServerContextEdits.class).map(ServerContextEdits::edits).orElse(List.of());
    }

    /** Entries currently cached (for tests). */
    int cachedMessages() {
        return messages.size();
    }

    private void prompt(JsonGenerator g, ModelRequest request, CacheBreakpoints.Plan plan) throws IOException {
        String cache = cacheControl(AnthropicOptions.of(request).caching().ttl());
        List<TextBlock> system = anySendable(request.system()) ? request.system() : List.of();
        Optional<AnthropicServerTools> serverTools = request.option(AnthropicServerTools.class);
        // Only a request with server tools can hold calls from code (the code execution tool is one); which messages
        // answer such calls is found once, for the held text here and for the messages below.
        boolean[] answersCode = serverTools.isPresent() ? answersToCode(request.messages()) : null;
        List<TextBlock> unsent = answersCode != null ? heldAtTheEnd(request.messages(), answersCode) : List.of();
        if (!system.isEmpty() || !unsent.isEmpty()) {
            g.writeArrayFieldStart("system");
            int last = lastSendable(system);
            for (int i = 0; i <= last; i++) {
                if (sendable(system.get(i))) {
                    text(g, system.get(i), plan.system() && i == last ? cache : null);
                }
            }
            // After the breakpoint, so the cached prefix of tools and system still matches.
            for (TextBlock text : unsent) {
                text(g, text, null);
            }
            g.writeEndArray();
        }
        List<ToolDefinition> definitions = request.tools();
        if (!definitions.isEmpty() || serverTools.isPresent()) {
            g.writeArrayFieldStart("tools");
            // First, so the prefix breakpoint on the last function tool (no system prompt) caches them too.
            if (serverTools.isPresent()) {
                for (JsonNode tool : serverTools.get().tools()) {
                    g.writeTree(tool);
                }
            }
            AnthropicToolCallers callers = request.option(AnthropicToolCallers.class).orElse(null);
            for (int i = 0; i < definitions.size(); i++) {
                // A tool with allowed_callers is written afresh, as a marked one is: the cache holds the plain form.
                List<String> allowed = callers == null ? null : callers.of(definitions.get(i).name());
                if (plan.tool() == i || allowed != null) {
                    tool(g, definitions.get(i), plan.tool() == i ? cache : null, allowed);
                } else {
                    g.writeRawValue(tools.get(definitions.get(i), d -> fragment(x -> tool(x, d, null, null))));
                }
            }
            g.writeEndArray();
        }
        // Server tools are tools too: "none" keeps the model from a search it would be billed for.
        toolChoice(g, request.toolChoice(), !definitions.isEmpty() || serverTools.isPresent(), ParallelToolCalls.disabledFor(request));
        g.writeArrayFieldStart("messages");
        List<Message> history = request.messages();
        int continued = continuedTurn(history);
        String[][] ids = wireIds.plan(history);
        List<TextBlock> held = List.of();
        for (int m = 0; m < history.size(); m++) {
            Message message = history.get(m);
            if (answersCode != null && m > 0 && message.role() == Role.USER) {
                boolean answers = answersCode[m];
                if (answers || !held.isEmpty()) {
                    // Written afresh: the API takes only tool_result blocks in the answer to calls from code,
                    // so its text waits for the next user message that may carry text.
                    boolean marked = plan.marksMessage(m);
                    List<TextBlock> after = answers ? List.of() : held;
                    if (answers) {
                        held = held.isEmpty() ? new ArrayList<>() : held;
                        for (ContentBlock block : message.content()) {
                            if (block instanceof TextBlock t && sendable(t)) {
                                held.add(t);
                            }
                        }
                    } else {
                        held = List.of();
                    }
                    withoutText(g, message, answers, after, marked ? m : -1, marked ? plan : CacheBreakpoints.Plan.NONE,
                            marked ? cache : null, ids == null ? null : ids[m]);
                    continue;
                }
            }
            if (m == continued) {
                // Written afresh: its form as the last message differs from its form as history.
                boolean marked = plan.marksMessage(m);
                message(g, message, marked ? m : -1, marked ? plan : CacheBreakpoints.Plan.NONE, marked ? cache : null, true,
                        ids == null ? null : ids[m]);
                continue;
            }
            // A paused turn the model continued keeps the form it was continued in (as the last message): the
            // continuation's thinking is bound to that prefix on models with preserved thinking, and the cache too.
            boolean paused = message.role() == Role.ASSISTANT && m + 1 < history.size()
                    && history.get(m + 1).role() == Role.ASSISTANT;
            if (plan.marksMessage(m)) { // a marked block is cacheable, so sendable: the message is sent
                message(g, message, m, plan, cache, paused, ids == null ? null : ids[m]);
                continue;
            }
            if (ids != null && ids[m] != null) {
                // Some of its tool ids go as others in this request: its form with those ids, kept while they stay.
                String[] mine = ids[m];
                List<String> sent = List.of(mine);
                AtomicReference<Renamed> kept = renamed.get(message, msg -> new AtomicReference<>());
                Renamed form = kept.get();
                if (form == null || !form.ids().equals(sent) || form.paused() != paused) {
                    // first sent so, or older turns dropped since (a context edit): written once, then kept in this form
                    form = new Renamed(sent, paused, fragment(x -> message(x, message, -1, CacheBreakpoints.Plan.NONE, null,
                            paused, mine)));
                    kept.set(form);
                }
                g.writeRawValue(form.wire());
                continue;
            }
            // Decided once per message, with its wire form: a message with nothing sendable is left
            // out, and the API merges the neighbouring turns of one role.
            RawJson wire = paused ? pausedTurns.get(message, PAUSED_TURN_FORM) : messages.get(message, HISTORY_FORM);
            if (wire != NOTHING_TO_SEND) {
                g.writeRawValue(wire);
            }
        }
        g.writeEndArray();
    }

    /**
     * The text held back from answers to calls from code (see {@link #withoutText}) that no later user
     * message carries: the request's last message is such an answer, or follows one with only
     * answers to calls from code. It goes at the end of the system prompt, or the model would never
     * read it (a budget's summary prompt, written when the run ends, has no later message to wait for).
     */
    private static List<TextBlock> heldAtTheEnd(List<Message> history, boolean[] answersCode) {
        List<TextBlock> held = List.of();
        for (int m = 1; m < history.size(); m++) {
            Message message = history.get(m);
            if (message.role() != Role.USER) {
                continue;
            }
            if (!answersCode[m]) {
                held = List.of();
                continue;
            }
            for (ContentBlock block : message.content()) {
                if (block instanceof TextBlock t && sendable(t)) {
                    held = held.isEmpty() ? new ArrayList<>() : held;
                    held.add(t);
                }
            }
        }
        return held;
    }

    /**
     * For each message, whether it is a user message answering calls from code made in the turn before it. Each
     * assistant turn's callers are read once, when a request first holds it; a user message is read only after a
     * turn with calls from code.
     */
    private boolean[] answersToCode(List<Message> history) {
        boolean[] answers = new boolean[history.size()];
        for (int m = 1; m < history.size(); m++) {
            Message turn = history.get(m - 1);
            answers[m] = history.get(m).role() == Role.USER && turn.role() == Role.ASSISTANT
                    && answersCallsFromCode(callers.get(turn, this::callersOf), history.get(m));
        }
        return answers;
    }

    private Map<String, JsonNode> callersOf(Message turn) {
        messagesRead.incrementAndGet();
        return ToolCallers.of(turn.content());
    }

    /** The id of the newest container the history's assistant turns name, or null (see {@link Containers}). */
    private String newestContainer(List<Message> history) {
        for (int m = history.size() - 1; m >= 0; m--) {
            Message message = history.get(m);
            if (message.role() == Role.ASSISTANT) {
                String id = containers.get(message, this::containerOf);
                if (!id.isEmpty()) {
                    return id;
                }
            }
        }
        return null;
    }

    private String containerOf(Message message) {
        messagesRead.incrementAndGet();
        String id = Containers.in(message);
        return id == null ? "" : id;
    }

    /**
     * Whether {@code answer} answers a call that code in the code execution tool made in the turn
     * before it, whose {@code callers} these are (programmatic tool calling: the call's caller is kept,
     * {@link ToolCallers}).
     */
    private static boolean answersCallsFromCode(Map<String, JsonNode> callers, Message answer) {
        if (callers.isEmpty()) {
            return false;
        }
        for (ContentBlock block : answer.content()) {
            if (block instanceof ToolResultBlock r && callers.containsKey(r.toolUseId())) {
                return true;
            }
        }
        return false;
    }

    /**
     * A user message written afresh: without its text blocks when it answers calls from code
     * ({@code dropText}; a breakpoint the plan put on such a text goes on its last block that is
     * sent), followed by {@code after}, the text held back from such answers before it.
     */
    private static void withoutText(JsonGenerator g, Message message, boolean dropText, List<TextBlock> after, int index,
                                    CacheBreakpoints.Plan plan, String cache, String[] ids) throws IOException {
        List<ContentBlock> content = message.content();
        int lastKept = -1;
        boolean markMoves = false;
        for (int b = 0; b < content.size(); b++) {
            boolean dropped = dropText && content.get(b) instanceof TextBlock;
            if (!dropped && sendable(content.get(b))) {
                lastKept = b;
            }
            markMoves |= dropped && index >= 0 && plan.marks(index, b);
        }
        g.writeStartObject();
        g.writeStringField("role", "user");
        g.writeArrayFieldStart("content");
        int tool = 0;
        for (int b = 0; b < content.size(); b++) {
            ContentBlock block = content.get(b);
            String id = ids != null && isTool(block) ? ids[tool++] : null;
            if (sendable(block) && !(dropText && block instanceof TextBlock)) {
                boolean marks = index >= 0 && (plan.marks(index, b) || markMoves && b == lastKept);
                block(g, block, marks ? cache : null, null, id);
            }
        }
        for (TextBlock text : after) {
            text(g, text, null);
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /**
     * The index of a last message that is the assistant's (a turn the API paused, {@code
     * pause_turn}, sent back so the model continues it) and has something to send, else -1.
     */
    private static int continuedTurn(List<Message> history) {
        int last = history.size() - 1;
        return last >= 0 && history.get(last).role() == Role.ASSISTANT && anySendable(history.get(last).content()) ? last : -1;
    }

    /**
     * @param continued whether this is an assistant turn the model continues or continued ({@code pause_turn}): the
     *     last message, or one followed by its continuation; its last block, if text, goes without trailing
     *     whitespace, which the API refuses at the end of the last message (HTTP 400 "final assistant content
     *     cannot end with trailing whitespace"), and later requests send it in that same form, the prefix of what
     *     the model made after it
     */
    private static void message(JsonGenerator g, Message message, int index, CacheBreakpoints.Plan plan, String cache,
                                boolean continued, String[] ids) throws IOException {
        g.writeStartObject();
        g.writeStringField("role", switch (message.role()) {
            case USER -> "user";
            case ASSISTANT -> "assistant";
        });
        g.writeArrayFieldStart("content");
        List<ContentBlock> content = message.content();
        int last = continued ? lastSendable(content) : -1;
        Map<String, JsonNode> callers = message.role() == Role.ASSISTANT ? ToolCallers.of(content) : Map.of();
        int tool = 0;
        for (int b = 0; b < content.size(); b++) {
            ContentBlock block = content.get(b);
            String id = ids != null && isTool(block) ? ids[tool++] : null;
            if (sendable(block)) {
                if (b == last && block instanceof TextBlock t) {
                    block = t.withText(t.text().stripTrailing());
                }
                block(g, block, index >= 0 && plan.marks(index, b) ? cache : null,
                        block instanceof ToolUseBlock u ? callers.get(u.id()) : null, id);
            }
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /**
     * Whether a block goes on the wire: the API refuses a text block without a non-whitespace
     * character (in the system prompt and in messages alike), and the model itself sometimes
     * answers such a block before a tool call, so these are left out. So is an opaque block
     * another provider module wrote (a turn answered by a fallback provider): its type is none the
     * Messages API knows, and the API would refuse every later request of the run; the block
     * that carries a response's container, which goes as the request's {@code container} instead;
     * and one that carries a call's caller, which goes on the call ({@link ToolCallers}).
     */
    static boolean sendable(ContentBlock block) {
        return switch (block) {
            case TextBlock t -> !t.text().isBlank();
            case OpaqueBlock o -> !otherProvidersBlock(o) && !Containers.carries(o) && !ToolCallers.carries(o);
            default -> true;
        };
    }

    /**
     * The block types other Rein provider modules keep for themselves, by prefix: rein-openai's
     * {@code openai_tool_call_arguments} (the argument text of a call, kept verbatim) and {@code
     * openai_tool_call_extra_content} (a call's {@code extra_content}, Gemini's signature) and {@code
     * openai_reasoning_content} (DeepSeek's reasoning of a tool-call turn). No Messages
     * API block type starts with it.
     */
    private static final String OTHER_PROVIDER_PREFIX = "openai_";

    private static boolean otherProvidersBlock(OpaqueBlock block) {
        return block.type().startsWith(OTHER_PROVIDER_PREFIX);
    }

    /** Whether any of {@code blocks} is sent; a message without one is left out as a whole. */
    static boolean anySendable(List<? extends ContentBlock> blocks) {
        return lastSendable(blocks) >= 0;
    }

    /** The index of the last sendable block, or -1. */
    private static int lastSendable(List<? extends ContentBlock> blocks) {
        for (int i = blocks.size() - 1; i >= 0; i--) {
            if (sendable(blocks.get(i))) {
                return i;
            }
        }
        return -1;
    }

    /** The 5-minute lifetime is the API default, so only the 1-hour one is spelled out. */
    static String cacheControl(CacheTtl ttl) {
        return ttl == CacheTtl.ONE_HOUR ? "1h" : "";
    }

    /** A block that carries a tool call id, in the order {@link WireIds} gives their ids. */
    private static boolean isTool(ContentBlock block) {
        return block instanceof ToolUseBlock || block instanceof ToolResultBlock;
    }

    /** A message's wire form with the tool ids it was written with, and whether as a paused turn. */
    private record Renamed(List<String> ids, boolean paused, RawJson wire) {}

    /** The tool ids the kept wire form of {@code message} was written with, null when none is kept (for tests). */
    List<String> renamedIds(Message message) {
        Renamed form = renamed.get(message, msg -> new AtomicReference<>()).get();
        return form == null ? null : form.ids();
    }

    /**
     * @param caller the caller of a tool call that code in the code execution tool made, sent back
     *     on it ({@link ToolCallers}); null for any other block and for a call the model made itself
     * @param id the id a tool call or result goes under in this request ({@link WireIds}), or null for {@link
     *     WireIds#wireId} of its own
     */
    static void block(JsonGenerator g, ContentBlock block, String cache, JsonNode caller, String id) throws IOException {
        switch (block) {
            case TextBlock t -> text(g, t, cache);
            case ToolUseBlock u -> {
                g.writeStartObject();
                g.writeStringField("type", "tool_use");
                g.writeStringField("id", id != null ? id : WireIds.wireId(u.id()));
                g.writeStringField("name", WireIds.wireName(u.name()));
                g.writeFieldName("input");
                g.writeTree(wireInput(u));
                if (caller != null) {
                    g.writeFieldName("caller");
                    g.writeTree(caller);
                }
                cacheControl(g, cache);
                g.writeEndObject();
            }
            case ToolResultBlock r -> {
                g.writeStartObject();
                g.writeStringField("type", "tool_result");
                g.writeStringField("tool_use_id", id != null ? id : WireIds.wireId(r.toolUseId()));
                g.writeStringField("content", wireContent(r));
                g.writeBooleanField("is_error", r.isError());
                cacheControl(g, cache);
                g.writeEndObject();
            }
            case ThinkingBlock t -> {
                g.writeStartObject();
                g.writeStringField("type", "thinking");
                g.writeStringField("thinking", t.thinking());
                g.writeStringField("signature", t.signature());
                g.writeEndObject();
            }
            case RedactedThinkingBlock r -> {
                g.writeStartObject();
                g.writeStringField("type", "redacted_thinking");
                g.writeStringField("data", r.data());
                g.writeEndObject();
            }
            // Sent back as received; cache breakpoints are never placed on opaque blocks.
            case OpaqueBlock o -> g.writeTree(o.json());
        }
    }

    /** What an error result without any text says on the wire instead of nothing. */
    static final String EMPTY_ERROR = "[rein] The tool failed without an error message.";

    /**
     * The API refuses an error result without content (HTTP 400 "content cannot be empty if
     * `is_error` is true"), and the refused block would stay in the history and fail every later
     * request, so an error result with no text says that it has none.
     */
    private static String wireContent(ToolResultBlock result) {
        return result.isError() && result.content().isBlank() ? EMPTY_ERROR : result.content();
    }

    /**
     * An input nested deeper than Rein accepts cannot be written within the JSON writer's depth
     * limit, and one that is not an object (a server that streamed another JSON value) is refused
     * by the API's tool_use block. Rein refuses such a call before running it (its tool result says
     * why), so the call is sent back with an empty input instead of failing every later request.
     */
    private static JsonNode wireInput(ToolUseBlock use) {
        return !use.input().isObject() || Json.depth(use.input()) > ToolExecutor.MAX_ARGUMENT_DEPTH ? Json.object() : use.input();
    }

    private static void text(JsonGenerator g, TextBlock text, String cache) throws IOException {
        g.writeStartObject();
        g.writeStringField("type", "text");
        g.writeStringField("text", text.text());
        if (text.citations() != null) { // as the API sent them: the web search docs say to pass encrypted_index back
            g.writeFieldName("citations");
            g.writeTree(text.citations());
        }
        cacheControl(g, cache);
        g.writeEndObject();
    }

    /** @param allowedCallers the tool's {@code allowed_callers} ({@link AnthropicToolCallers}), or null for the API's default */
    private static void tool(JsonGenerator g, ToolDefinition definition, String cache, List<String> allowedCallers) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", definition.name());
        if (!definition.description().isEmpty()) {
            g.writeStringField("description", definition.description());
        }
        g.writeFieldName("input_schema");
        g.writeTree(definition.inputSchema());
        if (allowedCallers != null) {
            g.writeArrayFieldStart("allowed_callers");
            for (String caller : allowedCallers) {
                g.writeString(caller);
            }
            g.writeEndArray();
        }
        cacheControl(g, cache);
        g.writeEndObject();
    }

    private static void cacheControl(JsonGenerator g, String ttl) throws IOException {
        if (ttl == null) {
            return;
        }
        g.writeObjectFieldStart("cache_control");
        g.writeStringField("type", "ephemeral");
        if (!ttl.isEmpty()) {
            g.writeStringField("ttl", ttl);
        }
        g.writeEndObject();
    }

    /**
     * {@code auto} is the API default and is left out unless it carries {@code
     * disable_parallel_tool_use}; {@code none} without tools says nothing and is left out too, so
     * requests without tools stay valid. {@code none} has no parallel setting (no calls at all).
     */
    private static void toolChoice(JsonGenerator g, ToolChoice choice, boolean hasTools, boolean oneCallOnly) throws IOException {
        boolean oneCall = oneCallOnly && hasTools && !(choice instanceof ToolChoice.None);
        if ((choice instanceof ToolChoice.Auto && !oneCall) || (choice instanceof ToolChoice.None && !hasTools)) {
            return;
        }
        g.writeObjectFieldStart("tool_choice");
        switch (choice) {
            case ToolChoice.Auto a -> g.writeStringField("type", "auto");
            case ToolChoice.Any a -> g.writeStringField("type", "any");
            case ToolChoice.Tool t -> {
                g.writeStringField("type", "tool");
                g.writeStringField("name", t.name());
            }
            case ToolChoice.None n -> g.writeStringField("type", "none");
        }
        if (oneCall) {
            g.writeBooleanField("disable_parallel_tool_use", true);
        }
        g.writeEndObject();
    }

    /** Writes one JSON object's fields. */
    private interface Fields {
        void write(JsonGenerator g) throws IOException;
    }

    private WireBuffer write(Fields fields) {
        WireBuffer out = WireBuffer.take(lastLength + 1024);
        try (JsonGenerator g = new WellFormedJson(JSON.createGenerator(out))) {
            g.writeStartObject();
            fields.write(g);
            g.writeEndObject();
        } catch (IOException | RuntimeException e) {
            out.release();
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
        // A hint for the next body, which is usually this one plus a turn.
        lastLength = out.length();
        return out;
    }

    /** A message's wire form as history (as a paused turn that was continued when {@code paused}), or {@link #NOTHING_TO_SEND}. */
    private static RawJson historyForm(Message message, boolean paused) {
        return anySendable(message.content())
                ? fragment(x -> message(x, message, -1, CacheBreakpoints.Plan.NONE, null, paused, null)) : NOTHING_TO_SEND;
    }

    /** One standalone JSON value, written once as the UTF-8 bytes every request that holds it copies. */
    private static RawJson fragment(Fields value) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(256);
        try (JsonGenerator g = new WellFormedJson(JSON.createGenerator(out))) {
            value.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new RawJson(out.toByteArray());
    }
}
