package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.model.Message;
import dev.rein.model.Role;
import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.TraceEvent;
import io.temporal.worker.WorkerFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Typed output on Temporal: the output schema is checked in the verify activity, as the local driver checks it. */
class TemporalTypedOutputTest {
    public record Verdict(String decision, int confidence, List<String> reasons) {}

    @Test
    void anInvalidAnswerGoesBackWithTheErrorsAndAValidOneIsTheOutput() {
        RecordingListener trace = new RecordingListener();
        ScriptedModel model = ScriptedModel.of(ScriptedModel.text("{\"decision\":\"refund\",\"confidence\":\"high\"}"),
                ScriptedModel.text("{\"decision\":\"refund\",\"confidence\":90,\"reasons\":[\"配送遅延\"]}"));
        Agent agent = Agent.builder().model(model).listener(trace).outputType(Verdict.class).maxVerificationFailures(2).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("Should order A-104 be refunded?", "run-typed").result();

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.output(Verdict.class)).isEqualTo(new Verdict("refund", 90, List.of("配送遅延")));
            assertThat(trace.events(TraceEvent.Intervention.class)).singleElement()
                    .satisfies(i -> assertThat(i.kind()).isEqualTo("invalid_output"));
            // the model saw the validation errors before its second answer
            Message feedback = result.history().get(2);
            assertThat(feedback.role()).isEqualTo(Role.USER);
            assertThat(feedback.text()).contains("not valid output").contains("confidence").contains("reasons");
        }
    }

    @Test
    void anAnswerInvalidEveryTimeEndsFailedInvalidOutput() {
        ScriptedModel model = ScriptedModel.of(ScriptedModel.text("I think a refund is fair."),
                ScriptedModel.text("{\"decision\":1}"));
        Agent agent = Agent.builder().model(model).outputType(Verdict.class).maxVerificationFailures(2).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("Should order A-104 be refunded?", "run-typed-invalid").result();

            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.reason()).isEqualTo(Reasons.INVALID_OUTPUT);
        }
    }

    public record Invoice(String invoiceId, int total) {}

    /**
     * A paused typed run taken up by a worker whose agent asks for another schema (review rev85): the run ends FAILED
     * configuration_error at that worker's first activity, traced and stored by it, with a message that says which
     * schemas differ and that the queue must be served by a worker with the run's schema (or none). Nothing more runs.
     */
    @Test
    void aWorkerWhoseAgentHasAnotherSchemaEndsThePausedRunConfigurationErrorTraced() throws Exception {
        Orders.Ledger ledger = new Orders.Ledger();
        Agent first = Orders.withApproval(Orders.agent(ScriptedModel.of(
                ScriptedModel.toolCalls(ScriptedModel.call("refund", "{\"id\":\"A-1\"}"))), new RecordingListener(),
                Orders.refund(ledger, k -> {})).outputType(Verdict.class));
        RecordingListener trace = new RecordingListener();
        ScriptedModel otherModel = ScriptedModel.of(ScriptedModel.text("{\"invoiceId\":\"I\",\"total\":1}"));
        Agent second = Orders.withApproval(Orders.agent(otherModel, trace, Orders.refund(ledger, k -> {}))
                .outputType(Invoice.class));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgents.workflows(server.env.newWorker(TemporalTestServer.QUEUE));
            server.env.start();
            WorkerFactory one = WorkerFactory.newInstance(server.client());
            TemporalAgents.activities(one.newWorker(TemporalTestServer.QUEUE), first);
            one.start();
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, first)
                    .start("refund A-1", "run-typed-other-schema");
            long until = System.nanoTime() + 60_000_000_000L;
            while (run.status() != RunStatus.WAITING_APPROVAL && System.nanoTime() < until) {
                Thread.sleep(50);
            }
            one.shutdownNow();
            one.awaitTermination(10, TimeUnit.SECONDS);
            WorkerFactory two = WorkerFactory.newInstance(server.client());
            TemporalAgents.activities(two.newWorker(TemporalTestServer.QUEUE), second);
            two.start();
            try {
                run.approve(run.pendingApprovals().get(0).actionHash(), "alice");
                RunResult result = run.result(Duration.ofSeconds(60));

                assertThat(result.status()).isEqualTo(RunStatus.FAILED);
                assertThat(result.reason()).isEqualTo(Reasons.CONFIGURATION_ERROR);
                assertThat(result.message()).contains("'Verdict'").contains("'Invoice'").contains("task queue")
                        .doesNotContain("paused turn").doesNotContain("resume(")
                        .contains("This ends the run (FAILED configuration_error), and an ended run cannot be continued:"
                                + " start it again as a new run on a task queue whose workers' agent has the output schema"
                                + " 'Verdict' or none")
                        .endsWith("The decisions taken on its pause (refund) were not applied: the run ends without them");
                // the approval signalled on the pause reached no resumed run: told by the end, which ends from the pause
                // (rev89: the end said from RUNNING, which the trace never said after WAITING_APPROVAL)
                assertThat(trace.events(TraceEvent.ApprovalDecided.class)).singleElement()
                        .satisfies(d -> assertThat(d.decidedBy()).isEqualTo("alice"));
                assertThat(trace.events(TraceEvent.StateChanged.class)).last()
                        .satisfies(c -> assertThat(c.from()).isEqualTo(RunStatus.WAITING_APPROVAL))
                        .satisfies(c -> assertThat(c.to()).isEqualTo(RunStatus.FAILED));
                assertThat(trace.events(TraceEvent.RunFinished.class)).as("the end is traced by the worker")
                        .singleElement().satisfies(f -> assertThat(f.reason()).isEqualTo(Reasons.CONFIGURATION_ERROR));
                assertThat(otherModel.requests()).isEmpty();
                assertThat(ledger.charges).isEmpty();
            } finally {
                two.shutdownNow();
            }
        }
    }
}
