package dev.rein.safety;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.model.ToolResultBlock;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Principal;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolOutput;
import dev.rein.trace.TraceEvent;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** docs/safety.md: a resumed run keeps the principal it started with, not the resuming agent's. */
class ResumePrincipalTest {
    private final InMemoryRunStore store = new InMemoryRunStore();
    private final List<String> refunds = new CopyOnWriteArrayList<>();
    private final Tool refund = Tool.builder("refund").description("Refunds an order.")
            .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
            .risk(Risk.WRITE).requiredScopes("payments:write")
            .handler((args, ctx) -> {
                refunds.add(ctx.principal().user() + " " + args.get("id").asText());
                return ToolOutput.text("refunded").withSource("payments");
            }).build();

    private Agent agent(ScriptedModel model, Principal principal, RecordingListener trace) {
        return Agent.builder().model(model).tools(refund).store(store).principal(principal).listener(trace).build();
    }

    @Test
    void aRunStartedWithoutTheScopeIsRefusedEvenWhenAnAdminResumesIt() {
        Principal clerk = new Principal("clerk", "acme", Set.of());
        Principal admin = new Principal("admin", "acme", Set.of("payments:write"));
        // The clerk's run cannot reach approval at all: the scope stage comes first.
        RunResult ended = agent(ScriptedModel.of(toolCalls(call("refund", "{\"id\":\"A-1\"}")), text("no")), clerk,
                new RecordingListener()).run("refund A-1");
        assertThat(ended.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(refunds).isEmpty();

        // An admin's run pauses; a clerk's agent resumes it with the admin's scopes.
        RecordingListener trace = new RecordingListener();
        RunResult paused = agent(ScriptedModel.of(toolCalls(call("refund", "{\"id\":\"A-2\"}"))), admin, trace).run("refund A-2");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        Agent clerks = agent(ScriptedModel.of(text("done")), clerk, trace);
        clerks.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "lead");
        RunResult done = clerks.resume(paused.runId());
        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(refunds).containsExactly("admin A-2");
    }

    @Test
    void aClerksPausedRunStaysAClerksRunWhenAnAdminResumesIt() {
        Principal clerk = new Principal("clerk", "acme", Set.of("orders:read"));
        Principal admin = new Principal("admin", "acme", Set.of("payments:write"));
        Tool other = Tool.builder("note").description("Writes a note.").risk(Risk.WRITE)
                .inputSchema("{\"type\":\"object\"}").handler((args, ctx) -> "noted").build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("note", "{}"), call("refund", "{\"id\":\"A-3\"}")), text("done"));
        RecordingListener trace = new RecordingListener();
        RunResult paused = Agent.builder().model(model).tools(refund, other).store(store).principal(clerk).listener(trace).build()
                .run("note and refund");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        Agent admins = Agent.builder().model(model).tools(refund, other).store(store).principal(admin).listener(trace).build();
        admins.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "lead");
        RunResult done = admins.resume(paused.runId());
        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(refunds).isEmpty();
        ToolResultBlock refused = (ToolResultBlock) model.lastRequest().messages().get(2).content().get(1);
        assertThat(refused.isError()).isTrue();
        assertThat(trace.events(TraceEvent.Audit.class)).anySatisfy(a -> assertThat(a.detail()).contains("payments:write"));
    }
}
