package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.budget.ModelPrice;
import dev.rein.context.TokenEstimator;
import dev.rein.json.Json;
import dev.rein.model.ModelRequest;
import dev.rein.model.Usage;
import dev.rein.run.RunStatus;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.state.InMemoryRunStore;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.JsonlTraceListener;
import dev.rein.trace.TraceEvent;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * M5 when the provider reports no usage (a server that ignores the request for it, a third-party
 * Model that passes none): each budget kind still binds on an estimate, the estimate is marked as
 * such in the trace and the result and said once per run, a report of zero tokens stays zero, and
 * runs with reported usage are charged exactly what was reported.
 */
class UnreportedUsageTest {
    /** About 1,000 estimated tokens (ASCII at 4 characters a token). */
    private static final String LONG_PROMPT = "Answer carefully. ".repeat(222);
    private static final String LONG_TEXT = "Some findings so far. ".repeat(100);

    private final RecordingListener trace = new RecordingListener();

    private static ScriptedModel.Turn unreported(ScriptedModel.Turn turn) {
        return ScriptedModel.withUsage(null, turn);
    }

    private static List<ScriptedModel.Turn> echoSteps(int n, String text) {
        List<ScriptedModel.Turn> turns = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            turns.add(unreported(toolCalls(text, call("echo", "{\"text\":\"" + i + "\"}"))));
        }
        turns.add(unreported(text("summary")));
        return turns;
    }

    private Agent.Builder agent(ScriptedModel model, Budget budget) {
        return Agent.builder().model(model).modelName("local-model").price("local-model", ModelPrice.of("1000", "0", "1000"))
                .systemPrompt(LONG_PROMPT).tools(TestTools.echo()).listener(trace).budget(budget);
    }

    @Test
    void theInputTokenLimitBindsOnAnEstimateWhenNoUsageIsReported() {
        ScriptedModel model = ScriptedModel.of(echoSteps(20, ""));
        RunResult result = agent(model, Budget.builder().maxSteps(20).maxCostUsd((BigDecimal) null).maxInputTokens(3_000L).build())
                .build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("max_input_tokens");
        assertThat(result.message()).contains("the input token limit of 3000 was reached (estimated: the provider reported"
                + " no token usage for some calls)");
        assertThat(model.requests()).hasSizeLessThanOrEqualTo(4); // about 1,000 a call: 3 steps, then the summary
        assertThat(result.usage().estimated()).isTrue();
        assertThat(result.usage().totalInputTokens()).isGreaterThanOrEqualTo(3_000);
    }

    @Test
    void theOutputTokenLimitBindsOnAnEstimateOfTheResponsesContent() {
        ScriptedModel model = ScriptedModel.of(echoSteps(20, LONG_TEXT)); // about 550 tokens of text a step
        RunResult result = agent(model, Budget.builder().maxSteps(20).maxCostUsd((BigDecimal) null).maxOutputTokens(1_000L).build())
                .build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("max_output_tokens");
        assertThat(model.requests()).hasSize(3); // two steps, then the summary
        assertThat(result.usage().outputTokens()).isGreaterThanOrEqualTo(1_000);
    }

    @Test
    void theMoneyLimitBindsOnAnEstimateForAPricedModel() {
        // USD 1,000 per million input tokens: about USD 1 a call
        ScriptedModel model = ScriptedModel.of(echoSteps(20, ""));
        RunResult result = agent(model, Budget.builder().maxSteps(20).maxCostUsd("2.50").build()).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("max_cost");
        assertThat(result.message()).contains(", estimated: the provider reported no token usage for some calls)");
        assertThat(model.requests()).hasSize(4); // three steps, then the summary
        assertThat(result.costUsd()).isGreaterThanOrEqualTo(new BigDecimal("2.50"));
    }

    @Test
    void theEstimateIsTheRequestsAndTheResponsesTokensMarkedEstimatedAndSaidOnce() {
        ScriptedModel model = ScriptedModel.of(echoSteps(2, "checking"));
        RunResult result = agent(model, Budget.builder().maxSteps(5).maxCostUsd((BigDecimal) null).build()).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);

        List<TraceEvent.ModelResponded> responses = trace.events(TraceEvent.ModelResponded.class);
        assertThat(responses).hasSize(3);
        ModelRequest first = model.requests().getFirst();
        Usage usage = responses.getFirst().usage();
        assertThat(usage).isEqualTo(Usage.estimate(TokenEstimator.estimate(first),
                TokenEstimator.estimate(responses.getFirst().response().content())));
        assertThat(usage.inputTokens()).isGreaterThan(1_000);
        assertThat(usage.outputTokens()).isPositive();
        assertThat(responses).allSatisfy(r -> assertThat(r.usage().estimated()).isTrue());
        assertThat(responses.getFirst().response().usage()).isEqualTo(usage);
        assertThat(Json.write(responses.getFirst())).contains("\"estimated\":true");
        assertThat(responses.getFirst().costUsd()).isPositive();

        List<TraceEvent.UsageEstimated> said = trace.events(TraceEvent.UsageEstimated.class);
        assertThat(said).hasSize(1);
        assertThat(said.getFirst().model()).isEqualTo("local-model");
        assertThat(said.getFirst().message()).contains("reported no token usage").contains("estimate");

        assertThat(result.usage().estimated()).isTrue();
        assertThat(result.usage().inputTokens()).isEqualTo(responses.stream().mapToLong(r -> r.usage().inputTokens()).sum());
    }

    @Test
    void aReportOfZeroTokensIsNotEstimated() {
        ScriptedModel model = ScriptedModel.of(ScriptedModel.withUsage(Usage.ZERO, text("cached answer")));
        RunResult result = agent(model, Budget.builder().maxInputTokens(10L).build()).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.usage()).isEqualTo(Usage.ZERO);
        assertThat(result.costUsd()).isEqualByComparingTo(BigDecimal.ZERO);
        assertThat(trace.events(TraceEvent.UsageEstimated.class)).isEmpty();
    }

    @Test
    void reportedUsageIsChargedAsReportedAndNothingIsSaid() {
        ScriptedModel model = ScriptedModel.of(ScriptedModel.withUsage(Usage.of(7, 3, 0, 0),
                toolCalls(call("echo", "{\"text\":\"a\"}"))), ScriptedModel.withUsage(Usage.of(11, 5, 0, 0), text("done")));
        RunResult result = agent(model, Budget.defaults()).build().run("go");
        assertThat(result.usage()).isEqualTo(Usage.of(18, 8, 0, 0));
        assertThat(result.usage().estimated()).isFalse();
        assertThat(Json.write(trace.events(TraceEvent.ModelResponded.class).getFirst())).doesNotContain("estimated");
        assertThat(trace.events(TraceEvent.UsageEstimated.class)).isEmpty();
    }

    @Test
    void aRunWhoseLaterCallsReportUsageStaysMarkedEstimated() {
        ScriptedModel model = ScriptedModel.of(unreported(toolCalls(call("echo", "{\"text\":\"a\"}"))),
                ScriptedModel.withUsage(Usage.of(11, 5, 0, 0), text("done")));
        RunResult result = agent(model, Budget.builder().maxCostUsd((BigDecimal) null).build()).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.usage().estimated()).isTrue();
        List<TraceEvent.ModelResponded> responses = trace.events(TraceEvent.ModelResponded.class);
        assertThat(responses.get(1).usage()).isEqualTo(Usage.of(11, 5, 0, 0));
        assertThat(trace.events(TraceEvent.UsageEstimated.class)).hasSize(1);
    }

    @Test
    void aConversationSaysItOnceAndItsLaterTurnsStayMarked() {
        ScriptedModel model = ScriptedModel.of(unreported(text("one")), ScriptedModel.withUsage(Usage.of(5, 1, 0, 0), text("two")),
                unreported(text("three")));
        Agent agent = agent(model, Budget.builder().maxCostUsd((BigDecimal) null).build()).store(new InMemoryRunStore()).build();
        RunResult first = agent.run("go");
        RunResult second = agent.reply(first.runId(), "again");
        assertThat(second.status()).as(second.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(second.usage().estimated()).isTrue();
        RunResult third = agent.reply(first.runId(), "once more");
        assertThat(third.usage().estimated()).isTrue();
        assertThat(trace.events(TraceEvent.UsageEstimated.class)).hasSize(1);
    }

    @Test
    void aReplayOfARunStoppedOnAnEstimateStopsTheSameWay(@TempDir Path dir) {
        Path file = dir.resolve("run.jsonl");
        Budget budget = Budget.builder().maxSteps(20).maxCostUsd((BigDecimal) null).maxInputTokens(3_000L).build();
        RunResult recorded = agent(ScriptedModel.of(echoSteps(20, "")), budget).listener(JsonlTraceListener.to(file)).build().run("go");
        assertThat(recorded.reason()).isEqualTo("max_input_tokens");

        ReplayReport report = Replay.from(file).replay(agent(ScriptedModel.of(), budget).build());
        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.result().reason()).isEqualTo("max_input_tokens");
        assertThat(report.result().usage()).isEqualTo(recorded.usage());
    }
}
