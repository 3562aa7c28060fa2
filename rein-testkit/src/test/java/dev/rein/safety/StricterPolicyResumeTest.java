package dev.rein.safety;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.run.RunStatus;
import dev.rein.state.IdempotencyRecord;
import dev.rein.state.InMemoryRunStore;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolOutput;
import dev.rein.trace.TraceEvent;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A run resumed by an agent whose approval policy is stricter than the one that started it (a WRITE
 * ran freely under IRREVERSIBLE_ONLY; the agent that resumes asks for every side effect): a side
 * effect that already completed is answered from its record and never put to a person, since no
 * decision could undo it (docs/safety.md: a completed call is never executed again on resume).
 */
class StricterPolicyResumeTest {
    private static final String SEND = "{\"to\":\"alice@example.com\",\"body\":\"late\"}";
    private final List<String> sent = new CopyOnWriteArrayList<>();
    private final RecordingListener trace = new RecordingListener();

    private Tool send() {
        return Tool.builder("send_message").description("Sends a message.").risk(Risk.WRITE)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"to\":{\"type\":\"string\"},\"body\":{\"type\":\"string\"}}}")
                .handler((args, ctx) -> {
                    sent.add(ctx.idempotencyKey());
                    return ToolOutput.text("sent").withSource("outbox");
                }).build();
    }

    private static Tool wipe() {
        return Tool.builder("wipe_mailbox").description("Deletes every message.").risk(Risk.IRREVERSIBLE)
                .handler((args, ctx) -> ToolOutput.text("wiped").withSource("mailbox")).build();
    }

    @Test
    void aWriteThatCompletedBeforeTheProcessDiedIsNotPutToAPersonByAStricterAgent() {
        InMemoryRunStore first = new InMemoryRunStore();
        EditedApprovalCrashTest.DiskCopy disk = new EditedApprovalCrashTest.DiskCopy();
        // the disk as it was when the process died: the send recorded as completed, the step not yet answered
        dev.rein.trace.RunListener copier = new dev.rein.trace.RunListener() {
            @Override
            public void onEvent(TraceEvent event) {
                if (event instanceof TraceEvent.ToolCompleted done && done.tool().equals("send_message") && disk.runs.isEmpty()) {
                    disk.save(first.load(done.runId()).orElseThrow());
                    first.idempotency(done.runId() + ":1:0").ifPresent(disk::putIdempotency);
                }
            }
        };
        Agent lenient = Agent.builder().model(ScriptedModel.of(toolCalls(call("send_message", SEND)), text("done")))
                .tools(send()).store(first).listener(runId -> copier).approvalPolicy(ApprovalPolicy.IRREVERSIBLE_ONLY).build();
        RunResult ran = lenient.run("tell alice");
        assertThat(ran.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(disk.keys.values()).singleElement()
                .satisfies(r -> assertThat(r.status()).isEqualTo(IdempotencyRecord.Status.COMPLETED));
        assertThat(disk.runs.get(ran.runId()).status()).isEqualTo(RunStatus.RUNNING);

        Agent strict = Agent.builder().model(ScriptedModel.of(text("Alice was told."))).tools(send()).store(disk)
                .listener(trace).build();
        RunResult resumed = strict.resume(ran.runId());

        assertThat(resumed.status()).as(resumed.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(resumed.pendingApprovals()).isEmpty();
        assertThat(sent).containsExactly(ran.runId() + ":1:0");
        assertThat(trace.events(TraceEvent.ApprovalRequested.class)).isEmpty();
        assertThat(trace.events(TraceEvent.Audit.class)).extracting(TraceEvent.Audit::kind).contains("idempotent_replay")
                .doesNotContain("approval_requested");
    }

    @Test
    void aWriteThatRanBeforeThePauseIsNotPutToAPersonByAStricterAgent() {
        InMemoryRunStore store = new InMemoryRunStore();
        Agent lenient = Agent.builder().model(ScriptedModel.of(toolCalls(call("send_message", SEND), call("wipe_mailbox", "{}"))))
                .tools(send(), wipe()).store(store).approvalPolicy(ApprovalPolicy.IRREVERSIBLE_ONLY).build();
        RunResult paused = lenient.run("tell alice, then clean up");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(paused.pendingApprovals()).singleElement().satisfies(r -> assertThat(r.tool()).isEqualTo("wipe_mailbox"));
        assertThat(sent).hasSize(1);

        Agent strict = Agent.builder().model(ScriptedModel.of(text("done"))).tools(send(), wipe()).store(store)
                .listener(trace).approvalPolicy(ApprovalPolicy.ALWAYS).build();
        strict.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "carol");
        RunResult done = strict.resume(paused.runId());

        assertThat(done.status()).as(done.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(sent).hasSize(1);
        assertThat(trace.events(TraceEvent.ApprovalRequested.class)).isEmpty();
    }
}
