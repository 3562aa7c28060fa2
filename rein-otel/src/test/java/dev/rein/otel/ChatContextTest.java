package dev.rein.otel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.TraceContextHeaders;
import dev.rein.provider.ModelDefaults;
import dev.rein.provider.PricedModel;
import dev.rein.retry.RetryPolicy;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The model call runs inside its chat span, and its request carries the span's traceparent. */
class ChatContextTest {
    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    /** What the provider saw on each attempt: the current span, its thread, and the trace headers it was asked to send. */
    record Seen(SpanContext current, boolean virtual, Map<String, String> headers) {}

    private final List<Seen> seen = new CopyOnWriteArrayList<>();

    private Model recording(ScriptedModel script) {
        return new Model() {
            @Override
            public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
                seen.add(new Seen(Span.current().getSpanContext(), Thread.currentThread().isVirtual(),
                        request.option(TraceContextHeaders.class).map(TraceContextHeaders::headers).orElse(Map.of())));
                return script.call(request, context);
            }
        };
    }

    @Test
    void eachAttemptRunsInTheChatSpanAndSendsItsTraceparent() {
        ScriptedModel script = ScriptedModel.of(
                ScriptedModel.fail(new ModelException(ModelException.Kind.OVERLOADED, 529, "overloaded")), ScriptedModel.text("Hi."));
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry()).install(Agent.builder().model(recording(script))
                        .modelName("test-model").prices(PriceTable.empty().with("test-model", ModelPrice.of("3", "0.3", "15")))
                        .retryPolicy(new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(5), 0)))
                .build();
        RunResult result = agent.run("say hi");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);

        SpanData chat = OTEL.getSpans().stream().filter(s -> s.getName().equals("chat test-model")).findFirst().orElseThrow();
        assertThat(seen).hasSize(2).allSatisfy(attempt -> {
            assertThat(attempt.virtual()).as("the deadline stage's thread").isTrue();
            assertThat(attempt.current().getSpanId()).isEqualTo(chat.getSpanId());
            assertThat(attempt.headers().get("traceparent"))
                    .isEqualTo("00-" + chat.getTraceId() + "-" + chat.getSpanId() + "-" + chat.getSpanContext().getTraceFlags().asHex());
        });
    }

    @Test
    void aGivenPropagatorIsUsedAndANoopOneSendsNoHeaders() {
        // The CLI's OTEL_PROPAGATORS=none (SDK environment variables spec: no propagator) arrives as noop.
        ScriptedModel script = ScriptedModel.of(ScriptedModel.text("Hi."));
        Agent agent = ReinTelemetry.builder(OTEL.getOpenTelemetry()).propagator(io.opentelemetry.context.propagation.TextMapPropagator.noop())
                .build().install(Agent.builder().model(recording(script)).modelName("test-model")
                        .prices(PriceTable.empty().with("test-model", ModelPrice.of("3", "0.3", "15")))).build();
        agent.run("say hi");
        assertThat(seen).singleElement().satisfies(attempt -> {
            assertThat(attempt.headers()).isEmpty();
            assertThat(attempt.current().isValid()).as("the chat span is still current").isTrue();
        });
    }

    /**
     * A fallback stage of the application's (one that {@code retries()}) added before {@code install}
     * sits outside the telemetry stage and passes the call through it twice: the attempt that goes to
     * the fallback model runs in the same chat span and carries its traceparent too, as every attempt
     * of the built-in retry does.
     */
    @Test
    void aFallbackAttemptOfAnOuterStageRunsInTheChatSpanAndSendsItsTraceparent() {
        ScriptedModel primary = ScriptedModel.of(ScriptedModel.fail(new ModelException(ModelException.Kind.AUTHENTICATION, 401, "bad key")));
        ScriptedModel backup = ScriptedModel.of(ScriptedModel.text("Hi."));
        Model backupModel = recording(backup);
        dev.rein.model.ModelInterceptor fallback = new dev.rein.model.ModelInterceptor() {
            @Override
            public ModelResponse intercept(dev.rein.model.ModelCall call, Chain chain) throws ModelException, InterruptedException {
                try {
                    return chain.proceed(call);
                } catch (ModelException e) {
                    return chain.proceed(call.withModel(backupModel));
                }
            }

            @Override
            public boolean retries() {
                return true;
            }
        };
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry()).install(Agent.builder().model(recording(primary))
                .modelName("test-model").prices(PriceTable.empty().with("test-model", ModelPrice.of("3", "0.3", "15")))
                .modelInterceptor(fallback)).build();
        RunResult result = agent.run("say hi");
        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);

        SpanData chat = OTEL.getSpans().stream().filter(s -> s.getName().equals("chat test-model")).findFirst().orElseThrow();
        assertThat(seen).hasSize(2).allSatisfy(attempt -> {
            assertThat(attempt.current().getSpanId()).isEqualTo(chat.getSpanId());
            assertThat(attempt.headers().get("traceparent"))
                    .isEqualTo("00-" + chat.getTraceId() + "-" + chat.getSpanId() + "-" + chat.getSpanContext().getTraceFlags().asHex());
        });
    }

    /**
     * A fallback stage added after {@code install} sits inside the telemetry stage: the backup model it
     * sets with {@code call.withModel} never passed the telemetry's stage. It still runs in the chat span on
     * the deadline stage's thread (it does not abort on interrupt), sends the span's traceparent, streams into
     * the span's time to first chunk, and the span, its finish reasons and the client metrics name the
     * backup's provider, to which the call went.
     */
    @Test
    void aFallbackModelSetByAStageAddedAfterInstallRunsInTheChatSpanAndNamesItsProvider() {
        ScriptedModel primary = ScriptedModel.of(ScriptedModel.fail(new ModelException(ModelException.Kind.AUTHENTICATION, 401, "bad key")));
        ScriptedModel backup = ScriptedModel.of(ScriptedModel.text("Hi."));
        Model backupModel = new AcmeModel(backup, "openai") {
            @Override
            public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
                seen.add(new Seen(Span.current().getSpanContext(), Thread.currentThread().isVirtual(),
                        request.option(TraceContextHeaders.class).map(TraceContextHeaders::headers).orElse(Map.of())));
                return super.call(request, context);
            }
        };
        dev.rein.model.ModelInterceptor fallback = new dev.rein.model.ModelInterceptor() {
            @Override
            public ModelResponse intercept(dev.rein.model.ModelCall call, Chain chain) throws ModelException, InterruptedException {
                try {
                    return chain.proceed(call);
                } catch (ModelException e) {
                    return chain.proceed(call.withModel(backupModel));
                }
            }

            @Override
            public boolean retries() {
                return true;
            }
        };
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry())
                .install(Agent.builder().model(PricedModel.of(new AcmeModel(primary), "test-model", ModelPrice.of("3", "0.3", "15"))))
                .modelInterceptor(fallback).build();
        RunResult result = agent.run("say hi");
        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);

        SpanData chat = OTEL.getSpans().stream().filter(s -> s.getName().equals("chat test-model")).findFirst().orElseThrow();
        assertThat(seen).singleElement().satisfies(attempt -> {
            assertThat(attempt.virtual()).as("the deadline stage's thread").isTrue();
            assertThat(attempt.current().getSpanId()).isEqualTo(chat.getSpanId());
            assertThat(attempt.headers().get("traceparent"))
                    .isEqualTo("00-" + chat.getTraceId() + "-" + chat.getSpanId() + "-" + chat.getSpanContext().getTraceFlags().asHex());
        });
        assertThat(chat.getAttributes().get(GenAiConventions.PROVIDER_NAME)).isEqualTo("openai");
        assertThat(chat.getAttributes().get(GenAiConventions.RESPONSE_FINISH_REASONS)).containsExactly("stop"); // Chat Completions' word
        assertThat(chat.getAttributes().get(GenAiConventions.REQUEST_STREAM)).isTrue();
        assertThat(OTEL.getMetrics()).filteredOn(m -> m.getName().startsWith("gen_ai.client.")).isNotEmpty()
                .allSatisfy(metric -> assertThat(metric.getHistogramData().getPoints()).allSatisfy(point ->
                        assertThat(point.getAttributes().get(GenAiConventions.PROVIDER_NAME)).as(metric.getName()).isEqualTo("openai")));
    }

    /**
     * A fallback stage that asks for another model in the request (call.withRequest(request.withModel(...))),
     * added after install (inside the telemetry stage) or before it (outside): the span was opened with the
     * first model, but the conventions name it {gen_ai.operation.name} {gen_ai.request.model}, the model the
     * request is made to, so the span and the client metrics say the model the call was answered (or failed) by.
     */
    @ParameterizedTest
    @CsvSource({"after install, true", "after install, false", "before install, true", "before install, false"})
    void aFallbackStageThatRenamesTheModelNamesTheSpanAndMetricsAfterTheBackup(String where, boolean backupAnswers) {
        ScriptedModel script = ScriptedModel.of(ScriptedModel.fail(new ModelException(ModelException.Kind.AUTHENTICATION, 401, "bad key")),
                backupAnswers ? ScriptedModel.text("Hi.") : ScriptedModel.fail(new ModelException(ModelException.Kind.AUTHENTICATION, 401, "bad key too")));
        List<String> asked = new CopyOnWriteArrayList<>();
        Model model = new AcmeModel(script) {
            @Override
            public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
                asked.add(request.model());
                return super.call(request, context);
            }
        };
        dev.rein.model.ModelInterceptor fallback = new dev.rein.model.ModelInterceptor() {
            @Override
            public ModelResponse intercept(dev.rein.model.ModelCall call, Chain chain) throws ModelException, InterruptedException {
                try {
                    return chain.proceed(call);
                } catch (ModelException e) {
                    return chain.proceed(call.withRequest(call.request().withModel("backup-model")));
                }
            }

            @Override
            public boolean retries() {
                return true;
            }
        };
        ReinTelemetry telemetry = ReinTelemetry.create(OTEL.getOpenTelemetry());
        Agent.Builder builder = Agent.builder().model(PricedModel.of(model, "test-model", ModelPrice.of("3", "0.3", "15")))
                .price("backup-model", ModelPrice.of("3", "0.3", "15")).retryPolicy(RetryPolicy.NONE);
        Agent agent = where.equals("after install")
                ? telemetry.install(builder).modelInterceptor(fallback).build()
                : telemetry.install(builder.modelInterceptor(fallback)).build();
        RunResult result = agent.run("say hi");
        assertThat(result.status()).as(result.message()).isEqualTo(backupAnswers ? RunStatus.SUCCEEDED : RunStatus.FAILED);
        assertThat(asked).containsExactly("test-model", "backup-model");

        List<SpanData> chats = OTEL.getSpans().stream().filter(s -> s.getName().startsWith("chat ")).toList();
        assertThat(chats).singleElement().satisfies(chat -> {
            assertThat(chat.getName()).isEqualTo("chat backup-model");
            assertThat(chat.getAttributes().get(GenAiConventions.REQUEST_MODEL)).isEqualTo("backup-model");
        });
        assertThat(OTEL.getMetrics()).filteredOn(m -> m.getName().startsWith("gen_ai.client.")).isNotEmpty()
                .allSatisfy(metric -> assertThat(metric.getHistogramData().getPoints()).allSatisfy(point ->
                        assertThat(point.getAttributes().get(GenAiConventions.REQUEST_MODEL)).as(metric.getName()).isEqualTo("backup-model")));
    }

    /**
     * The chat span of a call whose run's listener closed before the call ended (an engine gave the
     * attempt up to retry it later) stays offered on its thread; a later call there that is not that
     * run's must not run in it or send its traceparent.
     */
    @Test
    void theChatSpanOfARunWhoseListenerClosedIsNotTakenByALaterCallOnTheThread() throws Exception {
        ReinTelemetry telemetry = ReinTelemetry.create(OTEL.getOpenTelemetry());
        ModelRequest request = ModelRequest.builder("test-model").addMessage(dev.rein.model.Message.user("hi")).build();
        dev.rein.trace.RunListener listener = telemetry.listener().create("run-A");
        listener.onEvent(new dev.rein.trace.TraceEvent.ModelRequested("run-A", 1, java.time.Instant.now(), "step", request));
        listener.close(); // no answer: the call was left to be retried elsewhere

        List<Seen> later = new CopyOnWriteArrayList<>();
        ScriptedModel script = ScriptedModel.of(ScriptedModel.text("Hi."));
        dev.rein.model.ModelCall call = new dev.rein.model.ModelCall(script, request, "step",
                ModelCallContext.until(java.time.Instant.now().plusSeconds(30)));
        telemetry.modelInterceptor().intercept(call, new dev.rein.model.ModelInterceptor.Chain() {
            @Override
            public ModelResponse proceed(dev.rein.model.ModelCall next) throws ModelException, InterruptedException {
                ModelResponse response = next.model().call(next.request(), next.context());
                later.add(new Seen(Span.current().getSpanContext(), Thread.currentThread().isVirtual(),
                        next.request().option(TraceContextHeaders.class).map(TraceContextHeaders::headers).orElse(Map.of())));
                return response;
            }

            @Override
            public long proceedCount(dev.rein.model.ModelCall next) {
                return -1;
            }
        });
        assertThat(later).singleElement().satisfies(attempt -> {
            assertThat(attempt.headers()).isEmpty();
            assertThat(attempt.current().isValid()).isFalse();
        });
    }

    /**
     * A propagator of the AWS Distro for OpenTelemetry (X-Ray: X-Amzn-Trace-Id) or B3 multi (X-B3-TraceId)
     * writes header names in mixed case, and one of an application's own may write a value no HTTP header
     * carries. HTTP header names are case-insensitive, so the model request carries them in lower case;
     * a value it cannot carry is left out and the others sent. Either way the model call goes on: tracing
     * must not fail the run it observes.
     */
    @Test
    void headersOfAnyPropagatorGoInLowerCaseAndOneThatCannotBeSentDoesNotFailTheCall() {
        io.opentelemetry.context.propagation.TextMapPropagator awsLike = new io.opentelemetry.context.propagation.TextMapPropagator() {
            @Override
            public java.util.Collection<String> fields() {
                return List.of("X-Amzn-Trace-Id", "X-Broken");
            }

            @Override
            public <C> void inject(io.opentelemetry.context.Context context, C carrier,
                                   io.opentelemetry.context.propagation.TextMapSetter<C> setter) {
                SpanContext span = Span.fromContext(context).getSpanContext();
                setter.set(carrier, "X-Amzn-Trace-Id", "Root=1-" + span.getTraceId().substring(0, 8) + "-"
                        + span.getTraceId().substring(8) + ";Parent=" + span.getSpanId() + ";Sampled=1");
                setter.set(carrier, "X-Broken", "line one\nline two");
            }

            @Override
            public <C> io.opentelemetry.context.Context extract(io.opentelemetry.context.Context context, C carrier,
                                                                io.opentelemetry.context.propagation.TextMapGetter<C> getter) {
                return context;
            }
        };
        ScriptedModel script = ScriptedModel.of(ScriptedModel.text("Hi."));
        Agent agent = ReinTelemetry.builder(OTEL.getOpenTelemetry())
                .propagator(io.opentelemetry.context.propagation.TextMapPropagator.composite(
                        io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator.getInstance(), awsLike))
                .build().install(Agent.builder().model(recording(script)).modelName("test-model")
                        .prices(PriceTable.empty().with("test-model", ModelPrice.of("3", "0.3", "15")))).build();
        RunResult result = agent.run("say hi");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        SpanData chat = OTEL.getSpans().stream().filter(s -> s.getName().equals("chat test-model")).findFirst().orElseThrow();
        assertThat(seen).singleElement().satisfies(attempt -> assertThat(attempt.headers()).containsOnlyKeys("traceparent", "x-amzn-trace-id")
                .containsEntry("x-amzn-trace-id", "Root=1-" + chat.getTraceId().substring(0, 8) + "-" + chat.getTraceId().substring(8)
                        + ";Parent=" + chat.getSpanId() + ";Sampled=1"));
    }

    @Test
    void aToolHandlerIsGivenTheTraceContextOfItsExecuteToolSpanToPassOnAndANoopPropagatorGivesNone() {
        // A tool that calls another process (an MCP server: params._meta, as OpenTelemetry's MCP conventions ask)
        // has no instrumented client to carry the context; it gets the call's span's traceparent to send itself.
        for (boolean noop : new boolean[] {false, true}) {
            OTEL.clearSpans();
            List<Map<String, String>> given = new CopyOnWriteArrayList<>();
            Tool lookup = Tool.builder("lookup").description("Looks up.").handler((args, ctx) -> {
                given.add(ctx.traceContext());
                return "found";
            }).build();
            ScriptedModel script = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("lookup", "{}")), ScriptedModel.text("Done."));
            ReinTelemetry.Builder telemetry = ReinTelemetry.builder(OTEL.getOpenTelemetry());
            if (noop) {
                telemetry.propagator(io.opentelemetry.context.propagation.TextMapPropagator.noop());
            }
            Agent agent = telemetry.build().install(Agent.builder().model(script).modelName("test-model")
                    .prices(PriceTable.empty().with("test-model", ModelPrice.of("3", "0.3", "15"))).tools(lookup)).build();
            assertThat(agent.run("look it up").status()).isEqualTo(RunStatus.SUCCEEDED);
            SpanData tool = OTEL.getSpans().stream().filter(s -> s.getName().equals("execute_tool lookup")).findFirst().orElseThrow();
            assertThat(given).singleElement().isEqualTo(noop ? Map.of()
                    : Map.of("traceparent", "00-" + tool.getTraceId() + "-" + tool.getSpanId() + "-" + tool.getSpanContext().getTraceFlags().asHex()));
        }
    }

    /**
     * {@code agent.runs().cancel} of a run live in this process tells the agent's listeners of the end it stores;
     * the listener it makes for that must not take the live run's place, or the run's later calls would run
     * outside their spans: a tool handler given no trace context (a model call no traceparent).
     */
    @Test
    void aCancelOfARunLiveInThisProcessLeavesTheRunsLaterCallsInTheirSpans() {
        java.util.concurrent.atomic.AtomicReference<Agent> self = new java.util.concurrent.atomic.AtomicReference<>();
        List<String> cancelled = new CopyOnWriteArrayList<>();
        List<Map<String, String>> given = new CopyOnWriteArrayList<>();
        Tool stop = Tool.builder("stop").description("Cancels the run it is called in.").handler((args, ctx) -> {
            String runId = self.get().runs().list().get(0).runId();
            self.get().runs().cancel(runId, "stopped from outside");
            cancelled.add(runId);
            return "asked";
        }).build();
        // a write: it runs after the step's reads have ended, the cancel among them
        Tool note = Tool.builder("note").description("Notes it.").risk(dev.rein.tool.Risk.WRITE).handler((args, ctx) -> {
            given.add(ctx.traceContext());
            return "noted";
        }).build();
        ScriptedModel script = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("stop", "{}"), ScriptedModel.call("note", "{}")),
                ScriptedModel.text("Done."));
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry()).install(Agent.builder().model(recording(script))
                .modelName("test-model").prices(PriceTable.empty().with("test-model", ModelPrice.of("3", "0.3", "15")))
                .tools(stop, note).approvalPolicy(dev.rein.approval.ApprovalPolicy.NEVER)).build();
        self.set(agent);
        agent.run("stop, then note it"); // it ends store_conflict: the cancel is stored

        assertThat(cancelled).hasSize(1);
        SpanData tool = OTEL.getSpans().stream().filter(s -> s.getName().equals("execute_tool note")).findFirst().orElseThrow();
        assertThat(given).singleElement().isEqualTo(
                Map.of("traceparent", "00-" + tool.getTraceId() + "-" + tool.getSpanId() + "-" + tool.getSpanContext().getTraceFlags().asHex()));
    }

    @Test
    void withoutTheListenerTheInterceptorChangesNothing() {
        ScriptedModel script = ScriptedModel.of(ScriptedModel.text("Hi."));
        Agent agent = Agent.builder().model(recording(script)).modelName("test-model")
                .prices(PriceTable.empty().with("test-model", ModelPrice.of("3", "0.3", "15")))
                .modelInterceptor(ReinTelemetry.create(OTEL.getOpenTelemetry()).modelInterceptor()).build();
        agent.run("say hi");
        assertThat(seen).singleElement().satisfies(attempt -> {
            assertThat(attempt.headers()).isEmpty();
            assertThat(attempt.current().isValid()).isFalse();
        });
    }

    @ParameterizedTest
    @CsvSource({"true, rein-run-", "false, rein-model-"})
    void tracingKeepsTheThreadTheModelAsksFor(boolean aborts, String threadPrefix) {
        ScriptedModel script = ScriptedModel.of(ScriptedModel.text("Hi."));
        List<String> threads = new CopyOnWriteArrayList<>();
        List<String> spans = new CopyOnWriteArrayList<>();
        Model model = new Model() {
            @Override
            public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
                threads.add(Thread.currentThread().getName());
                spans.add(Span.current().getSpanContext().getSpanId());
                return script.call(request, context);
            }

            @Override
            public boolean abortsOnInterrupt() {
                return aborts;
            }
        };
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry()).install(Agent.builder().model(model)
                .modelName("test-model").prices(PriceTable.empty().with("test-model", ModelPrice.of("3", "0.3", "15")))).build();
        assertThat(agent.run("say hi").status()).isEqualTo(RunStatus.SUCCEEDED);

        SpanData chat = OTEL.getSpans().stream().filter(s -> s.getName().equals("chat test-model")).findFirst().orElseThrow();
        assertThat(threads).singleElement().asString().startsWith(threadPrefix);
        assertThat(spans).containsExactly(chat.getSpanId()); // the chat span is current on either thread
    }

    /** A model of some provider: it reports the provider's name as rein-anthropic's and rein-openai's models do. */
    private static class AcmeModel implements Model, ModelDefaults {
        final ScriptedModel script;
        final String provider;

        AcmeModel(ScriptedModel script) {
            this(script, "acme");
        }

        AcmeModel(ScriptedModel script, String provider) {
            this.script = script;
            this.provider = provider;
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
            return PriceTable.empty().with("test-model", ModelPrice.of("3", "0.3", "15"));
        }

        @Override
        public String providerName() {
            return provider;
        }
    }

    @Test
    void withoutAConfiguredProviderNameTheModelsOwnIsOnEverySpanAndMetric() {
        Tool lookup = Tool.builder("lookup").description("Looks up.").handler((args, ctx) -> "found").build();
        ScriptedModel script = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("lookup", "{}")), ScriptedModel.text("Done."));
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry())
                .install(Agent.builder().model(PricedModel.of(new AcmeModel(script), "test-model", ModelPrice.of("3", "0.3", "15")))
                        .tools(lookup))
                .build();
        assertThat(agent.run("look it up").status()).isEqualTo(RunStatus.SUCCEEDED);

        List<SpanData> named = OTEL.getSpans().stream()
                .filter(s -> s.getName().startsWith("chat ") || s.getName().startsWith("invoke_agent ")).toList();
        assertThat(named).hasSize(3) // the run and its two model calls (the first opened before the model was known)
                .allSatisfy(span -> assertThat(span.getAttributes().get(GenAiConventions.PROVIDER_NAME)).as(span.getName()).isEqualTo("acme"));
        // Token usage, duration, time to first chunk and time per output chunk (the scripted model streams its text in pieces).
        assertThat(OTEL.getMetrics()).filteredOn(m -> m.getName().startsWith("gen_ai.client.")).hasSize(4)
                .allSatisfy(metric -> assertThat(metric.getHistogramData().getPoints()).allSatisfy(point ->
                        assertThat(point.getAttributes().get(GenAiConventions.PROVIDER_NAME)).isEqualTo("acme")));
    }

    /**
     * The conventions ask for gen_ai.provider.name at span creation, so that samplers can use it: without a
     * configured name the run span and the first chat span, begun before the first call reaches the model,
     * still have the agent's model's own (ModelDefaults.providerName()) when the sampler sees them.
     */
    @Test
    void withoutAConfiguredProviderNameTheSamplerSeesTheModelsOwnOnTheRunAndFirstChatSpan() {
        java.util.Map<String, String> sampled = new java.util.concurrent.ConcurrentHashMap<>();
        io.opentelemetry.sdk.OpenTelemetrySdk sdk = samplingProviders(sampled);
        ScriptedModel script = ScriptedModel.of(ScriptedModel.text("Done."));
        Agent agent = ReinTelemetry.create(sdk)
                .install(Agent.builder().model(PricedModel.of(new AcmeModel(script), "test-model", ModelPrice.of("3", "0.3", "15"))))
                .build();
        assertThat(agent.run("answer").status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(sampled).containsEntry("invoke_agent rein", "acme").containsEntry("chat test-model", "acme");
    }

    /** An SDK whose sampler notes the gen_ai.provider.name each span name first had when it was sampled. */
    private static io.opentelemetry.sdk.OpenTelemetrySdk samplingProviders(java.util.Map<String, String> sampled) {
        io.opentelemetry.sdk.trace.samplers.Sampler recording = new io.opentelemetry.sdk.trace.samplers.Sampler() {
            @Override
            public io.opentelemetry.sdk.trace.samplers.SamplingResult shouldSample(io.opentelemetry.context.Context parent,
                    String traceId, String name, io.opentelemetry.api.trace.SpanKind kind,
                    io.opentelemetry.api.common.Attributes attributes, List<io.opentelemetry.sdk.trace.data.LinkData> links) {
                sampled.putIfAbsent(name, String.valueOf(attributes.get(GenAiConventions.PROVIDER_NAME)));
                return io.opentelemetry.sdk.trace.samplers.SamplingResult.recordAndSample();
            }

            @Override
            public String getDescription() {
                return "recording";
            }
        };
        return io.opentelemetry.sdk.OpenTelemetrySdk.builder()
                .setTracerProvider(io.opentelemetry.sdk.trace.SdkTracerProvider.builder().setSampler(recording)
                        .addSpanProcessor(io.opentelemetry.sdk.trace.export.SimpleSpanProcessor.create(
                                io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter.create())).build()).build();
    }

    /**
     * gen_ai.provider.name is sampling-relevant and the providers' conventions want it at span creation: a
     * critic's chat span begins with its own model's provider, which the sampler sees, not the agent's.
     */
    @Test
    void aCriticOnAnotherProvidersModelIsSampledAsThatProvider() {
        java.util.Map<String, String> sampled = new java.util.concurrent.ConcurrentHashMap<>();
        ScriptedModel agentScript = ScriptedModel.of(ScriptedModel.text("Done."));
        ScriptedModel criticScript = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("verdict", "{\"approved\":true}")));
        Agent agent = ReinTelemetry.create(samplingProviders(sampled))
                .install(Agent.builder().model(PricedModel.of(new AcmeModel(agentScript), "test-model", ModelPrice.of("3", "0.3", "15")))
                        .reflection(dev.rein.reflection.Reflection.critic(
                                PricedModel.of(new AcmeModel(criticScript, "openai"), "critic-model", ModelPrice.of("1", "0.1", "5")),
                                "critic-model"))
                        .price("critic-model", ModelPrice.of("1", "0.1", "5")))
                .build();
        assertThat(agent.run("answer").status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(sampled).containsEntry("invoke_agent rein", "acme").containsEntry("chat test-model", "acme")
                .containsEntry("chat critic-model", "openai");
    }

    /** A client of the application's, named in a failure's message by its class. */
    static final class BrokenClient implements Model {
        @Override
        public ModelResponse call(ModelRequest request, ModelCallContext context) {
            throw new IllegalStateException("connection pool closed");
        }
    }

    /**
     * The telemetry's wrapper around the model answers as the model does but for the span it adds: a stage added
     * before install (outside the telemetry) sees, in aroundModel, the model's provider, default model name and
     * prices through it (ForwardingModel, as the other wrappers; the thread its calls run on is
     * tracingKeepsTheThreadTheModelAsksFor's).
     */
    @Test
    void aStageOutsideTheTelemetrySeesTheModelsDefaultsThroughItsWrapper() {
        List<String> defaults = new CopyOnWriteArrayList<>();
        dev.rein.model.ModelInterceptor outer = new dev.rein.model.ModelInterceptor() {
            @Override
            public ModelResponse intercept(dev.rein.model.ModelCall call, Chain chain) throws ModelException, InterruptedException {
                return chain.proceed(call);
            }

            @Override
            public Model aroundModel(dev.rein.model.ModelCall call) {
                Model model = call.model();
                defaults.add(model instanceof ModelDefaults d
                        ? d.providerName() + " " + d.defaultModelName() + " " + d.prices().find("test-model").isPresent()
                        : "no defaults: " + model.getClass().getName());
                return model;
            }
        };
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry())
                .install(Agent.builder().model(new AcmeModel(ScriptedModel.of(ScriptedModel.text("Hi.")))).modelInterceptor(outer))
                .build();
        RunResult result = agent.run("say hi");
        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(defaults).containsExactly("acme test-model true");
    }

    /**
     * A model client that throws is named by its own class in the run's message, as without telemetry:
     * not by the wrapper the telemetry puts around it to make the chat span current.
     */
    @Test
    void aFailingClientIsNamedByItsOwnClassNotByTheTelemetrysWrapper() {
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry()).install(Agent.builder().model(new BrokenClient())
                .modelName("test-model").prices(PriceTable.empty().with("test-model", ModelPrice.of("3", "0.3", "15")))
                .retryPolicy(RetryPolicy.NONE)).build();
        RunResult result = agent.run("say hi");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.message()).contains("the model client for model 'test-model' (" + BrokenClient.class.getName() + ")")
                .contains("IllegalStateException: connection pool closed").doesNotContain("dev.rein.otel.internal");
    }

    /**
     * A critic on another provider's model (Reflection.critic(model, name)): its chat span, its
     * finish reasons and its client metrics name that model's provider, not the agent's, as the
     * conventions ask of gen_ai.provider.name (the provider the call goes to); the run span keeps
     * the agent's.
     */
    @Test
    void aCriticOnAnotherProvidersModelIsReportedAsThatProvider() {
        ScriptedModel agentScript = ScriptedModel.of(ScriptedModel.text("Done."));
        ScriptedModel criticScript = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("verdict", "{\"approved\":true}")));
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry())
                .install(Agent.builder().model(PricedModel.of(new AcmeModel(agentScript), "test-model", ModelPrice.of("3", "0.3", "15")))
                        .reflection(dev.rein.reflection.Reflection.critic(
                                PricedModel.of(new AcmeModel(criticScript, "openai"), "critic-model", ModelPrice.of("1", "0.1", "5")),
                                "critic-model"))
                        .prices(PriceTable.empty().with("test-model", ModelPrice.of("3", "0.3", "15"))
                                .with("critic-model", ModelPrice.of("1", "0.1", "5"))))
                .build();
        assertThat(agent.run("answer").status()).isEqualTo(RunStatus.SUCCEEDED);

        SpanData run = OTEL.getSpans().stream().filter(s -> s.getName().startsWith("invoke_agent ")).findFirst().orElseThrow();
        SpanData step = OTEL.getSpans().stream().filter(s -> s.getName().equals("chat test-model")).findFirst().orElseThrow();
        SpanData critic = OTEL.getSpans().stream().filter(s -> s.getName().equals("chat critic-model")).findFirst().orElseThrow();
        assertThat(run.getAttributes().get(GenAiConventions.PROVIDER_NAME)).isEqualTo("acme");
        assertThat(step.getAttributes().get(GenAiConventions.PROVIDER_NAME)).isEqualTo("acme");
        assertThat(critic.getAttributes().get(ReinConventions.MODEL_PURPOSE)).isEqualTo("critic");
        assertThat(critic.getAttributes().get(GenAiConventions.PROVIDER_NAME)).isEqualTo("openai");
        // An openai model's finish reasons are Chat Completions' words.
        assertThat(critic.getAttributes().get(GenAiConventions.RESPONSE_FINISH_REASONS)).containsExactly("tool_calls");
        assertThat(OTEL.getMetrics()).filteredOn(m -> m.getName().equals(GenAiConventions.METRIC_OPERATION_DURATION)).singleElement()
                .satisfies(metric -> assertThat(metric.getHistogramData().getPoints())
                        .extracting(point -> point.getAttributes().get(GenAiConventions.REQUEST_MODEL) + "/"
                                + point.getAttributes().get(GenAiConventions.PROVIDER_NAME))
                        .containsExactlyInAnyOrder("test-model/acme", "critic-model/openai"));
    }
}
