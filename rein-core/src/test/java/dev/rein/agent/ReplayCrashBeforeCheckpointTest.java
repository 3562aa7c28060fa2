package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.approval.ApprovalPolicy;
import dev.rein.context.Compaction;
import dev.rein.context.ContextPolicy;
import dev.rein.context.TokenCounting;
import dev.rein.json.Json;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.run.RunStatus;
import dev.rein.state.ForwardingRunStore;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunSnapshot;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process that died after a model call was traced but before the step's checkpoint: the resumed run makes that call
 * again, so the trace holds it twice. A replay answered the redone call with the first, lost one, which the run never
 * acted on.
 */
class ReplayCrashBeforeCheckpointTest {
    /** Dies at the checkpoint of the step whose model proposed the charge of 6: the call is traced, its checkpoint never saved. */
    static final class DiesAtTheSecondChargesCheckpoint extends ForwardingRunStore {
        final AtomicBoolean dead = new AtomicBoolean();

        DiesAtTheSecondChargesCheckpoint() {
            super(new InMemoryRunStore());
        }

        @Override
        public void save(RunSnapshot snapshot) {
            if (dead.get() || Json.write(snapshot.history()).contains("{\"amount\":6}")) {
                dead.set(true);
                throw new IllegalStateException("the process died");
            }
            super.save(snapshot);
        }
    }

    private static Tool charge() {
        return Tool.builder("charge").description("Charges the card.").risk(Risk.WRITE)
                .handler((a, c) -> "charged " + a.path("amount").asInt()).build();
    }

    @Test
    void aCallRedoneAfterTheProcessDiedBeforeItsCheckpointIsReplayedFromTheCallTheRunActedOn(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        DiesAtTheSecondChargesCheckpoint store = new DiesAtTheSecondChargesCheckpoint();
        RunResult crashed = Agent.builder().model(ScriptedModel.of(toolCalls(call("charge", "{\"amount\":5}")),
                        toolCalls(call("charge", "{\"amount\":6}")), text("unused")))
                .tools(charge()).approvalPolicy(ApprovalPolicy.NEVER).store(store)
                .listener(JsonlTraceListener.to(trace)).build().run("charge the customer");
        assertThat(store.delegate().load(crashed.runId()).orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        assertThat(Json.write(store.delegate().load(crashed.runId()).orElseThrow().history())).doesNotContain("{\"amount\":6}");

        // another process resumes after the first charge: the model, asked again, proposes another charge
        RunResult done = Agent.builder().model(ScriptedModel.of(toolCalls(call("charge", "{\"amount\":7}")), text("Charged 5 and 7.")))
                .tools(charge()).approvalPolicy(ApprovalPolicy.NEVER).store(store.delegate())
                .listener(JsonlTraceListener.to(trace)).build().resume(crashed.runId());
        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        String recorded = Files.readString(trace);
        assertThat(recorded).contains("\"from\":\"RUNNING\"", "{\"amount\":6}", "{\"amount\":7}");

        ReplayReport report = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of()).tools(charge())
                .approvalPolicy(ApprovalPolicy.NEVER).build());

        assertThat(report.firstDivergence()).as(recorded).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.result().answer()).isEqualTo("Charged 5 and 7.");
    }

    /**
     * The process died after a step's tools ran but before the checkpoint that records their results: the resumed run
     * ran them again, and a tool that reads live data answered otherwise. The trace holds both results of one call at
     * one step; a replay answered the call with the lost first one.
     */
    @Test
    void aToolCallRunAgainAfterTheProcessDiedBeforeItsCheckpointIsReplayedWithTheResultTheRunActedOn(@TempDir Path dir)
            throws Exception {
        Path trace = dir.resolve("run.jsonl");
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        Tool balance = Tool.builder("balance").description("Reads the balance.").risk(Risk.READ)
                .handler((a, c) -> "balance " + (100 + reads.incrementAndGet())).build();
        ForwardingRunStore store = new ForwardingRunStore(new InMemoryRunStore()) {
            final AtomicBoolean dead = new AtomicBoolean();

            @Override
            public void save(RunSnapshot snapshot) {
                if (dead.get() || Json.write(snapshot.history()).contains("balance 101")) {
                    dead.set(true);
                    throw new IllegalStateException("the process died");
                }
                super.save(snapshot);
            }
        };
        RunResult crashed = Agent.builder().model(ScriptedModel.of(toolCalls(call("balance", "{}")), text("unused")))
                .tools(balance).approvalPolicy(ApprovalPolicy.NEVER).store(store)
                .listener(JsonlTraceListener.to(trace)).build().run("what is the balance?");
        assertThat(store.delegate().load(crashed.runId()).orElseThrow().status()).isEqualTo(RunStatus.RUNNING);

        RunResult done = Agent.builder().model(ScriptedModel.of(text("The balance is 102.")))
                .tools(balance).approvalPolicy(ApprovalPolicy.NEVER).store(store.delegate())
                .listener(JsonlTraceListener.to(trace)).build().resume(crashed.runId());
        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        String recorded = Files.readString(trace);
        assertThat(recorded).contains("\"from\":\"RUNNING\"", "balance 101", "balance 102");

        ReplayReport report = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of()).tools(balance)
                .approvalPolicy(ApprovalPolicy.NEVER).build());

        assertThat(report.firstDivergence()).as(recorded).isEmpty();
        assertThat(report.reproduced()).isTrue();
    }

    /**
     * Context work for a step (its token count, a compaction call, context_edited) is numbered with the steps made so
     * far, so what the stopped process did for step 3 before dying at its checkpoint carries step 2, the step the run
     * was resumed from. It was kept, the resumed run counted again at step 2 (the provider counted 10 before, 5,000 now,
     * and it compacted), and a replay answered that count with the lost 10: it made its step call where the recording
     * compacted.
     */
    @Test
    void contextWorkRedoneAfterTheProcessDiedBeforeItsCheckpointIsReplayedFromTheCountTheRunActedOn(@TempDir Path dir)
            throws Exception {
        Path trace = dir.resolve("run.jsonl");
        ContextPolicy compacting = ContextPolicy.builder().compaction(Compaction.client(1_000).keepingLast(2))
                .tokenCounting(TokenCounting.PROVIDER).build();
        Tool search = Tool.builder("search").description("Searches.").risk(Risk.READ)
                .handler((a, c) -> "found " + a.path("q").asText() + ": " + "x".repeat(2_500)).build();
        ForwardingRunStore store = new ForwardingRunStore(new InMemoryRunStore()) {
            final AtomicBoolean dead = new AtomicBoolean();

            @Override
            public void save(RunSnapshot snapshot) {
                if (dead.get() || snapshot.steps() >= 3) {
                    dead.set(true);
                    throw new IllegalStateException("the process died");
                }
                super.save(snapshot);
            }
        };
        RunResult crashed = Agent.builder().model(counting(ScriptedModel.of(toolCalls(call("search", "{\"q\":\"a\"}")),
                        toolCalls(call("search", "{\"q\":\"b\"}")), toolCalls(call("search", "{\"q\":\"lost\"}"))), 10))
                .modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES).contextPolicy(compacting)
                .tools(search).approvalPolicy(ApprovalPolicy.NEVER).store(store)
                .listener(JsonlTraceListener.to(trace)).build().run("search");
        assertThat(store.delegate().load(crashed.runId()).orElseThrow().steps()).isEqualTo(2);

        RunResult done = Agent.builder().model(counting(ScriptedModel.of(text("summary: searched a and b"),
                        toolCalls(call("search", "{\"q\":\"c\"}")), text("done")), 5_000))
                .modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES).contextPolicy(compacting)
                .tools(search).approvalPolicy(ApprovalPolicy.NEVER).store(store.delegate())
                .listener(JsonlTraceListener.to(trace)).build().resume(crashed.runId());
        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        String recorded = Files.readString(trace);
        assertThat(recorded).contains("\"from\":\"RUNNING\"", "\"type\":\"context_edited\"", "lost");

        ReplayReport report = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of())
                .modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES).contextPolicy(compacting)
                .tools(search).approvalPolicy(ApprovalPolicy.NEVER).build());

        assertThat(report.firstDivergence()).as(recorded).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.result().answer()).isEqualTo("done");
    }

    /**
     * The final summary call is made after the last step's checkpoint and numbered with it: a process that died saving
     * the summarized result left that summary in the trace, the resumed run asked for it again, and a replay answered
     * it with the lost one.
     */
    @Test
    void aFinalSummaryRedoneAfterTheProcessDiedBeforeItsCheckpointIsReplayedFromTheSummaryTheRunGave(@TempDir Path dir)
            throws Exception {
        Path trace = dir.resolve("run.jsonl");
        ForwardingRunStore store = new ForwardingRunStore(new InMemoryRunStore()) {
            @Override
            public void save(RunSnapshot snapshot) {
                if (snapshot.status().terminal()) {
                    throw new IllegalStateException("the process died");
                }
                super.save(snapshot);
            }
        };
        dev.rein.budget.Budget twoSteps = dev.rein.budget.Budget.builder().maxSteps(2).build();
        RunResult crashed = Agent.builder().model(ScriptedModel.of(toolCalls(call("charge", "{\"amount\":5}")),
                        toolCalls(call("charge", "{\"amount\":6}")), text("Charged 5 and 6 (the lost summary).")))
                .tools(charge()).approvalPolicy(ApprovalPolicy.NEVER).budget(twoSteps).store(store)
                .listener(JsonlTraceListener.to(trace)).build().run("charge the customer");
        assertThat(store.delegate().load(crashed.runId()).orElseThrow().status()).isEqualTo(RunStatus.RUNNING);

        RunResult done = Agent.builder().model(ScriptedModel.of(text("Charged 5 and 6.")))
                .tools(charge()).approvalPolicy(ApprovalPolicy.NEVER).budget(twoSteps).store(store.delegate())
                .listener(JsonlTraceListener.to(trace)).build().resume(crashed.runId());
        assertThat(done.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        String recorded = Files.readString(trace);
        assertThat(recorded).contains("\"from\":\"RUNNING\"", "the lost summary");

        ReplayReport report = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of()).tools(charge())
                .approvalPolicy(ApprovalPolicy.NEVER).budget(twoSteps).build());

        assertThat(report.firstDivergence()).as(recorded).isEmpty();
        assertThat(report.reproduced()).as(recorded).isTrue();
        assertThat(report.result().answer()).contains("Charged 5 and 6.").doesNotContain("lost");
    }

    /** A model whose provider counts {@code first} tokens for its first count, then 10. */
    private static dev.rein.model.Model counting(ScriptedModel inner, long first) {
        java.util.concurrent.atomic.AtomicInteger counted = new java.util.concurrent.atomic.AtomicInteger();
        return new dev.rein.model.Model() {
            @Override
            public dev.rein.model.ModelResponse call(dev.rein.model.ModelRequest request, dev.rein.model.ModelCallContext context)
                    throws dev.rein.model.ModelException, InterruptedException {
                return inner.call(request, context);
            }

            @Override
            public long countTokens(dev.rein.model.ModelRequest request) {
                return counted.incrementAndGet() == 1 ? first : 10;
            }
        };
    }
}
