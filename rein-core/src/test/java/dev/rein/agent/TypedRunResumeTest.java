package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.ConfigurationException;
import dev.rein.ReinException;
import dev.rein.json.Json;
import dev.rein.model.OutputSchema;
import dev.rein.run.NextStep;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunSnapshot;
import dev.rein.state.RunStore;
import dev.rein.state.Runs;
import dev.rein.state.SnapshotCodec;
import dev.rein.state.StoredOutputSchema;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.trace.TraceEvent;
import org.junit.jupiter.api.Test;

/**
 * A typed run (agent.run(goal, Type.class), or an agent's outputSchema) that paused for approval and is
 * resumed from its store by another agent keeps its schema: the answer after the resume is checked as the
 * first run would have checked it. Before, the schema lived only in the agent that started the run, and a
 * fresh agent's resume took any answer.
 */
class TypedRunResumeTest {
    public record Refund(String orderId, int amount) {}

    /** A person's approval is needed for it under the default policy. */
    private static Tool refund() {
        return Tool.builder("refund").description("Refunds an order.").risk(Risk.WRITE)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"order_id\":{\"type\":\"string\"}},\"required\":[\"order_id\"]}")
                .handler((args, ctx) -> "refunded " + args.get("order_id").asText())
                .build();
    }

    private static Agent.Builder agent(ScriptedModel model, RunStore store) {
        return Agent.builder().model(model).tools(refund()).store(store);
    }

    /** Starts a typed run that pauses for the refund's approval, approves it, and returns its id. */
    private static String pausedAndApproved(RunStore store) {
        Agent first = agent(ScriptedModel.of(toolCalls(call("refund", "{\"order_id\":\"A-104\"}"))), store).build();
        RunResult paused = first.run("refund order A-104", Refund.class);
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        first.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "alice");
        return paused.runId();
    }

    @Test
    void anInvalidAnswerAfterAResumeByAFreshAgentIsRefusedAsInALiveRun() {
        RunStore store = new InMemoryRunStore();
        String runId = pausedAndApproved(store);
        ScriptedModel model = ScriptedModel.of(text("Refunded, all done."), text("{\"orderId\":\"A-104\"}"));

        RunResult result = agent(model, store).build().resume(runId);

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo("invalid_output");
        assertThat(model.requests()).hasSize(2);
        assertThat(model.requests().get(0).systemText()).as("the model is told the shape, as in the first run")
                .contains("JSON Schema (Refund)");
        String feedback = model.requests().get(1).messages().get(model.requests().get(1).messages().size() - 1).toString();
        assertThat(feedback).contains("the answer is not JSON");
        assertThat(result.message()).contains("amount");
    }

    @Test
    void aValidAnswerAfterAResumeByAFreshAgentReadsAsTheType() {
        RunStore store = new InMemoryRunStore();
        String runId = pausedAndApproved(store);
        ScriptedModel model = ScriptedModel.of(text("done"), text("{\"orderId\":\"A-104\",\"amount\":1200}"));

        RunResult result = agent(model, store).build().resume(runId);

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.output(Refund.class)).isEqualTo(new Refund("A-104", 1200));
    }

    @Test
    void anAgentBuiltWithTheRunsOwnTypeResumesIt() {
        RunStore store = new InMemoryRunStore();
        String runId = pausedAndApproved(store);
        ScriptedModel model = ScriptedModel.of(text("{\"orderId\":\"A-104\",\"amount\":1200}"));

        RunResult result = agent(model, store).outputType(Refund.class).build().resume(runId);

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.output(Refund.class)).isEqualTo(new Refund("A-104", 1200));
    }

    public record Invoice(String invoiceId, int total) {}

    @Test
    void anAgentBuiltWithAnotherSchemaIsRefusedAndTheRunStaysResumable() {
        RunStore store = new InMemoryRunStore();
        String runId = pausedAndApproved(store);
        ScriptedModel other = ScriptedModel.of(text("{\"invoiceId\":\"I-1\",\"total\":5}"));

        assertThatThrownBy(() -> agent(other, store).outputType(Invoice.class).build().resume(runId))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageStartingWith("run " + runId + " was started with the output schema 'Refund'")
                .hasMessageContaining("'Invoice'")
                .hasMessageContaining("with no output schema")
                .hasMessageEndingWith("The decisions taken on its pause (refund) were not applied: they are kept, and apply when"
                        + " such an agent resumes the run");
        assertThat(other.requests()).isEmpty();
        assertThat(store.load(runId).orElseThrow().status()).isEqualTo(RunStatus.WAITING_APPROVAL);

        RunResult result = agent(ScriptedModel.of(text("{\"orderId\":\"A-104\",\"amount\":1200}")), store).build().resume(runId);
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    /**
     * Only the schema's refusal says that the decisions taken on the pause were not applied and wait for "such an agent":
     * another ConfigurationException from a resume (here a listener factory's, thrown as the run is rebuilt) is the
     * application's own, passed on as it was. Before, every ConfigurationException got the schema's suffix (core45).
     */
    @Test
    void anotherConfigurationExceptionOnResumeIsNotSaidToBeTheSchemasRefusal() {
        RunStore store = new InMemoryRunStore();
        String runId = pausedAndApproved(store);
        ConfigurationException own = new ConfigurationException("the exporter's endpoint is not set");

        assertThatThrownBy(() -> agent(ScriptedModel.of(), store).listener((dev.rein.trace.RunListenerFactory) id -> {
            throw own;
        }).build().resume(runId)).isSameAs(own);
        assertThat(store.load(runId).orElseThrow().status()).isEqualTo(RunStatus.WAITING_APPROVAL);
    }

    @Test
    void aReplyToATypedRunIsCheckedAgainstItsSchema() {
        RunStore store = new InMemoryRunStore();
        RunResult first = agent(ScriptedModel.of(text("{\"orderId\":\"A-104\",\"amount\":1200}")), store).build()
                .run("refund order A-104", Refund.class);
        assertThat(first.status()).isEqualTo(RunStatus.SUCCEEDED);
        ScriptedModel model = ScriptedModel.of(text("Sure, 900 then."), text("{\"orderId\":\"A-104\",\"amount\":900}"));

        RunResult turn = agent(model, store).build().reply(first.runId(), "make it 900");

        assertThat(turn.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(model.requests()).as("the prose answer was refused and asked again").hasSize(2);
        assertThat(turn.output(Refund.class)).isEqualTo(new Refund("A-104", 900));
    }

    @Test
    void theSnapshotKeepsTheSchemaOfARunStartedWithAJsonSchema() {
        RunStore store = new InMemoryRunStore();
        OutputSchema schema = OutputSchema.fromJson("verdict", "{\"type\":\"object\",\"required\":[\"ok\"]}");
        Agent agent = agent(ScriptedModel.of(toolCalls(call("refund", "{\"order_id\":\"A-104\"}"))), store)
                .outputSchema(schema).build();

        RunResult paused = agent.run("refund order A-104");

        assertThat(store.load(paused.runId()).orElseThrow().outputSchema()).isEqualTo(StoredOutputSchema.of(schema));
    }

    /**
     * Temporal's driver rebuilds the run for every effect with the worker's agent: a typed snapshot driven by an agent
     * without a schema keeps its stored one, and a prose answer is invalid output there too. Before, DrivenRun built
     * the run with the worker agent's settings: the next snapshot dropped the schema and the prose was accepted.
     */
    @Test
    void aDrivenRunOfATypedSnapshotKeepsAndChecksItsStoredSchema() throws Exception {
        RunStore store = new InMemoryRunStore();
        RunSnapshot typed = store.load(pausedAndApproved(store)).orElseThrow();
        ScriptedModel model = ScriptedModel.of(text("prose answer"));
        DrivenRun driven = new DrivenRun(agent(model, store).build(), new InMemoryRunStore());

        DrivenRun.ModelStep step = driven.callModel(typed, 1);
        DrivenRun.Checked checked = driven.verify(step.snapshot(), new NextStep.Answer("prose answer", null, null), 0);

        assertThat(model.requests().get(0).systemText()).contains("JSON Schema (Refund)");
        assertThat(step.snapshot().outputSchema()).isEqualTo(typed.outputSchema());
        assertThat(checked.invalidOutput()).isNotEmpty();
        assertThat(checked.snapshot().outputSchema()).isEqualTo(typed.outputSchema());
    }

    /**
     * A worker rebuilds the run for every effect from a snapshot read back from the store, each with a stored schema of
     * its own: a worker whose agent has no schema compiled the stored one in every activity (about 1.5 ms each). The
     * worker's DrivenRun now compiles a stored schema once and uses the same compiled schema for the run's later
     * effects (the answer still checked against it). Failed first: each effect had a schema compiled of its own.
     */
    @Test
    void aDrivenRunCompilesTheStoredSchemaOnceForTheRunsEffects() throws Exception {
        RunStore store = new InMemoryRunStore();
        String json = SnapshotCodec.write(store.load(pausedAndApproved(store)).orElseThrow());
        ScriptedModel model = ScriptedModel.of(text("Refunded."), text("prose answer"));
        DrivenRun driven = new DrivenRun(agent(model, store).build(), new InMemoryRunStore());
        // as two activities read it: each its own snapshot, read from the stored form
        RunSnapshot one = SnapshotCodec.readSnapshot(json);
        RunSnapshot two = SnapshotCodec.readSnapshot(json);
        assertThat(one.outputSchema()).isNotSameAs(two.outputSchema());

        DrivenRun.ModelStep first = driven.callModel(one, 1);
        DrivenRun.ModelStep second = driven.callModel(two, 1);
        DrivenRun.Checked checked = driven.verify(SnapshotCodec.readSnapshot(SnapshotCodec.write(second.snapshot())),
                new NextStep.Answer("prose answer", null, null), 0);

        OutputSchema compiled = first.snapshot().outputSchema().outputSchema();
        assertThat(second.snapshot().outputSchema().outputSchema()).as("compiled once").isSameAs(compiled);
        assertThat(checked.snapshot().outputSchema().outputSchema()).as("compiled once").isSameAs(compiled);
        assertThat(checked.invalidOutput()).as("the answer still checked against it").isNotEmpty();
        assertThat(model.requests()).allSatisfy(r -> assertThat(r.systemText()).contains("JSON Schema (Refund)"));
    }

    /**
     * A driven run (a Temporal worker) whose agent has another schema: its activities are refused with a
     * ConfigurationException (the run ends configuration_error), and the end itself is not refused: it is traced and
     * stored, the stored schema kept. Before, the refusal was a plain ReinException (internal_error) and the end was
     * refused too, so the run ended untraced (review rev85).
     */
    /**
     * On a durable engine every ConfigurationException from a resume ends the run, so the decisions taken on its pause
     * are dropped whatever the refusal: DrivenRun.resumed says so for any of them (an application's listener factory's
     * here), not only the schema's (rev104; df15adb8 had narrowed it to the schema's refusal).
     */
    @Test
    void aDrivenRunSaysTheDecisionsWereNotAppliedForAnyConfigurationExceptionOnResume() {
        RunStore store = new InMemoryRunStore();
        RunSnapshot typed = store.load(pausedAndApproved(store)).orElseThrow();
        ConfigurationException own = new ConfigurationException("the exporter's endpoint is not set");
        DrivenRun driven = new DrivenRun(agent(ScriptedModel.of(), store).listener((dev.rein.trace.RunListenerFactory) id -> {
            throw own;
        }).build(), store);

        assertThatThrownBy(() -> driven.resumed(typed)).isInstanceOf(ConfigurationException.class).hasCause(own)
                .hasMessageStartingWith("the exporter's endpoint is not set")
                .hasMessageContaining("The decisions taken on its pause (refund) were not applied: the run ends without them");
    }

    @Test
    void aDrivenRunOfAnAgentWithAnotherSchemaIsRefusedButEndsTracedKeepingTheStoredSchema() throws Exception {
        RunStore store = new InMemoryRunStore();
        RunSnapshot typed = store.load(pausedAndApproved(store)).orElseThrow();
        RecordingListener trace = new RecordingListener();
        ScriptedModel model = ScriptedModel.of(text("{\"invoiceId\":\"I-1\",\"total\":5}"));
        DrivenRun driven = new DrivenRun(agent(model, store).listener(trace).outputType(Invoice.class).build(), store);

        assertThatThrownBy(() -> driven.resumed(typed)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("'Refund'").hasMessageContaining("'Invoice'").hasMessageContaining("task queue")
                .hasMessageNotContaining("paused turn");
        RunResult ended = driven.end(typed, RunStatus.FAILED, "configuration_error", "refused", null, null);

        assertThat(ended.status()).isEqualTo(RunStatus.FAILED);
        assertThat(ended.reason()).isEqualTo("configuration_error");
        assertThat(ended.message()).isEqualTo("refused");
        assertThat(trace.events(TraceEvent.RunFinished.class)).singleElement()
                .satisfies(f -> assertThat(f.reason()).isEqualTo("configuration_error"));
        RunSnapshot stored = store.load(typed.runId()).orElseThrow();
        assertThat(stored.status()).isEqualTo(RunStatus.FAILED);
        assertThat(stored.outputSchema()).isEqualTo(typed.outputSchema());
        assertThat(model.requests()).isEmpty();
    }

    /**
     * A reply asks a new question, which may want another shape: an agent with its own schema types the new turn, and
     * its schema replaces the run's (an agent with none keeps the run's, as aReplyToATypedRunIsCheckedAgainstItsSchema
     * shows). Before, the reply was refused as a resume is.
     */
    @Test
    void aReplyByAnAgentWithItsOwnSchemaTypesTheNewTurn() {
        RunStore store = new InMemoryRunStore();
        RunResult first = agent(ScriptedModel.of(text("{\"orderId\":\"A-104\",\"amount\":1200}")), store).build()
                .run("refund order A-104", Refund.class);
        ScriptedModel model = ScriptedModel.of(text("{\"invoiceId\":\"I-7\",\"total\":1200}"));

        RunResult turn = agent(model, store).outputType(Invoice.class).build().reply(first.runId(), "now the invoice for it");

        assertThat(turn.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(turn.output(Invoice.class)).isEqualTo(new Invoice("I-7", 1200));
        assertThat(model.requests().get(0).systemText()).contains("JSON Schema (Invoice)");
        assertThat(store.load(first.runId()).orElseThrow().outputSchema().name()).isEqualTo("Invoice");
    }

    /**
     * The decisions a durable engine's signals took on the pause reach the run only with its resume: a resume refused for
     * another schema says they were not applied, and the run's end (configuration_error, from the snapshot the pause
     * left) tells them, once, and ends from the pause, as a cancel ending a pause does. Before (rev89), the refused resume
     * told them and the end said it came from RUNNING, which the trace never said after WAITING_APPROVAL; before that,
     * neither told them.
     */
    @Test
    void aDrivenResumeRefusedForAnotherSchemaEndsFromThePauseTellingTheDecisionsItDidNotApply() throws Exception {
        RunStore store = new InMemoryRunStore();
        RunSnapshot typed = store.load(pausedAndApproved(store)).orElseThrow();
        assertThat(typed.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        RecordingListener trace = new RecordingListener();
        DrivenRun driven = new DrivenRun(agent(ScriptedModel.of(), store).listener(trace).outputType(Invoice.class).build(), store);

        assertThatThrownBy(() -> driven.resumed(typed)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("'Refund'").hasMessageEndingWith("The decisions taken on its pause (refund) were not"
                        + " applied: the run ends without them");
        driven.end(typed, RunStatus.FAILED, "configuration_error", "refused", null, null);

        assertThat(trace.events(TraceEvent.ApprovalDecided.class)).as("told once").singleElement()
                .satisfies(d -> assertThat(d.decidedBy()).isEqualTo("alice"));
        assertThat(trace.events(TraceEvent.StateChanged.class)).last()
                .satisfies(c -> assertThat(c.from()).isEqualTo(RunStatus.WAITING_APPROVAL))
                .satisfies(c -> assertThat(c.to()).isEqualTo(RunStatus.FAILED));
        assertThat(trace.events().indexOf(trace.events(TraceEvent.ApprovalDecided.class).get(0)))
                .as("the decision is told before the end").isLessThan(trace.events().indexOf(
                        trace.events(TraceEvent.StateChanged.class).get(trace.events(TraceEvent.StateChanged.class).size() - 1)));
        assertThat(trace.events(TraceEvent.RunResumed.class)).isEmpty();
    }

    /**
     * On a durable engine the refusal ends the run (FAILED configuration_error), and an ended run cannot be resumed: the
     * message says so and what to do (start it again on a task queue whose workers' agent has the run's schema or none),
     * not "resume(...)", for any refused activity. Before (rev89), it gave the local advice, agent...resume(id).
     */
    @Test
    void aDrivenRefusalSaysTheRunEndsAndToStartItAgainOnAQueueWithTheRunsSchema() throws Exception {
        RunStore store = new InMemoryRunStore();
        RunSnapshot typed = store.load(pausedAndApproved(store)).orElseThrow();
        DrivenRun driven = new DrivenRun(agent(ScriptedModel.of(), store).outputType(Invoice.class).build(), store);

        for (org.assertj.core.api.ThrowableAssert.ThrowingCallable refused : java.util.List.<org.assertj.core.api.ThrowableAssert.ThrowingCallable>of(
                () -> driven.resumed(typed), () -> driven.callModel(typed, 1))) {
            assertThatThrownBy(refused).isInstanceOf(ConfigurationException.class)
                    .hasMessageStartingWith("run " + typed.runId() + " was started with the output schema 'Refund', and this"
                            + " agent asks for the output schema 'Invoice'")
                    .hasMessageContaining("This ends the run (FAILED configuration_error), and an ended run cannot be"
                            + " continued: start it again as a new run on a task queue whose workers' agent has the output"
                            + " schema 'Refund' or none")
                    .hasMessageNotContaining("resume(");
        }
    }

    /**
     * A run continued only to be ended is built once: only the schema's refusal makes its end continue with the run's
     * stored schema; another failure (here the listener factory's, once) is the end's, as it is a resume's. Before
     * (rev89), every ReinException was caught and the run built again, calling the factory twice and ending untold.
     */
    @Test
    void anEndWhoseListenerFactoryFailsFailsAndIsNotBuiltAgain() {
        RunStore store = new InMemoryRunStore();
        RunSnapshot typed = store.load(pausedAndApproved(store)).orElseThrow();
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        RecordingListener trace = new RecordingListener();
        dev.rein.trace.RunListenerFactory flaky = runId -> {
            if (calls.incrementAndGet() == 1) {
                throw new ReinException("exporter down");
            }
            return trace.create(runId);
        };
        for (Agent.Builder agent : java.util.List.of(agent(ScriptedModel.of(), store).outputType(Refund.class),
                agent(ScriptedModel.of(), store).outputType(Invoice.class))) {
            calls.set(0);
            DrivenRun driven = new DrivenRun(agent.listener(flaky).build(), store);

            assertThatThrownBy(() -> driven.end(typed, RunStatus.FAILED, "internal_error", "x", null, null))
                    .isInstanceOf(ReinException.class).hasMessage("exporter down");
            assertThat(calls.get()).isEqualTo(1);
            assertThat(store.load(typed.runId()).orElseThrow().status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        }
    }

    /**
     * After a reply replaced the run's schema (Refund, then Invoice), a refused resume names the schema the run has now,
     * not as the one it was started with, and the agent's. Before: "was started with the output schema 'Invoice'", which
     * was Refund.
     */
    @Test
    void aRefusalAfterAReplyReplacedTheSchemaNamesTheSchemaTheRunHasNow() {
        RunStore store = new InMemoryRunStore();
        RunResult first = agent(ScriptedModel.of(text("{\"orderId\":\"A-104\",\"amount\":1200}")), store).build()
                .run("refund order A-104", Refund.class);
        Agent invoicing = agent(ScriptedModel.of(toolCalls(call("refund", "{\"order_id\":\"A-105\"}"))), store)
                .outputType(Invoice.class).build();
        RunResult paused = invoicing.reply(first.runId(), "refund A-105 too, then the invoice");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        invoicing.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "alice");

        assertThatThrownBy(() -> agent(ScriptedModel.of(), store).outputType(Refund.class).build().resume(first.runId()))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageStartingWith("run " + first.runId() + " has the output schema 'Invoice' (that of its current turn,"
                        + " which a reply opened), and this agent asks for the output schema 'Refund': the run's answer keeps"
                        + " the shape its turn was asked in")
                .hasMessageNotContaining("was started with the output schema")
                .hasMessageContaining("outputType(Invoice.class)");
    }

    /**
     * An agent built with outputType(Invoice) that ran run(goal, Refund.class) cannot build itself "with no output
     * schema"; the refusal names a form it can follow, and that form resumes the run. Before, the advice was only
     * "an agent with no schema or the same one".
     */
    @Test
    void theRefusalNamesAFormThatAnAgentWithADefaultTypeCanFollow() {
        RunStore store = new InMemoryRunStore();
        Agent agent = agent(ScriptedModel.of(toolCalls(call("refund", "{\"order_id\":\"A-104\"}")),
                text("{\"orderId\":\"A-104\",\"amount\":1200}")), store).outputType(Invoice.class).build();
        RunResult paused = agent.run("refund order A-104", Refund.class);
        agent.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "alice");

        assertThatThrownBy(() -> agent.resume(paused.runId())).isInstanceOf(ReinException.class)
                .hasMessageContaining("agent.config().toBuilder().outputType(Refund.class).build().resume(\""
                        + paused.runId() + "\")");

        RunResult result = agent.config().toBuilder().outputType(Refund.class).build().resume(paused.runId());
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.output(Refund.class)).isEqualTo(new Refund("A-104", 1200));
    }

    /**
     * A stored schema this Rein cannot use (here one of a JSON Schema draft Rein does not take; a hand-edited row is
     * the same) leaves the run readable: it is shown and cancelled, its stored schema kept as it was; only the resume
     * is refused, saying why. Before, the snapshot could not be read at all.
     */
    @Test
    void aStoredSchemaThatCannotBeUsedLeavesTheRunReadableAndRefusesItsResume() {
        RunStore source = new InMemoryRunStore();
        String runId = pausedAndApproved(source);
        ObjectNode tree = (ObjectNode) Json.parse(SnapshotCodec.write(source.load(runId).orElseThrow()));
        JsonNode damaged = Json.parse("{\"name\":\"Refund\",\"schema\":{\"$schema\":\"http://json-schema.org/draft-03/schema#\","
                + "\"type\":\"object\"}}");
        tree.set("output_schema", damaged);
        tree.put("version", 1);
        RunStore store = new InMemoryRunStore();
        store.save(SnapshotCodec.readSnapshot(Json.write(tree)));
        ScriptedModel model = ScriptedModel.of(text("{\"orderId\":\"A-104\",\"amount\":1200}"));

        assertThat(Runs.in(store).show(runId).summary().status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThatThrownBy(() -> agent(model, store).build().resume(runId)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("run " + runId + " cannot continue: the stored output schema 'Refund' cannot be used")
                .hasMessageContaining("draft-03")
                .hasMessageContaining("cancel");
        assertThat(model.requests()).isEmpty();

        Runs.in(store).cancel(runId, "the schema is gone");
        RunSnapshot cancelled = store.load(runId).orElseThrow();
        assertThat(cancelled.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(Json.parse(SnapshotCodec.write(cancelled)).path("output_schema")).isEqualTo(damaged);
    }

    /**
     * A driven run (a Temporal worker) keeps the stored schemas it compiled (StoredSchemas); one that cannot be used
     * keeps nothing and is refused, saying why, at every activity, not only the first; the run's end still goes
     * through with it.
     */
    @Test
    void aDrivenRunRefusesAStoredSchemaThatCannotBeUsedAtEveryActivity() throws Exception {
        RunStore source = new InMemoryRunStore();
        String runId = pausedAndApproved(source);
        ObjectNode tree = (ObjectNode) Json.parse(SnapshotCodec.write(source.load(runId).orElseThrow()));
        tree.set("output_schema", Json.parse("{\"name\":\"Refund\",\"schema\":{\"$schema\":"
                + "\"http://json-schema.org/draft-03/schema#\",\"type\":\"object\"}}"));
        String json = Json.write(tree);
        ScriptedModel model = ScriptedModel.of(text("Refunded."));
        DrivenRun driven = new DrivenRun(agent(model, new InMemoryRunStore()).build(), new InMemoryRunStore());

        for (int activity = 0; activity < 2; activity++) {
            assertThatThrownBy(() -> driven.callModel(SnapshotCodec.readSnapshot(json), 1)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("the stored output schema 'Refund' cannot be used").hasMessageContaining("draft-03");
        }
        assertThat(model.requests()).isEmpty();
        RunResult ended = driven.end(SnapshotCodec.readSnapshot(json), RunStatus.CANCELLED, "cancelled", "no schema", null,
                null);
        assertThat(ended.status()).isEqualTo(RunStatus.CANCELLED);
    }
}
