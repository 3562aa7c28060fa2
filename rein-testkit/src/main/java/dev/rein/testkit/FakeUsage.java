package dev.rein.testkit;

/**
 * The {@code "usage"} of a scripted message, as the Messages API reports it.
 *
 * <p>{@code cache_creation_input_tokens} is reported by the API as the sum of the two
 * {@code cache_creation} buckets; this record keeps the three numbers separate so that a test can
 * also script an inconsistent answer if it wants to.
 *
 * @param inputTokens {@code input_tokens}: uncached input tokens
 * @param outputTokens {@code output_tokens}
 * @param cacheCreationInputTokens {@code cache_creation_input_tokens}
 * @param cacheReadInputTokens {@code cache_read_input_tokens}
 * @param ephemeral5mInputTokens {@code cache_creation.ephemeral_5m_input_tokens}
 * @param ephemeral1hInputTokens {@code cache_creation.ephemeral_1h_input_tokens}
 * @param serverToolUse {@code server_tool_use}: the server tools the API ran, by counter ({@code
 *     web_search_requests}: 3, {@code web_fetch_requests}: 1), sent on the message and, streamed, on
 *     {@code message_delta}; empty for none (then the field is left out)
 * @param thinkingTokens {@code output_tokens_details.thinking_tokens}: the part of {@code output_tokens} spent
 *     thinking, sent on the message and, streamed, on {@code message_delta}; {@code null} for none (then the field is
 *     left out)
 */
public record FakeUsage(
        int inputTokens,
        int outputTokens,
        int cacheCreationInputTokens,
        int cacheReadInputTokens,
        int ephemeral5mInputTokens,
        int ephemeral1hInputTokens,
        java.util.Map<String, Integer> serverToolUse,
        Integer thinkingTokens) {

    /** Negative counts never come from the API, so they are rejected as a scripting mistake. */
    public FakeUsage {
        if (thinkingTokens != null && thinkingTokens < 0) {
            throw new IllegalArgumentException("thinking tokens must not be negative");
        }
        if (inputTokens < 0
                || outputTokens < 0
                || cacheCreationInputTokens < 0
                || cacheReadInputTokens < 0
                || ephemeral5mInputTokens < 0
                || ephemeral1hInputTokens < 0) {
            throw new IllegalArgumentException("token counts must not be negative");
        }
        // Kept in the order given, so the JSON reads as scripted; a null map is none.
        serverToolUse = serverToolUse == null ? java.util.Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(serverToolUse));
        for (var counter : serverToolUse.entrySet()) {
            if (counter.getKey() == null || counter.getValue() == null || counter.getValue() < 0) {
                throw new IllegalArgumentException("server_tool_use counts must be named and not negative: " + serverToolUse);
            }
        }
    }

    /**
     * Usage without thinking tokens reported.
     *
     * @param inputTokens {@code input_tokens}
     * @param outputTokens {@code output_tokens}
     * @param cacheCreationInputTokens {@code cache_creation_input_tokens}
     * @param cacheReadInputTokens {@code cache_read_input_tokens}
     * @param ephemeral5mInputTokens {@code cache_creation.ephemeral_5m_input_tokens}
     * @param ephemeral1hInputTokens {@code cache_creation.ephemeral_1h_input_tokens}
     * @param serverToolUse {@code server_tool_use}, by counter; empty or {@code null} for none
     */
    public FakeUsage(int inputTokens, int outputTokens, int cacheCreationInputTokens, int cacheReadInputTokens,
                     int ephemeral5mInputTokens, int ephemeral1hInputTokens, java.util.Map<String, Integer> serverToolUse) {
        this(inputTokens, outputTokens, cacheCreationInputTokens, cacheReadInputTokens, ephemeral5mInputTokens,
                ephemeral1hInputTokens, serverToolUse, null);
    }

    /**
     * Usage without server tool uses.
     *
     * @param inputTokens {@code input_tokens}
     * @param outputTokens {@code output_tokens}
     * @param cacheCreationInputTokens {@code cache_creation_input_tokens}
     * @param cacheReadInputTokens {@code cache_read_input_tokens}
     * @param ephemeral5mInputTokens {@code cache_creation.ephemeral_5m_input_tokens}
     * @param ephemeral1hInputTokens {@code cache_creation.ephemeral_1h_input_tokens}
     */
    public FakeUsage(int inputTokens, int outputTokens, int cacheCreationInputTokens, int cacheReadInputTokens,
                     int ephemeral5mInputTokens, int ephemeral1hInputTokens) {
        this(inputTokens, outputTokens, cacheCreationInputTokens, cacheReadInputTokens, ephemeral5mInputTokens,
                ephemeral1hInputTokens, java.util.Map.of());
    }

    /**
     * The same usage with the server tools the API ran, e.g. {@code withServerToolUse("web_search_requests", 2)}.
     *
     * @param counter the counter's name in {@code server_tool_use}
     * @param count its value
     * @return a new usage
     */
    public FakeUsage withServerToolUse(String counter, int count) {
        java.util.Map<String, Integer> more = new java.util.LinkedHashMap<>(serverToolUse);
        more.put(java.util.Objects.requireNonNull(counter, "counter"), count);
        return new FakeUsage(inputTokens, outputTokens, cacheCreationInputTokens, cacheReadInputTokens,
                ephemeral5mInputTokens, ephemeral1hInputTokens, more, thinkingTokens);
    }

    /**
     * The same usage with the part of the output spent thinking ({@code output_tokens_details.thinking_tokens}).
     *
     * @param thinkingTokens the thinking tokens, a part of {@code outputTokens}
     * @return a new usage
     */
    public FakeUsage withThinkingTokens(int thinkingTokens) {
        return new FakeUsage(inputTokens, outputTokens, cacheCreationInputTokens, cacheReadInputTokens,
                ephemeral5mInputTokens, ephemeral1hInputTokens, serverToolUse, thinkingTokens);
    }

    /**
     * Usage without any prompt caching.
     *
     * @param inputTokens input tokens
     * @param outputTokens output tokens
     * @return the usage
     */
    public static FakeUsage of(int inputTokens, int outputTokens) {
        return new FakeUsage(inputTokens, outputTokens, 0, 0, 0, 0);
    }

    /**
     * Usage with prompt caching, all cache writes in the 5-minute bucket (the API's default TTL).
     *
     * @param inputTokens uncached input tokens
     * @param outputTokens output tokens
     * @param cacheCreationInputTokens tokens written to the cache
     * @param cacheReadInputTokens tokens read from the cache
     * @return the usage
     */
    public static FakeUsage cached(
            int inputTokens, int outputTokens, int cacheCreationInputTokens, int cacheReadInputTokens) {
        return new FakeUsage(
                inputTokens, outputTokens, cacheCreationInputTokens, cacheReadInputTokens, cacheCreationInputTokens, 0);
    }
}
