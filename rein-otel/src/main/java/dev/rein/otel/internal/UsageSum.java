package dev.rein.otel.internal;

import dev.rein.model.Usage;
import dev.rein.otel.GenAiConventions;
import io.opentelemetry.api.trace.Span;

/** The token usage of the model calls under one run span. */
final class UsageSum {
    private Usage total = Usage.ZERO;

    synchronized void add(Usage usage) {
        if (usage != null) {
            total = total.plus(usage);
        }
    }

    synchronized void record(Span span) {
        span.setAttribute(GenAiConventions.USAGE_INPUT_TOKENS, total.totalInputTokens());
        span.setAttribute(GenAiConventions.USAGE_OUTPUT_TOKENS, total.outputTokens());
        span.setAttribute(GenAiConventions.USAGE_CACHE_READ_INPUT_TOKENS, total.cacheReadInputTokens());
        span.setAttribute(GenAiConventions.USAGE_CACHE_CREATION_INPUT_TOKENS, total.cacheWriteInputTokens());
        if (total.reasoningOutputTokens() > 0) {
            span.setAttribute(GenAiConventions.USAGE_REASONING_OUTPUT_TOKENS, total.reasoningOutputTokens());
        }
        if (total.estimated()) {
            // some call's counts are Rein's estimate, so the sum is too: as marked on that call's span
            span.setAttribute(dev.rein.otel.ReinConventions.USAGE_ESTIMATED, true);
        }
    }
}
