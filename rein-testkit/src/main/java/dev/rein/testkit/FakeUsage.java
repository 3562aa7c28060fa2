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
 */
public record FakeUsage(
        int inputTokens,
        int outputTokens,
        int cacheCreationInputTokens,
        int cacheReadInputTokens,
        int ephemeral5mInputTokens,
        int ephemeral1hInputTokens) {

    /** Negative counts never come from the API, so they are rejected as a scripting mistake. */
    public FakeUsage {
        if (inputTokens < 0
                || outputTokens < 0
                || cacheCreationInputTokens < 0
                || cacheReadInputTokens < 0
                || ephemeral5mInputTokens < 0
                || ephemeral1hInputTokens < 0) {
            throw new IllegalArgumentException("token counts must not be negative");
        }
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
