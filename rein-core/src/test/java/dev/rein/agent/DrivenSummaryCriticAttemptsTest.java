package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rein.budget.Budget;
import dev.rein.budget.BudgetKind;
import dev.rein.json.Json;
import dev.rein.model.ModelException;
import dev.rein.model.StopReason;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.reflection.Reflection;
import dev.rein.retry.RetryPolicy;
import dev.rein.run.NextStep;
import dev.rein.run.Verdict;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunSnapshot;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.TraceEvent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The budget stop's summary call and the critic's review under an engine that retries by itself (rein-temporal): as the
 * step's call ({@link DrivenRun#callModel}), each attempt is the engine's, a retryable failure is handed back with the
 * agent's retry policy's delay (traced as a retry), and a later attempt traces nothing the first one traced (the budget
 * intervention, the request) and runs no verifier again. Before, the call retried within the one attempt.
 */
class DrivenSummaryCriticAttemptsTest {
    private static final RetryPolicy QUICK = new RetryPolicy(3, Duration.ofMillis(20), Duration.ofMillis(100), 0);

    private final RecordingListener trace = new RecordingListener();

    private static ScriptedModel.Turn overloaded() {
        return ScriptedModel.fail(new ModelException(ModelException.Kind.OVERLOADED, 529, "Overloaded", true, null, null,
                null, null));
    }

    @Test
    void theSummaryCallHandsItsRetryToTheEngineAndALaterAttemptTracesOnlyTheCall() throws Exception {
        DrivenRun driven = new DrivenRun(Agent.builder().model(ScriptedModel.of(overloaded(), ScriptedModel.text("summary: done")))
                .modelName("scripted-model").listener(trace).retryPolicy(QUICK)
                .budget(Budget.builder().maxSteps(5).build()).build(), new InMemoryRunStore());
        RunSnapshot start = driven.begin("run_summary", "A-1?");
        int before = trace.events().size();

        DrivenRun.Failed failed = catchThrowableOfType(DrivenRun.Failed.class,
                () -> driven.stopForBudget(start, BudgetKind.STEPS, 1));
        assertThat(failed).as("the summary's retryable failure is handed back").isNotNull();
        assertThat(failed.retryable()).isTrue();
        assertThat(failed.retryDelay()).isEqualTo(Duration.ofMillis(20));
        DrivenRun.Outcome outcome = driven.stopForBudget(start, BudgetKind.STEPS, 2);

        assertThat(outcome.next().kind()).isEqualTo("stop");
        assertThat(outcome.next().answer()).isEqualTo("summary: done");
        assertThat(types(trace.events().subList(before, trace.events().size())))
                .containsExactly("Intervention", "ModelRequested", "ModelRetry", "ModelResponded");
    }

    @Test
    void theCriticsReviewHandsItsRetryToTheEngineAndALaterAttemptRunsNoVerifierAgain() throws Exception {
        AtomicInteger checks = new AtomicInteger();
        DrivenRun driven = new DrivenRun(Agent.builder().model(ScriptedModel.of(overloaded(), approving()))
                .modelName("scripted-model").listener(trace).retryPolicy(QUICK).reflection(Reflection.critic())
                .verifier(answer -> {
                    checks.incrementAndGet();
                    return Verdict.pass();
                }).build(), new InMemoryRunStore());
        RunSnapshot start = driven.begin("run_critic", "A-1 はいつ届く?");
        int before = trace.events().size();
        NextStep.Answer answer = new NextStep.Answer("明日届きます", null, null);

        DrivenRun.Failed failed = catchThrowableOfType(DrivenRun.Failed.class, () -> driven.verify(start, answer, 0, 1));
        assertThat(failed).as("the review's retryable failure is handed back, not taken for an unreachable critic")
                .isNotNull();
        assertThat(failed.retryable()).isTrue();
        DrivenRun.Checked checked = driven.verify(start, answer, 0, 2);

        assertThat(checked.missing()).isEmpty();
        assertThat(checked.criticRounds()).isOne();
        assertThat(checks).as("the verifiers passed on the first attempt; a later one does not run them again").hasValue(1);
        List<TraceEvent> events = trace.events().subList(before, trace.events().size());
        assertThat(types(events)).containsExactly("ModelRequested", "ModelRetry", "ModelResponded", "Intervention");
        assertThat(((TraceEvent.Intervention) events.get(3)).message()).isEqualTo("the critic approved the answer");
    }

    @Test
    void aReviewsLoweredMaxTokensIsSaidOnceAcrossItsAttempts() throws Exception {
        DrivenRun driven = new DrivenRun(Agent.builder().model(ScriptedModel.of(overloaded(), approving()))
                .modelName("scripted-model").listener(trace).retryPolicy(QUICK).reflection(Reflection.critic())
                .budget(Budget.builder().maxSteps(5).maxOutputTokens(100L).build()).build(), new InMemoryRunStore());
        RunSnapshot start = driven.begin("run_critic_capped", "A-1?");
        int before = trace.events().size();
        NextStep.Answer answer = new NextStep.Answer("tomorrow", null, null);

        assertThat(catchThrowableOfType(DrivenRun.Failed.class, () -> driven.verify(start, answer, 0, 1))).isNotNull();
        driven.verify(start, answer, 0, 2);

        List<TraceEvent> events = trace.events().subList(before, trace.events().size());
        assertThat(types(events)).containsExactly("Intervention", "ModelRequested", "ModelRetry", "ModelResponded",
                "Intervention");
        assertThat(((TraceEvent.Intervention) events.get(0)).kind()).isEqualTo("max_tokens_lowered");
        assertThat(trace.events(TraceEvent.ModelRequested.class)).singleElement()
                .satisfies(r -> assertThat(r.request().maxTokens()).isEqualTo(100));
    }

    @Test
    void theStepCallsLoweredMaxTokensIsSaidOnceAcrossItsAttempts() throws Exception {
        DrivenRun driven = new DrivenRun(Agent.builder().model(ScriptedModel.of(overloaded(), ScriptedModel.text("ok")))
                .modelName("scripted-model").listener(trace).retryPolicy(QUICK)
                .budget(Budget.builder().maxSteps(5).maxOutputTokens(100L).build()).build(), new InMemoryRunStore());
        RunSnapshot start = driven.begin("run_step_capped", "A-1?");
        int before = trace.events().size();

        assertThat(catchThrowableOfType(DrivenRun.Failed.class, () -> driven.callModel(start, 1))).isNotNull();
        driven.callModel(start, 2);

        List<TraceEvent> events = trace.events().subList(before, trace.events().size());
        assertThat(events).filteredOn(e -> e instanceof TraceEvent.Intervention i && i.kind().equals("max_tokens_lowered"))
                .as("said by the first attempt only").hasSize(1);
        assertThat(trace.events(TraceEvent.ModelRequested.class)).singleElement()
                .satisfies(r -> assertThat(r.request().maxTokens()).isEqualTo(100));
    }

    private static ScriptedModel.Turn approving() {
        return ScriptedModel.reply(StopReason.TOOL_USE, Usage.of(500, 50, 0, 0), new ToolUseBlock("toolu_v", "verdict",
                Json.mapper().valueToTree(Map.of("approved", true, "problems", List.of()))));
    }

    private static List<String> types(List<TraceEvent> events) {
        return events.stream().map(e -> e.getClass().getSimpleName()).toList();
    }
}
