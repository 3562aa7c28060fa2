package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.model.ToolResultBlock;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.ErrorClass;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.trace.TraceEvent;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Issue 2's budgets in combination with the rest of a step: approvals, parallel reads that use up
 * the time, and the trace of each ending.
 */
class BudgetCombinationsTest {
    private final RecordingListener trace = new RecordingListener();

    @Test
    void aWriteProposedWithAReadThatUsedUpTheDeadlineIsNotPutToAPerson() {
        AtomicInteger sent = new AtomicInteger();
        Tool send = Tool.builder("send").description("Sends.").risk(Risk.WRITE).handler((a, c) -> "sent " + sent.incrementAndGet())
                .build();
        Tool hang = Tool.builder("hang").description("Hangs.").handler((a, c) -> {
            Thread.sleep(60_000);
            return "never";
        }).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("hang", "{}"), call("send", "{}")), text("never"));
        Agent agent = Agent.builder().model(model).tools(hang, send).store(new InMemoryRunStore()).listener(trace)
                .budget(Budget.builder().maxDuration(Duration.ofSeconds(1)).build()).build();

        RunResult result = agent.run("go");

        // the read ran until the deadline; asking a person about the write would only lead to a resume
        // that cannot run it ("the run's deadline has passed"), so the run stops on its deadline now
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("deadline");
        assertThat(result.pendingApprovals()).isEmpty();
        assertThat(trace.events(TraceEvent.ApprovalRequested.class)).isEmpty();
        assertThat(sent).hasValue(0);
        assertThat(model.requests()).hasSize(1);
        // every call of the step still has its result, in call order, the write's saying why it did not run
        var results = result.history().get(result.history().size() - 1).content();
        assertThat(results).extracting(b -> ((ToolResultBlock) b).toolUseId()).containsExactly("toolu_1_1", "toolu_1_2");
        ToolResultBlock write = (ToolResultBlock) results.get(1);
        assertThat(write.isError()).isTrue();
        assertThat(write.content()).contains("deadline has passed").contains("'send' was not called");
        assertThat(trace.events(TraceEvent.ToolCompleted.class)).filteredOn(e -> e.tool().equals("send")).singleElement()
                .satisfies(e -> assertThat(e.errorClass()).isEqualTo(ErrorClass.TIMEOUT.name()));
    }

    @Test
    void aDeadlineReachedDuringAModelCallIsTracedAsABudgetStopLikeOneReachedBetweenSteps() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"東京\"}")), ScriptedModel.hang());
        RunResult result = Agent.builder().model(model).tools(TestTools.echo()).listener(trace)
                .budget(Budget.builder().maxDuration(Duration.ofSeconds(1)).build()).build().run("go");

        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("deadline");
        // the budget stop is an intervention of kind budget naming the deadline (the live view's "! budget",
        // OpenTelemetry's rein.budget.stop), as when the deadline is found between steps or after a tool
        assertThat(trace.events(TraceEvent.Intervention.class)).singleElement().satisfies(i -> {
            assertThat(i.kind()).isEqualTo("budget");
            assertThat(i.evidence()).containsEntry("budget", "deadline");
            assertThat(i.message()).isEqualTo(result.message());
        });
        var types = trace.events().stream().map(e -> e.getClass().getSimpleName()).toList();
        assertThat(types.subList(types.size() - 3, types.size())).containsExactly("Intervention", "StateChanged", "RunFinished");
    }
}
