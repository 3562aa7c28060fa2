package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.model.Model;
import dev.rein.model.ModelException;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.Usage;
import dev.rein.retry.RetryPolicy;
import dev.rein.tool.Secrets;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A streamed call that fails after some text and is retried: the failed attempt's text comes before
 * the model_retry event (also text held back for secret masking), and the retry's text after it, so
 * a consumer that shows the text live knows which text to drop (docs/replay.md).
 */
class StreamedRetryTextTest {
    private static Model failsOnceMidAnswer() {
        AtomicInteger calls = new AtomicInteger();
        return (request, context) -> {
            if (calls.getAndIncrement() == 0) {
                context.stream().onTextDelta("途中まで書いた");
                throw new ModelException(ModelException.Kind.CONNECTION, 0, "connection reset");
            }
            context.stream().onTextDelta("完全な");
            context.stream().onTextDelta("答え");
            return new ModelResponse("m1", "m", List.of(new TextBlock("完全な答え")), StopReason.END_TURN, null, Usage.NOT_REPORTED);
        };
    }

    private static String textAroundTheRetry(Agent.Builder builder) {
        StringBuilder seen = new StringBuilder();
        try (RunStream run = builder.build().stream("答えて")) {
            for (RunEvent event : run) {
                if (event instanceof RunEvent.TextDelta delta) {
                    seen.append(delta.text());
                } else if (event.type().equals("model_retry")) {
                    seen.append(" | ");
                } else if (event instanceof RunEvent.Finished finished) {
                    assertThat(finished.result().answer()).isEqualTo("完全な答え");
                }
            }
        }
        return seen.toString();
    }

    private static Agent.Builder agent() {
        return Agent.builder().model(failsOnceMidAnswer()).modelName("m").budget(Budget.builder().maxCostUsd((BigDecimal) null).build())
                .retryPolicy(new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(2), 0));
    }

    @Test
    void theFailedAttemptsTextComesBeforeModelRetryAndTheRetrysAfterIt() {
        assertThat(textAroundTheRetry(agent())).isEqualTo("途中まで書いた | 完全な答え");
        assertThat(textAroundTheRetry(agent().secrets(Secrets.of(Map.of("api_key", "sk-live-0123456789")))))
                .as("text held back for masking is released before the retry").isEqualTo("途中まで書いた | 完全な答え");
    }

    /**
     * A listener got the failed attempt's text and then the retry's, with nothing on the stream interface to say the
     * first was void (only a trace event, on another callback). onRetry now comes between them, after the held-back
     * text of the failed attempt and before the retry's first delta.
     */
    @Test
    void aListenerIsToldToDiscardTheFailedAttemptsTextBeforeTheRetrysText() {
        for (Agent.Builder builder : List.of(agent(), agent().secrets(Secrets.of(Map.of("api_key", "sk-live-0123456789"))))) {
            StringBuilder seen = new StringBuilder();
            dev.rein.trace.RunListener listener = textAndDiscards(seen, " ");
            RunResult result = builder.listener(runId -> listener).build().run("答えて");
            assertThat(result.answer()).isEqualTo("完全な答え");
            assertThat(seen.toString()).isEqualTo("途中まで書いた [discard attempt 1] 完全な答え");
        }
    }

    /** onRetry is said of an attempt that streamed nothing too (a 429 refused before any output), as its Javadoc says. */
    @Test
    void anAttemptThatStreamedNothingIsAnnouncedToo() {
        AtomicInteger calls = new AtomicInteger();
        Model refusedOnce = (request, context) -> {
            if (calls.getAndIncrement() == 0) {
                throw new ModelException(ModelException.Kind.RATE_LIMITED, 429, "rate limited");
            }
            context.stream().onTextDelta("答え");
            return new ModelResponse("m1", "m", List.of(new TextBlock("答え")), StopReason.END_TURN, null, Usage.NOT_REPORTED);
        };
        StringBuilder seen = new StringBuilder();
        dev.rein.trace.RunListener listener = textAndDiscards(seen, "");
        RunResult result = Agent.builder().model(refusedOnce).modelName("m")
                .budget(Budget.builder().maxCostUsd((BigDecimal) null).build())
                .retryPolicy(new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(2), 0))
                .listener(runId -> listener).build().run("答えて");
        assertThat(result.answer()).isEqualTo("答え");
        assertThat(seen.toString()).isEqualTo("[discard attempt 1] 答え");
    }

    /**
     * An application's fallback stage moves the call on to a backup model after the primary streamed part of an answer:
     * the primary's text is void as a retried attempt's is. A RunStream consumer got it followed by the backup's text with
     * nothing between them to say so, and a listener was never told to discard it (only the retry stage said onRetry).
     * Now the model_fallback event comes between the two, and onRetry is said before the backup's first delta.
     */
    @Test
    void aFallbackStageMovingOnFromAnAttemptThatStreamedTextSaysToDiscardItAsARetryDoes() {
        Model primaryFailsMidAnswer = (request, context) -> {
            if (!request.model().equals("backup")) {
                context.stream().onTextDelta("途中まで書いた");
                throw new ModelException(ModelException.Kind.CONNECTION, 0, "connection reset");
            }
            context.stream().onTextDelta("完全な");
            context.stream().onTextDelta("答え");
            return new ModelResponse("m1", "backup", List.of(new TextBlock("完全な答え")), StopReason.END_TURN, null,
                    Usage.NOT_REPORTED);
        };
        dev.rein.model.ModelInterceptor fallback = new dev.rein.model.ModelInterceptor() {
            @Override
            public ModelResponse intercept(dev.rein.model.ModelCall call, Chain chain) throws ModelException, InterruptedException {
                try {
                    return chain.proceed(call);
                } catch (ModelException first) {
                    return chain.proceed(call.withRequest(call.request().withModel("backup")));
                }
            }

            @Override
            public boolean retries() {
                return true;
            }
        };
        java.util.function.Supplier<Agent.Builder> agent = () -> Agent.builder().model(primaryFailsMidAnswer).modelName("m")
                .budget(Budget.builder().maxCostUsd((BigDecimal) null).build()).retryPolicy(RetryPolicy.NONE)
                .modelInterceptor(fallback);
        for (Secrets secrets : List.of(Secrets.NONE, Secrets.of(Map.of("api_key", "sk-live-0123456789")))) {
            StringBuilder streamed = new StringBuilder();
            try (RunStream run = agent.get().secrets(secrets).build().stream("答えて")) {
                for (RunEvent event : run) {
                    if (event instanceof RunEvent.TextDelta delta) {
                        streamed.append(delta.text());
                    } else if (event.type().equals("model_fallback")) {
                        streamed.append(" | ");
                    } else if (event instanceof RunEvent.Finished finished) {
                        assertThat(finished.result().answer()).as(finished.result().reason() + ": " + finished.result().message()).isEqualTo("完全な答え");
                    }
                }
            }
            assertThat(streamed.toString()).isEqualTo("途中まで書いた | 完全な答え");

            StringBuilder heard = new StringBuilder();
            dev.rein.trace.RunListener listener = textAndDiscards(heard, " ");
            RunResult result = agent.get().secrets(secrets).listener(runId -> listener).build().run("答えて");
            assertThat(result.answer()).isEqualTo("完全な答え");
            assertThat(heard.toString()).isEqualTo("途中まで書いた [discard attempt 1] 完全な答え");
        }
    }

    /** A listener writing each text delta to {@code seen}, and each onRetry as {@code before}"[discard attempt N] ". */
    private static dev.rein.trace.RunListener textAndDiscards(StringBuilder seen, String before) {
        return new dev.rein.trace.RunListener() {
            @Override
            public void onTextDelta(String text) {
                seen.append(text);
            }

            @Override
            public void onRetry(int failedAttempt) {
                seen.append(before).append("[discard attempt ").append(failedAttempt).append("] ");
            }
        };
    }
}
