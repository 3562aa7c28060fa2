package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.Budget;
import dev.rein.budget.BudgetKind;
import dev.rein.json.Json;
import dev.rein.model.ModelException;
import dev.rein.model.StopReason;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.reflection.Reflection;
import dev.rein.retry.RetryPolicy;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.TraceEvent;
import io.temporal.api.history.v1.HistoryEvent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The budget stop's summary call and the critic's review retry as the step's call does (docs/temporal.md, Retries): a
 * retryable failure of the provider is handed back to Temporal with the agent's retry policy's delay, and Temporal makes
 * the activity's next attempt (the history records the attempt that ended it). The trace is the local one (its model_retry events included, the
 * budget intervention and the request once). Until then they retried within the activity's one attempt, the worker
 * waiting each delay.
 */
class TemporalSummaryCriticRetryTest {
    private static final RetryPolicy QUICK = new RetryPolicy(3, Duration.ofMillis(20), Duration.ofMillis(100), 0);

    private static ScriptedModel.Turn overloaded() {
        return ScriptedModel.fail(new ModelException(ModelException.Kind.OVERLOADED, 529, "Overloaded", true, null, null,
                null, null));
    }

    @Test
    void theSummaryCallRetriesAsActivityAttemptsWithTheLocalTrace() {
        RecordingListener local = new RecordingListener();
        RunResult expected = summarizing(summaryRetried(), local).run("A-1?");
        assertThat(expected.status()).isEqualTo(RunStatus.STOPPED_BUDGET);

        RecordingListener remote = new RecordingListener();
        ScriptedModel model = summaryRetried();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(summarizing(model, remote)).start("A-1?", "run-summary-retry").result();

            assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
            assertThat(result.reason()).isEqualTo(BudgetKind.COST.reason());
            assertThat(result.answer()).isEqualTo(expected.answer()).isEqualTo("summary: A-1 is delivered");
            assertThat(model.remaining()).isZero();
            assertThat(types(remote.events())).isEqualTo(types(local.events()));
            assertThat(remote.events(TraceEvent.ModelRetry.class)).singleElement()
                    .satisfies(r -> assertThat(r.delayMillis()).isEqualTo(20));
            // the retry is Temporal's: the activity's second attempt made the call again (the history records the
            // attempt that ended the activity)
            assertThat(attemptsOf(server, "run-summary-retry", "ReinStopForBudget")).containsExactly(2);
        }
    }

    @Test
    void theCriticsReviewRetriesAsActivityAttemptsWithTheLocalTrace() {
        RecordingListener local = new RecordingListener();
        RunResult expected = reviewed(reviewRetried(), local).run("A-1 はいつ届く?");
        assertThat(expected.status()).isEqualTo(RunStatus.SUCCEEDED);

        RecordingListener remote = new RecordingListener();
        ScriptedModel model = reviewRetried();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(reviewed(model, remote)).start("A-1 はいつ届く?", "run-critic-retry").result();

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.answer()).isEqualTo(expected.answer()).isEqualTo("明日届きます");
            assertThat(model.remaining()).isZero();
            assertThat(types(remote.events())).isEqualTo(types(local.events()));
            assertThat(remote.events(TraceEvent.ModelRetry.class)).singleElement()
                    .satisfies(r -> assertThat(r.delayMillis()).isEqualTo(20));
            assertThat(attemptsOf(server, "run-critic-retry", "ReinVerify")).containsExactly(2);
        }
    }

    /** A step that spends the money limit, then a summary call overloaded once. */
    private static ScriptedModel summaryRetried() {
        return ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}")), overloaded(),
                ScriptedModel.text("summary: A-1 is delivered"));
    }

    private static Agent summarizing(ScriptedModel model, RecordingListener trace) {
        return Orders.agent(model, trace, Orders.lookup()).prices(ScriptedModel.PRICES).retryPolicy(QUICK)
                .budget(Budget.builder().maxSteps(8).maxCostUsd("0.0005").maxDuration(Duration.ofMinutes(10)).build()).build();
    }

    /** An answer, then the critic's review overloaded once and then approving. */
    private static ScriptedModel reviewRetried() {
        return ScriptedModel.of(ScriptedModel.text("明日届きます"), overloaded(), ScriptedModel.reply(StopReason.TOOL_USE,
                Usage.of(500, 50, 0, 0), new ToolUseBlock("toolu_v", "verdict",
                        Json.mapper().valueToTree(Map.of("approved", true, "problems", List.of())))));
    }

    private static Agent reviewed(ScriptedModel model, RecordingListener trace) {
        return Agent.builder().model(model).modelName("scripted-model").prices(ScriptedModel.PRICES).listener(trace)
                .retryPolicy(QUICK).reflection(Reflection.critic()).build();
    }

    /** The attempt numbers Temporal recorded for each started {@code activity} of the run. */
    private static List<Integer> attemptsOf(TemporalTestServer server, String runId, String activity) {
        List<HistoryEvent> events = server.client().fetchHistory(runId).getEvents();
        List<Long> scheduled = events.stream().filter(HistoryEvent::hasActivityTaskScheduledEventAttributes)
                .filter(e -> e.getActivityTaskScheduledEventAttributes().getActivityType().getName().equals(activity))
                .map(HistoryEvent::getEventId).toList();
        return events.stream().filter(HistoryEvent::hasActivityTaskStartedEventAttributes)
                .map(HistoryEvent::getActivityTaskStartedEventAttributes)
                .filter(a -> scheduled.contains(a.getScheduledEventId())).map(a -> a.getAttempt()).toList();
    }

    private static List<String> types(List<TraceEvent> events) {
        return events.stream().map(e -> e.getClass().getSimpleName()).toList();
    }
}
