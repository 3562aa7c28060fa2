package dev.rein.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;
import java.util.TreeMap;

/**
 * Token usage of one model call, in provider-neutral terms: uncached input, output, input read
 * from the provider's prompt cache and input written to it.
 *
 * <p>A provider that reports no usage (a server that ignores a request for it) answers with a
 * response whose usage is {@link #NOT_REPORTED}; a run then charges its budgets an estimate
 * instead, marked {@code estimated}, so the limits still bind. {@link #ZERO} is a report of zero
 * tokens, not the absence of one.
 *
 * @param cacheWriteDetail provider detail of {@code cacheWriteInputTokens} for pricing: tokens by a
 *                         provider-specific write class priced apart (for example a longer cache
 *                         lifetime); the entries sum to at most {@code cacheWriteInputTokens}. Empty
 *                         when every cache write has the same price.
 * @param estimated        true when the counts are an estimate, not the provider's report (of a sum:
 *                         when any part is); written to JSON only when true
 * @param serverToolUses   uses of tools the provider runs itself and bills per use, on top of the
 *                         tokens, by a provider-specific name (for example {@code web_search}: 3),
 *                         priced by {@link dev.rein.budget.ModelPrice#perUse()}; empty when the call
 *                         made none, and then not written to JSON
 * @param reasoningOutputTokens the output tokens the model spent reasoning (thinking before its
 *                         answer), as the provider reports them apart: a part of {@code outputTokens},
 *                         not added to it (OpenAI's {@code completion_tokens_details.reasoning_tokens}).
 *                         0 when the provider reports no such count, and then not written to JSON
 */
public record Usage(long inputTokens, long outputTokens, long cacheReadInputTokens,
                    // Traces and snapshots keep the name they always had.
                    @JsonProperty("cache_creation_input_tokens") long cacheWriteInputTokens,
                    @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Long> cacheWriteDetail,
                    @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean estimated,
                    @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Long> serverToolUses,
                    @JsonInclude(JsonInclude.Include.NON_DEFAULT) long reasoningOutputTokens) {

    public static final Usage ZERO = new Usage(0, 0, 0, 0, Map.of());

    /**
     * The usage of a response whose provider reported none: no counts yet, marked estimated, so it
     * is never taken for a report of zero tokens. A run replaces it with an estimate from the
     * request and the response's content before charging its budgets.
     */
    public static final Usage NOT_REPORTED = new Usage(0, 0, 0, 0, Map.of(), true, Map.of());

    public Usage {
        requireCount("input_tokens (inputTokens)", inputTokens);
        requireCount("output_tokens (outputTokens)", outputTokens);
        requireCount("cache_read_input_tokens (cacheReadInputTokens)", cacheReadInputTokens);
        requireCount("cache_creation_input_tokens (cacheWriteInputTokens)", cacheWriteInputTokens);
        requireCount("reasoning_output_tokens (reasoningOutputTokens)", reasoningOutputTokens);
        cacheWriteDetail = cacheWriteDetail == null ? Map.of() : Map.copyOf(cacheWriteDetail);
        long detailed = 0;
        for (Map.Entry<String, Long> e : cacheWriteDetail.entrySet()) {
            if (e.getValue() < 0) {
                throw new IllegalArgumentException("the usage's cache write detail '" + e.getKey() + "' cannot be negative, was "
                        + e.getValue() + ": give the cache write tokens of each write class, 0 or more");
            }
            detailed += e.getValue();
        }
        if (detailed > cacheWriteInputTokens) {
            throw new IllegalArgumentException("the cache write detail " + cacheWriteDetail
                    + " exceeds the cache writes, " + cacheWriteInputTokens + ": the detail's entries are a part of"
                    + " cache_creation_input_tokens (cacheWriteInputTokens), so give it at least their sum, " + detailed);
        }
        serverToolUses = serverToolUses == null ? Map.of() : Map.copyOf(serverToolUses);
        for (Map.Entry<String, Long> e : serverToolUses.entrySet()) {
            if (e.getValue() < 0) {
                throw new IllegalArgumentException("the usage's server tool uses of '" + e.getKey() + "' cannot be negative, was "
                        + e.getValue() + ": give the uses the call made, 0 or more");
            }
        }
    }

    /** Names the count by its trace (JSON) name and its Java name: a suite file writes the one, code the other. */
    private static void requireCount(String name, long count) {
        if (count < 0) {
            throw new IllegalArgumentException("the usage's " + name + " cannot be negative, was " + count
                    + ": give the tokens the call used, 0 or more (0 when the provider reported none)");
        }
    }

    /** Usage without a separate count of reasoning tokens. */
    public Usage(long inputTokens, long outputTokens, long cacheReadInputTokens, long cacheWriteInputTokens,
                 Map<String, Long> cacheWriteDetail, boolean estimated, Map<String, Long> serverToolUses) {
        this(inputTokens, outputTokens, cacheReadInputTokens, cacheWriteInputTokens, cacheWriteDetail, estimated, serverToolUses, 0);
    }

    /** Usage without server tool uses. */
    public Usage(long inputTokens, long outputTokens, long cacheReadInputTokens, long cacheWriteInputTokens,
                 Map<String, Long> cacheWriteDetail, boolean estimated) {
        this(inputTokens, outputTokens, cacheReadInputTokens, cacheWriteInputTokens, cacheWriteDetail, estimated, Map.of());
    }

    /** Usage as the provider reported it. */
    public Usage(long inputTokens, long outputTokens, long cacheReadInputTokens, long cacheWriteInputTokens,
                 Map<String, Long> cacheWriteDetail) {
        this(inputTokens, outputTokens, cacheReadInputTokens, cacheWriteInputTokens, cacheWriteDetail, false);
    }

    /** An estimate of {@code input} uncached input tokens and {@code output} output tokens. */
    public static Usage estimate(long input, long output) {
        return new Usage(input, output, 0, 0, Map.of(), true, Map.of());
    }

    /** Whether this is the usage of a response whose provider reported none (see {@link #NOT_REPORTED}). */
    public boolean notReported() {
        // Read for every response: the record's equals (every field, the maps too) only for an estimate of nothing.
        return estimated && inputTokens == 0 && outputTokens == 0 && equals(NOT_REPORTED);
    }

    /** Usage without a cache write detail. */
    public static Usage of(long input, long output, long cacheRead, long cacheWrite) {
        return new Usage(input, output, cacheRead, cacheWrite, Map.of());
    }

    /** A copy whose cache write detail also counts {@code tokens} of write class {@code writeClass}. */
    public Usage withCacheWriteDetail(String writeClass, long tokens) {
        Map<String, Long> detail = new TreeMap<>(cacheWriteDetail);
        detail.merge(writeClass, tokens, Long::sum);
        return new Usage(inputTokens, outputTokens, cacheReadInputTokens, cacheWriteInputTokens, detail, estimated,
                serverToolUses, reasoningOutputTokens);
    }

    /** A copy that also counts {@code uses} uses of the provider's server tool {@code tool} (see {@link #serverToolUses()}). */
    public Usage withServerToolUses(String tool, long uses) {
        Map<String, Long> counts = new TreeMap<>(serverToolUses);
        counts.merge(tool, uses, Usage::sum);
        return new Usage(inputTokens, outputTokens, cacheReadInputTokens, cacheWriteInputTokens, cacheWriteDetail, estimated,
                counts, reasoningOutputTokens);
    }

    /**
     * A copy whose output tokens include {@code tokens} the model spent reasoning, as the provider
     * reported them (see {@link #reasoningOutputTokens()}); a count above the output tokens is held at them.
     */
    public Usage withReasoningOutputTokens(long tokens) {
        return new Usage(inputTokens, outputTokens, cacheReadInputTokens, cacheWriteInputTokens, cacheWriteDetail, estimated,
                serverToolUses, Math.min(Math.max(0, tokens), outputTokens));
    }

    /** Every input token of the call: uncached, read from cache and written to cache. */
    public long totalInputTokens() {
        return sum(sum(inputTokens, cacheReadInputTokens), cacheWriteInputTokens);
    }

    /**
     * {@code a + b}, held at Long.MAX_VALUE: counts a client reported wrongly (a counter read as
     * Long.MAX_VALUE) must not overflow a run's sums into negative ones, which would fail the run
     * where its token limit should stop it.
     */
    private static long sum(long a, long b) {
        long s = a + b;
        return ((a ^ s) & (b ^ s)) < 0 ? Long.MAX_VALUE : s;
    }

    public Usage plus(Usage other) {
        return new Usage(sum(inputTokens, other.inputTokens), sum(outputTokens, other.outputTokens),
                sum(cacheReadInputTokens, other.cacheReadInputTokens),
                sum(cacheWriteInputTokens, other.cacheWriteInputTokens), summed(cacheWriteDetail, other.cacheWriteDetail),
                estimated || other.estimated, summed(serverToolUses, other.serverToolUses),
                sum(reasoningOutputTokens, other.reasoningOutputTokens));
    }

    /** The counts of {@code a} and {@code b} added by name; {@code a} itself when {@code b} has none (nearly every call). */
    private static Map<String, Long> summed(Map<String, Long> a, Map<String, Long> b) {
        if (b.isEmpty()) {
            return a;
        }
        Map<String, Long> sum = new TreeMap<>(a);
        b.forEach((name, count) -> sum.merge(name, count, Usage::sum));
        return sum;
    }
}
