package dev.rein.model;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Token usage of one model call. Cache writes are split by lifetime because they are priced
 * differently (5-minute writes at 1.25x input, 1-hour writes at 2x).
 */
public record Usage(long inputTokens, long outputTokens, long cacheReadInputTokens,
                    long cacheWrite5mInputTokens, long cacheWrite1hInputTokens) {

    public static final Usage ZERO = new Usage(0, 0, 0, 0, 0);

    public Usage {
        if (inputTokens < 0 || outputTokens < 0 || cacheReadInputTokens < 0
                || cacheWrite5mInputTokens < 0 || cacheWrite1hInputTokens < 0) {
            throw new IllegalArgumentException("token counts cannot be negative");
        }
    }

    /** Usage with all cache writes counted as 5-minute writes. */
    public static Usage of(long input, long output, long cacheRead, long cacheWrite) {
        return new Usage(input, output, cacheRead, cacheWrite, 0);
    }

    /** All tokens written to the cache, whatever their lifetime (the API's {@code cache_creation_input_tokens}). */
    @JsonProperty(value = "cache_creation_input_tokens", access = JsonProperty.Access.READ_ONLY)
    public long cacheCreationInputTokens() {
        return cacheWrite5mInputTokens + cacheWrite1hInputTokens;
    }

    /** Every input token of the call: uncached, read from cache and written to cache. */
    public long totalInputTokens() {
        return inputTokens + cacheReadInputTokens + cacheCreationInputTokens();
    }

    public Usage plus(Usage other) {
        return new Usage(inputTokens + other.inputTokens, outputTokens + other.outputTokens,
                cacheReadInputTokens + other.cacheReadInputTokens,
                cacheWrite5mInputTokens + other.cacheWrite5mInputTokens,
                cacheWrite1hInputTokens + other.cacheWrite1hInputTokens);
    }
}
