package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import io.temporal.client.WorkflowClient;
import io.temporal.common.interceptors.WorkflowClientCallsInterceptor;
import io.temporal.common.interceptors.WorkflowClientCallsInterceptorBase;
import io.temporal.common.interceptors.WorkflowClientInterceptorBase;
import org.junit.jupiter.api.Test;

/**
 * A decision, a cancel or a start whose calling thread is interrupted while the client waits for Temporal's answer is
 * said as the caller's interrupt (kept), with that the call may or may not have reached the service and how to tell,
 * not as a failure of Temporal's service.
 */
class TemporalInterruptedCallTest {
    /** A client whose calls of one kind are interrupted as they are made: the interrupt arrives while gRPC waits. */
    private static WorkflowClient interrupting(TemporalTestServer server, String call) {
        return WorkflowClient.newInstance(server.env.getWorkflowServiceStubs(), TemporalAgents.clientOptions()
                .setNamespace(server.env.getNamespace()).setInterceptors(new WorkflowClientInterceptorBase() {
                    @Override
                    public WorkflowClientCallsInterceptor workflowClientCallsInterceptor(WorkflowClientCallsInterceptor next) {
                        return new WorkflowClientCallsInterceptorBase(next) {
                            @Override
                            public WorkflowStartOutput start(WorkflowStartInput input) {
                                interruptIf("start");
                                return super.start(input);
                            }

                            @Override
                            public WorkflowSignalOutput signal(WorkflowSignalInput input) {
                                interruptIf("signal");
                                return super.signal(input);
                            }

                            @Override
                            public CancelOutput cancel(CancelInput input) {
                                interruptIf("cancel");
                                return super.cancel(input);
                            }

                            private void interruptIf(String kind) {
                                if (kind.equals(call)) {
                                    Thread.currentThread().interrupt();
                                }
                            }
                        };
                    }
                }).build());
    }

    /**
     * How many times a call is made until the interrupt reaches its wait: gRPC looks at the interrupt only while it waits
     * for the answer, so an answer that came at once leaves the call made and the interrupt set, which is right too.
     * Each attempt has a server and an agent of its own (the scripted model answers one run).
     */
    private static final int ATTEMPTS = 8;

    /** The exception the call threw (null if none) and whether the thread's interrupt was still set after it. */
    private record Outcome(RuntimeException thrown, boolean interruptKept) {}

    private static Outcome call(Runnable call) {
        try {
            call.run();
            return new Outcome(null, Thread.interrupted());
        } catch (RuntimeException e) {
            return new Outcome(e, Thread.interrupted()); // Thread.interrupted clears it for the rest of the test
        }
    }

    private static Agent agent() {
        return Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(), Orders.lookup(),
                Orders.refund(new Orders.Ledger(), key -> {})));
    }

    /** One attempt on a server of its own: true when the interrupt reached the call's wait (what the test is about). */
    private interface Attempt {
        boolean run(TemporalTestServer server, Agent agent, String runId);
    }

    private static void untilSaid(String what, String runId, Attempt attempt) {
        for (int i = 1; i <= ATTEMPTS; i++) {
            Agent agent = agent();
            try (TemporalTestServer server = new TemporalTestServer(false)) {
                if (attempt.run(server, agent, runId)) {
                    return;
                }
            }
        }
        throw new AssertionError("an interrupt did not reach " + what + " in " + ATTEMPTS + " attempts");
    }

    /** A run waiting for the approval of its refund. */
    private static TemporalRun waiting(TemporalTestServer server, Agent agent, String runId) {
        TemporalRun run = server.start(agent).start("A-1 を返金して", runId);
        TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
        return run;
    }

    /**
     * Failed before: "Temporal did not take the decision on action ... (CANCELLED: ...): check the Temporal service,
     * then send the decision again; ...", as if the service had failed.
     */
    @Test
    void anInterruptedDecisionSaysItMayOrMayNotHaveReachedTheRunAndHowToTell() {
        untilSaid("a signal's wait", "run-interrupted-decision", (server, agent, runId) -> {
            TemporalRun run = waiting(server, agent, runId);
            String hash = run.pendingApprovals().get(0).actionHash();
            TemporalRun handle = TemporalAgents.client(interrupting(server, "signal"), TemporalTestServer.QUEUE, agent)
                    .attach(runId);

            Outcome outcome = call(() -> handle.approve(hash, "alice"));

            assertThat(outcome.interruptKept()).isTrue();
            if (outcome.thrown() != null) {
                assertThat(outcome.thrown()).isInstanceOf(ReinException.class);
                assertThat(outcome.thrown().getMessage()).isEqualTo("the decision on action " + hash + " for run '"
                        + runId + "' was interrupted while Temporal was asked to take it (the calling thread's interrupt,"
                        + " which it keeps): it may or may not have reached the run. pendingApprovals() shows whether the"
                        + " action still waits; if it does, send the decision again (a decision sent twice is refused and"
                        + " listed in refusedDecisions())");
            }
            // whichever it was, the handle's advice holds: the run either still waits for it or has taken it
            if (!run.pendingApprovals().isEmpty()) {
                run.approve(hash, "alice");
            }
            assertThat(run.result().status()).isEqualTo(RunStatus.SUCCEEDED);
            return outcome.thrown() != null;
        });
    }

    /**
     * A decision asked for on a thread already interrupted, when the queries that check it before the signal meet the
     * interrupt, says so for the decision: nothing was sent. Failed before: "a query about run '...' was interrupted
     * (...): the run itself is as it was; ask again", which did not say what became of the decision. (When the queries'
     * answers come at once, the signal meets the interrupt, and says so as above.)
     */
    @Test
    void aDecisionOnAnInterruptedThreadSaysNothingWasSent() {
        untilSaid("the queries before a signal", "run-interrupted-before-decision", (server, agent, runId) -> {
            TemporalRun run = waiting(server, agent, runId);
            String hash = run.pendingApprovals().get(0).actionHash();

            Thread.currentThread().interrupt();
            Outcome outcome = call(() -> run.reject(hash, "在庫がありません。", "alice"));

            assertThat(outcome.interruptKept()).isTrue();
            String before = "the decision on action " + hash + " for run '" + runId + "' was interrupted before it was"
                    + " sent (the calling thread's interrupt, which it keeps): nothing was sent, and the run is as it was;"
                    + " send the decision again";
            if (outcome.thrown() != null) {
                assertThat(outcome.thrown()).isInstanceOf(ReinException.class);
                assertThat(outcome.thrown().getMessage()).satisfiesAnyOf(m -> assertThat(m).isEqualTo(before),
                        m -> assertThat(m).startsWith("the decision on action " + hash + " for run '" + runId + "' was"
                                + " interrupted while Temporal was asked to take it"));
            }
            boolean sentNothing = outcome.thrown() != null && outcome.thrown().getMessage().equals(before);
            if (sentNothing) {
                assertThat(run.pendingApprovals()).singleElement().satisfies(r -> assertThat(r.actionHash()).isEqualTo(hash));
            }
            if (!run.pendingApprovals().isEmpty()) {
                run.reject(hash, "在庫がありません。", "alice");
            }
            assertThat(run.result().status()).isEqualTo(RunStatus.SUCCEEDED);
            return sentNothing;
        });
    }

    /** Failed before: "Temporal did not take the cancel of run ... (CANCELLED: ...): check the Temporal service ...". */
    @Test
    void anInterruptedCancelSaysItMayOrMayNotHaveReachedTheRunAndHowToTell() {
        untilSaid("a cancel's wait", "run-interrupted-cancel", (server, agent, runId) -> {
            TemporalRun run = waiting(server, agent, runId);
            TemporalRun handle = TemporalAgents.client(interrupting(server, "cancel"), TemporalTestServer.QUEUE, agent)
                    .attach(runId);

            Outcome outcome = call(handle::cancel);

            assertThat(outcome.interruptKept()).isTrue();
            if (outcome.thrown() != null) {
                assertThat(outcome.thrown()).isInstanceOf(ReinException.class);
                assertThat(outcome.thrown().getMessage()).isEqualTo("the cancel of run '" + runId + "' was interrupted"
                        + " while Temporal was asked to take it (the calling thread's interrupt, which it keeps): it may or"
                        + " may not have reached the run: cancel it again (a second cancel is safe, also once the run has"
                        + " ended)");
            }
            run.cancel();
            assertThat(run.result().status()).isEqualTo(RunStatus.CANCELLED);
            return outcome.thrown() != null;
        });
    }

    /** Failed before: "Temporal did not start run ... (CANCELLED: ...): ...; nothing was started", which may be false. */
    @Test
    void anInterruptedStartSaysTheRunMayOrMayNotHaveStartedAndHowToTell() {
        untilSaid("a start's wait", "run-interrupted-start", (server, agent, runId) -> {
            TemporalAgentClient plain = server.start(agent);
            TemporalAgentClient client = TemporalAgents.client(interrupting(server, "start"), TemporalTestServer.QUEUE, agent);

            Outcome outcome = call(() -> client.start("A-1 を返金して", runId));

            assertThat(outcome.interruptKept()).isTrue();
            if (outcome.thrown() != null) {
                assertThat(outcome.thrown()).isInstanceOf(ReinException.class);
                assertThat(outcome.thrown().getMessage()).isEqualTo("the start of run '" + runId + "' on task queue"
                        + " 'rein-test' was interrupted while Temporal was asked to take it (the calling thread's interrupt,"
                        + " which it keeps): the run may or may not have been started: start it again with the same run id"
                        + " (start(goal, \"" + runId + "\")), which starts it, or, if the first start reached Temporal, is"
                        + " refused saying a run with this id is running or has ended (attach(\"" + runId + "\") then"
                        + " follows it), so it cannot run twice");
            }
            // the advice holds whichever it was
            TemporalRun run = attachedOrStarted(plain, runId);
            run.cancel();
            assertThat(run.result().status()).isEqualTo(RunStatus.CANCELLED);
            return outcome.thrown() != null;
        });
    }

    /** As the message says: start it again under the same id, which either starts it or says it is running. */
    private static TemporalRun attachedOrStarted(TemporalAgentClient client, String runId) {
        try {
            return client.start("A-1 を返金して", runId);
        } catch (ReinException e) {
            assertThat(e.getMessage()).startsWith("a run with id '" + runId + "' is already running on Temporal");
            return client.attach(runId);
        }
    }
}
