package dev.rein.otel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.model.Model;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.provider.ModelDefaults;
import dev.rein.provider.PricedModel;
import dev.rein.retry.RetryPolicy;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FallbackStage;
import dev.rein.testkit.ScriptedModel;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A fallback stage moves a call to another model or another provider's: the chat span is named after the
 * last attempt's model, so each move is a {@code rein.model.fallback} event saying from which model and
 * provider to which, and why the attempt before it failed, as each retry is a {@code rein.model.retry}.
 */
class ModelFallbackTest {
    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    private static final ModelPrice PRICE = ModelPrice.of("3", "0.3", "15");

    /**
     * A model of some provider whose calls go to {@code server} (null: it names none), which it reports as
     * rein-anthropic's and rein-openai's models do.
     */
    private record ProviderModel(ScriptedModel script, String provider, String server) implements Model, ModelDefaults {
        /** A model that names no server. */
        ProviderModel(ScriptedModel script, String provider) {
            this(script, provider, null);
        }

        @Override
        public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
            return script.call(request, context);
        }

        @Override
        public String defaultModelName() {
            return "test-model";
        }

        @Override
        public PriceTable prices() {
            return PriceTable.empty().with("test-model", PRICE);
        }

        @Override
        public String providerName() {
            return provider;
        }

        @Override
        public java.net.URI serverUri() {
            return server == null ? null : java.net.URI.create("https://" + server + "/v1");
        }
    }

    private static SpanData onlyChat() {
        List<SpanData> chats = OTEL.getSpans().stream().filter(s -> s.getName().startsWith("chat ")).toList();
        assertThat(chats).hasSize(1);
        return chats.get(0);
    }

    private static List<EventData> events(SpanData span, String name) {
        return span.getEvents().stream().filter(e -> e.getName().equals(name)).toList();
    }

    /**
     * The agent's model (acme) is rate limited, retried once, then given up on; the stage moves the call to
     * another provider's model: after install (inside the telemetry stage) with {@code call.withModel}, or
     * before it (outside) likewise. The span names the backup's provider, and its fallback event the first.
     */
    @ParameterizedTest
    @ValueSource(strings = {"after install", "before install"})
    void aFallbackToAnotherProvidersModelIsAnEventNamingTheFirstModelAndProviderAndWhyItFailed(String where) {
        ScriptedModel primary = ScriptedModel.of(
                ScriptedModel.fail(new ModelException(ModelException.Kind.RATE_LIMITED, 429, "slow down")),
                ScriptedModel.fail(new ModelException(ModelException.Kind.RATE_LIMITED, 429, "slow down")));
        Model backup = new ProviderModel(ScriptedModel.of(ScriptedModel.text("Hi.")), "openai");
        ModelInterceptor stage = FallbackStage.to(backup);
        ReinTelemetry telemetry = ReinTelemetry.create(OTEL.getOpenTelemetry());
        Agent.Builder builder = Agent.builder().model(PricedModel.of(new ProviderModel(primary, "acme"), "test-model", PRICE))
                .retryPolicy(new RetryPolicy(1, Duration.ofMillis(1), Duration.ofMillis(2), 0));
        Agent agent = where.equals("after install")
                ? telemetry.install(builder).modelInterceptor(stage).build()
                : telemetry.install(builder.modelInterceptor(stage)).build();

        RunResult result = agent.run("say hi");
        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);

        SpanData chat = onlyChat();
        assertThat(chat.getAttributes().get(GenAiConventions.PROVIDER_NAME)).isEqualTo("openai");
        assertThat(events(chat, ReinConventions.EVENT_MODEL_RETRY)).hasSize(1); // the first model's retry, as before
        assertThat(events(chat, ReinConventions.EVENT_MODEL_FALLBACK)).singleElement().satisfies(event ->
                assertThat(event.getAttributes()).isEqualTo(Attributes.builder()
                        .put(ReinConventions.FALLBACK_FROM_MODEL, "test-model")
                        .put(ReinConventions.FALLBACK_FROM_PROVIDER, "acme")
                        .put(ReinConventions.FALLBACK_TO_MODEL, "test-model")
                        .put(ReinConventions.FALLBACK_TO_PROVIDER, "openai")
                        .put(GenAiConventions.ERROR_TYPE, "rate_limited")
                        .put(GenAiConventions.HTTP_RESPONSE_STATUS_CODE, 429L)
                        .build()));
        List<String> order = chat.getEvents().stream().map(EventData::getName).toList();
        assertThat(order).containsExactly(ReinConventions.EVENT_MODEL_RETRY, ReinConventions.EVENT_MODEL_FALLBACK);
    }

    /**
     * A failed attempt whose server reported usage, that a stage moved on from: no retry or failure event of the run
     * says that usage, so its fallback event does (as a retry's event does), and the token metric counts it once.
     */
    @Test
    void theUsageAFailedAttemptsServerReportedIsOnTheFallbackEventThatLeftIt() {
        ScriptedModel primary = ScriptedModel.of(ScriptedModel.fail(new ModelException(ModelException.Kind.SERVER_ERROR, 0,
                "the response ended with finish_reason error", false, null, null, dev.rein.model.Usage.of(800, 5, 0, 0), null)));
        Model backup = new ProviderModel(ScriptedModel.of(ScriptedModel.text("Hi.")), "openai");
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry())
                .install(Agent.builder().model(PricedModel.of(new ProviderModel(primary, "acme"), "test-model", PRICE))
                        .retryPolicy(RetryPolicy.NONE))
                .modelInterceptor(FallbackStage.to(backup)).build();

        assertThat(agent.run("say hi").status()).isEqualTo(RunStatus.SUCCEEDED);

        assertThat(events(onlyChat(), ReinConventions.EVENT_MODEL_FALLBACK)).singleElement().satisfies(event -> {
            assertThat(event.getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS)).isEqualTo(800L);
            assertThat(event.getAttributes().get(GenAiConventions.USAGE_OUTPUT_TOKENS)).isEqualTo(5L);
        });
        List<io.opentelemetry.sdk.metrics.data.HistogramPointData> input = OTEL.getMetrics().stream()
                .filter(m -> m.getName().equals(GenAiConventions.METRIC_TOKEN_USAGE))
                .flatMap(m -> m.getHistogramData().getPoints().stream())
                .filter(p -> "input".equals(p.getAttributes().get(GenAiConventions.TOKEN_TYPE))).toList();
        assertThat(input).filteredOn(p -> "acme".equals(p.getAttributes().get(GenAiConventions.PROVIDER_NAME)))
                .singleElement().satisfies(p -> {
                    assertThat(p.getSum()).isEqualTo(800.0);
                    assertThat(p.getCount()).isEqualTo(1);
                });
    }

    private static List<io.opentelemetry.sdk.metrics.data.HistogramPointData> inputTokenPoints() {
        return OTEL.getMetrics().stream()
                .filter(m -> m.getName().equals(GenAiConventions.METRIC_TOKEN_USAGE))
                .flatMap(m -> m.getHistogramData().getPoints().stream())
                .filter(p -> "input".equals(p.getAttributes().get(GenAiConventions.TOKEN_TYPE))).toList();
    }

    /**
     * The failed primary's reported tokens, counted when the stage moves on to a backup at another server, name the
     * primary's server (the attempt's), not the backup's the span has learnt by then.
     */
    @Test
    void theTokensOfAFailedAttemptLeftForABackupNameTheAttemptsServer() {
        ScriptedModel primary = ScriptedModel.of(ScriptedModel.fail(new ModelException(ModelException.Kind.SERVER_ERROR, 0,
                "the response ended with finish_reason error", false, null, null, dev.rein.model.Usage.of(800, 5, 0, 0), null)));
        Model backup = new ProviderModel(ScriptedModel.of(ScriptedModel.text("Hi.")), "openai", "backup.example");
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry())
                .install(Agent.builder().model(PricedModel.of(new ProviderModel(primary, "acme", "primary.example"), "test-model", PRICE))
                        .retryPolicy(RetryPolicy.NONE))
                .modelInterceptor(FallbackStage.to(backup)).build();

        assertThat(agent.run("say hi").status()).isEqualTo(RunStatus.SUCCEEDED);

        assertThat(inputTokenPoints()).filteredOn(p -> "acme".equals(p.getAttributes().get(GenAiConventions.PROVIDER_NAME)))
                .singleElement().satisfies(p -> {
                    assertThat(p.getAttributes().get(GenAiConventions.SERVER_ADDRESS)).isEqualTo("primary.example");
                    assertThat(p.getSum()).isEqualTo(800.0);
                });
    }

    /**
     * A stage that rethrows the primary's failure (its usage said on the fallback event) when the backup failed without
     * usage: the usage is counted once, on the fallback event under the primary's provider, not again as the call's.
     */
    @Test
    void aRethrownFailureWhoseUsageTheFallbackEventSaidIsNotCountedAgain() {
        ScriptedModel primary = ScriptedModel.of(ScriptedModel.fail(new ModelException(ModelException.Kind.SERVER_ERROR, 0,
                "the response ended with finish_reason error", false, null, null, dev.rein.model.Usage.of(800, 5, 0, 0), null)));
        Model backup = new ProviderModel(ScriptedModel.of(
                ScriptedModel.fail(new ModelException(ModelException.Kind.OVERLOADED, 529, "overloaded"))), "openai");
        ModelInterceptor rethrowsThePrimarysFailure = FallbackStage.to(backup).endingWithFirstFailure();
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry())
                .install(Agent.builder().model(PricedModel.of(new ProviderModel(primary, "acme"), "test-model", PRICE))
                        .retryPolicy(RetryPolicy.NONE))
                .modelInterceptor(rethrowsThePrimarysFailure).build();

        assertThat(agent.run("say hi").status()).isNotEqualTo(RunStatus.SUCCEEDED);

        SpanData chat = onlyChat();
        assertThat(events(chat, ReinConventions.EVENT_MODEL_FALLBACK)).singleElement().satisfies(event ->
                assertThat(event.getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS)).isEqualTo(800L));
        assertThat(chat.getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS)).isNull();
        assertThat(inputTokenPoints()).singleElement().satisfies(p -> {
            assertThat(p.getAttributes().get(GenAiConventions.PROVIDER_NAME)).isEqualTo("acme");
            assertThat(p.getSum()).isEqualTo(800.0);
            assertThat(p.getCount()).isEqualTo(1);
        });
    }

    /**
     * The backup failed too after its server reported usage, and the stage rethrew the primary's failure: the primary's
     * usage is the fallback event's, and the backup's, which no event says, is the call's, counted once as the backup's.
     */
    @Test
    void aRethrownFailureOfThePrimaryStillCountsTheUsageTheBackupsServerReported() {
        ScriptedModel primary = ScriptedModel.of(ScriptedModel.fail(new ModelException(ModelException.Kind.SERVER_ERROR, 0,
                "the response ended with finish_reason error", false, null, null, dev.rein.model.Usage.of(800, 5, 0, 0), null)));
        Model backup = new ProviderModel(ScriptedModel.of(ScriptedModel.fail(new ModelException(ModelException.Kind.SERVER_ERROR,
                0, "the stream was cut", false, null, null, dev.rein.model.Usage.of(300, 2, 0, 0), null))), "openai");
        ModelInterceptor rethrowsThePrimarysFailure = FallbackStage.to(backup).endingWithFirstFailure();
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry())
                .install(Agent.builder().model(PricedModel.of(new ProviderModel(primary, "acme"), "test-model", PRICE))
                        .retryPolicy(RetryPolicy.NONE))
                .modelInterceptor(rethrowsThePrimarysFailure).build();

        assertThat(agent.run("say hi").status()).isNotEqualTo(RunStatus.SUCCEEDED);

        SpanData chat = onlyChat();
        assertThat(events(chat, ReinConventions.EVENT_MODEL_FALLBACK)).singleElement().satisfies(event ->
                assertThat(event.getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS)).isEqualTo(800L));
        assertThat(chat.getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS)).isEqualTo(300L);
        assertThat(inputTokenPoints()).extracting(p -> p.getAttributes().get(GenAiConventions.PROVIDER_NAME) + "=" + p.getSum())
                .containsExactlyInAnyOrder("acme=800.0", "openai=300.0");
    }

    /**
     * The primary and the backup both failed reporting the same Usage instance (a model that reports one constant usage
     * for a failure): two attempts, each counted once, whether the stage rethrows the primary's failure or the
     * backup's own. The primary's is the fallback event's, under acme; the backup's is the call's, under openai.
     */
    @ParameterizedTest
    @ValueSource(strings = {"rethrows the primary's", "throws the backup's"})
    void twoAttemptsReportingOneUsageInstanceAreEachCountedOnce(String stageKind) {
        dev.rein.model.Usage shared = dev.rein.model.Usage.of(800, 5, 0, 0);
        ScriptedModel primary = ScriptedModel.of(ScriptedModel.fail(new ModelException(ModelException.Kind.SERVER_ERROR, 0,
                "the response ended with finish_reason error", false, null, null, shared, null)));
        Model backup = new ProviderModel(ScriptedModel.of(ScriptedModel.fail(new ModelException(ModelException.Kind.SERVER_ERROR,
                0, "the stream was cut", false, null, null, shared, null))), "openai");
        ModelInterceptor stage = stageKind.startsWith("rethrows") ? FallbackStage.to(backup).endingWithFirstFailure()
                : FallbackStage.to(backup);
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry())
                .install(Agent.builder().model(PricedModel.of(new ProviderModel(primary, "acme"), "test-model", PRICE))
                        .retryPolicy(RetryPolicy.NONE))
                .modelInterceptor(stage).build();

        assertThat(agent.run("say hi").status()).isNotEqualTo(RunStatus.SUCCEEDED);

        SpanData chat = onlyChat();
        assertThat(events(chat, ReinConventions.EVENT_MODEL_FALLBACK)).singleElement().satisfies(event ->
                assertThat(event.getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS)).isEqualTo(800L));
        assertThat(chat.getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS)).isEqualTo(800L);
        assertThat(inputTokenPoints()).extracting(p -> p.getAttributes().get(GenAiConventions.PROVIDER_NAME) + "=" + p.getSum()
                + "x" + p.getCount()).containsExactlyInAnyOrder("acme=800.0x1", "openai=800.0x1");
    }

    /**
     * A retried attempt and the last one reported the same Usage instance: the retry's event says the first, the span the
     * last, and the token metric counts both.
     */
    @Test
    void aRetriedAttemptAndTheLastReportingOneUsageInstanceAreEachCounted() {
        dev.rein.model.Usage shared = dev.rein.model.Usage.of(800, 5, 0, 0);
        ScriptedModel script = ScriptedModel.of(
                ScriptedModel.fail(new ModelException(ModelException.Kind.SERVER_ERROR, 0, "the stream was cut", true, null,
                        null, shared, null)),
                ScriptedModel.fail(new ModelException(ModelException.Kind.SERVER_ERROR, 0, "the stream was cut", false, null,
                        null, shared, null)));
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry())
                .install(Agent.builder().model(PricedModel.of(new ProviderModel(script, "acme"), "test-model", PRICE))
                        .retryPolicy(new RetryPolicy(1, Duration.ofMillis(1), Duration.ofMillis(2), 0)))
                .build();

        assertThat(agent.run("say hi").status()).isNotEqualTo(RunStatus.SUCCEEDED);

        SpanData chat = onlyChat();
        assertThat(events(chat, ReinConventions.EVENT_MODEL_RETRY)).singleElement().satisfies(event ->
                assertThat(event.getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS)).isEqualTo(800L));
        assertThat(chat.getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS)).isEqualTo(800L);
        assertThat(inputTokenPoints()).singleElement().satisfies(p -> {
            assertThat(p.getSum()).isEqualTo(1600.0);
            assertThat(p.getCount()).isEqualTo(2);
        });
    }

    /**
     * An application's stage calls the same model again after a failure the retry stage did not retry, whose server
     * reported usage: no retry or fallback event says that attempt, yet its tokens are counted in the token metric once,
     * under its model, beside the answer's.
     */
    @Test
    void anAttemptAStageMadeAgainOfTheSameModelAfterAFailureWithUsageIsCounted() {
        ScriptedModel script = ScriptedModel.of(
                ScriptedModel.fail(new ModelException(ModelException.Kind.SERVER_ERROR, 0, "the stream was cut", false, null,
                        null, dev.rein.model.Usage.of(800, 5, 0, 0), null)),
                ScriptedModel.text("Hi."));
        ModelInterceptor callsAgain = new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                try {
                    return chain.proceed(call);
                } catch (ModelException e) {
                    return chain.proceed(call);
                }
            }

            @Override
            public boolean retries() {
                return true;
            }
        };
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry())
                .install(Agent.builder().model(PricedModel.of(new ProviderModel(script, "acme"), "test-model", PRICE))
                        .retryPolicy(RetryPolicy.NONE))
                .modelInterceptor(callsAgain).build();

        assertThat(agent.run("say hi").status()).isEqualTo(RunStatus.SUCCEEDED);

        SpanData chat = onlyChat();
        assertThat(events(chat, ReinConventions.EVENT_MODEL_FALLBACK)).isEmpty();
        assertThat(chat.getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS))
                .isEqualTo(ScriptedModel.DEFAULT_USAGE.totalInputTokens());
        assertThat(inputTokenPoints()).allSatisfy(p ->
                assertThat(p.getAttributes().get(GenAiConventions.REQUEST_MODEL)).isEqualTo("test-model"));
        assertThat(inputTokenPoints().stream().mapToDouble(p -> p.getSum()).sum())
                .isEqualTo(800.0 + ScriptedModel.DEFAULT_USAGE.totalInputTokens());
        assertThat(inputTokenPoints().stream().mapToLong(p -> p.getCount()).sum()).isEqualTo(2);
    }

    /**
     * A stage calls the same model again after a failure whose server reported usage; the second attempt fails without
     * usage and the stage rethrows the first failure as the call's: no event says the first attempt's usage, so the span
     * has it (as the call's failure and the trace's model_failed do), and the token metric counts it once.
     */
    @Test
    void aRethrownFailureOfAnAttemptAStageMadeAgainOfTheSameModelKeepsItsUsageOnTheSpan() {
        ScriptedModel script = ScriptedModel.of(
                ScriptedModel.fail(new ModelException(ModelException.Kind.SERVER_ERROR, 0, "the stream was cut", false, null,
                        null, dev.rein.model.Usage.of(800, 5, 0, 0), null)),
                ScriptedModel.fail(new ModelException(ModelException.Kind.SERVER_ERROR, 503, "service unavailable")));
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry())
                .install(Agent.builder().model(PricedModel.of(new ProviderModel(script, "acme"), "test-model", PRICE))
                        .retryPolicy(RetryPolicy.NONE))
                .modelInterceptor(FallbackStage.of(call -> call).endingWithFirstFailure()).build();

        assertThat(agent.run("say hi").status()).isNotEqualTo(RunStatus.SUCCEEDED);

        SpanData chat = onlyChat();
        assertThat(events(chat, ReinConventions.EVENT_MODEL_FALLBACK)).isEmpty();
        assertThat(chat.getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS)).isEqualTo(800L);
        assertThat(chat.getAttributes().get(GenAiConventions.USAGE_OUTPUT_TOKENS)).isEqualTo(5L);
        assertThat(inputTokenPoints()).singleElement().satisfies(p -> {
            assertThat(p.getSum()).isEqualTo(800.0);
            assertThat(p.getCount()).isEqualTo(1);
        });
    }

    /**
     * As above, but the second attempt's server reported usage too: the span has the last attempt's usage (as for a
     * fallback stage rethrowing the primary's failure), and the token metric counts each attempt's once.
     */
    @Test
    void aRethrownFailureOfAnAttemptAStageMadeAgainOfTheSameModelLeavesTheSpanTheLastAttemptsUsage() {
        ScriptedModel script = ScriptedModel.of(
                ScriptedModel.fail(new ModelException(ModelException.Kind.SERVER_ERROR, 0, "the stream was cut", false, null,
                        null, dev.rein.model.Usage.of(800, 5, 0, 0), null)),
                ScriptedModel.fail(new ModelException(ModelException.Kind.SERVER_ERROR, 0, "the stream was cut", false, null,
                        null, dev.rein.model.Usage.of(300, 2, 0, 0), null)));
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry())
                .install(Agent.builder().model(PricedModel.of(new ProviderModel(script, "acme"), "test-model", PRICE))
                        .retryPolicy(RetryPolicy.NONE))
                .modelInterceptor(FallbackStage.of(call -> call).endingWithFirstFailure()).build();

        assertThat(agent.run("say hi").status()).isNotEqualTo(RunStatus.SUCCEEDED);

        SpanData chat = onlyChat();
        assertThat(chat.getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS)).isEqualTo(300L);
        assertThat(inputTokenPoints()).singleElement().satisfies(p -> {
            assertThat(p.getSum()).isEqualTo(1100.0);
            assertThat(p.getCount()).isEqualTo(2);
        });
    }

    /**
     * A stage calls the model again after an answer and keeps the second answer: the span and the token metric have the
     * answer the call returned; the discarded answer's usage is in neither (the documented limit).
     */
    @Test
    void anAnswerAStageDiscardedIsNotCountedAndTheKeptAnswersIs() {
        ScriptedModel script = ScriptedModel.of(
                ScriptedModel.withUsage(dev.rein.model.Usage.of(700, 40, 0, 0), ScriptedModel.text("Hello.")),
                ScriptedModel.withUsage(dev.rein.model.Usage.of(300, 2, 0, 0), ScriptedModel.text("Hi.")));
        ModelInterceptor keepsTheSecondAnswer = new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                chain.proceed(call);
                return chain.proceed(call);
            }

            @Override
            public boolean retries() {
                return true;
            }
        };
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry())
                .install(Agent.builder().model(PricedModel.of(new ProviderModel(script, "acme"), "test-model", PRICE))
                        .retryPolicy(RetryPolicy.NONE))
                .modelInterceptor(keepsTheSecondAnswer).build();

        assertThat(agent.run("say hi").status()).isEqualTo(RunStatus.SUCCEEDED);

        SpanData chat = onlyChat();
        assertThat(chat.getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS)).isEqualTo(300L);
        assertThat(inputTokenPoints()).singleElement().satisfies(p -> {
            assertThat(p.getSum()).isEqualTo(300.0);
            assertThat(p.getCount()).isEqualTo(1);
        });
    }

    /**
     * Two fallbacks, the second within the provider by renaming the request's model, the last failing too:
     * each move is its event, in order, and the span's own error.type is the last attempt's failure.
     */
    @Test
    void eachMoveOfAChainOfFallbacksIsAnEventAndTheLastFailureIsTheSpans() {
        ScriptedModel primary = ScriptedModel.of(ScriptedModel.fail(new ModelException(ModelException.Kind.AUTHENTICATION, 401, "bad key")));
        ScriptedModel other = ScriptedModel.of(
                ScriptedModel.fail(new ModelException(ModelException.Kind.OVERLOADED, 529, "overloaded")),
                ScriptedModel.fail(new ModelException(ModelException.Kind.NOT_FOUND, 404, "no such model")));
        Model backup = new ProviderModel(other, "openai");
        ModelInterceptor stage = FallbackStage.of(call -> call.withModel(backup),
                call -> call.withModel(backup).withRequest(call.request().withModel("smaller-model")));
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry())
                .install(Agent.builder().model(PricedModel.of(new ProviderModel(primary, "acme"), "test-model", PRICE))
                        .price("smaller-model", PRICE).retryPolicy(RetryPolicy.NONE))
                .modelInterceptor(stage).build();

        RunResult result = agent.run("say hi");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);

        SpanData chat = onlyChat();
        assertThat(chat.getName()).isEqualTo("chat smaller-model");
        assertThat(chat.getAttributes().get(GenAiConventions.ERROR_TYPE)).isEqualTo("not_found");
        List<EventData> moves = events(chat, ReinConventions.EVENT_MODEL_FALLBACK);
        assertThat(moves).hasSize(2);
        assertThat(moves.get(0).getAttributes().get(ReinConventions.FALLBACK_FROM_PROVIDER)).isEqualTo("acme");
        assertThat(moves.get(0).getAttributes().get(ReinConventions.FALLBACK_TO_PROVIDER)).isEqualTo("openai");
        assertThat(moves.get(0).getAttributes().get(GenAiConventions.ERROR_TYPE)).isEqualTo("authentication");
        assertThat(moves.get(1).getAttributes()).isEqualTo(Attributes.builder()
                .put(ReinConventions.FALLBACK_FROM_MODEL, "test-model")
                .put(ReinConventions.FALLBACK_FROM_PROVIDER, "openai")
                .put(ReinConventions.FALLBACK_TO_MODEL, "smaller-model")
                .put(ReinConventions.FALLBACK_TO_PROVIDER, "openai")
                .put(GenAiConventions.ERROR_TYPE, "overloaded")
                .put(GenAiConventions.HTTP_RESPONSE_STATUS_CODE, 529L)
                .build());
    }

    /**
     * With providerName configured (a gateway) every attempt names that provider, so only a change of model is a
     * fallback: a move to another provider's model of the same name is none, a move to another model is one (probe).
     */
    @Test
    void withAConfiguredProviderOnlyAChangeOfModelIsAFallback() {
        ScriptedModel primary = ScriptedModel.of(ScriptedModel.fail(new ModelException(ModelException.Kind.SERVER_ERROR, 500, "down")));
        ScriptedModel other = ScriptedModel.of(ScriptedModel.fail(new ModelException(ModelException.Kind.SERVER_ERROR, 500, "down")),
                ScriptedModel.text("Hi."));
        Model backup = new ProviderModel(other, "openai");
        ModelInterceptor stage = FallbackStage.of(call -> call.withModel(backup),
                call -> call.withModel(backup).withRequest(call.request().withModel("smaller-model")));
        Agent agent = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("gateway").build()
                .install(Agent.builder().model(PricedModel.of(new ProviderModel(primary, "acme"), "test-model", PRICE))
                        .price("smaller-model", PRICE).retryPolicy(RetryPolicy.NONE))
                .modelInterceptor(stage).build();
        assertThat(agent.run("say hi").status()).isEqualTo(RunStatus.SUCCEEDED);

        assertThat(events(onlyChat(), ReinConventions.EVENT_MODEL_FALLBACK)).singleElement().satisfies(event ->
                assertThat(event.getAttributes()).isEqualTo(Attributes.builder()
                        .put(ReinConventions.FALLBACK_FROM_MODEL, "test-model")
                        .put(ReinConventions.FALLBACK_FROM_PROVIDER, "gateway")
                        .put(ReinConventions.FALLBACK_TO_MODEL, "smaller-model")
                        .put(ReinConventions.FALLBACK_TO_PROVIDER, "gateway")
                        .put(GenAiConventions.ERROR_TYPE, "server_error")
                        .put(GenAiConventions.HTTP_RESPONSE_STATUS_CODE, 500L)
                        .build()));
    }

    /**
     * defaultProviderName (the command line's --provider) names only a model that names no provider: the agent's model
     * here, so the run span and the span as it began say "acme"; the call moved to the backup, which names its own,
     * and the span, its fallback event and the client metric say "openai", the provider the call reached.
     */
    @Test
    void aDefaultProviderNamesOnlyAModelThatNamesNoneAndAFallbackIsNamedByItsOwn() {
        ScriptedModel primary = ScriptedModel.of(ScriptedModel.fail(new ModelException(ModelException.Kind.SERVER_ERROR, 500, "down")));
        Model backup = new ProviderModel(ScriptedModel.of(ScriptedModel.text("Hi.")), "openai");
        Agent agent = ReinTelemetry.builder(OTEL.getOpenTelemetry()).defaultProviderName("acme").build()
                .install(Agent.builder().model(primary).modelName("test-model").price("test-model", PRICE).retryPolicy(RetryPolicy.NONE))
                .modelInterceptor(FallbackStage.to(backup)).build();
        assertThat(agent.run("say hi").status()).isEqualTo(RunStatus.SUCCEEDED);

        SpanData chat = onlyChat();
        assertThat(chat.getAttributes().get(GenAiConventions.PROVIDER_NAME)).isEqualTo("openai");
        assertThat(events(chat, ReinConventions.EVENT_MODEL_FALLBACK)).singleElement().satisfies(event -> {
            assertThat(event.getAttributes().get(ReinConventions.FALLBACK_FROM_PROVIDER)).isEqualTo("acme");
            assertThat(event.getAttributes().get(ReinConventions.FALLBACK_TO_PROVIDER)).isEqualTo("openai");
        });
        SpanData run = OTEL.getSpans().stream().filter(s -> s.getName().startsWith("invoke_agent")).findFirst().orElseThrow();
        assertThat(run.getAttributes().get(GenAiConventions.PROVIDER_NAME)).isEqualTo("acme");
        assertThat(OTEL.getMetrics()).filteredOn(m -> m.getName().equals(GenAiConventions.METRIC_OPERATION_DURATION))
                .singleElement().satisfies(m -> assertThat(m.getHistogramData().getPoints()).singleElement()
                        .satisfies(p -> assertThat(p.getAttributes().get(GenAiConventions.PROVIDER_NAME)).isEqualTo("openai")));

        assertThatThrownBy(() -> ReinTelemetry.builder(OTEL.getOpenTelemetry()).defaultProviderName(" ").build())
                .isInstanceOf(dev.rein.ReinException.class).hasMessageContaining("default provider name").hasMessageContaining("leave it unset");
    }

    /** Retries of one model are not fallbacks: they stay rein.model.retry events only. */
    @Test
    void retriesOfTheSameModelAreNoFallback() {
        ScriptedModel script = ScriptedModel.of(
                ScriptedModel.fail(new ModelException(ModelException.Kind.OVERLOADED, 529, "overloaded")), ScriptedModel.text("Hi."));
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry())
                .install(Agent.builder().model(PricedModel.of(new ProviderModel(script, "acme"), "test-model", PRICE))
                        .retryPolicy(new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(2), 0)))
                .build();
        assertThat(agent.run("say hi").status()).isEqualTo(RunStatus.SUCCEEDED);

        SpanData chat = onlyChat();
        assertThat(events(chat, ReinConventions.EVENT_MODEL_RETRY)).hasSize(1);
        assertThat(events(chat, ReinConventions.EVENT_MODEL_FALLBACK)).isEmpty();
    }
}
