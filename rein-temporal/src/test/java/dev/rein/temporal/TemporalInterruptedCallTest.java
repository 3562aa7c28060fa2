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

    /**
     * Failed before: "Temporal did not take the decision on action ... (CANCELLED: ...): check the Temporal service,
     * then send the decision again; ...", as if the service had failed.
     */
    @Test
    void anInterruptedDecisionSaysItMayOrMayNotHaveReachedTheRunAndHowToTell() {
        Agent agent = agent();
        try (TemporalTestServer server = new TemporalTestServer(false)) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-interrupted-decision");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            String hash = run.pendingApprovals().get(0).actionHash();
            TemporalRun handle = TemporalAgents.client(interrupting(server, "signal"), TemporalTestServer.QUEUE, agent)
                    .attach("run-interrupted-decision");

            Outcome outcome = call(() -> handle.approve(hash, "alice"));

            assertThat(outcome.thrown()).isInstanceOf(ReinException.class);
            assertThat(outcome.thrown().getMessage()).isEqualTo("the decision on action " + hash + " for run"
                    + " 'run-interrupted-decision' was interrupted while Temporal was asked to take it (the calling thread's"
                    + " interrupt, which it keeps): it may or may not have reached the run. pendingApprovals() shows whether"
                    + " the action still waits; if it does, send the decision again (a decision sent twice is refused and"
                    + " listed in refusedDecisions())");
            assertThat(outcome.interruptKept()).isTrue();
            // whichever it was, the handle's advice holds: the run either still waits for it or has taken it
            if (run.pendingApprovals().isEmpty()) {
                assertThat(run.result().status()).isEqualTo(RunStatus.SUCCEEDED);
            } else {
                run.approve(hash, "alice");
                assertThat(run.result().status()).isEqualTo(RunStatus.SUCCEEDED);
            }
        }
    }

    /** Failed before: "Temporal did not take the cancel of run ... (CANCELLED: ...): check the Temporal service ...". */
    @Test
    void anInterruptedCancelSaysItMayOrMayNotHaveReachedTheRunAndHowToTell() {
        Agent agent = agent();
        try (TemporalTestServer server = new TemporalTestServer(false)) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-interrupted-cancel");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            TemporalRun handle = TemporalAgents.client(interrupting(server, "cancel"), TemporalTestServer.QUEUE, agent)
                    .attach("run-interrupted-cancel");

            Outcome outcome = call(handle::cancel);

            assertThat(outcome.thrown()).isInstanceOf(ReinException.class);
            assertThat(outcome.thrown().getMessage()).isEqualTo("the cancel of run 'run-interrupted-cancel' was"
                    + " interrupted while Temporal was asked to take it (the calling thread's interrupt, which it keeps):"
                    + " it may or may not have reached the run: cancel it again (a second cancel is safe, also once the run"
                    + " has ended)");
            assertThat(outcome.interruptKept()).isTrue();
            run.cancel();
            assertThat(run.result().status()).isEqualTo(RunStatus.CANCELLED);
        }
    }

    /** Failed before: "Temporal did not start run ... (CANCELLED: ...): ...; nothing was started", which may be false. */
    @Test
    void anInterruptedStartSaysTheRunMayOrMayNotHaveStartedAndHowToTell() {
        Agent agent = agent();
        try (TemporalTestServer server = new TemporalTestServer(false)) {
            server.start(agent);
            TemporalAgentClient client = TemporalAgents.client(interrupting(server, "start"), TemporalTestServer.QUEUE, agent);

            Outcome outcome = call(() -> client.start("A-1 を返金して", "run-interrupted-start"));

            assertThat(outcome.thrown()).isInstanceOf(ReinException.class);
            assertThat(outcome.thrown().getMessage()).isEqualTo("the start of run 'run-interrupted-start' on task queue"
                    + " 'rein-test' was interrupted while Temporal was asked to take it (the calling thread's interrupt,"
                    + " which it keeps): the run may or may not have been started: start it again with the same run id"
                    + " (start(goal, \"run-interrupted-start\")), which starts it, or, if the first start reached Temporal,"
                    + " is refused saying a run with this id is running or has ended (attach(\"run-interrupted-start\")"
                    + " then follows it), so it cannot run twice");
            assertThat(outcome.interruptKept()).isTrue();
            // the advice holds whichever it was
            TemporalRun run = attachedOrStarted(server, agent);
            run.cancel();
            assertThat(run.result().status()).isEqualTo(RunStatus.CANCELLED);
        }
    }

    /** As the message says: start it again under the same id, which either starts it or says it is running. */
    private static TemporalRun attachedOrStarted(TemporalTestServer server, Agent agent) {
        TemporalAgentClient client = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent);
        try {
            return client.start("A-1 を返金して", "run-interrupted-start");
        } catch (ReinException e) {
            assertThat(e.getMessage()).startsWith("a run with id 'run-interrupted-start' is already running on Temporal");
            return client.attach("run-interrupted-start");
        }
    }
}
