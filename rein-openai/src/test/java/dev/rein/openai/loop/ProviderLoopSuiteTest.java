package dev.rein.openai.loop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.budget.Budget;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.state.InMemoryRunStore;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The provider-independent behaviour of the loop, run over both wire protocols against their
 * fake servers: the same script in neutral terms must give the same run, whichever provider
 * module carries it.
 */
class ProviderLoopSuiteTest {
    private static final String SCHEMA =
            "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}";

    private final AtomicInteger lookups = new AtomicInteger();

    static Stream<Supplier<Wire>> wires() {
        return Wires.all();
    }

    private Tool lookup() {
        return Tool.builder("lookup_order").description("Looks up an order by id.").inputSchema(SCHEMA)
                .handler((args, ctx) -> {
                    lookups.incrementAndGet();
                    return "order " + args.get("id").asText() + ": 配送遅延 (weather)";
                })
                .build();
    }

    private static Tool refund() {
        return Tool.builder("refund_order").description("Refunds an order.").inputSchema(SCHEMA).risk(Risk.WRITE)
                .handler((args, ctx) -> "refunded " + args.get("id").asText()).build();
    }

    private Agent.Builder agent(Wire wire) {
        return Agent.builder().model(wire.model()).modelName(wire.modelName())
                .prices(PriceTable.empty().with(wire.modelName(), ModelPrice.of("1.00", "0.10", "2.00")))
                .systemPrompt("You investigate orders.").tools(lookup());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wires")
    void aToolCallThenAnAnswer(Supplier<Wire> wires) {
        try (Wire wire = wires.get()) {
            wire.toolCalls("確認します。", new Wire.Call("call_A1", "lookup_order", "{\"id\":\"A-104\"}"));
            wire.text("注文 A-104 は天候により遅れています。");

            RunResult result = agent(wire).build().run("注文 A-104 はなぜ遅れていますか?");

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.answer()).isEqualTo("注文 A-104 は天候により遅れています。");
            assertThat(lookups).hasValue(1);
            assertThat(wire.answeredIds(wire.bodies().get(1))).containsExactly("call_A1");
            assertThat(wire.bodies().get(1).toString()).contains("配送遅延");
            assertThat(wire.pendingReplies()).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wires")
    void parallelCallsAreAllRunAndAnsweredInCallOrder(Supplier<Wire> wires) {
        try (Wire wire = wires.get()) {
            wire.toolCalls(null, new Wire.Call("call_1", "lookup_order", "{\"id\":\"A-1\"}"),
                    new Wire.Call("call_2", "lookup_order", "{\"id\":\"B-2\"}"),
                    new Wire.Call("call_3", "lookup_order", "{\"id\":\"C-3\"}"));
            wire.text("All three are delayed.");

            RunResult result = agent(wire).build().run("check A-1, B-2 and C-3");

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(lookups).hasValue(3);
            assertThat(wire.answeredIds(wire.bodies().get(1))).containsExactly("call_1", "call_2", "call_3");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wires")
    void theStepBudgetEndsWithASummaryCallThatSendsToolsWithChoiceNone(Supplier<Wire> wires) {
        try (Wire wire = wires.get()) {
            wire.toolCalls(null, new Wire.Call("call_1", "lookup_order", "{\"id\":\"A-1\"}"));
            wire.text("So far: A-1 is delayed.");

            RunResult result = agent(wire).budget(Budget.builder().maxSteps(1).build()).build().run("check A-1");

            assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
            List<JsonNode> bodies = wire.bodies();
            assertThat(bodies).hasSize(2);
            assertThat(wire.toolChoice(bodies.get(1))).isEqualTo("none");
            assertThat(wire.toolNames(bodies.get(1))).containsExactly("lookup_order");
            assertThat(result.answer()).contains("A-1 is delayed");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wires")
    void aCutOffResponseIsNeverTakenAsTheAnswer(Supplier<Wire> wires) {
        try (Wire wire = wires.get()) {
            wire.cutOff("The answer is");
            RunResult result = agent(wire).build().run("go");
            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.reason()).isEqualTo("max_tokens");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wires")
    void aRefusalFailsTheRunWithItsReason(Supplier<Wire> wires) {
        try (Wire wire = wires.get()) {
            wire.refusal("I can't help with that.");
            RunResult result = agent(wire).build().run("go");
            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.reason()).isEqualTo("refusal");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wires")
    void theRuntimeRetriesARateLimitAndAFinalErrorKeepsTheApiMessage(Supplier<Wire> wires) {
        try (Wire wire = wires.get()) {
            wire.rateLimited(20);
            wire.text("fine");
            RunResult retried = agent(wire).build().run("hello");
            assertThat(retried.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(wire.bodies()).as("one retry by the runtime, none by the SDK").hasSize(2);

            wire.invalidRequest("messages: something the API dislikes");
            RunResult failed = agent(wire).build().run("hello");
            assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
            assertThat(failed.reason()).isEqualTo("provider_error");
            assertThat(failed.message()).contains("something the API dislikes");
            assertThat(wire.bodies()).as("a 400 is not retried").hasSize(3);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wires")
    void aRateLimitAskingForLongerThanReinWaitsFailsAtOnceSayingSo(Supplier<Wire> wires) {
        try (Wire wire = wires.get()) {
            wire.rateLimited(120_000);
            wire.text("never");
            RunResult result = agent(wire).build().run("hello");
            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.reason()).isEqualTo("provider_error");
            assertThat(result.message()).contains("HTTP 429")
                    .contains("not retried: the server asked to wait 120 s, more than Rein waits (60 s); try again later");
            assertThat(wire.bodies()).as("not retried, neither by the runtime nor by the SDK").hasSize(1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wires")
    void repeatingTheSameCallStallsTheRun(Supplier<Wire> wires) {
        try (Wire wire = wires.get()) {
            for (int i = 1; i <= 5; i++) {
                wire.toolCalls(null, new Wire.Call("call_" + i, "lookup_order", "{\"id\":\"A-1\"}"));
            }
            wire.text("never");
            RunResult result = agent(wire).build().run("check A-1");
            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.reason()).isEqualTo("stalled");
            assertThat(lookups).hasValue(2);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wires")
    void aWriteWaitsForApprovalAndResumesWithTheResultAnsweringItsCall(Supplier<Wire> wires) {
        try (Wire wire = wires.get()) {
            wire.toolCalls("Refunding.", new Wire.Call("call_R", "refund_order", "{\"id\":\"A-9\"}"));
            wire.text("Refunded A-9.");
            Agent agent = agent(wire).tools(refund()).store(new InMemoryRunStore()).build();

            RunResult paused = agent.run("refund A-9");
            assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
            agent.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "carol");
            RunResult done = agent.resume(paused.runId());

            assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(done.answer()).isEqualTo("Refunded A-9.");
            assertThat(wire.answeredIds(wire.bodies().get(1))).containsExactly("call_R");
            assertThat(wire.bodies().get(1).toString()).contains("refunded A-9");
        }
    }
}
