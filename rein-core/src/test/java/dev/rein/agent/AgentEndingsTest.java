package dev.rein.agent;

import dev.rein.run.RunStatus;
import dev.rein.run.Verdict;
import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.budget.Budget;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.ModelException;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ThinkingBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.retry.RetryPolicy;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import dev.rein.trace.TraceEvent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentEndingsTest {
    private final RecordingListener trace = new RecordingListener();

    private Agent.Builder agent(ScriptedModel model) {
        return Agent.builder().model(model).tools(TestTools.echo()).listener(trace).retryPolicy(
                new RetryPolicy(2, Duration.ofMillis(10), Duration.ofMillis(50), 0));
    }

    @Test
    void refusalAndContextOverflowAreFailuresWithTheirReasons() {
        RunResult refused = agent(ScriptedModel.of(ScriptedModel.reply(StopReason.REFUSAL, Usage.ZERO, new TextBlock("no"))))
                .build().run("go");
        assertThat(refused.status()).isEqualTo(RunStatus.FAILED);
        assertThat(refused.reason()).isEqualTo("refusal");
        RunResult overflow = agent(ScriptedModel.of(ScriptedModel.reply(StopReason.MODEL_CONTEXT_WINDOW_EXCEEDED, Usage.ZERO,
                new TextBlock("...")))).build().run("go");
        assertThat(overflow.status()).isEqualTo(RunStatus.FAILED);
        assertThat(overflow.reason()).isEqualTo("context_window_exceeded");
        assertThat(overflow.message()).contains("context window");
    }

    @Test
    void pauseTurnContinuesWithTheAssistantTurnInHistory() {
        ScriptedModel model = ScriptedModel.of(
                ScriptedModel.reply(StopReason.PAUSE_TURN, Usage.ZERO, new TextBlock("searching...")),
                text("found it"));
        RunResult result = agent(model).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("searching...found it");
        List<Message> second = model.requests().get(1).messages();
        assertThat(second.get(second.size() - 1).text()).isEqualTo("searching...");
    }

    @Test
    void thinkingBlocksGoBackUnchanged() {
        ThinkingBlock thinking = new ThinkingBlock("I should echo", "sig-abc");
        ScriptedModel model = ScriptedModel.of(
                (request, n) -> new dev.rein.model.ModelResponse("m1", request.model(), List.of(thinking,
                        new ToolUseBlock("toolu_1", "echo", Json.parse("{\"text\":\"x\"}"))), StopReason.TOOL_USE, null, Usage.ZERO),
                text("ok"));
        agent(model).build().run("go");
        assertThat(model.requests().get(1).messages().get(1).content().get(0)).isEqualTo(thinking);
    }

    @Test
    void aNonRetryableProviderErrorFailsTheRunWithTheProvidersMessage() {
        ScriptedModel model = ScriptedModel.of(ScriptedModel.fail(new ModelException(ModelException.Kind.AUTHENTICATION, 401,
                "invalid x-api-key")));
        RunResult result = agent(model).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo("provider_error");
        assertThat(result.message()).contains("HTTP 401").contains("invalid x-api-key");
        assertThat(model.requests()).hasSize(1);
    }

    @Test
    void transientErrorsAreRetriedAndTraced() {
        ScriptedModel model = ScriptedModel.of(
                ScriptedModel.fail(new ModelException(ModelException.Kind.OVERLOADED, 529, "Overloaded")),
                ScriptedModel.fail(new ModelException(ModelException.Kind.RATE_LIMITED, 429, "slow down", true,
                        Duration.ofMillis(20), "req_1", null)),
                text("fine"));
        RunResult result = agent(model).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        List<TraceEvent.ModelRetry> retries = trace.events(TraceEvent.ModelRetry.class);
        assertThat(retries).extracting(TraceEvent.ModelRetry::httpStatus).containsExactly(529, 429);
        assertThat(retries.get(1).delayMillis()).isEqualTo(20);
    }

    @Test
    void retriesStopAtTheLimit() {
        ModelException overloaded = new ModelException(ModelException.Kind.OVERLOADED, 529, "Overloaded");
        ScriptedModel model = ScriptedModel.of(ScriptedModel.fail(overloaded), ScriptedModel.fail(overloaded),
                ScriptedModel.fail(overloaded), text("never"));
        RunResult result = agent(model).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.message()).contains("gave up after 3 attempts");
    }

    @Test
    void aHungModelCallEndsAtTheDeadlineWithoutAnotherCall() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"a\"}")), ScriptedModel.hang(), text("never"));
        long start = System.nanoTime();
        RunResult result = agent(model).budget(Budget.builder().maxDuration(Duration.ofMillis(700)).build()).build().run("go");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("deadline");
        assertThat(result.answer()).contains("echo");
        assertThat(model.requests()).hasSize(2);
    }

    @Test
    void aToolCallProposedByTheSummaryCallIsNotCountedAsMade() {
        // A model that ignores tool_choice none: its proposed call never runs.
        ScriptedModel model = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"a\"}")),
                toolCalls(call("echo", "{\"text\":\"b\"}")));
        RunResult result = agent(model).budget(Budget.builder().maxSteps(1).build()).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("max_steps");
        assertThat(model.requests()).hasSize(2);
        assertThat(result.answer()).contains("Tool calls made: 1 (echo)").doesNotContain("2 (echo, echo)");
    }

    @Test
    void callsRefusedBeforeTheyRanAreNotCountedAsMade() {
        // an unknown tool and invalid arguments are answered with an error, but no handler ran
        ScriptedModel model = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"東京\"}"), call("nope", "{}"),
                call("echo", "{\"wrong\":1}")), toolCalls(call("echo", "{\"text\":\"b\"}")));
        RunResult result = agent(model).budget(Budget.builder().maxSteps(1).build()).build().run("go");
        assertThat(result.reason()).isEqualTo("max_steps");
        assertThat(trace.events(TraceEvent.ToolCompleted.class)).extracting(TraceEvent.ToolCompleted::errorClass)
                .containsExactlyInAnyOrder("NONE", "UNKNOWN_TOOL", "INVALID_ARGUMENTS");
        assertThat(result.answer()).contains("Tool calls made: 1 (echo).")
                .contains("Tool calls refused before they ran: 2 (nope, echo).").doesNotContain("3 (");
    }

    @Test
    void aTimeLimitBelowOneSecondIsNamedAsItWasSet() {
        // Budget.maxDuration and --max-seconds take fractions of a second; "0 s" would be wrong.
        RunResult result = agent(ScriptedModel.of(ScriptedModel.hang()))
                .budget(Budget.builder().maxDuration(Duration.ofMillis(300)).build()).build().run("go");
        assertThat(result.reason()).isEqualTo("deadline");
        assertThat(result.message()).contains("the time limit of 300 ms was reached").doesNotContain("0 s");
        assertThat(result.answer()).contains("300 ms");
    }

    @Test
    void aHungToolEndsAtTheDeadline() {
        Tool hang = Tool.builder("hang").description("never returns").handler((a, c) -> {
            Thread.sleep(Long.MAX_VALUE);
            return "";
        }).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("hang", "{}")), text("never"));
        RunResult result = agent(model).tools(hang).budget(Budget.builder().maxDuration(Duration.ofMillis(700)).build())
                .build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("deadline");
        assertThat(model.requests()).hasSize(1);
    }

    @Test
    void cancelFromAnotherThreadInterruptsTheToolAndEndsCancelled() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        Tool slow = Tool.builder("slow").description("slow").handler((a, c) -> {
            started.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
            return "";
        }).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("slow", "{}")), text("never"));
        RunHandle handle = agent(model).tools(slow).build().start("go");
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
        handle.cancel();
        RunResult result = handle.await(Duration.ofSeconds(5));
        assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(interrupted.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(trace.events(TraceEvent.RunFinished.class)).singleElement()
                .satisfies(f -> assertThat(f.status()).isEqualTo(RunStatus.CANCELLED));
    }

    @Test
    void awaitingARunWithALongerTimeoutThanNanosecondsCanCountWaitsForIt() throws Exception {
        // await(Duration.ofDays(365 * 300)) used to throw ArithmeticException (Duration.toNanos overflows past 292 years)
        RunHandle handle = agent(ScriptedModel.of(text("done"))).build().start("go");
        assertThat(handle.await(ChronoUnit.FOREVER.getDuration()).status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(handle.await(Duration.ofDays(365L * 300)).answer()).isEqualTo("done");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> handle.await(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("await(timeout) was given no timeout").hasMessageContaining("await()");
    }

    @Test
    void theFinishToolMapsToRunStates() {
        RunResult done = agent(ScriptedModel.of(toolCalls(call("finish",
                "{\"status\":\"completed\",\"summary\":\"did it\",\"result\":\"42\"}")))).finishTool(true).build().run("go");
        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(done.reason()).isEqualTo("finished");
        assertThat(done.answer()).isEqualTo("42");
        assertThat(done.finish().summary()).isEqualTo("did it");

        RunResult gaveUp = agent(ScriptedModel.of(toolCalls(call("finish",
                "{\"status\":\"failed\",\"summary\":\"no access\",\"result\":\"could not\"}")))).finishTool(true).build().run("go");
        assertThat(gaveUp.status()).isEqualTo(RunStatus.FAILED);
        assertThat(gaveUp.reason()).isEqualTo("agent_failed");

        RunResult asks = agent(ScriptedModel.of(toolCalls(call("finish",
                "{\"status\":\"needs_user_input\",\"summary\":\"which order?\",\"result\":\"Which order id?\"}")))).finishTool(true)
                .build().run("go");
        assertThat(asks.status()).isEqualTo(RunStatus.FAILED);
        assertThat(asks.reason()).isEqualTo("needs_user_input");
        assertThat(asks.answer()).isEqualTo("Which order id?");
    }

    @Test
    void aCompletedFinishWithAnEmptyResultIsRefusedLikeAnAnswerMissingSomething() {
        // it ended SUCCEEDED with an empty answer, where an empty text answer is asked again and then fails
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("finish", "{\"status\":\"completed\",\"summary\":\"調べました\",\"result\":\" \\u200b\"}")),
                toolCalls(call("finish", "{\"status\":\"completed\",\"summary\":\"調べました\",\"result\":\"A-104は明日届きます\"}")));
        RunResult result = agent(model).finishTool(true).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("A-104は明日届きます");
        ToolResultBlock refusal = (ToolResultBlock) model.requests().get(1).messages().get(2).content().get(0);
        assertThat(refusal.isError()).isTrue();
        assertThat(refusal.content()).contains("the finish call's result is empty: put the final answer for the user in result");

        ScriptedModel twice = ScriptedModel.of(
                toolCalls(call("finish", "{\"status\":\"completed\",\"summary\":\"s\",\"result\":\"\"}")),
                toolCalls(call("finish", "{\"status\":\"completed\",\"summary\":\"s\",\"result\":\"\"}")));
        RunResult failed = agent(twice).finishTool(true).build().run("go");
        assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
        assertThat(failed.reason()).isEqualTo("verification_failed");
    }

    /**
     * A completed finish whose result is null shows nothing, and README says such a result is refused like an
     * answer that fails verification (counted toward maxVerificationFailures), as an empty one is, where it was a
     * refused tool call ('$.result: null found, string expected') counted toward nothing.
     */
    @Test
    void aCompletedFinishWithANullResultIsRefusedAsAnEmptyOneIs() {
        String none = "{\"status\":\"completed\",\"summary\":\"s\",\"result\":null}";
        ScriptedModel model = ScriptedModel.of(toolCalls(call("finish", none)),
                toolCalls(call("finish", "{\"status\":\"completed\",\"summary\":\"s\",\"result\":\"A-104\"}")));
        RunResult result = agent(model).finishTool(true).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        ToolResultBlock refusal = (ToolResultBlock) model.requests().get(1).messages().get(2).content().get(0);
        assertThat(refusal.isError()).isTrue();
        assertThat(refusal.content()).contains("the finish call's result is empty");

        ScriptedModel twice = ScriptedModel.of(toolCalls(call("finish", none)), toolCalls(call("finish", none)),
                toolCalls(call("finish", none)));
        RunResult failed = agent(twice).finishTool(true).build().run("go");
        assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
        assertThat(failed.reason()).isEqualTo("verification_failed");
    }

    /**
     * A finish call whose arguments its own schema refuses (an unknown status, a missing summary) is an invalid
     * final output: refused through the tool chain, counted toward maxVerificationFailures, and past them the run
     * ends FAILED/invalid_output, where it counted toward nothing and a model repeating it ran to max_steps.
     */
    @Test
    void aFinishCallItsSchemaRefusesCountsAsInvalidOutputAndEndsTheRunPastTheRefusalsAllowed() {
        String bad = "{\"status\":\"done\",\"summary\":\"調べました\",\"result\":\"A-104\"}";
        ScriptedModel model = ScriptedModel.of(toolCalls(call("finish", bad)), toolCalls(call("finish", bad)),
                toolCalls(call("finish", bad)), toolCalls(call("finish", bad)), toolCalls(call("finish", bad)));
        RunResult failed = agent(model).finishTool(true).budget(Budget.builder().maxSteps(5).build()).build().run("go");
        assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
        assertThat(failed.reason()).isEqualTo("invalid_output");
        assertThat(failed.message()).contains("the finish call's arguments were invalid 2 times").contains("$.status");
        assertThat(model.requests()).hasSize(2);
        ToolResultBlock refusal = (ToolResultBlock) model.requests().get(1).messages().get(2).content().get(0);
        assertThat(refusal.isError()).isTrue();
        assertThat(refusal.content()).contains("Invalid arguments for tool 'finish'");
        assertThat(trace.events(TraceEvent.Intervention.class)).filteredOn(i -> i.kind().equals("invalid_output"))
                .hasSize(2).last().satisfies(i -> assertThat(i.evidence()).containsEntry("refusals", 2));

        // the refusals are one count: a bad finish and then an answer a verifier refuses end it too
        ScriptedModel mixed = ScriptedModel.of(toolCalls(call("finish", bad)),
                toolCalls(call("finish", "{\"status\":\"completed\",\"summary\":\"s\",\"result\":\"A-104\"}")),
                toolCalls(call("finish", "{\"status\":\"completed\",\"summary\":\"s\",\"result\":\"A-105\"}")));
        RunResult refused = agent(mixed).finishTool(true).verifier(answer -> Verdict.fail("name the carrier")).build().run("go");
        assertThat(refused.status()).isEqualTo(RunStatus.FAILED);
        assertThat(refused.reason()).isEqualTo("verification_failed");
        assertThat(mixed.requests()).hasSize(2);
    }

    @Test
    void finishAlongsideOtherCallsIsRefusedAndTheOthersRun() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("echo", "{\"text\":\"a\"}"), call("finish", "{\"status\":\"completed\",\"summary\":\"s\",\"result\":\"r\"}")),
                toolCalls(call("finish", "{\"status\":\"completed\",\"summary\":\"s\",\"result\":\"echoed\"}")));
        RunResult result = agent(model).finishTool(true).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        List<dev.rein.model.ContentBlock> results = model.requests().get(1).messages().get(2).content();
        assertThat(((ToolResultBlock) results.get(0)).content()).contains("\necho: a\n");
        assertThat(((ToolResultBlock) results.get(1)).isError()).isTrue();
        // Rein's own fixed refusal, not a tool's data: it reaches the model unwrapped, as safety.md says
        assertThat(((ToolResultBlock) results.get(1)).content()).startsWith("finish was not accepted")
                .contains("Call finish once, alone").doesNotContain("untrusted_data");
    }

    @Test
    void twoFinishCallsInOneResponseAreRefusedWithoutSpeakingOfOtherTools() {
        String done = "{\"status\":\"completed\",\"summary\":\"s\",\"result\":\"r\"}";
        ScriptedModel model = ScriptedModel.of(toolCalls(call("finish", done), call("finish", done)), toolCalls(call("finish", done)));
        RunResult result = agent(model).finishTool(true).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        List<dev.rein.model.ContentBlock> results = model.requests().get(1).messages().get(2).content();
        assertThat(results).hasSize(2).allSatisfy(block -> assertThat(((ToolResultBlock) block).content())
                .startsWith("finish was not accepted because it was not the only tool call of your response")
                .doesNotContain("other tools"));
    }

    @Test
    void aFailingVerifierSendsTheModelBackThenFailsAfterTheLimit() {
        ScriptedModel model = ScriptedModel.of(text("no number"), text("still none"), text("never asked"));
        RunResult result = agent(model)
                .verifier(answer -> answer.answer().matches(".*\\d.*") ? Verdict.pass() : Verdict.fail("a number in the answer"))
                .build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo("verification_failed");
        assertThat(model.requests()).hasSize(2);
        assertThat(model.requests().get(1).messages().get(2).text()).contains("a number in the answer");

        ScriptedModel fixed = ScriptedModel.of(toolCalls(call("finish", "{\"status\":\"completed\",\"summary\":\"s\",\"result\":\"none\"}")),
                toolCalls(call("finish", "{\"status\":\"completed\",\"summary\":\"s\",\"result\":\"7\"}")));
        RunResult ok = agent(fixed).finishTool(true)
                .verifier(answer -> answer.answer().matches(".*\\d.*") ? Verdict.pass() : Verdict.fail("a number in the answer"))
                .build().run("go");
        assertThat(ok.status()).isEqualTo(RunStatus.SUCCEEDED);
        ToolResultBlock refusal = (ToolResultBlock) fixed.requests().get(1).messages().get(2).content().get(0);
        assertThat(refusal.isError()).isTrue();
        assertThat(refusal.content()).contains("a number");
    }

    @Test
    void usageAndCostAreSummedOverEveryCallIncludingTheSummary() {
        Usage each = Usage.of(1_000, 100, 2_000, 500);
        ScriptedModel model = ScriptedModel.of(
                ScriptedModel.withUsage(each, toolCalls(call("echo", "{\"text\":\"1\"}"))),
                ScriptedModel.withUsage(each, text("summary")));
        RunResult result = agent(model).budget(Budget.builder().maxSteps(1).build()).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.usage()).isEqualTo(Usage.of(2_000, 200, 4_000, 1_000));
        // sonnet: 2000*3 + 200*15 + 4000*0.3 + 1000*3.75 = 13950 per million
        assertThat(result.costUsd()).isEqualByComparingTo("0.01395");
    }

    @Test
    void theMoneyBudgetStopsTheRun() {
        Usage expensive = Usage.of(100_000, 10_000, 0, 0);
        ScriptedModel model = ScriptedModel.of(
                ScriptedModel.withUsage(expensive, toolCalls(call("echo", "{\"text\":\"1\"}"))),
                ScriptedModel.withUsage(expensive, toolCalls(call("echo", "{\"text\":\"2\"}"))),
                text("what I know"));
        RunResult result = agent(model).budget(Budget.builder().maxCostUsd("0.50").build()).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("max_cost");
        assertThat(result.answer()).isEqualTo("what I know");
    }

    @Test
    void configurationErrorsAreReportedAtBuild() {
        assertThatThrownBy(() -> Agent.builder().build()).isInstanceOf(ReinException.class).hasMessageContaining("model");
        assertThatThrownBy(() -> Agent.builder().model(ScriptedModel.of()).modelName("my-local-llm").build())
                .isInstanceOf(ReinException.class).hasMessageContaining("my-local-llm");
        assertThatThrownBy(() -> Agent.builder().model(ScriptedModel.of()).tools(TestTools.echo(), TestTools.echo()).build())
                .isInstanceOf(ReinException.class).hasMessageContaining("'echo' is already registered");
        assertThatThrownBy(() -> Agent.builder().model(ScriptedModel.of()).build().run(" "))
                .isInstanceOf(ReinException.class).hasMessageContaining("goal");
    }

    @Test
    void aToolTimeoutThatIsNotPositiveIsAConfigurationErrorAsOnATool() {
        // accepted before: every call of the run was then answered "The run's deadline has passed"
        for (Duration timeout : List.of(Duration.ZERO, Duration.ofSeconds(-5))) {
            assertThatThrownBy(() -> agent(ScriptedModel.of(text("x"))).toolTimeout(timeout).build())
                    .isInstanceOf(ReinException.class).hasMessage("toolTimeout must be positive, was " + timeout
                            + ": give the longest one tool call may take, e.g. Duration.ofSeconds(30) (the default)");
        }
        ScriptedModel model = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"a\"}")), text("ok"));
        RunResult result = agent(model).toolTimeout(Duration.ofMillis(1_500)).build().run("go");
        assertThat(((ToolResultBlock) result.history().get(2).content().get(0)).isError()).isFalse();
    }

    @Test
    void aVerifierStillCheckingAtTheDeadlineStopsTheRunThereWithoutAcceptingTheAnswer() {
        // a verifier that runs the tests (M28) and hangs, and one that spins without looking at interrupts
        List<dev.rein.run.Verifier> slow = List.of(answer -> {
            try {
                Thread.sleep(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Verdict.pass();
        }, answer -> {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            return Verdict.pass();
        });
        for (dev.rein.run.Verifier verifier : slow) {
            ScriptedModel model = ScriptedModel.of(text("the tests pass"), text("again"));
            long start = System.nanoTime();
            RunResult result = agent(model).verifier(verifier).budget(Budget.builder().maxDuration(Duration.ofMillis(800)).build())
                    .build().run("go");
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(tookMillis).isLessThan(5_000);
            assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
            assertThat(result.reason()).isEqualTo("deadline");
            assertThat(result.message()).contains("time limit of 800 ms").contains("verifier");
            assertThat(model.requests()).hasSize(1);
        }
    }

    @Test
    void maxVerificationFailuresIsTheRefusalThatEndsTheRun() {
        // the Javadoc said "refused answers tolerated before the run fails": with 1, the first refusal ends it
        ScriptedModel model = ScriptedModel.of(text("a guess"), text("another guess"));
        RunResult result = agent(model).verifier(answer -> Verdict.fail("the date")).maxVerificationFailures(1).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo("verification_failed");
        assertThat(model.requests()).hasSize(1);
        assertThatThrownBy(() -> agent(ScriptedModel.of()).maxVerificationFailures(-1).build()).isInstanceOf(ReinException.class)
                .hasMessage("maxVerificationFailures cannot be negative, was -1: give after how many refused answers the run"
                        + " ends, e.g. 2 (the default; 0 and 1 end it at the first)");
    }

    @Test
    void aMaxTokensBelowOneSaysWhatToGive() {
        // 'maxTokens must be positive, was 0' said what was wrong but not what to give
        for (int maxTokens : new int[] {0, -1}) {
            assertThatThrownBy(() -> agent(ScriptedModel.of(text("x"))).maxTokens(maxTokens).build())
                    .isInstanceOf(ReinException.class)
                    .hasMessage("maxTokens must be positive, was " + maxTokens + ": give the most tokens the model may write"
                            + " in one response, e.g. 8192 (the default)");
        }
    }

    @Test
    void aTemperatureThatIsNotANumberOrIsNegativeIsAConfigurationError() {
        // accepted before: sent with every request, so each run failed only at the provider (HTTP 400), after a call
        for (double temperature : new double[] {Double.NaN, Double.POSITIVE_INFINITY, -0.5}) {
            assertThatThrownBy(() -> agent(ScriptedModel.of(text("x"))).temperature(temperature).build())
                    .isInstanceOf(ReinException.class)
                    .hasMessage("temperature must be a number of at least 0, was " + temperature + "; leave it unset (null)"
                            + " for the provider's default");
        }
        ScriptedModel model = ScriptedModel.of(text("ok"));
        assertThat(agent(model).temperature(0.0).build().run("go").status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(model.lastRequest().temperature()).isEqualTo(0.0);
    }

    @Test
    void theJsonlTraceRecordsEveryStepInUtf8(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("trace.jsonl");
        ScriptedModel model = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"配送状況\"}")), text("完了しました"));
        RunResult result = agent(model).listener(JsonlTraceListener.to(file)).build().run("注文A-104の遅延を調べて");
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<String> types = lines.stream().map(l -> Json.parse(l).get("type").asText()).toList();
        assertThat(types).containsExactly("run_started", "state_change", "model_request", "model_response", "tool_call",
                "tool_result", "model_request", "model_response", "state_change", "run_finished");
        assertThat(lines).allSatisfy(l -> assertThat(Json.parse(l).get("run_id").asText()).isEqualTo(result.runId()));
        assertThat(Json.parse(lines.get(3)).at("/usage/input_tokens").asLong()).isEqualTo(100);
        assertThat(String.join("\n", lines)).contains("注文A-104の遅延を調べて").contains("echo: 配送状況").contains("完了しました");
    }

    @Test
    void aVerifierThatReturnsNoVerdictNeverLetsTheAnswerThrough() {
        RunResult result = agent(ScriptedModel.of(text("42"))).verifier(answer -> null).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo("internal_error");
        assertThat(result.message()).contains("returned null").contains("Verdict.pass()");
    }

    @Test
    void aVerifierThatThrowsEndsTheRunFailedNamingTheVerifierNotAcceptingTheAnswer() {
        RunResult result = agent(ScriptedModel.of(text("42"))).verifier(answer -> {
            throw new IllegalStateException("the checker's database is down");
        }).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo("internal_error");
        assertThat(result.message()).contains("the verifier ").contains("threw java.lang.IllegalStateException: the checker's"
                + " database is down, so the proposed answer could not be checked");
    }
    /**
     * A verifier that throws an Error (an AssertionError of a check written with assert or a test library, a
     * StackOverflowError) is named in the run's message as one that throws an exception is (README: "the run
     * ends FAILED/internal_error with a message naming it"), where the message was only 'internal error:
     * java.lang.AssertionError: ...', with no word of which verifier or that the answer went unchecked.
     */
    @Test
    void aVerifierThatThrowsAnErrorIsNamedAsOneThatThrowsAnExceptionIs() {
        RunResult result = agent(ScriptedModel.of(text("42"))).verifier(answer -> {
            throw new AssertionError("expected a shipping date");
        }).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo("internal_error");
        assertThat(result.message()).contains("the verifier ").contains("threw java.lang.AssertionError: expected a shipping"
                + " date, so the proposed answer could not be checked");
    }
}
