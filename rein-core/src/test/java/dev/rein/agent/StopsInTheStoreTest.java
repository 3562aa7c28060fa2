package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.Role;
import dev.rein.model.ToolChoice;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunSnapshot;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.trace.TraceEvent;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Probes of what README (Ending a run, Trace), docs/guards.md and docs/safety.md promise for each kind
 * of stop: the result's status and reason, the partial answer kept, the trace ending with the state
 * change and run_finished that say so, and the stored run saved whole with the same ending and a
 * history in which every tool_use has its tool_result (so it can be shown, replied to or resumed).
 */
class StopsInTheStoreTest {
    private final RecordingListener trace = new RecordingListener();
    private final InMemoryRunStore store = new InMemoryRunStore();

    private Agent.Builder agent(ScriptedModel model, Tool... tools) {
        return Agent.builder().model(model).tools(tools.length == 0 ? new Tool[] {TestTools.echo()} : tools).listener(trace)
                .store(store);
    }

    @Test
    void theStepLimitKeepsTheSummaryAsTheAnswerInTheResultTheTraceAndTheStore() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"一\"}")),
                toolCalls(call("echo", "{\"text\":\"二\"}")), text("分かったこと: 一と二。未完: 三。"));
        RunResult result = agent(model).budget(Budget.builder().maxSteps(2).build()).build().run("数えて");

        assertEnded(result, RunStatus.STOPPED_BUDGET, "max_steps");
        assertThat(result.answer()).isEqualTo("分かったこと: 一と二。未完: 三。");
        assertThat(model.lastRequest().toolChoice()).isEqualTo(ToolChoice.none());
        assertThat(model.lastRequest().tools()).isNotEmpty();
        assertThat(trace.events(TraceEvent.Intervention.class)).extracting(TraceEvent.Intervention::kind).contains("budget");
    }

    @Test
    void theDeadlineDuringAToolCallEndsWithoutAnotherModelCallAndTheCutCallAnswered() {
        CountDownLatch never = new CountDownLatch(1);
        Tool slow = Tool.builder("slow").description("Takes its time.").handler((args, ctx) -> {
            never.await();
            return "late";
        }).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("slow", "{}")), text("never asked"));
        RunResult result = agent(model, slow).budget(Budget.builder().maxDuration(Duration.ofMillis(1500)).build()).build()
                .run("wait");

        assertEnded(result, RunStatus.STOPPED_BUDGET, "deadline");
        assertThat(model.requests()).hasSize(1);
        RunSnapshot stored = store.load(result.runId()).orElseThrow();
        assertThat(stored.history().get(stored.history().size() - 1).content()).singleElement()
                .satisfies(b -> assertThat(((ToolResultBlock) b).isError()).isTrue());
    }

    @Test
    void aCancelDuringAToolCallIsStoredCancelledWithTheCallAnswered() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        Tool blocking = Tool.builder("blocking").description("Blocks until interrupted.").handler((args, ctx) -> {
            entered.countDown();
            new CountDownLatch(1).await();
            return "never";
        }).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("blocking", "{}")), text("never asked"));
        RunHandle handle = agent(model, blocking).build().start("block");
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
        handle.cancel();
        RunResult result = handle.await(Duration.ofSeconds(30));

        assertEnded(result, RunStatus.CANCELLED, "cancelled", false);
        assertThat(model.requests()).hasSize(1);
        // the README's trace: a tool call a cancel interrupted has no tool_result; the stored history, like the trace, ends
        // with that call unanswered, as it was (a reply answers it first: CancelledRunReplyTest)
        assertThat(trace.events(TraceEvent.ToolCompleted.class)).isEmpty();
        RunSnapshot stored = store.load(result.runId()).orElseThrow();
        assertThat(stored.history().get(stored.history().size() - 1).content()).singleElement()
                .isInstanceOf(ToolUseBlock.class);
    }

    @Test
    void aCancelDuringAModelCallIsStoredCancelled() throws Exception {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"a\"}")), ScriptedModel.hang());
        RunHandle handle = agent(model).build().start("go");
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (model.requests().size() < 2 && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        handle.cancel();
        RunResult result = handle.await(Duration.ofSeconds(30));

        assertEnded(result, RunStatus.CANCELLED, "cancelled");
    }

    @Test
    void aStallStopIsAFailureStoredWithEveryCallOfItsResponseAnswered() {
        // docs/guards.md: identical calls 3 and 4 are blocked, call 5 ends the run, and none of its response's calls runs
        ScriptedModel model = ScriptedModel.of(same(), same(), same(), same(),
                toolCalls(call("echo", "{\"text\":\"same\"}"), call("echo", "{\"text\":\"other\"}")), text("never asked"));
        RunResult result = agent(model).build().run("repeat");

        assertEnded(result, RunStatus.FAILED, "stalled");
        assertThat(result.message()).contains("exact_repeat");
        assertThat(model.requests()).hasSize(5);
        assertThat(trace.events(TraceEvent.ToolCalled.class)).hasSize(2);
        RunSnapshot stored = store.load(result.runId()).orElseThrow();
        assertThat(stored.history().get(stored.history().size() - 1).content()).hasSize(2)
                .allSatisfy(b -> assertThat(((ToolResultBlock) b).content()).contains("the run is being stopped"));
    }

    @Test
    void theMoneyLimitKeepsTheSummaryToo() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"a\"}")), toolCalls(call("echo", "{\"text\":\"b\"}")),
                toolCalls(call("echo", "{\"text\":\"c\"}")), text("known: a, b"));
        RunResult result = agent(model).price(ScriptedModel.DEFAULT_NAME, dev.rein.budget.ModelPrice.of("1000", "1000", "0"))
                .budget(Budget.builder().maxCostUsd(new java.math.BigDecimal("0.25")).build()).build().run("go");

        assertEnded(result, RunStatus.STOPPED_BUDGET, "max_cost");
        assertThat(result.answer()).isEqualTo("known: a, b");
    }

    private static ScriptedModel.Turn same() {
        return toolCalls(call("echo", "{\"text\":\"same\"}"));
    }

    /** The result, the trace's ending and the stored run say the same, and the stored history is whole. */
    private void assertEnded(RunResult result, RunStatus status, String reason) {
        assertEnded(result, status, reason, true);
    }

    private void assertEnded(RunResult result, RunStatus status, String reason, boolean everyCallAnswered) {
        assertThat(result.status()).as(result.message()).isEqualTo(status);
        assertThat(result.reason()).isEqualTo(reason);
        List<TraceEvent> events = trace.events();
        TraceEvent.StateChanged change = (TraceEvent.StateChanged) events.get(events.size() - 2);
        assertThat(change.to()).isEqualTo(status);
        assertThat(change.reason()).isEqualTo(reason);
        TraceEvent.RunFinished finished = (TraceEvent.RunFinished) events.get(events.size() - 1);
        assertThat(finished.status()).isEqualTo(status);
        assertThat(finished.reason()).isEqualTo(reason);
        assertThat(finished.answer()).isEqualTo(result.answer());
        assertThat(finished.message()).isEqualTo(result.message());

        RunSnapshot stored = store.load(result.runId()).orElseThrow();
        assertThat(stored.status()).isEqualTo(status);
        assertThat(stored.reason()).isEqualTo(reason);
        assertThat(stored.message()).isEqualTo(result.message());
        assertThat(stored.answer()).isEqualTo(result.answer());
        assertThat(stored.steps()).isEqualTo(result.steps());
        assertThat(stored.pendingApprovals()).isEmpty();
        if (everyCallAnswered) {
            assertEveryCallAnswered(stored.history());
        }
    }

    private static void assertEveryCallAnswered(List<Message> history) {
        for (int i = 0; i < history.size(); i++) {
            Message m = history.get(i);
            Set<String> asked = new HashSet<>();
            for (ContentBlock b : m.content()) {
                if (b instanceof ToolUseBlock use) {
                    asked.add(use.id());
                }
            }
            if (asked.isEmpty()) {
                continue;
            }
            assertThat(i + 1).as("the calls of message " + i + " have an answer").isLessThan(history.size());
            Message next = history.get(i + 1);
            assertThat(next.role()).isEqualTo(Role.USER);
            Set<String> answered = new HashSet<>();
            next.content().stream().filter(b -> b instanceof ToolResultBlock).forEach(b -> answered.add(((ToolResultBlock) b).toolUseId()));
            assertThat(answered).as("message " + (i + 1) + " answers every call of message " + i).containsAll(asked);
        }
    }
}
