package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.Budget;
import dev.rein.budget.BudgetKind;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.trace.TraceEvent;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Money and time budgets run out on Temporal as they do locally: checked in the workflow, on workflow time. */
class TemporalBudgetTest {
    @Test
    void aSpentMoneyBudgetStopsTheRunWithTheSummaryCallAsLocally() {
        RecordingListener local = new RecordingListener();
        RunResult expected = priced(loopingModel(), local).run("A-1?");

        RecordingListener remote = new RecordingListener();
        ScriptedModel model = loopingModel();
        Agent agent = priced(model, remote);
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("A-1?", "run-money").result();

            assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET).isEqualTo(expected.status());
            assertThat(result.reason()).isEqualTo(expected.reason()).isEqualTo(BudgetKind.COST.reason());
            // the final summary call answered, as locally
            assertThat(result.answer()).isEqualTo(expected.answer()).isEqualTo("summary: A-1 is delivered");
            assertThat(result.costUsd()).isEqualByComparingTo(expected.costUsd());
            assertThat(model.remaining()).isZero();
            assertThat(types(remote.events())).isEqualTo(types(local.events()));
            assertThat(remote.events(TraceEvent.Intervention.class)).anySatisfy(i -> assertThat(i.kind()).isEqualTo("budget"));
        }
    }

    /**
     * An agent named with a gateway's name (OpenRouter's openai/gpt-5), priced at its vendor's row, runs under its money
     * limit on Temporal as locally: the workflow's meter, which has only the table the client sent, prices it too.
     */
    @Test
    void aGatewaysModelNamePricedAtItsVendorsRowIsPricedInTheWorkflowAsLocally() {
        dev.rein.budget.PriceTable openai = dev.rein.budget.PriceTable.empty()
                .with("gpt-5", dev.rein.budget.ModelPrice.of("1.25", "0.125", "10.00")).ofVendor("openai");
        java.util.function.Function<RecordingListener, Agent> agent = trace -> Orders.agent(loopingModel(), trace, Orders.lookup())
                .modelName("openai/gpt-5").prices(openai)
                .budget(Budget.builder().maxSteps(8).maxCostUsd("1.00").maxDuration(Duration.ofMinutes(10)).build()).build();
        RecordingListener local = new RecordingListener();
        RunResult expected = agent.apply(local).run("A-1?");
        assertThat(expected.status()).isEqualTo(RunStatus.SUCCEEDED);

        RecordingListener remote = new RecordingListener();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent.apply(remote)).start("A-1?", "run-gateway-name").result();

            assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.costUsd()).isEqualByComparingTo(expected.costUsd()).isPositive();
            assertThat(types(remote.events())).isEqualTo(types(local.events()));
        }
    }

    /**
     * The deadline counts workflow time with the wait for a person excluded: a day of waiting does
     * not spend it, the running time after the approval does (the refund's handler holds its call
     * past the deadline), and the next step stops the run without a summary call.
     */
    @Test
    void theDeadlineRunsOutOnWorkflowTimeWithTheWaitForAPersonExcluded() {
        Orders.Ledger ledger = new Orders.Ledger();
        ScriptedModel model = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("refund", "{\"id\":\"A-1\"}")),
                ScriptedModel.text("never asked"));
        Agent agent = Orders.withApproval(Orders.agent(model, new RecordingListener(), slowRefund(ledger))
                .budget(Budget.builder().maxSteps(8).maxDuration(Duration.ofSeconds(3)).build()));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-deadline");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            server.env.sleep(Duration.ofDays(1));
            run.approve(run.pendingApprovals().get(0).actionHash(), "alice");
            RunResult result = run.result();

            // the refund ran after the day of waiting: the wait did not count against the 3-second deadline
            assertThat(ledger.charges).hasSize(1);
            assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
            assertThat(result.reason()).isEqualTo(BudgetKind.DEADLINE.reason());
            assertThat(model.remaining()).as("no summary call when time itself ran out").isEqualTo(1);
            assertThat(result.duration()).isLessThan(Duration.ofHours(1));
        }
    }

    /**
     * The deadline passing while the model is still answering stops the run as locally: STOPPED_BUDGET
     * with the local message and answer, the step counted, and a budget intervention in the trace (the
     * live view's "! budget", OpenTelemetry's rein.budget.stop), as a deadline found between steps is traced.
     */
    @Test
    void theDeadlinePassingDuringAModelCallStopsTheRunWithTheLocalOutcomeAndTrace() {
        RecordingListener local = new RecordingListener();
        RunResult expected = slowSecondStep(local).run("A-1 はどこ?");
        assertThat(expected.status()).isEqualTo(RunStatus.STOPPED_BUDGET);

        RecordingListener remote = new RecordingListener();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(slowSecondStep(remote)).start("A-1 はどこ?", "run-deadline-in-call");
            RunResult result = TemporalTestServer.resultPolled(run, Duration.ofSeconds(60));

            assertThat(result.status()).isEqualTo(expected.status());
            assertThat(result.reason()).isEqualTo(expected.reason()).isEqualTo(BudgetKind.DEADLINE.reason());
            assertThat(result.message()).isEqualTo(expected.message());
            assertThat(result.answer()).isEqualTo(expected.answer());
            assertThat(result.steps()).isEqualTo(expected.steps());
            assertThat(remote.events(TraceEvent.Intervention.class)).extracting(TraceEvent.Intervention::kind, TraceEvent.Intervention::message)
                    .isEqualTo(local.events(TraceEvent.Intervention.class).stream().map(i -> org.assertj.core.groups.Tuple.tuple(i.kind(), i.message())).toList())
                    .isNotEmpty();
            assertThat(types(remote.events())).isEqualTo(types(local.events()));
        }
    }

    /**
     * When Temporal's timeout of the model call comes first (here the test server skips time to it; on a cluster, a
     * worker that never reports), the run still stops for its deadline in the local words, traced as a budget stop.
     */
    @Test
    void aModelCallCutByTemporalsTimeoutStopsTheRunForItsDeadlineInTheLocalWords() {
        RecordingListener local = new RecordingListener();
        RunResult expected = slowSecondStep(local).run("A-1 はどこ?");

        RecordingListener remote = new RecordingListener();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(slowSecondStep(remote)).start("A-1 はどこ?", "run-deadline-cut").result();

            assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
            assertThat(result.reason()).isEqualTo(BudgetKind.DEADLINE.reason());
            assertThat(result.message()).isEqualTo(expected.message());
            assertThat(remote.events(TraceEvent.Intervention.class)).extracting(TraceEvent.Intervention::kind, TraceEvent.Intervention::message)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("budget", expected.message()));
        }
    }

    /**
     * The deadline passing while a tool runs stops the run as locally: the call is cut with the local error result,
     * the next step's budget check stops the run STOPPED_BUDGET without a summary call, with the same message, answer,
     * steps and trace (the budget intervention included).
     */
    @Test
    void theDeadlinePassingDuringAToolCallStopsTheRunWithTheLocalOutcomeAndTrace() {
        RecordingListener local = new RecordingListener();
        RunResult expected = slowTool(local).run("A-1 を調べて");
        assertThat(expected.status()).isEqualTo(RunStatus.STOPPED_BUDGET);

        RecordingListener remote = new RecordingListener();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(slowTool(remote)).start("A-1 を調べて", "run-deadline-in-tool");
            RunResult result = TemporalTestServer.resultPolled(run, Duration.ofSeconds(60));

            assertThat(result.status()).isEqualTo(expected.status());
            assertThat(result.reason()).isEqualTo(expected.reason()).isEqualTo(BudgetKind.DEADLINE.reason());
            assertThat(result.message()).isEqualTo(expected.message());
            assertThat(result.answer()).isEqualTo(expected.answer());
            assertThat(result.steps()).isEqualTo(expected.steps());
            assertThat(remote.events(TraceEvent.ToolCompleted.class)).extracting(TraceEvent.ToolCompleted::content)
                    .isEqualTo(local.events(TraceEvent.ToolCompleted.class).stream().map(TraceEvent.ToolCompleted::content).toList());
            assertThat(types(remote.events())).isEqualTo(types(local.events()));
        }
    }

    /**
     * A verifier still checking when the deadline passes stops the run as locally: STOPPED_BUDGET/deadline with the
     * local message naming the verifier, the answer not accepted, no refusal counted or sent back to the model, and a
     * budget intervention in the trace; also when that refusal would have been the last one allowed, where the run
     * ended FAILED/verification_failed on Temporal.
     */
    @Test
    void aVerifierStillCheckingAtTheDeadlineStopsTheRunWithTheLocalOutcomeAndTrace() {
        for (int refusals : new int[] {1, 3}) {
            RecordingListener local = new RecordingListener();
            ScriptedModel localModel = answers();
            RunResult expected = slowVerifier(localModel, local, refusals).run("A-1 は届いた?");
            assertThat(expected.status()).isEqualTo(RunStatus.STOPPED_BUDGET);

            RecordingListener remote = new RecordingListener();
            ScriptedModel model = answers();
            try (TemporalTestServer server = new TemporalTestServer()) {
                TemporalRun run = server.start(slowVerifier(model, remote, refusals)).start("A-1 は届いた?", "run-slow-verifier");
                RunResult result = TemporalTestServer.resultPolled(run, Duration.ofSeconds(60));

                assertThat(result.status()).as("maxVerificationFailures %d", refusals).isEqualTo(expected.status());
                assertThat(result.reason()).isEqualTo(expected.reason()).isEqualTo(BudgetKind.DEADLINE.reason());
                assertThat(result.message()).as("maxVerificationFailures %d", refusals).isEqualTo(expected.message()).contains("verifier");
                assertThat(result.answer()).isEqualTo(expected.answer());
                assertThat(result.steps()).isEqualTo(expected.steps());
                assertThat(model.remaining()).isEqualTo(localModel.remaining()).isEqualTo(1);
                assertThat(remote.events(TraceEvent.Intervention.class)).extracting(TraceEvent.Intervention::kind, TraceEvent.Intervention::message)
                        .isEqualTo(local.events(TraceEvent.Intervention.class).stream().map(i -> org.assertj.core.groups.Tuple.tuple(i.kind(), i.message())).toList())
                        .isNotEmpty();
                assertThat(types(remote.events())).isEqualTo(types(local.events()));
            }
        }
    }

    private static ScriptedModel answers() {
        return ScriptedModel.of(ScriptedModel.text("A-1 は配達済みです"), ScriptedModel.text("never asked"));
    }

    /** A verifier that runs a check far longer than the run's 5-second deadline (until it is interrupted). */
    private static Agent slowVerifier(ScriptedModel model, RecordingListener trace, int refusals) {
        return Agent.builder().model(model).modelName("scripted-model").prices(ScriptedModel.PRICES).listener(trace)
                .maxVerificationFailures(refusals).verifier(answer -> {
                    try {
                        Thread.sleep(Duration.ofSeconds(60));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return dev.rein.run.Verdict.pass();
                }).budget(Budget.builder().maxSteps(8).maxDuration(Duration.ofSeconds(5)).build()).build();
    }

    /**
     * A step cut off at the max_tokens an output token limit left stops the run for that limit on Temporal as
     * locally (STOPPED_BUDGET/max_output_tokens with the summary call), not FAILED/max_tokens: the activity tells
     * the workflow the cut was the limit's.
     */
    @Test
    void aStepCutOffAtWhatTheOutputLimitLeftStopsTheRunForThatLimitAsLocally() {
        RecordingListener local = new RecordingListener();
        ScriptedModel localModel = cutByOutputLimit();
        RunResult expected = outputLimited(localModel, local).run("A-1?");
        assertThat(expected.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(localModel.requests().get(1).maxTokens()).isEqualTo(100);

        RecordingListener remote = new RecordingListener();
        ScriptedModel model = cutByOutputLimit();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(outputLimited(model, remote)).start("A-1?", "run-output-limit").result();

            assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
            assertThat(result.reason()).isEqualTo(BudgetKind.OUTPUT_TOKENS.reason()).isEqualTo(expected.reason());
            assertThat(result.answer()).isEqualTo(expected.answer()).isEqualTo("summary: A-1 is delivered");
            assertThat(model.requests().get(1).maxTokens()).isEqualTo(100);
            assertThat(model.remaining()).isZero();
            assertThat(types(remote.events())).isEqualTo(types(local.events()));
        }
    }

    /**
     * A compaction that writes all the output tokens the output limit leaves (its max_tokens lowered to them)
     * stops a run on Temporal for that limit as locally: the step's call is not made (the activity reports no
     * response), where the workflow would have decided on a response that was never there.
     */
    @Test
    void aCompactionThatSpendsWhatTheOutputLimitLeftStopsTheRunForThatLimitAsLocally() {
        RecordingListener local = new RecordingListener();
        ScriptedModel localModel = compactingModel();
        RunResult expected = compacting(localModel, local).run("A-1?");
        assertThat(expected.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(expected.reason()).isEqualTo(BudgetKind.OUTPUT_TOKENS.reason());

        RecordingListener remote = new RecordingListener();
        ScriptedModel model = compactingModel();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(compacting(model, remote)).start("A-1?", "run-compaction-output-limit").result();

            assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
            assertThat(result.reason()).isEqualTo(expected.reason());
            assertThat(result.answer()).isEqualTo(expected.answer()).isEqualTo("summary: A-1 is delivered");
            assertThat(model.requests()).hasSize(localModel.requests().size());
            assertThat(types(remote.events())).isEqualTo(types(local.events()));
        }
    }

    private static ScriptedModel compactingModel() {
        java.util.concurrent.atomic.AtomicInteger steps = new java.util.concurrent.atomic.AtomicInteger();
        ScriptedModel.Turn turn = (request, number) -> {
            var last = request.messages().get(request.messages().size() - 1).content();
            if (last.get(last.size() - 1) instanceof dev.rein.model.TextBlock t && t.text().startsWith("[rein] Your context is nearly full")) {
                return ScriptedModel.reply(dev.rein.model.StopReason.END_TURN, dev.rein.model.Usage.of(100, request.maxTokens(), 0, 0),
                        new dev.rein.model.TextBlock("A-1 looked up")).answer(request, number);
            }
            if (request.toolChoice().equals(dev.rein.model.ToolChoice.none())) {
                return ScriptedModel.text("summary: A-1 is delivered").answer(request, number);
            }
            steps.incrementAndGet();
            return ScriptedModel.toolCalls(ScriptedModel.call("lookup_order", "{\"id\":\"A-" + steps.get() + "\"}"))
                    .answer(request, number);
        };
        return ScriptedModel.of(java.util.Collections.nCopies(10, turn));
    }

    private static Agent compacting(ScriptedModel model, RecordingListener trace) {
        return Orders.agent(model, trace, Orders.lookup())
                .contextPolicy(dev.rein.context.ContextPolicy.builder().compaction(dev.rein.context.Compaction.client(100).keepingLast(2)).build())
                .budget(Budget.builder().maxSteps(8).maxOutputTokens(1_000L).maxDuration(Duration.ofMinutes(10)).build()).build();
    }

    private static ScriptedModel cutByOutputLimit() {
        return ScriptedModel.of(
                ScriptedModel.withUsage(dev.rein.model.Usage.of(100, 900, 0, 0),
                        ScriptedModel.toolCalls(ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}"))),
                ScriptedModel.reply(dev.rein.model.StopReason.MAX_TOKENS, dev.rein.model.Usage.of(100, 100, 0, 0),
                        new dev.rein.model.TextBlock("A-1 は")),
                ScriptedModel.text("summary: A-1 is delivered"));
    }

    private static Agent outputLimited(ScriptedModel model, RecordingListener trace) {
        return Orders.agent(model, trace, Orders.lookup())
                .budget(Budget.builder().maxSteps(8).maxOutputTokens(1_000L).maxDuration(Duration.ofMinutes(10)).build()).build();
    }

    /** A lookup that holds its call far past the run's 3-second deadline. */
    private static Agent slowTool(RecordingListener trace) {
        Tool lookup = Tool.builder("lookup_order").description("Looks up an order by id")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .risk(Risk.READ).timeout(Duration.ofMinutes(1)).handler((args, ctx) -> {
                    Thread.sleep(Duration.ofSeconds(30));
                    return "order A-1: 配達済み";
                }).build();
        ScriptedModel model = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}")),
                ScriptedModel.text("never asked"));
        return Agent.builder().model(model).modelName("scripted-model").prices(ScriptedModel.PRICES).tools(lookup)
                .listener(trace).budget(Budget.builder().maxSteps(8).maxDuration(Duration.ofSeconds(3)).build()).build();
    }

    /** A lookup, then a model that holds its second answer far past the run's 3-second deadline. */
    private static Agent slowSecondStep(RecordingListener trace) {
        ScriptedModel scripted = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}")),
                ScriptedModel.text("never answered in time"));
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        dev.rein.model.Model slow = new dev.rein.model.Model() {
            @Override
            public dev.rein.model.ModelResponse call(dev.rein.model.ModelRequest request, dev.rein.model.ModelCallContext context)
                    throws dev.rein.model.ModelException, InterruptedException {
                if (calls.incrementAndGet() > 1) {
                    Thread.sleep(Duration.ofSeconds(30));
                }
                return scripted.call(request, context);
            }
        };
        return Agent.builder().model(slow).modelName("scripted-model").prices(ScriptedModel.PRICES).tools(Orders.lookup())
                .listener(trace).budget(Budget.builder().maxSteps(8).maxDuration(Duration.ofSeconds(3)).build()).build();
    }

    /** A refund that applies its effect, then holds the call until it is interrupted (the run's deadline). */
    private static Tool slowRefund(Orders.Ledger ledger) {
        return Tool.builder("refund").description("Refunds an order")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .risk(Risk.WRITE).timeout(Duration.ofMinutes(1)).handler((args, ctx) -> {
                    String receipt = ledger.refund(ctx.idempotencyKey(), args.get("id").asText());
                    Thread.sleep(Duration.ofSeconds(30));
                    return "refunded: " + receipt;
                }).build();
    }

    private static Agent priced(ScriptedModel model, RecordingListener trace) {
        return Orders.agent(model, trace, Orders.lookup()).prices(ScriptedModel.PRICES)
                .budget(Budget.builder().maxSteps(8).maxCostUsd("0.0005").maxDuration(Duration.ofMinutes(10)).build()).build();
    }

    private static ScriptedModel loopingModel() {
        return ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}")),
                ScriptedModel.text("summary: A-1 is delivered"));
    }

    private static List<String> types(List<TraceEvent> events) {
        return events.stream().map(e -> e.getClass().getSimpleName()).toList();
    }
}
