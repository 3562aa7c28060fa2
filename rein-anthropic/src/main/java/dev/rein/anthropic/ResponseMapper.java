package dev.rein.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.context.TokenEstimator;
import dev.rein.model.ContentBlock;
import dev.rein.model.ModelException;
import dev.rein.model.ModelResponse;
import dev.rein.model.OpaqueBlock;
import dev.rein.model.RedactedThinkingBlock;
import dev.rein.model.TextBlock;
import dev.rein.model.ThinkingBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Translates a Messages API message (as JSON) into a provider-neutral {@link ModelResponse}.
 * Text, tool use, thinking and redacted thinking become Rein's own blocks; every other block type
 * (server tool use, web search results, compaction, types added later) becomes an
 * {@link OpaqueBlock} holding the JSON exactly as received. A text block's citations are kept on
 * it as received. A
 * refusal's {@code stop_details} become the response's stop detail. The {@code caller} of a call
 * that code in the code execution tool made is kept after the blocks ({@link ToolCallers}). The message's {@code container}
 * (the code execution tool's) is kept as a last block of its own ({@link Containers}). A message without a {@code
 * usage} object has its usage not reported ({@link Usage#NOT_REPORTED}), not zero.
 */
final class ResponseMapper {
    private ResponseMapper() {}

    static ModelResponse response(ObjectNode message) throws ModelException {
        List<ContentBlock> content = new ArrayList<>();
        List<OpaqueBlock> callers = List.of();
        for (JsonNode block : message.path("content")) {
            if (!(block instanceof ObjectNode o)) {
                throw ErrorMapper.malformed("a content block of the response is not an object: " + block, null);
            }
            content.add(block(o));
            // A call that code in the code execution tool made goes back with its caller (ToolCallers).
            OpaqueBlock caller = "tool_use".equals(o.path("type").asText()) ? ToolCallers.of(o) : null;
            if (caller != null) {
                callers = callers.isEmpty() ? new ArrayList<>() : callers;
                callers.add(caller);
            }
        }
        content.addAll(callers);
        // The code execution tool's container travels in the history to the next request (Containers).
        OpaqueBlock container = Containers.of(message);
        if (container != null) {
            content.add(container);
        }
        String stopSequence = message.path("stop_sequence").isTextual() ? message.get("stop_sequence").asText() : null;
        return new ModelResponse(
                text(message, "id", "the message"),
                text(message, "model", "the message"),
                content,
                StopReasons.fromWire(message.path("stop_reason").textValue()),
                stopSequence,
                // No usage object at all (a gateway that leaves it out) is no report, never zero tokens:
                // null becomes Usage.NOT_REPORTED, and the run charges an estimate.
                message.get("usage") instanceof ObjectNode usage ? usage(usage, content) : null,
                stopDetail(message.path("stop_details")), message.path("stop_reason").textValue(),
                serviceTier(message.path("usage").path("service_tier")), providerServiceTier(message.path("usage")
                        .path("service_tier")));
    }

    /** {@code usage.service_tier} as the API named it, the standard tier too (for telemetry); null when it sent none. */
    private static String providerServiceTier(JsonNode tier) {
        return tier.isTextual() && !tier.asText().isBlank() ? tier.asText().strip() : null;
    }

    /**
     * {@code usage.service_tier}, the tier the API served the request at ({@code standard}, {@code priority} or {@code
     * batch}), which a run prices at that tier's rates when it has them; the standard tier is the base price and is
     * left out, as is a value that is not a name (a gateway that sends none).
     */
    private static String serviceTier(JsonNode tier) {
        if (!tier.isTextual() || tier.asText().isBlank()) {
            return null;
        }
        String name = tier.asText().strip();
        return name.equals("standard") ? null : name;
    }

    /**
     * A refusal's {@code stop_details} as one line for the user: its {@code explanation} (which the
     * API documents as meant to be shown to users) and its policy {@code category}. Either may be
     * null, and both are for a refusal that maps to no named category; then there is nothing to say.
     */
    static String stopDetail(JsonNode details) {
        String explanation = details.path("explanation").isTextual() ? details.get("explanation").asText().strip() : "";
        String category = details.path("category").isTextual() ? details.get("category").asText().strip() : "";
        if (explanation.isEmpty()) {
            return category.isEmpty() ? null : "category " + category;
        }
        return category.isEmpty() ? explanation : explanation + " (category " + category + ")";
    }

    static ContentBlock block(ObjectNode block) throws ModelException {
        String type = block.path("type").asText("");
        return switch (type) {
            // Citations (a web search answer's sources) are kept as the API sent them, to go back with the text.
            case "text" -> new TextBlock(textOrEmpty(block, "text", "a text block"), block.get("citations"));
            case "tool_use" -> new ToolUseBlock(text(block, "id", "a tool_use block"), text(block, "name", "a tool_use block"),
                    block.hasNonNull("input") ? block.get("input") : block.objectNode());
            // The API always signs its thinking; other models' Anthropic-compatible endpoints (DeepSeek's,
            // Fireworks', Kimi's) send none and take the block back with an empty one.
            case "thinking" -> new ThinkingBlock(textOrEmpty(block, "thinking", "a thinking block"),
                    block.path("signature").isTextual() ? block.get("signature").asText() : "");
            case "redacted_thinking" -> new RedactedThinkingBlock(text(block, "data", "a redacted_thinking block"));
            case "" -> throw ErrorMapper.malformed("a content block of the response has no type: " + block, null);
            default -> new OpaqueBlock(type, block.deepCopy());
        };
    }

    /** The cache write class of 1-hour entries in {@link Usage#cacheWriteDetail()}, priced at 2x input. */
    static final String WRITE_1H = "1h";

    /**
     * Usage with cache writes split by lifetime: {@code cache_creation.ephemeral_5m/1h_input_tokens}
     * when the API reports them; the part of {@code cache_creation_input_tokens} no split covers
     * (all of it without a split) counts as 5-minute writes (the default lifetime). 1-hour writes
     * appear in the cache write detail as {@value #WRITE_1H}, so the price of the call can tell them apart.
     * Without an {@code output_tokens} number (a stream whose {@code message_delta} carried no usage:
     * {@code message_start}'s count is a placeholder) the output is Rein's estimate from {@code
     * content}, and the usage is marked estimated, so the output and money limits still bind. A server-side
     * compaction's own sampling ({@code usage.iterations} of type {@code compaction}) is added to the counts.
     */
    static Usage usage(JsonNode usage, List<ContentBlock> content) {
        return usage(usage, () -> TokenEstimator.estimate(content));
    }

    /** As {@link #usage(JsonNode, List)}, the output, when not reported, estimated by {@code outputEstimate}. */
    static Usage usage(JsonNode usage, java.util.function.LongSupplier outputEstimate) {
        long input = count(usage, "input_tokens");
        boolean outputReported = usage.path("output_tokens").canConvertToLong();
        long output = outputReported ? count(usage, "output_tokens") : outputEstimate.getAsLong();
        long cacheRead = count(usage, "cache_read_input_tokens");
        long cacheWrite = count(usage, "cache_creation_input_tokens");
        JsonNode split = usage.path("cache_creation");
        long write5m = count(split, "ephemeral_5m_input_tokens");
        long write1h = count(split, "ephemeral_1h_input_tokens");
        // Server-side compaction's own sampling is billed but left out of the top-level counts, which "reflect the sum
        // of all non-compaction iterations" (the compaction docs, "Understanding usage"): its usage.iterations entries
        // are added, so the run's token and money budgets count what the request was billed.
        for (JsonNode iteration : usage.path("iterations")) {
            if ("compaction".equals(iteration.path("type").asText())) {
                input += count(iteration, "input_tokens");
                output += count(iteration, "output_tokens");
                cacheRead += count(iteration, "cache_read_input_tokens");
                cacheWrite += count(iteration, "cache_creation_input_tokens");
                write5m += count(iteration.path("cache_creation"), "ephemeral_5m_input_tokens");
                write1h += count(iteration.path("cache_creation"), "ephemeral_1h_input_tokens");
            }
        }
        // The rest of the total counts as 5-minute writes: all of it without a split, and in a stream
        // what message_delta's cumulative total (which has no split) adds to message_start's split.
        write5m = Math.max(write5m, cacheWrite - write1h);
        // output_tokens_details.thinking_tokens: the part of the output spent thinking (not added to it); only with
        // a reported output, as message_start's details are placeholders like its output_tokens.
        long thinking = outputReported ? Math.min(count(usage.path("output_tokens_details"), "thinking_tokens"), output) : 0;
        return new Usage(input, output, cacheRead, write5m + write1h, write1h == 0 ? Map.of() : Map.of(WRITE_1H, write1h),
                !outputReported, serverToolUses(usage.path("server_tool_use")), thinking);
    }

    /**
     * {@code server_tool_use}'s counts ({@code web_search_requests}: 3, {@code web_fetch_requests}: 1)
     * by tool ({@code web_search}: 3, {@code web_fetch}: 1), each tool's uses named as the API names
     * the counter, so one it adds later is kept too; zero counts are left out. Web searches are billed
     * per search on top of the tokens ({@link AnthropicProvider#price}).
     */
    private static Map<String, Long> serverToolUses(JsonNode serverToolUse) {
        if (!serverToolUse.isObject() || serverToolUse.isEmpty()) {
            return Map.of();
        }
        Map<String, Long> uses = new java.util.TreeMap<>();
        for (Map.Entry<String, JsonNode> counter : serverToolUse.properties()) {
            String name = counter.getKey();
            long count = count(serverToolUse, name);
            if (count > 0) {
                uses.put(name.endsWith(REQUESTS) ? name.substring(0, name.length() - REQUESTS.length()) : name, count);
            }
        }
        return uses;
    }

    private static final String REQUESTS = "_requests";

    /** The name of web searches in {@link Usage#serverToolUses()}, billed per search. */
    static final String WEB_SEARCH = "web_search";

    private static long count(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.canConvertToLong() && value.asLong() > 0 ? value.asLong() : 0;
    }

    /**
     * A block's text, "" for a JSON null: a gateway whose JSON writer keeps null fields opens an empty
     * block with {@code "text": null} (or {@code "thinking": null}) and may send no delta into it.
     */
    private static String textOrEmpty(JsonNode node, String field, String where) throws ModelException {
        return node.path(field).isNull() ? "" : text(node, field, where);
    }

    private static String text(JsonNode node, String field, String where) throws ModelException {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw ErrorMapper.malformed(where + " in the response has no \"" + field + "\" text", null);
        }
        return value.asText();
    }
}
