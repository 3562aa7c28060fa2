package dev.rein.safety;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.agent.SafetyConfig;
import dev.rein.budget.Budget;
import dev.rein.model.ToolResultBlock;
import dev.rein.retry.RetryPolicy;
import dev.rein.state.Handoff;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunView;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.ErrorClass;
import dev.rein.tool.PermissionDeniedException;
import dev.rein.tool.Principal;
import dev.rein.tool.RetryableToolException;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolOutput;
import dev.rein.trace.TraceEvent;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LoopSafetyTest {
    private final RecordingListener trace = new RecordingListener();
    private final InMemoryRunStore store = new InMemoryRunStore();
    private final FakeOutbox outbox = new FakeOutbox();

    @Test
    void theDeadlineCountsRunningTimeNotTimeSpentWaitingForAPerson() {
        MutableClock clock = new MutableClock();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message", "{\"to\":\"a\",\"body\":\"b\"}")), text("sent"));
        Agent agent = Agent.builder().model(model).tools(outbox.sendTool()).clock(clock).store(store)
                .budget(Budget.builder().maxDuration(Duration.ofSeconds(60)).build()).build();
        RunResult paused = agent.run("send it");

        clock.advance(Duration.ofHours(20));
        agent.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "night shift");
        RunResult done = agent.resume(paused.runId());

        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(done.duration()).isLessThan(Duration.ofSeconds(60));
        assertThat(outbox.effects()).isEqualTo(1);
    }

    @Test
    void needsUserInputHandsOverFactsOpenQuestionsAndAttemptedActions() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("lookup_order", "{\"id\":\"A-104\"}")),
                toolCalls(call("finish", """
                        {"status":"needs_user_input","summary":"The order is held at the depot.",
                         "result":"Should I re-ship it by express (USD 12)?",
                         "open_questions":["Does the customer accept express shipping costs?"],
                         "hypotheses":["The depot lost the label"]}""")));
        Agent agent = Agent.builder().model(model).tools(FakeOutbox.lookup("A-104: held at depot 3 since 2 days"))
                .finishTool(true).store(store).build();

        RunResult result = agent.run("Why is A-104 late?");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo("needs_user_input");
        Handoff handoff = result.handoff().orElseThrow();
        assertThat(handoff.question()).isEqualTo("Should I re-ship it by express (USD 12)?");
        assertThat(handoff.facts()).singleElement().satisfies(f -> {
            assertThat(f.text()).isEqualTo("A-104: held at depot 3 since 2 days");
            assertThat(f.source()).isEqualTo("orders-db");
            assertThat(f.observedAt()).isNotNull();
        });
        assertThat(handoff.hypotheses()).containsExactly("The depot lost the label");
        assertThat(handoff.openQuestions()).containsExactly("Does the customer accept express shipping costs?");
        assertThat(handoff.attemptedActions()).extracting(a -> a.tool()).containsExactly("lookup_order");

        RunView view = agent.runs().show(result.runId());
        assertThat(view.handoff()).isPresent();
        assertThat(view.describe()).contains("Question: Should I re-ship it").contains("held at depot 3").contains("[orders-db,")
                .contains("Open questions").contains("step 1 lookup_order -> NONE");
    }

    @Test
    void transientFailuresAreRetriedWithTheSameKeyEachAttemptTracedPermissionIsNot() {
        List<String> keys = new CopyOnWriteArrayList<>();
        AtomicInteger attempts = new AtomicInteger();
        Tool flaky = Tool.builder("charge").description("Charges.").risk(Risk.WRITE)
                .handler((args, ctx) -> {
                    keys.add(ctx.idempotencyKey());
                    if (attempts.incrementAndGet() < 3) {
                        throw new RetryableToolException("HTTP 503 from the payment service", Duration.ofMillis(10));
                    }
                    return ToolOutput.text("charged").withSource("payments");
                })
                .build();
        AtomicInteger denied = new AtomicInteger();
        Tool fetch = Tool.builder("fetch").description("Fetches.")
                .handler((args, ctx) -> {
                    denied.incrementAndGet();
                    throw new PermissionDeniedException("host evil.example is not on the allowlist");
                })
                .build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("charge", "{}"), call("fetch", "{}")), text("ok"));
        Agent agent = Agent.builder().model(model).tools(flaky, fetch).listener(trace)
                .safety(SafetyConfig.builder().approvalPolicy(dev.rein.approval.ApprovalPolicy.NEVER)
                        .toolRetryPolicy(new RetryPolicy(3, Duration.ofMillis(5), Duration.ofMillis(50), 0)).build())
                .store(store).build();

        RunResult result = agent.run("charge");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(keys).hasSize(3).containsOnly(result.runId() + ":1:0");
        assertThat(trace.events(TraceEvent.ToolRetry.class)).extracting(TraceEvent.ToolRetry::attempt).containsExactly(1, 2);
        assertThat(trace.events(TraceEvent.ToolRetry.class)).allSatisfy(r -> {
            assertThat(r.errorClass()).isEqualTo("TRANSIENT");
            assertThat(r.delayMillis()).isEqualTo(10);
        });
        assertThat(denied).hasValue(1);
        assertThat(trace.events(TraceEvent.ToolCompleted.class)).anySatisfy(c -> {
            assertThat(c.tool()).isEqualTo("fetch");
            assertThat(c.errorClass()).isEqualTo(ErrorClass.PERMISSION_DENIED.name());
        });
    }

    @Test
    void strictProvenanceRejectsAResultWithoutASourceAndItNeverBecomesAFact() {
        Tool anonymous = Tool.builder("rumour").description("Says something.").handler((args, ctx) -> "the CEO resigned").build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("rumour", "{}")), text("unknown"));
        Agent agent = Agent.builder().model(model).tools(anonymous)
                .safety(SafetyConfig.builder().strictProvenance(true).build()).store(store).build();

        RunResult result = agent.run("news?");

        ToolResultBlock block = (ToolResultBlock) model.lastRequest().messages().get(2).content().get(0);
        assertThat(block.isError()).isTrue();
        assertThat(block.content()).contains("without a source").doesNotContain("the CEO resigned");
        assertThat(result.state().facts()).isEmpty();
        assertThat(result.state().attemptedActions()).singleElement()
                .satisfies(a -> assertThat(a.outcome()).isEqualTo("MISSING_SOURCE"));
    }

    @Test
    void withoutStrictModeAnUnattributedResultIsAttributedToItsToolAndRecordedAsAFact() {
        Tool anonymous = Tool.builder("clock").description("Tells the time.").handler((args, ctx) -> "12:00").build();
        Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("clock", "{}")), text("noon"))).tools(anonymous)
                .store(store).build();

        RunResult result = agent.run("time?");

        assertThat(result.state().facts()).singleElement().satisfies(f -> assertThat(f.source()).isEqualTo("tool:clock"));
    }

    @Test
    void thePrincipalTravelsWithTheRunAndScopesAreCheckedAgainstIt() {
        Tool admin = Tool.builder("purge_cache").description("Purges the cache.").requiredScopes("ops:admin")
                .handler((args, ctx) -> "purged by " + ctx.principal().user()).build();
        Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("purge_cache", "{}")), text("done"),
                        toolCalls(call("purge_cache", "{}")), text("done"))).tools(admin).store(store).listener(trace).build();

        RunResult anonymous = agent.run("purge");
        RunResult operator = agent.run("purge", new Principal("ops-1", "acme", Set.of("ops:admin")));

        assertThat(anonymous.state().attemptedActions()).singleElement()
                .satisfies(a -> assertThat(a.outcome()).isEqualTo("PERMISSION_DENIED"));
        assertThat(operator.state().facts()).singleElement().satisfies(f -> assertThat(f.text()).isEqualTo("purged by ops-1"));
        assertThat(store.load(operator.runId()).orElseThrow().principal().user()).isEqualTo("ops-1");
        assertThat(trace.events(TraceEvent.Audit.class)).singleElement().satisfies(a -> {
            assertThat(a.user()).isEqualTo("anonymous");
            assertThat(a.detail()).contains("ops:admin");
        });
    }

    @Test
    void scopesAreComparedExactlyWithoutWildcardsOrCaseFolding() {
        Tool refund = Tool.builder("refund").description("Refunds.").risk(Risk.READ)
                .requiredScopes("orders:read", "orders:refund").handler((args, ctx) -> "refunded").build();
        for (Set<String> granted : List.of(Set.of("orders:*", "orders:read"), Set.of("*"), Set.of("ORDERS:READ", "Orders:Refund"),
                Set.of("orders:read"), Set.of("orders:read ", "orders:refund "))) {
            InMemoryRunStore runs = new InMemoryRunStore();
            RecordingListener audit = new RecordingListener();
            Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("refund", "{}")), text("done"))).tools(refund)
                    .store(runs).listener(audit).build();

            RunResult result = agent.run("refund", new Principal("clerk", "acme", granted));

            assertThat(result.state().attemptedActions()).as("%s", granted).singleElement()
                    .satisfies(a -> assertThat(a.outcome()).isEqualTo("PERMISSION_DENIED"));
            assertThat(audit.events(TraceEvent.Audit.class)).as("%s", granted).singleElement()
                    .satisfies(a -> assertThat(a.detail()).contains("orders:refund").contains("clerk"));
        }
        Agent extra = Agent.builder().model(ScriptedModel.of(toolCalls(call("refund", "{}")), text("done"))).tools(refund)
                .store(new InMemoryRunStore()).build();
        RunResult allowed = extra.run("refund", new Principal("admin", "acme", Set.of("orders:read", "orders:refund", "ops:admin")));
        assertThat(allowed.state().facts()).singleElement().satisfies(f -> assertThat(f.text()).isEqualTo("refunded"));
    }

    @Test
    void aSecretFetchedLazilyIsMaskedFromTheMomentItIsHandedOut() {
        String secret = "hunter2-lazy-credential";
        Tool leaky = Tool.builder("whoami").description("Shows the login.")
                .handler((args, ctx) -> "login with " + ctx.secrets().get("db_password").orElseThrow()).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("whoami", "{}")), text("ok"));
        Agent agent = Agent.builder().model(model).tools(leaky).listener(trace).store(store)
                .secrets(name -> name.equals("db_password") ? Optional.of(secret) : Optional.empty()).build();

        agent.run("who am I?");

        assertThat(dev.rein.json.Json.write(model.requests())).doesNotContain(secret).contains("[REDACTED:db_password]");
        assertThat(dev.rein.json.Json.write(trace.events())).doesNotContain(secret);
    }

    /** What the two agents of {@link #conflictOver} came to: the one that resumed the run, the original that lost it. */
    private record Conflict(RunResult resumed, RunResult stopped) {}

    /**
     * A run under {@code id} whose original agent is held inside its first tool call while another agent (another process)
     * resumes and finishes it from the same store; then the original is let go and must stop at its next checkpoint.
     */
    private Conflict conflictOver(String id) throws Exception {
        java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        Tool slow = Tool.builder("slow_read").description("Reads slowly.").handler((args, ctx) -> {
            if (calls.incrementAndGet() == 1) {
                entered.countDown();
                release.await();
            }
            return ToolOutput.text("data").withSource("db");
        }).build();
        Agent original = Agent.builder().model(ScriptedModel.of(toolCalls(call("slow_read", "{}")), text("original done")))
                .tools(slow).store(store).runIds(() -> id).build();
        Agent other = Agent.builder().model(ScriptedModel.of(text("resumed done"))).tools(slow).store(store).build();

        var handle = original.start("read");
        entered.await();
        RunResult resumed = other.resume(id);
        release.countDown();
        return new Conflict(resumed, handle.await());
    }

    @Test
    void whenAnotherProcessResumesARunTheOriginalStopsAtItsNextCheckpointSayingWhoHoldsItOnce() throws Exception {
        Conflict conflict = conflictOver("run_shared");
        RunResult resumed = conflict.resumed();
        RunResult stopped = conflict.stopped();

        assertThat(resumed.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(resumed.answer()).isEqualTo("resumed done");
        assertThat(stopped.status()).isEqualTo(RunStatus.FAILED);
        assertThat(stopped.reason()).isEqualTo("store_conflict");
        // before: "... run run_shared is at version 5 in the store, but version 2 was about to replace version 1: it was
        // changed elsewhere since it was loaded (the run's final state could not be saved: <the same sentence again>)"
        assertThat(stopped.message()).startsWith("the run's state could not be saved, so it stopped: another process or person"
                        + " changed run run_shared in the store since this process loaded it (it is now SUCCEEDED, version 5)")
                .contains("this process stopped without overwriting it").contains("agent.runs().show(\"run_shared\")");
        assertThat(stopped.message().split("was about to replace", -1)).hasSize(2);
        assertThat(store.load("run_shared").orElseThrow().answer()).isEqualTo("resumed done");
    }

    /**
     * The conflict's message names the commands to see the run with its id quoted: an application's id may hold spaces
     * and quotes, and the shell command must be pasted as it is. Before (rev90), {@code (rein show order "A 1")} and
     * {@code agent.runs().show("order "A 1"")}, which name another run or do not compile.
     */
    @Test
    void aConflictNamesTheRunInCommandsThatCanBePastedWhateverItsId() throws Exception {
        RunResult stopped = conflictOver("order \"A 1\"").stopped();

        assertThat(stopped.reason()).isEqualTo("store_conflict");
        assertThat(stopped.message()).contains("see agent.runs().show(\"order \\\"A 1\\\"\") (rein show 'order \"A 1\"')");
    }
}
