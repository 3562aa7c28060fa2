package dev.rein.agent;

import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.context.Compaction;
import dev.rein.context.ContextPolicy;
import dev.rein.model.TextBlock;
import java.util.Collections;
import java.util.concurrent.atomic.AtomicInteger;
import dev.rein.guard.RequiredFact;
import dev.rein.model.ToolResultBlock;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.trace.TraceEvent;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class RequiredFactsLoopTest {
    private final RecordingListener trace = new RecordingListener();

    private static Tool getOrder() {
        return Tool.builder("get_order").description("Gets an order.")
                .handler((args, ctx) -> "order A-100: shipped 2026-03-02, 配送中").build();
    }

    private static String finish(String result) {
        return "{\"status\":\"completed\",\"summary\":\"checked\",\"result\":\"" + result + "\"}";
    }

    private Agent.Builder agent(ScriptedModel model) {
        return Agent.builder().model(model).tools(getOrder()).finishTool(true).listener(trace)
                .requiredFact(RequiredFact.answerMatches("shipping date", Pattern.compile("\\d{4}-\\d{2}-\\d{2}"))
                        .withHint("give it as YYYY-MM-DD"))
                .requiredFact(RequiredFact.toolSucceeded("order looked up", "get_order"));
    }

    @Test
    void aFinishWithoutTheRequiredFactsIsRefusedAndTheModelToldWhichAreMissing() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("finish", finish("It has shipped."))),
                toolCalls(call("get_order", "{}")),
                toolCalls(call("finish", finish("Shipped on 2026-03-02."))));

        RunResult result = agent(model).build().run("When did order A-100 ship?");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("Shipped on 2026-03-02.");
        ToolResultBlock refusal = (ToolResultBlock) model.requests().get(1).messages().get(2).content().get(0);
        assertThat(refusal.isError()).isTrue();
        assertThat(refusal.content()).contains("required fact missing: shipping date (give it as YYYY-MM-DD)")
                .contains("required fact missing: order looked up (call get_order and use its result)");
        assertThat(trace.events(TraceEvent.Intervention.class)).singleElement().satisfies(e -> {
            assertThat(e.kind()).isEqualTo("verifier");
            assertThat(e.evidence().get("missing")).asList().hasSize(2);
        });
    }

    @Test
    void afterTwoRefusalsTheRunFailsWithVerificationFailed() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("get_order", "{}")),
                toolCalls(call("finish", finish("It has shipped."))),
                toolCalls(call("finish", finish("It has definitely shipped."))),
                text("never"));

        RunResult result = agent(model).build().run("When did order A-100 ship?");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo(Reasons.VERIFICATION_FAILED);
        assertThat(result.message()).contains("2 times").contains("shipping date").doesNotContain("order looked up");
        assertThat(model.remaining()).isEqualTo(1);
    }

    @Test
    void aPlainTextAnswerIsGuardedTooAndJapaneseAnswersPass() {
        ScriptedModel model = ScriptedModel.of(text("出荷済みです。"), toolCalls(call("get_order", "{}")), text("2026-03-02 に出荷されました。"));
        RunResult result = Agent.builder().model(model).tools(getOrder()).listener(trace)
                .requiredFact("shipping date", answer -> answer.answer().contains("2026-03-02"))
                .requiredFact(RequiredFact.answerMentions("出荷の記述", "出荷"))
                .build().run("注文 A-100 はいつ出荷されましたか？");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("2026-03-02 に出荷されました。");
        assertThat(model.requests().get(1).messages().get(2).text()).contains("required fact missing: shipping date")
                .doesNotContain("出荷の記述");
    }

    record Shipping(String orderId, String shippedOn) {}

    @Test
    void withTypedOutputTheFactsSeeOnlyAnswersThatValidateAndEachKindOfRefusalEndsWithItsOwnReason() {
        // an invalid answer is refused as invalid_output without consulting the facts; a valid one
        // without the facts is refused by them; both count toward the same two refusals
        ScriptedModel model = ScriptedModel.of(
                text("It shipped on 2026-03-02."),
                toolCalls(call("get_order", "{}")),
                text("```json\n{\"orderId\":\"A-100\",\"shippedOn\":\"2026年3月2日\"}\n```"));
        RunResult result = Agent.builder().model(model).tools(getOrder()).listener(trace).outputType(Shipping.class)
                .requiredFact(RequiredFact.answerMatches("shipping date", Pattern.compile("\\d{4}-\\d{2}-\\d{2}"))
                        .withHint("give it as YYYY-MM-DD"))
                .build().run("When did order A-100 ship?");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo(Reasons.VERIFICATION_FAILED);
        assertThat(result.message()).contains("shipping date");
        assertThat(trace.events(TraceEvent.Intervention.class)).extracting(TraceEvent.Intervention::kind)
                .containsExactly("invalid_output", "verifier");

        ScriptedModel fixed = ScriptedModel.of(
                toolCalls(call("get_order", "{}")),
                text("```json\n{\"orderId\":\"A-100\",\"shippedOn\":\"2026年3月2日\"}\n```"),
                text("{\"orderId\":\"A-100\",\"shippedOn\":\"2026-03-02\"}"));
        RunResult ok = Agent.builder().model(fixed).tools(getOrder()).outputType(Shipping.class)
                .requiredFact(RequiredFact.answerMatches("shipping date", Pattern.compile("\\d{4}-\\d{2}-\\d{2}")))
                .requiredFact(RequiredFact.toolSucceeded("order looked up", "get_order"))
                .build().run("When did order A-100 ship?");
        assertThat(ok.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(ok.output(Shipping.class)).isEqualTo(new Shipping("A-100", "2026-03-02"));
    }

    @Test
    void aFailingCheckCountsAsMissingInsteadOfCrashingTheRun() {
        ScriptedModel model = ScriptedModel.of(text("x"), text("y"));
        RunResult result = Agent.builder().model(model).listener(trace)
                .requiredFact("parsed", answer -> Integer.parseInt(answer.answer()) > 0)
                .build().run("go");
        assertThat(result.reason()).isEqualTo(Reasons.VERIFICATION_FAILED);
        assertThat(result.message()).contains("the check failed: NumberFormatException");
    }

    @Test
    void factsAreValidatedWhenTheAgentIsBuilt() {
        assertThatThrownBy(() -> Agent.builder().model(ScriptedModel.of()).requiredFact("a", x -> true).requiredFact("a", x -> true).build())
                .isInstanceOf(ReinException.class).hasMessageContaining("declared twice");
        assertThatThrownBy(() -> RequiredFact.of(" ", x -> true)).isInstanceOf(ReinException.class);
        assertThat(Agent.builder().model(ScriptedModel.of()).requiredFact("a", x -> true).build().config().verifiers()).hasSize(1);
    }

    @Test
    void aToolThatSucceededBeforeACompactionStillCountsAsSucceeded() {
        Tool fetch = Tool.builder("fetch_page").description("Fetches a page.")
                .handler((args, ctx) -> ("page " + args.path("page").asInt() + " lorem ipsum dolor sit amet\n").repeat(800)).build();
        AtomicInteger turns = new AtomicInteger();
        ScriptedModel.Turn turn = (request, number) -> {
            var last = request.messages().get(request.messages().size() - 1).content();
            if (last.get(last.size() - 1) instanceof TextBlock t && t.text().startsWith("[rein] Your context is nearly full")) {
                return text("Summary: order A-100 looked up, shipped 2026-03-02; pages read.").answer(request, number);
            }
            int n = turns.incrementAndGet();
            return (n == 1 ? toolCalls(call("get_order", "{}"))
                    : n <= 5 ? toolCalls(call("fetch_page", "{\"page\":" + n + "}"))
                    : toolCalls(call("finish", finish("Shipped on 2026-03-02.")))).answer(request, number);
        };
        RunResult result = agent(ScriptedModel.of(Collections.nCopies(20, turn))).tools(fetch)
                .contextPolicy(ContextPolicy.builder()
                        .compaction(Compaction.client(2_000).keepingLast(2)).build())
                .build().run("When did order A-100 ship?");

        assertThat(trace.events(TraceEvent.ContextEdited.class)).as("the get_order turn was compacted away")
                .anySatisfy(e -> assertThat(e.edit()).isEqualTo("compact"));
        assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(trace.events(TraceEvent.Intervention.class)).filteredOn(e -> e.kind().equals("verifier")).isEmpty();
    }
}
