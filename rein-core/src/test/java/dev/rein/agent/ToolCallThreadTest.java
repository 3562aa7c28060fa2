package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.ErrorClass;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolHandler;
import dev.rein.trace.TraceEvent;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which thread a tool call runs on in a run, and that its timeout holds on both paths: a tool that
 * aborts on interrupt runs on the run's own thread; any other tool on a thread of its own.
 */
class ToolCallThreadTest {
    private final RecordingListener trace = new RecordingListener();

    private Agent agent(Tool tool) {
        ScriptedModel model = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call(tool.name(), "{}")),
                ScriptedModel.text("done"));
        return Agent.builder().model(model).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES).tools(tool)
                .listener(trace).build();
    }

    private static Tool tool(boolean aborts, Duration timeout, ToolHandler handler) {
        return Tool.builder("probe").description("records its thread").timeout(timeout).abortsOnInterrupt(aborts)
                .handler(handler).build();
    }

    private TraceEvent.ToolCompleted onlyResult() {
        List<TraceEvent.ToolCompleted> results = trace.events(TraceEvent.ToolCompleted.class);
        assertThat(results).hasSize(1);
        return results.get(0);
    }

    /** A handler that sleeps until interrupted, then returns normally as if nothing happened. */
    private static ToolHandler swallowingTheInterrupt(CountDownLatch entered) {
        return (args, context) -> {
            entered.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException swallowed) {
                return "finished anyway";
            }
            return "never";
        };
    }

    @ParameterizedTest(name = "abortsOnInterrupt={0}")
    @CsvSource({"true, rein-run-", "false, rein-tool-probe"})
    void aToolThatAbortsOnInterruptRunsOnTheRunsThreadAnyOtherOnAThreadOfItsOwn(boolean aborts, String threadName) {
        AtomicReference<String> thread = new AtomicReference<>();
        RunResult result = agent(tool(aborts, Duration.ofSeconds(30), (args, context) -> {
            thread.set(Thread.currentThread().getName());
            return "ok";
        })).run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(thread.get()).startsWith(threadName);
        assertThat(onlyResult().isError()).isFalse();
    }

    @Test
    void onTheRunsThreadTheTimeoutInterruptsTheHandlerAndTheRunGoesOnWithoutTheInterrupt() {
        RunResult result = agent(tool(true, Duration.ofMillis(200), (args, context) -> {
            Thread.sleep(60_000);
            return "never";
        })).run("go");
        TraceEvent.ToolCompleted timedOut = onlyResult();
        assertThat(timedOut.errorClass()).isEqualTo(ErrorClass.TIMEOUT.name());
        assertThat(timedOut.content()).contains("timeout of 200 ms");
        // The next model call was not interrupted by the alarm: the run ended with the model's answer.
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("done");
    }

    @Test
    void aHandlerThatReturnsNormallyAfterTheAlarmStillEndsAsATimeout() {
        RunResult result = agent(tool(true, Duration.ofMillis(200), swallowingTheInterrupt(new CountDownLatch(1)))).run("go");
        assertThat(onlyResult().errorClass()).isEqualTo(ErrorClass.TIMEOUT.name());
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void cancelEndsTheRunEvenIfTheHandlerOnTheRunsThreadSwallowsTheInterrupt() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        RunHandle handle = agent(tool(true, Duration.ofSeconds(30), swallowingTheInterrupt(entered))).start("go");
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        handle.cancel();
        RunResult result = handle.await(Duration.ofSeconds(10));
        assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
    }

    /**
     * The twin of the model calls' rule (74fdbb07): a tool whose handler swallowed the cancel's interrupt and failed as
     * retryable (an HTTP client that turns the interrupt into an I/O error) is not called again once the run was
     * cancelled. Before, its thread slept the tool's backoff and ran the handler again, a side effect after the
     * cancel that nobody waited for.
     */
    @Test
    void aToolWhoseHandlerSwallowedTheCancelsInterruptIsNotCalledAgain() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        Tool flaky = tool(false, Duration.ofSeconds(30), (args, context) -> {
            calls.incrementAndGet();
            entered.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException swallowed) {
                // the interrupt is lost, and the call fails as a connection would
            }
            throw new dev.rein.tool.RetryableToolException("connection reset");
        });
        RunHandle handle = agent(flaky).start("go");
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        handle.cancel();
        assertThat(handle.await(Duration.ofSeconds(10)).status()).isEqualTo(RunStatus.CANCELLED);

        Thread.sleep(1_500); // longer than the default tool retries' backoff (0.2 s, then 0.4 s, with jitter)
        assertThat(calls).hasValue(1);
    }
}
