package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.model.OutputSchema;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunStore;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
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
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("run " + runId + " was started with the output schema 'Refund'")
                .hasMessageContaining("'Invoice'")
                .hasMessageContaining("with no output schema");
        assertThat(other.requests()).isEmpty();
        assertThat(store.load(runId).orElseThrow().status()).isEqualTo(RunStatus.WAITING_APPROVAL);

        RunResult result = agent(ScriptedModel.of(text("{\"orderId\":\"A-104\",\"amount\":1200}")), store).build().resume(runId);
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
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

        assertThat(store.load(paused.runId()).orElseThrow().outputSchema()).isEqualTo(schema);
    }
}
