package dev.rein.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.model.ContentBlock;
import dev.rein.model.ModelException;
import dev.rein.model.ModelResponse;
import dev.rein.model.OpaqueBlock;
import dev.rein.model.StopReason;
import dev.rein.model.StreamObserver;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Assembles streamed {@code chat.completion.chunk}s into one response, telling the {@link
 * StreamObserver} about each fragment as it arrives. Text and refusal deltas are appended; each
 * tool call is keyed by its {@code index} (its id and name come in its first delta, its argument
 * text in fragments; a legacy {@code function_call} is call 0); {@code finish_reason} and the
 * closing usage chunk are kept. Only the first choice is read: Rein never asks for more than one.
 */
final class ChunkAssembler {
    /** One tool call being assembled. */
    private static final class Call {
        String id;
        String name;
        final StringBuilder arguments = new StringBuilder();
        boolean announced;
        /** The call's {@code extra_content} (Gemini's thought signature), echoed back with it; null when none came. */
        JsonNode extraContent;
    }

    private final StreamObserver observer;
    private final String requestId;
    private final TreeMap<Integer, Call> calls = new TreeMap<>();
    /** Where a server's tool-call index now points, when it reused an index for another call (Ollama). */
    private final Map<Integer, Integer> moved = new HashMap<>();
    /** The index of the call started last, which fragments that start none belong to; null before any. */
    private Integer latest;
    private final StringBuilder text = new StringBuilder();
    private StringBuilder refusal;
    /** DeepSeek's reasoning_content, kept with the response: a turn that calls tools needs it echoed back. */
    private final StringBuilder reasoning = new StringBuilder();
    /** The same in the field vLLM names it now, reasoning (Ollama, Groq and OpenRouter send it too); see ReasoningContent. */
    private final StringBuilder namedReasoning = new StringBuilder();
    /** OpenRouter's reasoning_details, echoed back while tool calls go on. */
    private final ReasoningDetails details = new ReasoningDetails();
    /** Whether Mistral's thinking blocks of content came: reasoning split off the answer, as the fields above are. */
    private boolean thinkingBlocks;
    private String id;
    private String model;
    /** The service tier the chunks say served the call, its standard one left out; null when none. */
    private String serviceTier;
    private String providerServiceTier; // as the server named it, the standard tier too: for telemetry
    /**
     * The first {@code system_fingerprint} a chunk named, for telemetry; null when none did. OpenAI's chunks each carry
     * it, but Azure OpenAI's first chunk (the prompt's filter results) has none and many compatible servers send null.
     */
    private String systemFingerprint;
    /** Whether a chunk carried Groq's {@code x_groq} (its first and final chunks do, a whole response always): see serviceTier. */
    private boolean groq;
    private String finishReason;
    /** OpenRouter's native_finish_reason: what the provider behind it said, named when the generation failed. */
    private String nativeFinishReason;
    private JsonNode usage;
    /** Whether {@link #usage} came in the protocol's own field, which Groq's {@code x_groq.usage} does not replace. */
    private boolean standardUsage;
    private int chunks;
    /** The content filter categories Azure OpenAI said it filtered, by name, as the stop detail names them. */
    private final Map<String, String> filtered = new java.util.LinkedHashMap<>();
    private boolean choiceSeen;

    /** The server the response comes from ({@link Origin}), kept with the fields only it wants back; may be null. */
    private final String origin;
    /** The model the request named, whose family tells how to read the content before a chunk names one; may be null. */
    private final String requested;
    /** Where a model's content carries its reasoning in think tags: a MiniMax model's always, any model's when asked. */
    private final OpenAiModelBuilder.ThinkTags thinkTags;
    /**
     * A MiniMax model's content, or any model's when asked ({@link #thinkTags}), whose leading think block is its
     * reasoning ({@link InlineThink}); null for any other model, and until the first content tells which it is.
     */
    private InlineThink inlineThink;
    private boolean contentSeen;

    /** @param requestId the response's {@code x-request-id}, for the failures it reports; may be null */
    ChunkAssembler(StreamObserver observer, String requestId) {
        this(observer, requestId, null);
    }

    /**
     * @param requestId the response's {@code x-request-id}, for the failures it reports; may be null
     * @param origin the server the response comes from ({@link Origin#of}); may be null
     */
    ChunkAssembler(StreamObserver observer, String requestId, String origin) {
        this(observer, requestId, origin, null);
    }

    /**
     * @param requestId the response's {@code x-request-id}, for the failures it reports; may be null
     * @param origin the server the response comes from ({@link Origin#of}); may be null
     * @param requested the model the request named; may be null
     */
    ChunkAssembler(StreamObserver observer, String requestId, String origin, String requested) {
        this(observer, requestId, origin, requested, OpenAiModelBuilder.ThinkTags.MINIMAX);
    }

    /**
     * @param requestId the response's {@code x-request-id}, for the failures it reports; may be null
     * @param origin the server the response comes from ({@link Origin#of}); may be null
     * @param requested the model the request named; may be null
     * @param thinkTags where a model's content carries its reasoning in think tags ({@link OpenAiModelBuilder#thinkTags})
     */
    ChunkAssembler(StreamObserver observer, String requestId, String origin, String requested,
                   OpenAiModelBuilder.ThinkTags thinkTags) {
        this.thinkTags = thinkTags;
        this.observer = observer;
        this.requestId = requestId;
        this.origin = origin;
        this.requested = requested;
    }

    /** How many chunks arrived so far. */
    int chunks() {
        return chunks;
    }

    /** Whether a chunk held the first choice: chunks of only usage or Azure's prompt filter results hold none. */
    boolean choiceSeen() {
        return choiceSeen;
    }

    /**
     * What the usage chunk reported, said after a failure's message: a failed call's usage reaches no budget, though the
     * server billed the request, so the message says it for a person to read (and the failure carries it as data,
     * {@link #reportedUsage}). Empty when no usage came.
     */
    String usageNote() {
        if (usage == null) {
            return "";
        }
        Usage reported = usage();
        long input = reported.inputTokens() + reported.cacheReadInputTokens();
        return "; it reported usage for it (" + input + " input tokens" + (reported.cacheReadInputTokens() > 0
                ? ", " + reported.cacheReadInputTokens() + " of them cached," : "") + " and " + reported.outputTokens()
                + " output tokens), which the run's token and money budgets do not count, as a failed call charges nothing";
    }

    /**
     * What the usage chunk reported, for a failure to carry ({@link ModelException#reportedUsage()}); null when no usage
     * came (then no message says any).
     */
    Usage reportedUsage() {
        return usage == null ? null : usage();
    }

    /** The {@code finish_reason} that arrived so far, or null. */
    String finishReason() {
        return finishReason;
    }

    void accept(JsonNode chunk) throws ModelException {
        chunks++;
        // Azure OpenAI's first chunk (the prompt's content-filter results) has id and model "": not a name.
        if (id == null && chunk.path("id").isTextual() && !chunk.path("id").asText().isEmpty()) {
            id = chunk.path("id").asText();
        }
        if (model == null && chunk.path("model").isTextual() && !chunk.path("model").asText().isEmpty()) {
            model = chunk.path("model").asText();
        }
        if (systemFingerprint == null && chunk.path("system_fingerprint").isTextual()
                && !chunk.path("system_fingerprint").asText().isBlank()) {
            systemFingerprint = chunk.path("system_fingerprint").asText();
        }
        usageOf(chunk);
        serviceTier(chunk.path("service_tier"));
        groq |= chunk.path("x_groq").isObject();
        JsonNode choices = chunk.path("choices");
        for (JsonNode choice : choices) {
            if (choice.path("index").asInt(0) != 0) {
                continue;
            }
            choiceSeen = true;
            delta(choice.path("delta"));
            JsonNode finish = choice.get("finish_reason");
            // "" is none: older Ollama and SGLang send it on every chunk where the API sends null
            if (finish != null && finish.isTextual() && !finish.asText().isEmpty()) {
                finishReason = finish.asText();
            }
            filtered(choice.path("content_filter_results"));
            if (choice.path("native_finish_reason").isTextual()) {
                nativeFinishReason = choice.path("native_finish_reason").asText();
            }
        }
    }

    /**
     * Keeps the usage a chunk reports, and only that: also read from a chunk that fails the stream (an error, Groq's
     * {@code x_groq.error}), whose deltas are no answer but whose usage the failure's message says ({@link #usageNote}).
     */
    void usageOf(JsonNode chunk) {
        JsonNode chunkUsage = chunk.get("usage");
        if (chunkUsage != null && chunkUsage.isObject()) {
            usage = chunkUsage;
            standardUsage = true;
        } else if (!standardUsage && chunk.path("x_groq").path("usage").isObject()) {
            // Groq's final chunk carries the stream's usage in x_groq.usage (its chunk schema), include_usage or not: the
            // report when no usage chunk came (a request without stream_options), else the usage chunk is.
            usage = chunk.path("x_groq").path("usage");
        }
    }

    /**
     * Keeps the categories Azure OpenAI's content filter marks {@code "filtered": true} on a choice ({@code hate}, {@code
     * violence}, {@code protected_material_text}, ...), with the severity when it gives one, to say what a {@code
     * content_filter} stop was for.
     */
    private void filtered(JsonNode results) {
        filtered.putAll(filteredCategories(results));
    }

    /**
     * The categories an Azure OpenAI {@code content_filter_results} (or an error's {@code content_filter_result}) marks
     * {@code "filtered": true}, by name, each as a message names it: its name and the severity when it gives one.
     */
    static Map<String, String> filteredCategories(JsonNode results) {
        Map<String, String> named = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> category : results.properties()) {
            JsonNode result = category.getValue();
            if (result.path("filtered").asBoolean(false)) {
                String severity = result.path("severity").asText("");
                named.put(category.getKey(), severity.isEmpty() || severity.equals("safe") ? category.getKey()
                        : category.getKey() + " (severity " + severity + ")");
            }
        }
        return named;
    }

    private void delta(JsonNode delta) throws ModelException {
        // Mistral's thinking blocks of content, heard as the reasoning fields are; not kept (see text)
        String thinking = thinking(delta.get("content"));
        if (!thinking.isEmpty()) {
            thinkingBlocks = true;
            observer.onThinkingDelta(thinking);
        }
        String content = text(delta.get("content"));
        if (!content.isEmpty()) {
            if (!contentSeen) {
                contentSeen = true;
                // MiniMax's API (without its non-standard reasoning_split) and servers that leave the model's output as it
                // is put a MiniMax model's thinking at the start of content, in think tags: not the answer. Another
                // model's only when asked: nothing else tells a server without a reasoning parser from an answer that
                // begins with the tag.
                if (thinkTags != OpenAiModelBuilder.ThinkTags.MINIMAX || Origin.MINIMAX.equals(family(requested))) {
                    // Reasoning already sent in a field of its own (or as Mistral's thinking blocks): the server split it
                    // off, the content is the answer (a think block at its start aside), not the inside of a block the
                    // prompt opened.
                    boolean separated = thinkingBlocks || !reasoning.isEmpty() || !namedReasoning.isEmpty() || !details.isEmpty()
                            || !delta.path(ReasoningContent.REASONING_CONTENT).asText("").isEmpty()
                            || !delta.path(ReasoningContent.REASONING).asText("").isEmpty()
                            || !delta.path("reasoning_details").isEmpty();
                    inlineThink = new InlineThink(thinkTags == OpenAiModelBuilder.ThinkTags.OPENED_IN_PROMPT && !separated);
                }
            }
            if (inlineThink == null) {
                text(content);
            } else {
                inline(inlineThink.accept(content));
            }
        }
        JsonNode reasoned = delta.get(ReasoningContent.REASONING_CONTENT);
        String thought = "";
        if (reasoned != null && reasoned.isTextual()) {
            thought = reasoned.asText();
            reasoning.append(thought);
        } else if (delta.path(ReasoningContent.REASONING).isTextual()) {
            // a server between vLLM's two names sends both with the same text: read once
            thought = delta.path(ReasoningContent.REASONING).asText();
            namedReasoning.append(thought);
        }
        if (thought.isEmpty()) {
            // Reasoning sent only as reasoning_details (MiniMax's with reasoning_split, a gateway's): the readable text of
            // its fragments. OpenRouter sends the plain reasoning beside them, heard above, not twice.
            thought = ReasoningDetails.readable(delta);
        }
        if (!thought.isEmpty()) {
            // the model's thinking, for a live view, as Anthropic's thinking blocks; kept or not (a family that wants none back)
            observer.onThinkingDelta(thought);
        }
        details.accept(delta);
        JsonNode refused = delta.get("refusal");
        if (refused != null && refused.isTextual() && !refused.asText().isEmpty()) {
            if (refusal == null) {
                refusal = new StringBuilder();
            }
            refusal.append(refused.asText());
            // The refusal is kept as the response's text, so a live view shows it as text too.
            observer.onTextDelta(refused.asText());
        }
        JsonNode toolCalls = delta.get("tool_calls");
        if (toolCalls != null && toolCalls.isArray()) {
            int before = calls.size(); // not calls.size() in the loop: it grows with each new call
            int position = 0;
            for (JsonNode call : toolCalls) {
                // A server that answers without streaming (or an older one) may leave the index out.
                int sent = call.has("index") ? call.path("index").asInt() : before + position;
                JsonNode idNode = call.path("id");
                String id = idNode.isTextual() && !idNode.asText().isEmpty() ? idNode.asText() : null;
                int index = moved.getOrDefault(sent, sent);
                Call held = calls.get(index);
                JsonNode name = call.path("function").path("name");
                boolean named = name.isTextual() && !name.asText().isEmpty();
                if (held == null && id == null && !named && latest != null) {
                    // Neither id nor name: no call starts here, it is more of the call before. Some servers leave
                    // the index out of later fragments or move it on with each one (Nebius, Cerebras).
                    moved.put(sent, latest);
                    index = latest;
                } else if (id != null && held != null && held.id != null && !held.id.equals(id) && named) {
                    // Another call's id and a name at an index already taken: a new call, not more of that one.
                    // Ollama sends every call of a turn with index 0 (ollama#15457); joining them would merge
                    // their arguments into one call with text that is not JSON. Its later fragments follow it.
                    // Without a name it is a fragment whose id changed (poolsideai/pool#9): a call starts with its name.
                    int fresh = calls.lastKey() + 1;
                    moved.put(sent, fresh);
                    index = fresh;
                }
                toolCallDelta(index, id, call.path("function"));
                JsonNode extra = call.get("extra_content");
                if (extra != null && extra.isObject() && calls.get(index).extraContent == null) {
                    calls.get(index).extraContent = extra;
                }
                position++;
            }
        }
        JsonNode functionCall = delta.get("function_call");
        if (functionCall != null && functionCall.isObject()) {
            // The legacy functions API: one call per message, without index or id.
            toolCallDelta(0, generatedId(0), functionCall);
        }
    }

    private void text(String content) {
        if (!content.isEmpty()) {
            text.append(content);
            observer.onTextDelta(content);
        }
    }

    /** What a MiniMax model's content released: its thinking heard as thinking, the rest as answer text. */
    private void inline(InlineThink.Parts parts) {
        if (!parts.thinking().isEmpty()) {
            observer.onThinkingDelta(parts.thinking());
        }
        text(parts.text());
    }

    /** The family ({@link Origin#family}) of the model a chunk named, else of {@code fallback}. */
    private String family(String fallback) {
        String family = Origin.family(origin, model);
        return family != null ? family : Origin.family(origin, fallback);
    }

    /**
     * The answer text of a {@code content}: the string itself, or the text of the {@code text} blocks of
     * a list. Mistral's reasoning models send a list, their thinking first ({@code {"type":"thinking",
     * ...}}, which is no answer and is left out) and the answer as {@code {"type":"text","text":...}}
     * blocks; read only as a string, the answer was lost. Empty for anything else.
     */
    private static String text(JsonNode content) {
        if (content == null) {
            return "";
        }
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder joined = new StringBuilder();
        if (content.isArray()) {
            for (JsonNode block : content) {
                if ("text".equals(block.path("type").asText()) && block.path("text").isTextual()) {
                    joined.append(block.path("text").asText());
                }
            }
        }
        return joined.toString();
    }

    /**
     * The thinking text of a {@code content} list: the {@code text} of the {@code text} parts of its {@code thinking}
     * blocks (Mistral's {@code {"type":"thinking","thinking":[{"type":"text","text":...}]}}). Empty for anything else.
     */
    private static String thinking(JsonNode content) {
        if (content == null || !content.isArray()) {
            return "";
        }
        StringBuilder joined = new StringBuilder();
        for (JsonNode block : content) {
            if ("thinking".equals(block.path("type").asText())) {
                for (JsonNode part : block.path("thinking")) {
                    if ("text".equals(part.path("type").asText()) && part.path("text").isTextual()) {
                        joined.append(part.path("text").asText());
                    }
                }
            }
        }
        return joined.toString();
    }

    private void toolCallDelta(int index, String id, JsonNode function) {
        // A call's name is complete once anything else arrives: announce the calls waiting for that.
        announceReady(index);
        if (!calls.containsKey(index)) {
            latest = index;
        }
        Call call = calls.computeIfAbsent(index, i -> new Call());
        if (call.id == null && id != null) {
            call.id = id;
        }
        JsonNode name = function.path("name");
        if (name.isTextual() && !name.asText().isEmpty()) {
            if (call.name == null) {
                call.name = name.asText();
            } else if (!call.announced && call.arguments.isEmpty() && !call.name.equals(name.asText())) {
                // The name in pieces ("get_", "weather"), joined as the official Python SDK joins name deltas;
                // one restated whole with every fragment (MiniMax on NVIDIA NIM) is the same name again.
                call.name += name.asText();
            }
        }
        JsonNode arguments = function.get("arguments");
        String text = arguments == null ? null : arguments.isTextual() ? arguments.asText()
                // Some servers send the arguments as an object rather than as JSON text.
                : arguments.isObject() ? RawArguments.text(arguments) : null;
        if (text != null && !text.isEmpty()) {
            // Argument text follows the name: the name is complete.
            announce(call);
            call.arguments.append(text);
            if (call.announced) {
                observer.onToolInputDelta(call.id, text);
            }
        }
    }

    /** Announces every call but the one at {@code except} that has its id and name and was not announced yet. */
    private void announceReady(int except) {
        for (Map.Entry<Integer, Call> entry : calls.entrySet()) {
            if (entry.getKey() != except) {
                announce(entry.getValue());
            }
        }
    }

    private void announce(Call call) {
        if (!call.announced && call.id != null && call.name != null) {
            call.announced = true;
            observer.onToolUseStart(call.id, call.name);
            if (!call.arguments.isEmpty()) {
                observer.onToolInputDelta(call.id, call.arguments.toString());
            }
        }
    }

    /** The id of a call the server sent without one. */
    private static String generatedId(int index) {
        return "call_" + index;
    }

    /** The assembled response; {@code fallbackModel} names it when no chunk did. */
    ModelResponse response(String fallbackModel) throws ModelException {
        if ("error".equals(finishReason)) {
            // Mistral's and OpenRouter's generation that failed mid-way: what came is no answer, and a retry may succeed.
            throw new ModelException(ModelException.Kind.SERVER_ERROR, 0, "the response ended with finish_reason error:"
                    + " the server failed while generating it" + (nativeFinishReason == null ? "" : " (" + nativeFinishReason + ")")
                    + usageNote(),
                    true, null, requestId, reportedUsage(), null);
        }
        if ("abort".equals(finishReason) || "insufficient_system_resource".equals(finishReason)) {
            // vLLM's generation its engine aborted (a shutdown, a pause, an abort request), ended with [DONE] as if whole
            // (vllm#57082); DeepSeek's interrupted for lack of inference resources: what came is cut, and another attempt
            // may be served.
            throw new ModelException(ModelException.Kind.SERVER_ERROR, 0, "the response ended with finish_reason "
                    + finishReason + ": the server stopped generating it before the end" + usageNote(), true, null, requestId,
                    reportedUsage(), null);
        }
        for (Map.Entry<Integer, Call> entry : calls.entrySet()) {
            // A call the server sent without an id runs as call_N: the listeners hear it under that id (announce
            // waits for an id), now that no later fragment can bring one.
            if (entry.getValue().id == null && entry.getValue().name != null) {
                entry.getValue().id = generatedId(entry.getKey());
            }
        }
        announceReady(-1);
        if (inlineThink != null) {
            inline(inlineThink.finish("length".equals(finishReason)));
        }
        List<ContentBlock> content = new ArrayList<>();
        if (!text.isEmpty()) {
            content.add(new TextBlock(text.toString()));
        }
        if (refusal != null && !refusal.isEmpty()) {
            content.add(new TextBlock(refusal.toString()));
        }
        OpaqueBlock reasoned = details.keep(origin);
        // The family of the model the server names, else of the one asked for (a gateway's alias names none).
        String family = family(requested != null ? requested : fallbackModel);
        if (inlineThink != null && inlineThink.found()) {
            // kept with the block as it came: MiniMax asks for the content back with its think tags, "preserved completely"
            // only a MiniMax model's goes to another host of its family; another model's (asked for) to its server only
            content.add(ReasoningContent.keepInline(inlineThink.thinking(), inlineThink.prefix(), origin,
                    Origin.MINIMAX.equals(family) ? family : null));
        }
        // The plain reasoning goes back only to a family that wants it (ReasoningContent), so it is kept only for one: a
        // response of only reasoning from another model (Groq's, Qwen3 on vLLM) stays a turn without content, as it was.
        // OpenRouter's reasoning_details carry what its plain reasoning says, and go back instead.
        boolean named = reasoning.isEmpty() && reasoned == null && !namedReasoning.isEmpty() && family != null;
        if (!reasoning.isEmpty() || named) {
            content.add(ReasoningContent.keep((named ? namedReasoning : reasoning).toString(),
                    named ? ReasoningContent.REASONING : ReasoningContent.REASONING_CONTENT, origin, family));
        } else if (reasoned != null && family != null && !details.text().isEmpty()) {
            // The details go back to their server only; the text they carry goes to another host of the family as its
            // reasoning does (a fallback from a gateway to vLLM or the family's own API)
            content.add(ReasoningContent.keep(details.text(), ReasoningContent.REASONING_DETAILS, origin, family));
        }
        if (reasoned != null) {
            content.add(reasoned);
        }
        for (Map.Entry<Integer, Call> entry : calls.entrySet()) {
            Call call = entry.getValue();
            if (call.name == null) {
                throw ErrorMapper.malformed("tool call " + entry.getKey() + " of the response has no function name",
                        requestId, null);
            }
            String callId = call.id != null ? call.id : generatedId(entry.getKey());
            String arguments = call.arguments.toString();
            JsonNode input = RawArguments.parse(arguments);
            content.add(new ToolUseBlock(callId, call.name, input));
            OpaqueBlock kept = RawArguments.keep(callId, arguments, input);
            if (kept != null) {
                content.add(kept);
            }
            if (call.extraContent != null) {
                content.add(ExtraContent.keep(callId, call.extraContent, origin));
            }
        }
        return new ModelResponse(id, model != null ? model : fallbackModel, content, stopReason(), null, usage(),
                stopDetail(), finishReason, pricedServiceTier(), providerServiceTier, systemFingerprint);
    }

    /**
     * The tier the call is priced at: {@link #serviceTier}, but Groq's {@code flex} is its standard price ("Pricing
     * matches the on-demand tier", its Flex Processing page), unlike OpenAI's cheaper one, so a response that is
     * recognisably Groq's ({@code x_groq}) names none. Decided when the response is whole: the tier comes in every chunk,
     * {@code x_groq} only in the first and final ones.
     */
    private String pricedServiceTier() {
        return groq && "flex".equals(serviceTier) ? null : serviceTier;
    }

    /**
     * The response's {@code service_tier}: "the processing mode actually used to serve the request" (the Chat Completions
     * reference; every chunk carries it), which a run prices at that tier's rates when it has them ({@code flex} is
     * cheaper, {@code priority} dearer). The standard tier (the API's {@code default}, Groq's {@code on_demand}, and
     * {@code auto}, the project's tier, {@code default} unless configured otherwise; Groq's {@code flex}, see {@link
     * #pricedServiceTier}) is the base price and is left out for pricing (kept as the server named it for telemetry), as is a value that is not a name
     * (null on most compatible servers).
     */
    private void serviceTier(JsonNode tier) {
        if (tier.isTextual() && !tier.asText().isBlank()) {
            String name = tier.asText().strip();
            providerServiceTier = name;
            // "auto" names no tier that served the call (the API answers with the one used), only the project's
            // setting, "default" unless configured otherwise: a gateway echoing the tier asked for, priced as standard
            serviceTier = name.equals("default") || name.equals("on_demand") || name.equals("auto") ? null : name;
        }
    }

    /**
     * Why a {@code content_filter} stop is a refusal: the provider's filter cut the output, so the
     * text so far is no reason the model gave (a refusal's own text is). Null otherwise.
     */
    private String stopDetail() {
        return refusal == null && "content_filter".equals(finishReason)
                ? "the provider's content filter stopped the response (finish_reason content_filter"
                + (filtered.isEmpty() ? "" : "; filtered: " + String.join(", ", filtered.values())) + ")" : null;
    }

    /**
     * {@code stop} ends the turn, {@code tool_calls} asks for tools, {@code length} hit the limit,
     * {@code content_filter} or any refusal text is a refusal. A server that says {@code stop} while
     * sending tool calls (some older compatible servers do) is taken as asking for the tools.
     */
    StopReason stopReason() {
        if (refusal != null) {
            return StopReason.REFUSAL;
        }
        if (finishReason == null) {
            return calls.isEmpty() ? StopReason.UNKNOWN : StopReason.TOOL_USE;
        }
        return switch (finishReason) {
            case "stop" -> calls.isEmpty() ? StopReason.END_TURN : StopReason.TOOL_USE;
            // TOOL_USE only with calls to run: a server that says so while sending none ended its turn.
            case "tool_calls", "function_call" -> calls.isEmpty() ? StopReason.END_TURN : StopReason.TOOL_USE;
            case "length" -> StopReason.MAX_TOKENS;
            // Mistral: the model's context is full, which a larger output limit does not fix.
            case "model_length" -> StopReason.MODEL_CONTEXT_WINDOW_EXCEEDED;
            case "content_filter" -> StopReason.REFUSAL;
            default -> StopReason.UNKNOWN;
        };
    }

    /**
     * Uncached input is the prompt minus the cached part ({@code prompt_tokens_details.cached_tokens}, or
     * DeepSeek's {@code prompt_cache_hit_tokens}), which is reported as a cache read. Output
     * is {@code completion_tokens}, or what {@code total_tokens} counts beyond the prompt when that
     * is more: Google's OpenAI-compatible endpoint leaves a thinking model's thinking tokens out of
     * {@code completion_tokens} (OpenAI counts reasoning in it) but not out of the total, and they
     * are billed as output, so the budget would miss them. A stream without a usage chunk (a server
     * that ignores {@code stream_options.include_usage}) reported nothing, which is not zero tokens:
     * the run charges an estimate instead. {@code completion_tokens_details.reasoning_tokens} is kept as
     * the part of the output spent reasoning.
     */
    Usage usage() {
        if (usage == null) {
            return Usage.NOT_REPORTED;
        }
        long prompt = Math.max(0, usage.path("prompt_tokens").asLong(0));
        long completion = Math.max(0, Math.max(usage.path("completion_tokens").asLong(0),
                usage.path("total_tokens").asLong(0) - prompt));
        // DeepSeek reports its cache hits in a field of its own (prompt_cache_hit_tokens), billed as cache reads.
        JsonNode hits = usage.path("prompt_tokens_details").path("cached_tokens");
        if (!hits.isNumber()) {
            hits = usage.path("prompt_cache_hit_tokens");
        }
        long cached = Math.max(0, Math.min(prompt, hits.asLong(0)));
        // a reasoning model's thinking, counted in the output (completion_tokens_details.reasoning_tokens)
        return Usage.of(prompt - cached, completion, cached, 0)
                .withReasoningOutputTokens(usage.path("completion_tokens_details").path("reasoning_tokens").asLong(0));
    }
}
