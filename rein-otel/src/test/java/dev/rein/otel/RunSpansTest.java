package dev.rein.otel;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.budget.Budget;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.model.ModelException;
import dev.rein.retry.RetryPolicy;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolOutput;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The span tree and attributes of runs, read back from an in-memory exporter. */
class RunSpansTest {
    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    private static final String LOOKUP_SCHEMA = """
            {"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}""";

    /** Whether each call's handler ran on a virtual thread, by the id argument. */
    private final Map<String, Boolean> virtualThreads = new ConcurrentHashMap<>();

    private Tool lookup() {
        return Tool.builder("lookup").description("Looks an order up.").inputSchema(LOOKUP_SCHEMA).risk(Risk.READ)
                .handler((args, ctx) -> {
                    String id = args.get("id").asText();
                    virtualThreads.put(id, Thread.currentThread().isVirtual());
                    // What an instrumented HTTP or JDBC client does: a span under whatever is current.
                    Span db = OTEL.getOpenTelemetry().getTracer("test-db").spanBuilder("SELECT orders " + id).startSpan();
                    db.end();
                    return "order " + id + ": shipped";
                }).build();
    }

    private Tool refund() {
        return Tool.builder("refund").description("Refunds an order.").inputSchema(LOOKUP_SCHEMA).risk(Risk.WRITE)
                .handler((args, ctx) -> "refunded " + args.get("id").asText()).build();
    }

    private Agent.Builder agent(ScriptedModel model) {
        ReinTelemetry telemetry = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("anthropic")
                .server("api.example.com", 443).build();
        return telemetry.install(Agent.builder().model(model).modelName("test-model").tools(lookup(), refund())
                .prices(PriceTable.empty().with("test-model", ModelPrice.of("3", "0.3", "15")))
                .retryPolicy(new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(5), 0)));
    }

    private static List<SpanData> named(String prefix) {
        return OTEL.getSpans().stream().filter(s -> s.getName().startsWith(prefix)).toList();
    }

    private static SpanData one(String name) {
        List<SpanData> spans = OTEL.getSpans().stream().filter(s -> s.getName().equals(name)).toList();
        assertThat(spans).as(name).hasSize(1);
        return spans.get(0);
    }

    @Test
    void aParallelToolStepIsTwoSiblingToolSpansWhoseHandlerSpansAreTheirChildren() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("lookup", "{\"id\":\"A-1\"}"), call("lookup", "{\"id\":\"B-2\"}")), text("Both shipped."));
        RunResult result = agent(model).build().run("where are A-1 and B-2?");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);

        SpanData run = one("invoke_agent rein");
        assertThat(run.getKind()).isEqualTo(SpanKind.INTERNAL);
        assertThat(run.getParentSpanContext().isValid()).isFalse();
        assertThat(run.getAttributes().get(GenAiConventions.OPERATION_NAME)).isEqualTo("invoke_agent");
        assertThat(run.getAttributes().get(GenAiConventions.AGENT_NAME)).isEqualTo("rein");
        assertThat(run.getAttributes().get(GenAiConventions.PROVIDER_NAME)).isEqualTo("anthropic");
        assertThat(run.getAttributes().get(GenAiConventions.REQUEST_MODEL)).isEqualTo("test-model");
        assertThat(run.getAttributes().get(GenAiConventions.CONVERSATION_ID)).isEqualTo(result.runId());
        assertThat(run.getAttributes().get(ReinConventions.RUN_ID)).isEqualTo(result.runId());
        assertThat(run.getAttributes().get(ReinConventions.RUN_STATUS)).isEqualTo("SUCCEEDED");
        assertThat(run.getAttributes().get(ReinConventions.RUN_REASON)).isEqualTo("completed");
        assertThat(run.getAttributes().get(ReinConventions.RUN_STEPS)).isEqualTo(2L);
        assertThat(run.getAttributes().get(ReinConventions.BUDGET_MAX_STEPS)).isEqualTo((long) Budget.DEFAULT_MAX_STEPS);
        assertThat(run.getAttributes().get(ReinConventions.BUDGET_MAX_COST_USD)).isEqualTo(1.0);
        assertThat(run.getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS)).isEqualTo(200L);
        assertThat(run.getAttributes().get(GenAiConventions.USAGE_OUTPUT_TOKENS)).isEqualTo(40L);
        assertThat(run.getAttributes().get(ReinConventions.USAGE_ESTIMATED)).as("reported usage").isNull();
        assertThat(run.getAttributes().get(GenAiConventions.ERROR_TYPE)).isNull();

        List<SpanData> chats = named("chat ");
        assertThat(chats).hasSize(2).allSatisfy(chat -> {
            assertThat(chat.getName()).isEqualTo("chat test-model");
            assertThat(chat.getKind()).isEqualTo(SpanKind.CLIENT);
            assertThat(chat.getParentSpanId()).isEqualTo(run.getSpanId());
            assertThat(chat.getAttributes().get(GenAiConventions.OPERATION_NAME)).isEqualTo("chat");
            assertThat(chat.getAttributes().get(GenAiConventions.REQUEST_MAX_TOKENS)).isPositive();
            assertThat(chat.getAttributes().get(GenAiConventions.REQUEST_TEMPERATURE)).as("unset, so absent").isNull();
            assertThat(chat.getAttributes().get(GenAiConventions.REQUEST_TOP_P)).isNull();
            assertThat(chat.getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS)).isEqualTo(100L);
            assertThat(chat.getAttributes().get(GenAiConventions.USAGE_OUTPUT_TOKENS)).isEqualTo(20L);
            assertThat(chat.getAttributes().get(GenAiConventions.USAGE_CACHE_READ_INPUT_TOKENS)).isZero();
            assertThat(chat.getAttributes().get(GenAiConventions.SERVER_ADDRESS)).isEqualTo("api.example.com");
            assertThat(chat.getAttributes().get(GenAiConventions.SERVER_PORT)).isEqualTo(443L);
            assertThat(chat.getAttributes().get(GenAiConventions.RESPONSE_FINISH_REASONS)).hasSize(1);
            assertThat(chat.getAttributes().get(GenAiConventions.INPUT_MESSAGES)).as("content is opt-in").isNull();
            assertThat(chat.getAttributes().get(ReinConventions.USAGE_ESTIMATED)).as("reported usage").isNull();
        });
        assertThat(chats).extracting(chat -> chat.getAttributes().get(GenAiConventions.RESPONSE_FINISH_REASONS))
                .as("not an OpenAI model: the Messages API's words, which are Rein's").containsExactlyInAnyOrder(List.of("tool_use"), List.of("end_turn"));

        List<SpanData> tools = named("execute_tool ");
        assertThat(tools).hasSize(2).allSatisfy(tool -> {
            assertThat(tool.getName()).isEqualTo("execute_tool lookup");
            assertThat(tool.getKind()).isEqualTo(SpanKind.INTERNAL);
            assertThat(tool.getParentSpanId()).isEqualTo(run.getSpanId());
            assertThat(tool.getAttributes().get(GenAiConventions.TOOL_NAME)).isEqualTo("lookup");
            assertThat(tool.getAttributes().get(GenAiConventions.TOOL_TYPE)).isEqualTo("function");
            assertThat(tool.getAttributes().get(ReinConventions.TOOL_RISK)).isEqualTo("read");
            assertThat(tool.getAttributes().get(GenAiConventions.TOOL_DESCRIPTION)).isEqualTo("Looks an order up.");
            assertThat(tool.getAttributes().get(ReinConventions.TOOL_OUTCOME)).isEqualTo("success");
            assertThat(tool.getAttributes().get(ReinConventions.ERROR_CLASS)).isEqualTo("NONE");
            assertThat(tool.getAttributes().get(GenAiConventions.TOOL_CALL_ARGUMENTS)).isNull();
        });
        assertThat(tools).extracting(t -> t.getAttributes().get(GenAiConventions.TOOL_CALL_ID)).doesNotHaveDuplicates();

        // Each handler ran on a virtual thread of its own, and the span it made is its call's child.
        assertThat(virtualThreads).containsOnlyKeys("A-1", "B-2").containsValues(true);
        for (String id : List.of("A-1", "B-2")) {
            SpanData db = one("SELECT orders " + id);
            SpanData parent = OTEL.getSpans().stream().filter(s -> s.getSpanId().equals(db.getParentSpanId())).findFirst().orElseThrow();
            assertThat(parent.getName()).isEqualTo("execute_tool lookup");
            assertThat(db.getTraceId()).isEqualTo(run.getTraceId());
        }
    }

    @Test
    void aRetriedModelCallIsOneChatSpanWithARetryEvent() {
        ScriptedModel model = ScriptedModel.of(
                ScriptedModel.fail(new ModelException(ModelException.Kind.OVERLOADED, 529, "overloaded")), text("Hello."));
        RunResult result = agent(model).build().run("say hello");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);

        SpanData chat = one("chat test-model");
        assertThat(chat.getStatus().getStatusCode()).isNotEqualTo(StatusCode.ERROR);
        assertThat(chat.getEvents()).extracting(EventData::getName).containsExactly(ReinConventions.EVENT_MODEL_RETRY);
        EventData retry = chat.getEvents().get(0);
        assertThat(retry.getAttributes().get(ReinConventions.ATTEMPT)).isEqualTo(1L);
        assertThat(retry.getAttributes().get(GenAiConventions.ERROR_TYPE)).isEqualTo("overloaded");
        assertThat(retry.getAttributes().get(GenAiConventions.HTTP_RESPONSE_STATUS_CODE)).isEqualTo(529L);
    }

    @Test
    void anInvalidCallStillHasAToolSpanMarkedRefused() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("lookup", "{\"order\":7}")), text("I could not look it up."));
        agent(model).build().run("look up order 7");

        SpanData tool = one("execute_tool lookup");
        assertThat(tool.getParentSpanId()).isEqualTo(one("invoke_agent rein").getSpanId());
        assertThat(tool.getAttributes().get(ReinConventions.TOOL_OUTCOME)).isEqualTo("refused");
        assertThat(tool.getAttributes().get(ReinConventions.ERROR_CLASS)).isEqualTo("INVALID_ARGUMENTS");
        assertThat(tool.getAttributes().get(GenAiConventions.ERROR_TYPE)).isEqualTo("invalid_arguments");
        assertThat(tool.getAttributes().get(ReinConventions.TOOL_RISK)).as("the tool exists, so its risk is known").isEqualTo("read");
        assertThat(tool.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        // its refused audit fact is the call's (docs/observability.md), though its span is made only with its result
        assertThat(tool.getEvents()).extracting(EventData::getName).containsExactly(ReinConventions.EVENT_AUDIT);
        assertThat(one("invoke_agent rein").getEvents()).extracting(EventData::getName).doesNotContain(ReinConventions.EVENT_AUDIT);
    }

    @Test
    void everyCallOfAKnownToolHasItsDescriptionAlsoWhenRefusedOrBlocked() {
        // execute_tool span: gen_ai.tool.description is recommended "if available"; the model was offered it.
        ScriptedModel.Turn same = toolCalls(call("lookup", "{\"id\":\"A-1\"}"));
        ScriptedModel model = ScriptedModel.of(toolCalls(call("lookup", "{\"order\":7}"), call("delete_everything", "{}")),
                same, same, same, same, same, text("never"));
        agent(model).build().run("where is A-1?");

        List<SpanData> lookups = named("execute_tool lookup");
        assertThat(lookups).extracting(t -> t.getAttributes().get(ReinConventions.TOOL_OUTCOME))
                .contains("refused", "success", "blocked");
        assertThat(lookups).allSatisfy(t -> assertThat(t.getAttributes().get(GenAiConventions.TOOL_DESCRIPTION))
                .as(t.getAttributes().get(ReinConventions.TOOL_OUTCOME)).isEqualTo("Looks an order up."));
        assertThat(one("execute_tool delete_everything").getAttributes().get(GenAiConventions.TOOL_DESCRIPTION))
                .as("the agent has no such tool").isNull();
    }

    @Test
    void aCallOfAnUnknownToolIsRefusedAndHasNoRisk() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("delete_everything", "{}")), text("I cannot do that."));
        agent(model).build().run("delete everything");

        SpanData tool = one("execute_tool delete_everything");
        assertThat(tool.getAttributes().get(ReinConventions.TOOL_OUTCOME)).isEqualTo("refused");
        assertThat(tool.getAttributes().get(ReinConventions.ERROR_CLASS)).isEqualTo("UNKNOWN_TOOL");
        assertThat(tool.getAttributes().get(ReinConventions.TOOL_RISK)).as("the agent has no such tool").isNull();
    }

    @Test
    void anOutOfScopeCallHasAToolSpanMarkedRefusedWithItsRisk() {
        Tool admin = Tool.builder("close_account").description("Closes an account.").inputSchema(LOOKUP_SCHEMA)
                .risk(Risk.IRREVERSIBLE).requiredScopes("accounts:admin").handler((args, ctx) -> "closed").build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("close_account", "{\"id\":\"A-1\"}")), text("I may not do that."));
        agent(model).tools(admin).build().run("close account A-1");

        SpanData tool = one("execute_tool close_account");
        assertThat(tool.getAttributes().get(ReinConventions.TOOL_OUTCOME)).isEqualTo("refused");
        assertThat(tool.getAttributes().get(ReinConventions.ERROR_CLASS)).isEqualTo("PERMISSION_DENIED");
        assertThat(tool.getAttributes().get(ReinConventions.TOOL_RISK)).isEqualTo("irreversible");
        assertThat(tool.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    }

    @Test
    void anApprovalPauseAndResumeAreTwoLinkedRunSpansOfOneConversation() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("refund", "{\"id\":\"A-1\"}")), text("Refunded."));
        Agent agent = agent(model).budget(Budget.builder().maxSteps(7).maxCostUsd(new BigDecimal("0.5"))
                .maxDuration(Duration.ofSeconds(90)).build()).build();
        RunResult paused = agent.run("refund A-1");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        agent.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "carol");
        RunResult done = agent.resume(paused.runId());
        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);

        List<SpanData> runs = named("invoke_agent ");
        assertThat(runs).hasSize(2);
        SpanData first = runs.stream().filter(r -> "WAITING_APPROVAL".equals(r.getAttributes().get(ReinConventions.RUN_STATUS))).findFirst().orElseThrow();
        SpanData second = runs.stream().filter(r -> "SUCCEEDED".equals(r.getAttributes().get(ReinConventions.RUN_STATUS))).findFirst().orElseThrow();
        assertThat(first.getAttributes().get(ReinConventions.RUN_REASON)).isEqualTo("approval_required");
        assertThat(runs).allSatisfy(r -> assertThat(r.getAttributes().get(GenAiConventions.CONVERSATION_ID)).isEqualTo(paused.runId()));
        assertThat(second.getLinks()).singleElement().satisfies(link ->
                assertThat(link.getSpanContext().getSpanId()).isEqualTo(first.getSpanId()));
        assertThat(second.getAttributes().get(ReinConventions.RUN_RESUMED_FROM)).isEqualTo("WAITING_APPROVAL");
        assertThat(first.getAttributes().get(GenAiConventions.REQUEST_MODEL)).isEqualTo("test-model");
        assertThat(first.getAttributes().get(ReinConventions.BUDGET_MAX_STEPS)).isEqualTo(7L);
        assertThat(first.getAttributes().get(ReinConventions.BUDGET_MAX_COST_USD)).isEqualTo(0.5);
        assertThat(first.getAttributes().get(ReinConventions.BUDGET_MAX_SECONDS)).isEqualTo(90.0);
        for (var key : List.of(GenAiConventions.REQUEST_MODEL, ReinConventions.BUDGET_MAX_STEPS,
                ReinConventions.BUDGET_MAX_COST_USD, ReinConventions.BUDGET_MAX_SECONDS)) {
            assertThat(second.getAttributes().get(key)).as("the resumed run's " + key).isEqualTo(first.getAttributes().get(key));
        }

        List<SpanData> tools = named("execute_tool refund");
        assertThat(tools).hasSize(2);
        SpanData asked = tools.stream().filter(t -> t.getParentSpanId().equals(first.getSpanId())).findFirst().orElseThrow();
        assertThat(asked.getAttributes().get(ReinConventions.TOOL_OUTCOME)).isEqualTo("awaiting_approval");
        assertThat(asked.getAttributes().get(ReinConventions.TOOL_RISK)).isEqualTo("write");
        assertThat(asked.getEvents()).extracting(EventData::getName).contains(ReinConventions.EVENT_APPROVAL_REQUESTED);
        SpanData ran = tools.stream().filter(t -> t.getParentSpanId().equals(second.getSpanId())).findFirst().orElseThrow();
        assertThat(ran.getAttributes().get(ReinConventions.TOOL_OUTCOME)).isEqualTo("success");
        assertThat(ran.getEvents()).filteredOn(e -> e.getName().equals(ReinConventions.EVENT_APPROVAL_DECIDED)).singleElement()
                .satisfies(e -> {
                    assertThat(e.getAttributes().get(ReinConventions.APPROVAL_DECISION)).isEqualTo("approve");
                    assertThat(e.getAttributes().get(ReinConventions.APPROVAL_DECIDED_BY)).isEqualTo("carol");
                });
    }

    /**
     * A decision on a paused run is counted in rein.approvals once: by the resumed run when it is resumed, by the
     * cancellation when the run is cancelled instead (no resumed run would ever count it then).
     */
    @Test
    void aDecisionOnARunThatIsThenCancelledIsCountedOnceAndAResumedOneToo() {
        for (boolean resume : new boolean[] {false, true}) {
            OTEL.clearSpans();
            OTEL.clearMetrics();
            ScriptedModel model = ScriptedModel.of(toolCalls(call("refund", "{\"id\":\"A-1\"}")), text("Refunded."));
            Agent agent = agent(model).build();
            RunResult paused = agent.run("refund A-1");
            assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
            agent.runs().reject(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "not this one", "carol");
            if (resume) {
                assertThat(agent.resume(paused.runId()).status()).isEqualTo(RunStatus.SUCCEEDED);
            } else {
                agent.runs().cancel(paused.runId(), "not today");
            }
            assertThat(OTEL.getMetrics()).as(resume ? "resumed" : "cancelled")
                    .filteredOn(m -> m.getName().equals(ReinConventions.METRIC_APPROVALS)).singleElement()
                    .satisfies(m -> assertThat(m.getLongSumData().getPoints()).allSatisfy(p -> assertThat(p.getValue()).isEqualTo(1))
                            .extracting(p -> p.getAttributes().get(ReinConventions.APPROVAL_DECISION))
                            .containsExactlyInAnyOrder("requested", "reject"));
        }
    }

    @Test
    void cancellingAPausedRunEndsItInASegmentLinkedToThePauseAndCountsTheStop() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("refund", "{\"id\":\"A-1\"}")), text("Refunded."));
        Agent agent = agent(model).build();
        RunResult paused = agent.run("refund A-1");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);

        agent.runs().cancel(paused.runId(), "not today");

        List<SpanData> runs = named("invoke_agent ");
        assertThat(runs).hasSize(2);
        SpanData pause = runs.stream().filter(r -> "WAITING_APPROVAL".equals(r.getAttributes().get(ReinConventions.RUN_STATUS)))
                .findFirst().orElseThrow();
        SpanData cancel = runs.stream().filter(r -> "CANCELLED".equals(r.getAttributes().get(ReinConventions.RUN_STATUS)))
                .findFirst().orElseThrow();
        assertThat(cancel.getAttributes().get(ReinConventions.RUN_REASON)).isEqualTo("cancelled");
        assertThat(cancel.getAttributes().get(GenAiConventions.CONVERSATION_ID)).isEqualTo(paused.runId());
        assertThat(cancel.getAttributes().get(GenAiConventions.PROVIDER_NAME)).isEqualTo("anthropic");
        assertThat(cancel.getAttributes().get(ReinConventions.RUN_STEPS)).isEqualTo((long) paused.steps());
        assertThat(cancel.getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS)).isZero();
        assertThat(cancel.getAttributes().get(GenAiConventions.REQUEST_MODEL)).isNull();
        assertThat(cancel.getLinks()).singleElement().satisfies(link ->
                assertThat(link.getSpanContext().getSpanId()).isEqualTo(pause.getSpanId()));
        assertThat(cancel.getParentSpanContext().isValid()).isFalse();
        assertThat(OTEL.getMetrics()).filteredOn(m -> m.getName().equals(ReinConventions.METRIC_RUN_STOPS)).singleElement()
                .satisfies(m -> assertThat(m.getLongSumData().getPoints()).extracting(p -> p.getAttributes().get(ReinConventions.RUN_STATUS))
                        .containsExactlyInAnyOrder("WAITING_APPROVAL", "CANCELLED"));
    }

    @Test
    void aBudgetStopIsAnEventOnTheRunSpanAndItsStatus() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("lookup", "{\"id\":\"A-1\"}")), text("A-1 shipped; stopped."));
        RunResult result = agent(model).budget(Budget.builder().maxSteps(1).build()).build().run("where is A-1?");
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);

        SpanData run = one("invoke_agent rein");
        assertThat(run.getAttributes().get(ReinConventions.RUN_STATUS)).isEqualTo("STOPPED_BUDGET");
        assertThat(run.getAttributes().get(ReinConventions.RUN_REASON)).isEqualTo(result.reason());
        assertThat(run.getAttributes().get(ReinConventions.BUDGET_MAX_STEPS)).isEqualTo(1L);
        assertThat(run.getEvents()).filteredOn(e -> e.getName().equals(ReinConventions.EVENT_BUDGET_STOP)).singleElement()
                .satisfies(e -> assertThat(e.getAttributes().get(ReinConventions.BUDGET)).isEqualTo(result.reason()));
        assertThat(named("chat ")).extracting(c -> c.getAttributes().get(ReinConventions.MODEL_PURPOSE))
                .containsExactlyInAnyOrder("step", "final_summary");
    }

    @Test
    void theTokenBudgetsAreBudgetLimitsOnTheRunSpanToo() {
        // Issue 14: the run span carries "budget limits" under rein.*; a run can stop on max_input_tokens.
        ScriptedModel model = ScriptedModel.of(toolCalls(call("lookup", "{\"id\":\"A-1\"}")), text("A-1 shipped."));
        agent(model).budget(Budget.builder().maxInputTokens(50_000L).maxOutputTokens(800L).build()).build().run("where is A-1?");

        SpanData run = one("invoke_agent rein");
        assertThat(run.getAttributes().get(io.opentelemetry.api.common.AttributeKey.longKey("rein.budget.max_input_tokens")))
                .isEqualTo(50_000L);
        assertThat(run.getAttributes().get(io.opentelemetry.api.common.AttributeKey.longKey("rein.budget.max_output_tokens")))
                .isEqualTo(800L);
    }

    @Test
    void aFailedRunCarriesErrorTypeOnItsSpanAndOnTheFailedChat() {
        ScriptedModel model = ScriptedModel.of(ScriptedModel.fail(
                new ModelException(ModelException.Kind.AUTHENTICATION, 401, "invalid x-api-key")));
        RunResult result = agent(model).build().run("say hello");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);

        SpanData run = one("invoke_agent rein");
        assertThat(run.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(run.getAttributes().get(GenAiConventions.ERROR_TYPE)).isEqualTo("provider_error");
        assertThat(run.getAttributes().get(ReinConventions.RUN_STATUS)).isEqualTo("FAILED");
        SpanData chat = one("chat test-model");
        assertThat(chat.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(chat.getAttributes().get(GenAiConventions.ERROR_TYPE)).isEqualTo("authentication");
        assertThat(chat.getAttributes().get(GenAiConventions.HTTP_RESPONSE_STATUS_CODE)).isEqualTo(401L);
        assertThat(chat.getParentSpanId()).isEqualTo(run.getSpanId());
    }

    /**
     * A failure Rein has no kind for (ModelException.Kind.OTHER: an HTTP status the provider's
     * mapping does not know, a billing error, a client that threw something else) has the
     * error.type the conventions define as the fallback, _OTHER ("If one of them applies, then the
     * respective value MUST be used"), on the chat span and on the duration metric, as a tool error
     * without a class already has.
     */
    @Test
    void aModelFailureOfNoKnownKindHasTheFallbackErrorType() {
        ScriptedModel model = ScriptedModel.of(ScriptedModel.fail(
                new ModelException(ModelException.Kind.OTHER, 418, "I'm a teapot")));
        assertThat(agent(model).build().run("say hello").status()).isEqualTo(RunStatus.FAILED);

        SpanData chat = one("chat test-model");
        assertThat(chat.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(chat.getAttributes().get(GenAiConventions.ERROR_TYPE)).isEqualTo("_OTHER");
        assertThat(chat.getAttributes().get(GenAiConventions.HTTP_RESPONSE_STATUS_CODE)).isEqualTo(418L);
        assertThat(OTEL.getMetrics().stream().filter(m -> m.getName().equals(GenAiConventions.METRIC_OPERATION_DURATION))
                .flatMap(m -> m.getHistogramData().getPoints().stream()).toList()).singleElement()
                .satisfies(p -> assertThat(p.getAttributes().get(GenAiConventions.ERROR_TYPE)).isEqualTo("_OTHER"));
    }

    /**
     * A call an application's model-call stage failed (it threw) was answered by no model: its chat span's error.type
     * is stage_failed, the kind the run's model_failed event gives it, one of the values docs/observability.md lists
     * (the conventions: "Instrumentations SHOULD document the list of errors they report"), and the run ends
     * internal_error (probe).
     */
    @Test
    void aCallAStageFailedHasTheStageFailedErrorType() {
        dev.rein.model.ModelInterceptor broken = new dev.rein.model.ModelInterceptor() {
            @Override
            public dev.rein.model.ModelResponse intercept(dev.rein.model.ModelCall call, Chain chain) {
                throw new IllegalStateException("cache offline");
            }
        };
        RunResult result = agent(ScriptedModel.of(ScriptedModel.text("never"))).modelInterceptor(broken).build().run("say hello");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);

        SpanData chat = one("chat test-model");
        assertThat(chat.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(chat.getAttributes().get(GenAiConventions.ERROR_TYPE)).isEqualTo("stage_failed");
        assertThat(one("invoke_agent rein").getAttributes().get(GenAiConventions.ERROR_TYPE)).isEqualTo("internal_error");
    }

    @Test
    void withoutOptInAFailedSpansStatusDescriptionDoesNotRepeatItsErrorType() {
        // Recording errors: "It's NOT RECOMMENDED to duplicate status code or error.type in span status description."
        Tool failing = Tool.builder("status").description("Tells an order's status.").inputSchema(LOOKUP_SCHEMA).risk(Risk.READ)
                .handler((args, ctx) -> ToolOutput.error("the orders database is down")).build();
        agent(ScriptedModel.of(toolCalls(call("status", "{\"id\":\"A-1\"}"), call("lookup", "{\"order\":7}")),
                ScriptedModel.fail(new ModelException(ModelException.Kind.AUTHENTICATION, 401, "invalid x-api-key"))))
                .tools(failing).build().run("where is A-1?");

        List<SpanData> failed = OTEL.getSpans().stream().filter(s -> s.getStatus().getStatusCode() == StatusCode.ERROR).toList();
        assertThat(failed).extracting(SpanData::getName)
                .containsExactlyInAnyOrder("execute_tool status", "execute_tool lookup", "chat test-model", "invoke_agent rein");
        assertThat(failed).allSatisfy(span -> assertThat(span.getStatus().getDescription()).as(span.getName())
                .doesNotContainIgnoringCase(span.getAttributes().get(GenAiConventions.ERROR_TYPE)));
        assertThat(failed).filteredOn(span -> !span.getName().startsWith("invoke_agent")).allSatisfy(span ->
                assertThat(span.getStatus().getDescription()).as("no content without the opt-in: " + span.getName()).isEmpty());
        assertThat(one("invoke_agent rein").getStatus().getDescription()).as("the run's own message")
                .contains("invalid x-api-key");
    }

    @Test
    void callsTheStallGuardBlocksHaveSpansAndTheInterventionsAreEventsAndCounted() {
        ScriptedModel.Turn same = toolCalls(call("lookup", "{\"id\":\"A-1\"}"));
        ScriptedModel model = ScriptedModel.of(same, same, same, same, same, text("never"));
        RunResult result = agent(model).build().run("where is A-1?");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo("stalled");

        List<SpanData> tools = named("execute_tool lookup");
        assertThat(tools).extracting(t -> t.getAttributes().get(ReinConventions.TOOL_OUTCOME))
                .containsExactlyInAnyOrder("success", "success", "blocked", "blocked", "blocked");
        assertThat(tools).as("every span of a known tool, run or blocked, has its risk")
                .allSatisfy(t -> assertThat(t.getAttributes().get(ReinConventions.TOOL_RISK)).isEqualTo("read"));
        assertThat(tools).filteredOn(t -> "blocked".equals(t.getAttributes().get(ReinConventions.TOOL_OUTCOME))).allSatisfy(t -> {
            assertThat(t.getAttributes().get(ReinConventions.ERROR_CLASS)).isEqualTo("INTERVENTION");
            assertThat(t.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
            assertThat(t.getEvents()).extracting(EventData::getName).containsExactly(ReinConventions.EVENT_STALL);
        });
        SpanData run = one("invoke_agent rein");
        assertThat(run.getAttributes().get(GenAiConventions.ERROR_TYPE)).isEqualTo("stalled");
        assertThat(run.getEvents()).filteredOn(e -> e.getName().equals(ReinConventions.EVENT_STALL)).singleElement()
                .satisfies(e -> assertThat(e.getAttributes().get(ReinConventions.STALL_ACTION)).isEqualTo("stopped"));
        assertThat(OTEL.getMetrics()).filteredOn(m -> m.getName().equals(ReinConventions.METRIC_STALL_INTERVENTIONS)).singleElement()
                .satisfies(m -> assertThat(m.getLongSumData().getPoints()).extracting(p -> p.getValue()).containsExactlyInAnyOrder(2L, 1L));
    }

    @Test
    void aPerToolCallLimitIsABudgetStopEventOnTheRefusedCall() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("lookup", "{\"id\":\"A-1\"}")),
                toolCalls(call("lookup", "{\"id\":\"B-2\"}")), text("Only A-1 was looked up."));
        agent(model).budget(Budget.builder().toolCallLimit("lookup", 1).build()).build().run("where are A-1 and B-2?");

        SpanData refused = named("execute_tool lookup").stream()
                .filter(t -> "refused".equals(t.getAttributes().get(ReinConventions.TOOL_OUTCOME))).findFirst().orElseThrow();
        assertThat(refused.getAttributes().get(ReinConventions.ERROR_CLASS)).isEqualTo("LIMIT_REACHED");
        assertThat(refused.getEvents()).extracting(EventData::getName).contains(ReinConventions.EVENT_BUDGET_STOP);
        // probe of the rest docs/observability.md promises for it, and that the run, which went on, has no budget stop
        assertThat(refused.getEvents()).extracting(EventData::getName)
                .containsExactlyInAnyOrder(ReinConventions.EVENT_BUDGET_STOP, ReinConventions.EVENT_AUDIT);
        assertThat(refused.getAttributes().get(GenAiConventions.ERROR_TYPE)).isEqualTo("limit_reached");
        assertThat(refused.getAttributes().get(ReinConventions.TOOL_RISK)).isEqualTo("read");
        assertThat(refused.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        SpanData run = one("invoke_agent rein");
        assertThat(run.getAttributes().get(ReinConventions.RUN_STATUS)).isEqualTo("SUCCEEDED");
        assertThat(run.getEvents()).extracting(EventData::getName).doesNotContain(ReinConventions.EVENT_BUDGET_STOP);
    }

    @Test
    void aCancelledRunEndsItsOpenChatSpanWithAnError() throws Exception {
        ScriptedModel model = ScriptedModel.of(ScriptedModel.hang());
        var handle = agent(model).build().start("wait");
        while (model.requests().isEmpty()) { // the model call is in flight
            Thread.sleep(5);
        }
        handle.cancel();
        RunResult result = handle.await();
        assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);

        SpanData chat = one("chat test-model");
        assertThat(chat.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(chat.getAttributes().get(GenAiConventions.ERROR_TYPE)).isEqualTo("cancelled");
        assertThat(one("invoke_agent rein").getAttributes().get(ReinConventions.RUN_STATUS)).isEqualTo("CANCELLED");
    }

    @Test
    void aToolsOwnErrorResultIsAnErrorWithItsClassAsErrorType() {
        Tool failing = Tool.builder("status").description("Tells an order's status.").inputSchema(LOOKUP_SCHEMA).risk(Risk.READ)
                .handler((args, ctx) -> ToolOutput.error("the orders database is down")).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("status", "{\"id\":\"A-1\"}")), text("It is down."));
        agent(model).tools(failing).build().run("where is A-1?");

        SpanData tool = one("execute_tool status");
        assertThat(tool.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(tool.getAttributes().get(GenAiConventions.ERROR_TYPE)).isEqualTo("execution_failed");
    }

    /**
     * docs/observability.md, execute_tool: error.type is "the error class in lower case, on error
     * results": a handler that throws and one cut at its time limit, in one parallel step, are two
     * sibling spans with status ERROR and execution_failed and timeout; the run goes on.
     */
    @Test
    void aThrowingHandlerAndOneCutAtItsTimeLimitHaveTheirOwnErrorTypes() {
        Tool throwing = Tool.builder("boom").description("Fails.").inputSchema(LOOKUP_SCHEMA).risk(Risk.READ)
                .handler((args, ctx) -> {
                    throw new IllegalStateException("kaput");
                }).build();
        Tool slow = Tool.builder("slow").description("Takes its time.").inputSchema(LOOKUP_SCHEMA).risk(Risk.READ)
                .timeout(Duration.ofMillis(100)).handler((args, ctx) -> {
                    Thread.sleep(5_000);
                    return "late";
                }).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("boom", "{\"id\":\"A-1\"}"), call("slow", "{\"id\":\"B-2\"}")),
                text("Neither worked."));
        assertThat(agent(model).tools(throwing, slow).build().run("try both").status()).isEqualTo(RunStatus.SUCCEEDED);

        SpanData run = one("invoke_agent rein");
        assertThat(run.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        SpanData boom = one("execute_tool boom");
        SpanData late = one("execute_tool slow");
        assertThat(List.of(boom, late)).allSatisfy(tool -> {
            assertThat(tool.getParentSpanId()).isEqualTo(run.getSpanId());
            assertThat(tool.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
            assertThat(tool.getStatus().getDescription()).as("no content without the opt-in").isEmpty();
            assertThat(tool.getAttributes().get(ReinConventions.TOOL_OUTCOME)).isEqualTo("error");
        });
        assertThat(boom.getAttributes().get(GenAiConventions.ERROR_TYPE)).isEqualTo("execution_failed");
        assertThat(late.getAttributes().get(GenAiConventions.ERROR_TYPE)).isEqualTo("timeout");
        assertThat(late.getAttributes().get(ReinConventions.ERROR_CLASS)).isEqualTo("TIMEOUT");
    }

    @Test
    void aToolCallCancelledInFlightIsAnErrorWithAnErrorType() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        Tool waiting = Tool.builder("status").description("Tells an order's status.").inputSchema(LOOKUP_SCHEMA).risk(Risk.READ)
                .handler((args, ctx) -> {
                    entered.countDown();
                    new CountDownLatch(1).await(); // until the cancel interrupts it
                    return "never";
                }).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("status", "{\"id\":\"A-1\"}")), text("never"));
        var handle = agent(model).tools(waiting).build().start("where is A-1?");
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        handle.cancel();
        assertThat(handle.await().status()).isEqualTo(RunStatus.CANCELLED);

        SpanData tool = one("execute_tool status");
        assertThat(tool.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(tool.getAttributes().get(ReinConventions.TOOL_OUTCOME)).isEqualTo("cancelled");
        assertThat(tool.getAttributes().get(GenAiConventions.ERROR_TYPE)).isEqualTo("cancelled");
    }

    @Test
    void aCallWhoseProviderReportedNoUsageCarriesTheEstimateMarkedEstimated() {
        ScriptedModel model = ScriptedModel.of(ScriptedModel.withUsage(null, text("done")));
        RunResult result = agent(model).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        SpanData chat = named("chat ").getFirst();
        assertThat(chat.getAttributes().get(ReinConventions.USAGE_ESTIMATED)).isTrue();
        assertThat(chat.getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS)).isEqualTo(result.usage().totalInputTokens())
                .isPositive();
        // the run span's sum holds that estimate, so it is marked too
        SpanData run = named("invoke_agent").getFirst();
        assertThat(run.getAttributes().get(ReinConventions.USAGE_ESTIMATED)).isTrue();
    }

    /** The usage a failed call's server reported: the failure says it (ModelException.reportedUsage()), and so does its span. */
    private static ModelException failedAfter(boolean retryable, dev.rein.model.Usage usage) {
        return new ModelException(ModelException.Kind.SERVER_ERROR, 0, "the response ended with finish_reason error", retryable,
                null, null, usage, null);
    }

    private static List<io.opentelemetry.sdk.metrics.data.HistogramPointData> tokenPoints(String type) {
        return OTEL.getMetrics().stream().filter(m -> m.getName().equals(GenAiConventions.METRIC_TOKEN_USAGE))
                .flatMap(m -> m.getHistogramData().getPoints().stream())
                .filter(p -> type.equals(p.getAttributes().get(GenAiConventions.TOKEN_TYPE))).toList();
    }

    @Test
    void aCallThatFailedAfterItsServerReportedUsageHasThatUsageOnItsChatSpanAndInTheTokenMetric() {
        dev.rein.model.Usage reported = dev.rein.model.Usage.of(120, 42, 1000, 300).withReasoningOutputTokens(30);
        RunResult result = agent(ScriptedModel.of(ScriptedModel.fail(failedAfter(false, reported)))).build().run("say hello");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);

        SpanData chat = one("chat test-model");
        assertThat(chat.getAttributes().get(GenAiConventions.ERROR_TYPE)).isEqualTo("server_error");
        // as an answered call's span has them: input with the cached part, the cache counts, the reasoning part
        assertThat(chat.getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS)).isEqualTo(1420L);
        assertThat(chat.getAttributes().get(GenAiConventions.USAGE_OUTPUT_TOKENS)).isEqualTo(42L);
        assertThat(chat.getAttributes().get(GenAiConventions.USAGE_CACHE_READ_INPUT_TOKENS)).isEqualTo(1000L);
        assertThat(chat.getAttributes().get(GenAiConventions.USAGE_CACHE_CREATION_INPUT_TOKENS)).isEqualTo(300L);
        assertThat(chat.getAttributes().get(GenAiConventions.USAGE_REASONING_OUTPUT_TOKENS)).isEqualTo(30L);
        assertThat(chat.getAttributes().get(ReinConventions.USAGE_ESTIMATED)).isNull();
        // a failed call charges nothing: no cost on its span, nothing in the run's sum
        assertThat(chat.getAttributes().get(ReinConventions.MODEL_COST_USD)).isNull();
        assertThat(one("invoke_agent rein").getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS)).isZero();
        // the tokens the server reported it used are in gen_ai.client.token.usage
        assertThat(tokenPoints("input")).singleElement().satisfies(p -> assertThat(p.getSum()).isEqualTo(1420.0));
        assertThat(tokenPoints("output")).singleElement().satisfies(p -> assertThat(p.getSum()).isEqualTo(42.0));
    }

    @Test
    void aRetriedAttemptsReportedUsageIsOnItsRetryEventAndTheAnswersOnTheSpan() {
        RunResult result = agent(ScriptedModel.of(ScriptedModel.fail(failedAfter(true, dev.rein.model.Usage.of(500, 7, 0, 0))),
                ScriptedModel.withUsage(dev.rein.model.Usage.of(510, 20, 0, 0), text("Hello.")))).build().run("say hello");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);

        SpanData chat = one("chat test-model");
        EventData retry = chat.getEvents().get(0);
        assertThat(retry.getName()).isEqualTo(ReinConventions.EVENT_MODEL_RETRY);
        assertThat(retry.getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS)).isEqualTo(500L);
        assertThat(retry.getAttributes().get(GenAiConventions.USAGE_OUTPUT_TOKENS)).isEqualTo(7L);
        assertThat(chat.getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS)).isEqualTo(510L);
        // both attempts' tokens, the failed one's without a response model (no response named one)
        assertThat(tokenPoints("input")).extracting(p -> p.getSum()).containsExactlyInAnyOrder(500.0, 510.0);
        assertThat(tokenPoints("input")).filteredOn(p -> p.getAttributes().get(GenAiConventions.RESPONSE_MODEL) == null)
                .singleElement().satisfies(p -> assertThat(p.getSum()).isEqualTo(500.0));
    }

    @Test
    void aFailedCallsEstimatedUsageIsMarkedOnItsSpanAndLeftOutOfTheTokenMetric() {
        dev.rein.model.Usage estimated = new dev.rein.model.Usage(1420, 3, 0, 0, Map.of(), true, Map.of());
        agent(ScriptedModel.of(ScriptedModel.fail(failedAfter(false, estimated)))).build().run("say hello");

        SpanData chat = one("chat test-model");
        assertThat(chat.getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS)).isEqualTo(1420L);
        assertThat(chat.getAttributes().get(ReinConventions.USAGE_ESTIMATED)).isTrue();
        assertThat(tokenPoints("input")).isEmpty();
    }

    @Test
    void aFailedCallWithoutReportedUsageHasNoUsageOnItsSpan() {
        agent(ScriptedModel.of(ScriptedModel.fail(failedAfter(false, null)))).build().run("say hello");

        SpanData chat = one("chat test-model");
        assertThat(chat.getAttributes().get(GenAiConventions.USAGE_INPUT_TOKENS)).isNull();
        assertThat(chat.getAttributes().get(GenAiConventions.USAGE_OUTPUT_TOKENS)).isNull();
        assertThat(tokenPoints("input")).isEmpty();
    }
}
