package dev.rein.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.model.ModelIds;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The checks of the real API that are cheap to repeat and catch real client bugs: required headers
 * and fields, no empty or whitespace-only text, at most four {@code cache_control} breakpoints, the pairing of {@code tool_use} and
 * {@code tool_result} blocks, a last assistant message ending in whitespace, a forced tool choice ({@code any}, {@code tool}) naming a tool the request has, the container a request answering tool calls made from code
 * (programmatic tool calling) must name, a thinking budget of at least 1,024 tokens and below {@code max_tokens}
 * (unless the interleaved thinking beta makes it the whole turn's), with thinking {@code enabled} a tool-use turn
 * sent back without the thinking it started with, {@code cache_control} on a thinking block, and what the newest models refuse (thinking off or with a
 * budget, thinking off at effort xhigh or max on Claude Opus 5, a forced tool choice). Messages follow
 * the real API's wording so that error handling tested here sees the same text.
 */
final class RequestValidator {

    /** A rejected request: the error to answer with. */
    record Violation(ApiErrorType type, String message) {}

    /**
     * The fields of the messages call that the token counting endpoint does not take: it counts a prompt (model,
     * messages, system, tools, tool_choice, thinking, output_config, context_management, mcp_servers and the like) and
     * generates nothing, so it refuses these as it refuses any unknown field. Only the messages call's own fields are
     * listed, so that a prompt field this server does not know of is not refused by mistake.
     */
    static final List<String> GENERATION_FIELDS = List.of("max_tokens", "stream", "stop_sequences", "temperature", "top_p",
            "top_k", "metadata", "service_tier", "container");

    private RequestValidator() {}

    /**
     * Checks a request to {@code /v1/messages} or, with {@code countTokens}, to {@code
     * /v1/messages/count_tokens} (which takes none of {@link #GENERATION_FIELDS}).
     */
    static Optional<Violation> validate(RecordedRequest request, boolean countTokens) {
        if (request.header("x-api-key") == null && request.header("authorization") == null) {
            return invalid(ApiErrorType.AUTHENTICATION, "x-api-key header is required");
        }
        if (request.header("anthropic-version") == null) {
            return invalid(ApiErrorType.INVALID_REQUEST, "anthropic-version: header is required");
        }
        JsonNode body = request.body();
        if (!body.isObject()) {
            return invalid(ApiErrorType.INVALID_REQUEST, "The request body is not valid JSON.");
        }
        if (!body.path("model").isTextual()) {
            return invalid(ApiErrorType.INVALID_REQUEST, "model: Field required");
        }
        if (countTokens) {
            // The API validates the body's schema first: a field the endpoint does not take fails before anything else.
            for (String field : GENERATION_FIELDS) {
                if (body.has(field)) {
                    return invalid(ApiErrorType.INVALID_REQUEST, field + ": Extra inputs are not permitted");
                }
            }
        } else {
            JsonNode maxTokens = body.path("max_tokens");
            if (maxTokens.isMissingNode() || maxTokens.isNull()) {
                return invalid(ApiErrorType.INVALID_REQUEST, "max_tokens: Field required");
            }
            if (!maxTokens.canConvertToInt() || !maxTokens.isIntegralNumber() || maxTokens.asInt() < 1) {
                return invalid(ApiErrorType.INVALID_REQUEST, "max_tokens: Input should be greater than or equal to 1");
            }
            for (JsonNode stop : body.path("stop_sequences")) {
                // The API's words for an empty or whitespace-only stop sequence ("\n" is a common one).
                if (stop.isTextual() && stop.asText().isBlank()) {
                    return invalid(ApiErrorType.INVALID_REQUEST, "stop_sequences: each stop sequence must contain non-whitespace");
                }
            }
        }
        JsonNode messages = body.path("messages");
        if (messages.isMissingNode() || messages.isNull()) {
            return invalid(ApiErrorType.INVALID_REQUEST, "messages: Field required");
        }
        if (!messages.isArray()) {
            return invalid(ApiErrorType.INVALID_REQUEST, "messages: Input should be a valid list");
        }
        if (messages.isEmpty()) {
            return invalid(ApiErrorType.INVALID_REQUEST, "messages: at least one message is required");
        }
        for (int i = 0; i < messages.size(); i++) {
            String role = messages.get(i).path("role").asText("");
            if (!role.equals("user") && !role.equals("assistant")) {
                return invalid(
                        ApiErrorType.INVALID_REQUEST, "messages." + i + ".role: Input should be 'user' or 'assistant'");
            }
        }
        Optional<Violation> ids = toolUseIds(messages);
        if (ids.isPresent()) {
            return ids;
        }
        Optional<Violation> versioned = refusedSince20261021(request, body, messages, countTokens);
        if (versioned.isPresent()) {
            return versioned;
        }
        Optional<Violation> marked = cachedThinking(messages);
        if (marked.isPresent()) {
            return marked;
        }
        Optional<Violation> unsigned = unsignedThinking(messages);
        if (unsigned.isPresent()) {
            return unsigned;
        }
        Optional<Violation> blank = blankText(messages);
        if (blank.isPresent()) {
            return blank;
        }
        if (endsInWhitespace(messages.get(messages.size() - 1))) {
            return invalid(ApiErrorType.INVALID_REQUEST, "messages: final assistant content cannot end with trailing whitespace");
        }
        Optional<Violation> forced = forcedToolMissing(body);
        if (forced.isPresent()) {
            return forced;
        }
        Optional<Violation> refused = refusedByTheModel(body, countTokens);
        if (refused.isPresent()) {
            return refused;
        }
        Optional<Violation> budget = countTokens ? Optional.empty() : thinkingBudget(request);
        if (budget.isPresent()) {
            return budget;
        }
        int breakpoints = breakpoints(body.path("tools")) + breakpoints(body.path("system")) + breakpoints(messages);
        if (breakpoints > MAX_BREAKPOINTS) {
            return invalid(ApiErrorType.INVALID_REQUEST, "A maximum of " + MAX_BREAKPOINTS
                    + " blocks with cache_control may be provided. Found " + breakpoints + ".");
        }
        Optional<Violation> pairing = toolPairing(messages);
        if (pairing.isPresent() || countTokens) {
            return pairing;
        }
        Optional<Violation> unthought = turnWithoutItsThinking(body, messages);
        if (unthought.isPresent()) {
            return unthought;
        }
        return pendingCallsFromCode(body, messages);
    }

    /**
     * The API's refusals of text a client should not send, in its words: an empty text block anywhere (or empty string
     * content), and a message whose only content is whitespace-only text (whitespace beside other text, or beside
     * other blocks, is left to pass).
     */
    private static Optional<Violation> blankText(JsonNode messages) {
        for (JsonNode message : messages) {
            JsonNode content = message.path("content");
            if (content.isTextual()) {
                if (content.asText().isEmpty()) {
                    return invalid(ApiErrorType.INVALID_REQUEST, "messages: text content blocks must be non-empty");
                }
                if (content.asText().isBlank()) {
                    return invalid(ApiErrorType.INVALID_REQUEST, "messages: text content blocks must contain non-whitespace text");
                }
                continue;
            }
            boolean onlyBlankText = content.isArray() && !content.isEmpty();
            for (JsonNode block : content) {
                boolean text = block.path("type").asText().equals("text");
                if (text && block.path("text").isTextual() && block.path("text").asText().isEmpty()) {
                    return invalid(ApiErrorType.INVALID_REQUEST, "messages: text content blocks must be non-empty");
                }
                onlyBlankText &= text && block.path("text").asText("").isBlank();
            }
            if (onlyBlankText) {
                return invalid(ApiErrorType.INVALID_REQUEST, "messages: text content blocks must contain non-whitespace text");
            }
        }
        return Optional.empty();
    }

    /** The longest {@code tool_use} name the API takes in a message, in characters (code points, as its schema counts). */
    private static final int MAX_TOOL_USE_NAME = 200;

    /** What the API's schema takes as a {@code tool_use} id. */
    private static final java.util.regex.Pattern TOOL_USE_ID = java.util.regex.Pattern.compile("^[a-zA-Z0-9_-]+$");

    /**
     * The API's refusals of {@code tool_use} ids, in its words: one outside its pattern (a history from another provider
     * can carry Kimi's {@code functions.lookup:0}), and one a block before it in the request has already, in the same
     * message or an earlier one (named at the later block); and of a {@code tool_use} name longer than 200 characters
     * (a call to a tool the model made up, kept in the history with its refusal).
     */
    private static Optional<Violation> toolUseIds(JsonNode messages) {
        Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < messages.size(); i++) {
            JsonNode content = messages.get(i).path("content");
            for (int j = 0; j < content.size() && content.isArray(); j++) {
                JsonNode block = content.get(j);
                if (!block.path("type").asText().equals("tool_use") || !block.path("id").isTextual()) {
                    continue;
                }
                String id = block.get("id").asText();
                String name = block.path("name").asText();
                if (name.codePointCount(0, name.length()) > MAX_TOOL_USE_NAME) {
                    return invalid(ApiErrorType.INVALID_REQUEST, "messages." + i + ".content." + j
                            + ".tool_use.name: String should have at most " + MAX_TOOL_USE_NAME + " characters");
                }
                if (!TOOL_USE_ID.matcher(id).matches()) {
                    return invalid(ApiErrorType.INVALID_REQUEST, "messages." + i + ".content." + j
                            + ".tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'");
                }
                if (!seen.add(id)) {
                    return invalid(ApiErrorType.INVALID_REQUEST, "messages." + i + ".content." + j
                            + ": `tool_use` ids must be unique");
                }
            }
        }
        return Optional.empty();
    }

    /** The API version that refuses sampling parameters, documents in assistant messages and citations in user ones. */
    static final String VERSION_2026_10_21 = "2026-10-21";

    /**
     * What API version 2026-10-21 (and a later one: versions are dates, which compare as text) refuses that 2023-06-01
     * takes, as its version history and the SDK majors' migration guides list it: {@code temperature}, {@code top_p} and
     * {@code top_k}, even at their defaults, in the words of any field the schema lacks; a {@code document} block in an
     * assistant message; non-empty {@code citations} on a text block of a user message (the pages give no words for
     * these two: these are this server's).
     */
    private static Optional<Violation> refusedSince20261021(RecordedRequest request, JsonNode body, JsonNode messages,
            boolean countTokens) {
        String version = request.header("anthropic-version");
        if (version == null || version.strip().compareTo(VERSION_2026_10_21) < 0) {
            return Optional.empty();
        }
        if (!countTokens) { // count_tokens refuses them under every version (GENERATION_FIELDS)
            for (String field : List.of("temperature", "top_p", "top_k")) {
                if (body.has(field)) {
                    return invalid(ApiErrorType.INVALID_REQUEST, field + ": Extra inputs are not permitted");
                }
            }
        }
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            JsonNode content = message.path("content");
            boolean assistant = message.path("role").asText().equals("assistant");
            for (int j = 0; j < content.size() && content.isArray(); j++) {
                JsonNode block = content.get(j);
                String type = block.path("type").asText();
                if (assistant && type.equals("document")) {
                    return invalid(ApiErrorType.INVALID_REQUEST, "messages." + i + ".content." + j
                            + ": a `document` block is not permitted in an `assistant` message");
                }
                JsonNode citations = block.path("citations");
                if (!assistant && type.equals("text") && citations.isArray() && !citations.isEmpty()) {
                    return invalid(ApiErrorType.INVALID_REQUEST, "messages." + i + ".content." + j
                            + ".citations: citations are not permitted on a `text` block in a `user` message");
                }
            }
        }
        return Optional.empty();
    }

    /**
     * A {@code thinking} or {@code redacted_thinking} block with {@code cache_control}: the API's schema has no such
     * field on them, so it refuses the request as it refuses any unknown field, in these words (the path names the
     * block's type). Rein's prompt caching never marks them (docs/anthropic.md).
     */
    private static Optional<Violation> cachedThinking(JsonNode messages) {
        for (int i = 0; i < messages.size(); i++) {
            JsonNode content = messages.get(i).path("content");
            for (int j = 0; j < content.size() && content.isArray(); j++) {
                String type = content.get(j).path("type").asText();
                if ((type.equals("thinking") || type.equals("redacted_thinking")) && content.get(j).has("cache_control")) {
                    return invalid(ApiErrorType.INVALID_REQUEST, "messages." + i + ".content." + j + "." + type
                            + ".cache_control: Extra inputs are not permitted");
                }
            }
        }
        return Optional.empty();
    }

    /**
     * A {@code thinking} block sent back with an empty signature (or none): the API verifies every thinking block's
     * signature, wherever it is in the history, and no empty one verifies, so it refuses the request in these words.
     * Anthropic-compatible endpoints of other models (DeepSeek's) send their thinking unsigned and take it back with
     * {@code "signature": ""}; the real API does not.
     */
    private static Optional<Violation> unsignedThinking(JsonNode messages) {
        for (int i = 0; i < messages.size(); i++) {
            JsonNode content = messages.get(i).path("content");
            for (int j = 0; j < content.size() && content.isArray(); j++) {
                JsonNode block = content.get(j);
                if (block.path("type").asText().equals("thinking") && block.path("signature").asText("").isEmpty()) {
                    return invalid(ApiErrorType.INVALID_REQUEST,
                            "messages." + i + ".content." + j + ": Invalid `signature` in `thinking` block");
                }
            }
        }
        return Optional.empty();
    }

    /**
     * With thinking {@code enabled}, a request that continues an assistant turn with tool results must send back the
     * thinking that turn started with (the extended thinking docs, "Preserving thinking blocks": during tool use, the
     * thinking of the last assistant turn must be passed back). The turn is the run of assistant messages with tool
     * calls, each answered by a user message with tool results, that ends the request; its first assistant message
     * must start with a {@code thinking} or {@code redacted_thinking} block, refused otherwise in the API's words.
     * Later steps of the run need not think again (without interleaved thinking the model thinks once per turn), and
     * adaptive thinking may skip thinking, so neither is checked.
     */
    private static Optional<Violation> turnWithoutItsThinking(JsonNode body, JsonNode messages) {
        if (!body.path("thinking").path("type").asText("").equals("enabled")) {
            return Optional.empty();
        }
        int first = -1;
        for (int i = messages.size() - 1; i >= 1 && answersCalls(messages.get(i), messages.get(i - 1)); i -= 2) {
            first = i - 1;
        }
        if (first < 0) {
            return Optional.empty();
        }
        JsonNode start = messages.get(first).path("content").path(0);
        String type = start.path("type").asText("");
        if (type.equals("thinking") || type.equals("redacted_thinking")) {
            return Optional.empty();
        }
        return invalid(ApiErrorType.INVALID_REQUEST, "messages." + first + ".content.0.type: Expected `thinking` or"
                + " `redacted_thinking`, but found `" + type + "`. When `thinking` is enabled, a final `assistant` message"
                + " must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks)."
                + " We recommend you include thinking blocks from previous turns. To avoid this requirement, disable"
                + " `thinking`. Please consult our documentation at"
                + " https://docs.claude.com/en/docs/build-with-claude/extended-thinking");
    }

    /** Whether {@code user} is a user message with tool results answering the tool calls of {@code assistant}. */
    private static boolean answersCalls(JsonNode user, JsonNode assistant) {
        return user.path("role").asText().equals("user") && isAssistant(assistant)
                && !ids(user, "tool_result", "tool_use_id").isEmpty() && !ids(assistant, "tool_use", "id").isEmpty();
    }

    /**
     * A request that answers tool calls code in the code execution tool made (programmatic tool
     * calling: a {@code tool_use} whose {@code caller} is not {@code direct}) continues that code, so
     * it must name the container the code runs in, as the real API says when it is missing.
     */
    private static Optional<Violation> pendingCallsFromCode(JsonNode body, JsonNode messages) {
        int last = messages.size() - 1;
        if (last < 1 || !messages.get(last).path("role").asText().equals("user") || !isAssistant(messages.get(last - 1))) {
            return Optional.empty();
        }
        JsonNode container = body.path("container");
        boolean named = container.isTextual() && !container.asText().isBlank() || container.path("id").isTextual();
        for (JsonNode block : messages.get(last - 1).path("content")) {
            if (block.path("type").asText().equals("tool_use") && block.path("caller").isObject()
                    && !block.path("caller").path("type").asText("direct").equals("direct") && !named) {
                return invalid(ApiErrorType.INVALID_REQUEST,
                        "container_id is required when there are pending tool uses generated by code execution with tools.");
            }
        }
        return Optional.empty();
    }

    /**
     * Whether {@code message} is an assistant message whose content ends in a text that ends in whitespace: as the last
     * message (a prefill, or a paused turn sent back to be continued) the API refuses it.
     */
    private static boolean endsInWhitespace(JsonNode message) {
        if (!isAssistant(message)) {
            return false;
        }
        JsonNode content = message.path("content");
        JsonNode last = content.isArray() && !content.isEmpty() ? content.get(content.size() - 1) : null;
        String text = content.isTextual() ? content.asText()
                : last != null && last.path("type").asText().equals("text") ? last.path("text").asText("") : "";
        return !text.isEmpty() && Character.isWhitespace(text.codePointBefore(text.length()));
    }

    /**
     * A forced tool choice the model cannot follow: the tool use docs say {@code any} makes the model use one of the
     * request's tools and {@code tool} the one it names (server tools are tools too). Without tools, the API's words
     * ("tool_choice may only be specified while providing tools."); a name no tool has gets words of this server's own,
     * as the docs give none.
     */
    private static Optional<Violation> forcedToolMissing(JsonNode body) {
        String choice = body.path("tool_choice").path("type").asText("");
        if (!choice.equals("any") && !choice.equals("tool")) {
            return Optional.empty();
        }
        JsonNode tools = body.path("tools");
        if (!tools.isArray() || tools.isEmpty()) {
            return invalid(ApiErrorType.INVALID_REQUEST, "tool_choice may only be specified while providing tools.");
        }
        String name = body.path("tool_choice").path("name").asText("");
        if (choice.equals("tool")) {
            for (JsonNode tool : tools) {
                if (tool.path("name").asText().equals(name)) {
                    return Optional.empty();
                }
            }
            return invalid(ApiErrorType.INVALID_REQUEST, "tool_choice.name: no tool named '" + name + "' is in tools.");
        }
        return Optional.empty();
    }

    /**
     * The models that always think: thinking off ({@code disabled}) or with a manual budget ({@code enabled}) is a
     * 400 (the "What's new" pages of Claude Opus 5.5 and Claude Fable 5.1, which Claude Mythos 5.1 shares; for
     * Claude Fable 5 and Mythos 5, the thinking troubleshooting page's table of refused configurations).
     */
    static final Set<String> ALWAYS_THINKING =
            Set.of("claude-opus-5-5", "claude-fable-5-1", "claude-mythos-5-1", "claude-fable-5", "claude-mythos-5");

    /**
     * The models that refuse a manual budget ({@code enabled}) with a 400 while taking adaptive thinking: the thinking
     * troubleshooting docs say every model from Claude 4.7 on (Claude Mythos Preview, which takes both, is not one).
     */
    static final Set<String> NO_BUDGET = Set.of("claude-opus-4-7", "claude-opus-4-8", "claude-sonnet-5", "claude-opus-5",
            "claude-fable-5", "claude-mythos-5", "claude-opus-5-5", "claude-sonnet-5-5", "claude-haiku-5-5",
            "claude-fable-5-1", "claude-fable-5-2", "claude-mythos-5-1", "claude-mythos-5-2");

    /** Whether {@code model} is Claude Sonnet 5.5 (also with a date suffix), the one model that takes {@code between_tools}. */
    private static boolean takesBetweenTools(String model) {
        return ModelIds.listed(Set.of("claude-sonnet-5-5"), model);
    }

    /** The models that take thinking off ({@code disabled}) at effort high or below only: xhigh or max is a 400. */
    static final Set<String> OFF_ONLY_UP_TO_HIGH = Set.of("claude-opus-5");

    /**
     * The models that refuse a forced tool choice ({@code any} or a named {@code tool}), at the messages and the
     * token counting endpoints alike (the "What's new" pages of Claude Opus 5.5, Claude Sonnet 5.5 and Claude Fable
     * 5.1, which Claude Mythos 5.1 shares).
     */
    static final Set<String> NO_FORCED_TOOL_CHOICE =
            Set.of("claude-opus-5-5", "claude-sonnet-5-5", "claude-fable-5-1", "claude-mythos-5-1");

    /**
     * What the newest models refuse, in the words of their "What's new" pages (a budget: of the thinking troubleshooting
     * page, in the same words). Thinking is checked on the
     * messages endpoint only: the pages say the token counting endpoint checks the tool choice the same way, and
     * say nothing of thinking there.
     */
    private static Optional<Violation> refusedByTheModel(JsonNode body, boolean countTokens) {
        // A dated id is the model it dates, as the API's pinned snapshots are and as Rein's own tables read one.
        String model = body.path("model").asText();
        String thinking = body.path("thinking").path("type").asText("");
        if (!countTokens && (ModelIds.listed(ALWAYS_THINKING, model) && thinking.equals("disabled")
                || ModelIds.listed(NO_BUDGET, model) && thinking.equals("enabled"))) {
            return invalid(ApiErrorType.INVALID_REQUEST, "\"thinking.type." + thinking + "\" is not supported for this model."
                    + " Use \"thinking.type.adaptive\" and \"output_config.effort\" to control thinking behavior.");
        }
        String effort = body.path("output_config").path("effort").asText("");
        // Claude Sonnet 5.5's "What's new": between_tools replaces disabled (a 400 pointing to it) and is taken at effort
        // low, medium and high; the thinking troubleshooting page: only Claude Sonnet 5.5 accepts between_tools. The
        // pages give no exact words: these follow the API's other thinking refusals.
        if (!countTokens && thinking.equals("disabled") && takesBetweenTools(model)) {
            return invalid(ApiErrorType.INVALID_REQUEST, "\"thinking.type.disabled\" is not supported for this model. Use"
                    + " \"thinking.type.between_tools\" to turn off thinking before the first tool call, or"
                    + " \"thinking.type.adaptive\" and \"output_config.effort\" to control thinking behavior.");
        }
        if (!countTokens && thinking.equals("between_tools") && !takesBetweenTools(model)) {
            return invalid(ApiErrorType.INVALID_REQUEST, "\"thinking.type.between_tools\" is not supported for this model."
                    + " Use \"thinking.type.adaptive\" and \"output_config.effort\" to control thinking behavior.");
        }
        if (!countTokens && thinking.equals("between_tools") && (effort.equals("xhigh") || effort.equals("max"))) {
            return invalid(ApiErrorType.INVALID_REQUEST, "output_config.effort '" + effort + "' is not supported with"
                    + " \"thinking.type.between_tools\". Use effort 'high' or below, or \"thinking.type.adaptive\".");
        }
        // Claude Opus 5's "What's new": thinking off is taken at effort high or below (the default is high).
        if (!countTokens && ModelIds.listed(OFF_ONLY_UP_TO_HIGH, model) && thinking.equals("disabled")
                && (effort.equals("xhigh") || effort.equals("max"))) {
            return invalid(ApiErrorType.INVALID_REQUEST, "output_config.effort '" + effort + "' is not supported when"
                    + " thinking is disabled on this model. Use effort 'high' or below, or enable thinking.");
        }
        String choice = body.path("tool_choice").path("type").asText("");
        // The extended thinking docs: with thinking, tool choice auto or none only, on every model.
        if (!countTokens && (thinking.equals("enabled") || thinking.equals("adaptive"))
                && (choice.equals("any") || choice.equals("tool"))) {
            return invalid(ApiErrorType.INVALID_REQUEST, "Thinking may not be enabled when tool_choice forces tool use.");
        }
        if (ModelIds.listed(NO_FORCED_TOOL_CHOICE, model) && (choice.equals("any") || choice.equals("tool"))) {
            return invalid(ApiErrorType.INVALID_REQUEST, "tool_choice: type \"tool\" and \"any\" are not supported for this model.");
        }
        return Optional.empty();
    }

    /** The smallest thinking budget the API takes (the extended thinking docs). */
    static final int MIN_BUDGET_TOKENS = 1024;

    /** The beta with which a thinking budget is the whole turn's, and may exceed max_tokens. */
    static final String INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14";

    /**
     * A manual thinking budget the API refuses, in its words: below {@value #MIN_BUDGET_TOKENS} tokens, or not below
     * {@code max_tokens} (thinking counts toward them), unless the interleaved thinking beta makes it the whole turn's.
     */
    private static Optional<Violation> thinkingBudget(RecordedRequest request) {
        JsonNode body = request.body();
        JsonNode thinking = body.path("thinking");
        if (!thinking.path("type").asText("").equals("enabled")) {
            return Optional.empty();
        }
        JsonNode budget = thinking.path("budget_tokens");
        if (!budget.canConvertToLong() || budget.asLong() < MIN_BUDGET_TOKENS) {
            return invalid(ApiErrorType.INVALID_REQUEST, "thinking.enabled.budget_tokens: Input should be greater than or"
                    + " equal to " + MIN_BUDGET_TOKENS);
        }
        String betas = request.header("anthropic-beta");
        boolean interleaved = betas != null && Set.of(betas.replace(" ", "").split(",")).contains(INTERLEAVED_THINKING_BETA);
        if (budget.asLong() >= body.path("max_tokens").asLong() && !interleaved) {
            return invalid(ApiErrorType.INVALID_REQUEST, "`max_tokens` must be greater than `thinking.budget_tokens`. Please"
                    + " consult our documentation at"
                    + " https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size");
        }
        return Optional.empty();
    }

    /** The prompt caching limit: cache_control breakpoints per request, over tools, system and messages. */
    static final int MAX_BREAKPOINTS = 4;

    /**
     * The blocks with a {@code cache_control} object in {@code node}: a tool, a system or message block,
     * a message's content, or the content blocks of a tool result, walked down through arrays, messages'
     * {@code content} and tool results' {@code content}.
     */
    private static int breakpoints(JsonNode node) {
        if (node.isArray()) {
            int count = 0;
            for (JsonNode element : node) {
                count += breakpoints(element);
            }
            return count;
        }
        if (!node.isObject()) {
            return 0;
        }
        return (node.path("cache_control").isObject() ? 1 : 0) + breakpoints(node.path("content"));
    }

    /**
     * Each {@code tool_result} of a user message must answer a {@code tool_use} of the assistant
     * message right before it, and each {@code tool_use} of an assistant message that is followed
     * by another message must be answered there, by {@code tool_result} blocks that begin it (text
     * goes after them). A trailing assistant message is left alone: it may
     * be a prefill the client continues.
     */
    private static Optional<Violation> toolPairing(JsonNode messages) {
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            String role = message.path("role").asText();
            if (role.equals("user")) {
                Set<String> asked = i > 0 && isAssistant(messages.get(i - 1))
                        ? ids(messages.get(i - 1), "tool_use", "id")
                        : Set.of();
                JsonNode content = message.path("content");
                // The answers come first, text after them (Anthropic's tool use docs); the calls without
                // any answer were refused above, at the assistant message.
                int leading = 0;
                while (leading < content.size() && content.get(leading).path("type").asText().equals("tool_result")) {
                    leading++;
                }
                if (!asked.isEmpty() && content.isArray() && leading < asked.size()) {
                    return invalid(ApiErrorType.INVALID_REQUEST, "messages." + i + ": Did not find " + asked.size()
                            + " `tool_result` block(s) at the beginning of this message. Messages following `tool_use`"
                            + " blocks must begin with a matching number of `tool_result` blocks.");
                }
                for (int j = 0; j < content.size() && content.isArray(); j++) {
                    JsonNode block = content.get(j);
                    if (block.path("type").asText().equals("tool_result")) {
                        String id = block.path("tool_use_id").asText();
                        if (!asked.contains(id)) {
                            return invalid(
                                    ApiErrorType.INVALID_REQUEST,
                                    "messages." + i + ".content." + j
                                            + ": unexpected `tool_use_id` found in `tool_result` blocks: " + id
                                            + ". Each `tool_result` block must have a corresponding `tool_use`"
                                            + " block in the previous message.");
                        }
                    }
                }
            } else if (i + 1 < messages.size()) {
                Set<String> asked = ids(message, "tool_use", "id");
                JsonNode next = messages.get(i + 1);
                Set<String> answered =
                        next.path("role").asText().equals("user") ? ids(next, "tool_result", "tool_use_id") : Set.of();
                List<String> unanswered = new ArrayList<>(asked);
                unanswered.removeAll(answered);
                if (!unanswered.isEmpty()) {
                    return invalid(
                            ApiErrorType.INVALID_REQUEST,
                            "messages." + i + ": `tool_use` ids were found without `tool_result` blocks"
                                    + " immediately after: " + String.join(", ", unanswered)
                                    + ". Each `tool_use` block must have a corresponding `tool_result` block"
                                    + " in the next message.");
                }
            }
        }
        return Optional.empty();
    }

    private static boolean isAssistant(JsonNode message) {
        return message.path("role").asText().equals("assistant");
    }

    /** The values of {@code field} in the blocks of {@code type}; string content has no blocks. */
    private static Set<String> ids(JsonNode message, String type, String field) {
        Set<String> ids = new LinkedHashSet<>();
        for (JsonNode block : message.path("content")) {
            if (block.path("type").asText().equals(type)) {
                ids.add(block.path(field).asText());
            }
        }
        return ids;
    }

    private static Optional<Violation> invalid(ApiErrorType type, String message) {
        return Optional.of(new Violation(type, message));
    }
}
