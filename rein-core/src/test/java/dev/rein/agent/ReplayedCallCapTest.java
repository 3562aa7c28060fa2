package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.approval.ApprovalPolicy;
import dev.rein.model.ToolResultBlock;
import dev.rein.run.RunStatus;
import dev.rein.state.ForwardingRunStore;
import dev.rein.state.IdempotencyRecord;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunSnapshot;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A side effect whose completion was recorded, but whose step's checkpoint was not (the process died
 * in between), is answered from its record on resume: it still counts toward its tool's call cap.
 */
class ReplayedCallCapTest {

    /** Saves nothing more once a completion is recorded: the process "died" right after the effect. */
    static final class CrashingStore extends ForwardingRunStore {
        final AtomicBoolean dead = new AtomicBoolean();

        CrashingStore() {
            super(new InMemoryRunStore());
        }

        @Override
        public void save(RunSnapshot snapshot) {
            if (dead.get()) {
                throw new IllegalStateException("the process died");
            }
            super.save(snapshot);
        }

        @Override
        public void putIdempotency(IdempotencyRecord record) {
            super.putIdempotency(record);
            if (record.status() == IdempotencyRecord.Status.COMPLETED) {
                dead.set(true);
            }
        }
    }

    @Test
    void aCallAnsweredFromItsRecordOnResumeCountsTowardItsToolsCap() {
        AtomicInteger charges = new AtomicInteger();
        Tool charge = Tool.builder("charge").description("Charges the card.").risk(Risk.WRITE).maxCalls(1)
                .handler((a, c) -> "charged " + charges.incrementAndGet()).build();
        CrashingStore store = new CrashingStore();
        ScriptedModel first = ScriptedModel.of(toolCalls(call("charge", "{\"amount\":5}")), text("unused"));
        RunResult crashed = Agent.builder().model(first).tools(charge).approvalPolicy(ApprovalPolicy.NEVER).store(store)
                .build().run("charge the customer");
        assertThat(charges.get()).isEqualTo(1);
        String runId = crashed.runId();
        assertThat(store.delegate().load(runId).orElseThrow().status()).isEqualTo(RunStatus.RUNNING);

        // another process resumes: the completed charge is answered from its record, then the model asks for another
        ScriptedModel second = ScriptedModel.of(toolCalls(call("charge", "{\"amount\":7}")), text("done"));
        RunResult resumed = Agent.builder().model(second).tools(charge).approvalPolicy(ApprovalPolicy.NEVER).store(store.delegate())
                .build().resume(runId);
        assertThat(resumed.status()).isEqualTo(RunStatus.SUCCEEDED);
        ToolResultBlock replayed = (ToolResultBlock) second.requests().get(0).messages().get(2).content().get(0);
        assertThat(replayed.content()).contains("charged 1");
        ToolResultBlock over = (ToolResultBlock) second.requests().get(1).messages().get(4).content().get(0);
        assertThat(over.isError()).isTrue();
        assertThat(over.content()).contains("limit of 1 call in this run");
        assertThat(charges.get()).as("the cap of one charge per run holds across the crash").isEqualTo(1);
    }
}
