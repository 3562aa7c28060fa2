package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The stack a run parks with while it waits for its model or for its tool call's thread: a pass-through frame there
 * (a one-line overload, a stage that only proceeds) is copied to the heap at every park, and at thousands of runs in
 * flight those copies are what the heap holds (docs/performance-log.md, 2026-12-07, perf5). What must stay is the loop,
 * the stages that do something and the JDK's wait.
 */
class RunStackTest {
    /** Frames from the model's {@code call} down to {@code Agent.run} while a run waits for its model (perf5: 23). */
    private static final int DEPTH_MODEL_WAIT = 18;
    /** Frames from the run's wait for its tool's thread down to {@code Agent.run} (perf5: 35; perf6: 30). */
    private static final int DEPTH_TOOL_WAIT = 28;

    private static List<String> frames(StackTraceElement[] stack) {
        List<String> frames = new ArrayList<>();
        for (StackTraceElement f : stack) {
            frames.add(f.getClassName() + "." + f.getMethodName());
        }
        return frames;
    }

    /** The frames from the top of {@code frames} down to {@code Agent.run}: what the run's own code puts on its stack. */
    private static int depthToAgentRun(List<String> frames) {
        return frames.indexOf("dev.rein.agent.Agent.run") + 1;
    }

    /** The run's thread, read from the tool's own thread once the run's thread waits for it. */
    @Test
    void theRunWaitingForItsToolsThreadHasNoPassThroughFrames() throws Exception {
        AtomicReference<Thread> runThread = new AtomicReference<>();
        AtomicReference<List<String>> seen = new AtomicReference<>();
        Tool tool = Tool.builder("probe").description("reads the run's stack").handler((args, context) -> {
            Thread run = runThread.get();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (run.getState() != Thread.State.WAITING && System.nanoTime() < until) {
                Thread.sleep(1); // the run's thread parks once this thread has started
            }
            seen.set(frames(run.getStackTrace()));
            return "ok";
        }).build();
        Agent agent = Agent.builder().model(ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("probe", "{}")),
                        ScriptedModel.text("done")))
                .modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES).tools(tool).build();
        AtomicReference<RunResult> result = new AtomicReference<>();
        Thread thread = Thread.ofVirtual().unstarted(() -> result.set(agent.run("go")));
        runThread.set(thread);
        thread.start();
        thread.join();

        assertThat(result.get().status()).isEqualTo(RunStatus.SUCCEEDED);
        List<String> frames = seen.get();
        assertThat(frames).as("the run's thread waits in the timeout stage: %s", frames)
                .contains("dev.rein.tool.TimeoutStage$Bound.proceed");
        assertThat(frames).as("one frame for Agent.run, not an overload's too: %s", frames)
                .containsOnlyOnce("dev.rein.agent.Agent.run");
        assertThat(frames).as("the loop runs the tool step from its driver: %s", frames)
                .doesNotContain("dev.rein.agent.AgentLoop.act");
        assertThat(frames).as("no helper between the executor and the chain, nor a stage that only passes on: %s", frames)
                .doesNotContain("dev.rein.tool.ToolExecutor.runStages", "dev.rein.tool.ToolExecutor.concurrently",
                        "dev.rein.tool.ToolChain.run")
                .noneMatch(f -> f.startsWith("dev.rein.tool.ToolExecutor.lambda$"));
        // the trace stage is a class of its own: as a method reference (Run.traceValidatedCall) it also had a lambda
        // frame, hidden from stack traces but parked with the rest; its visible frame names which one runs
        assertThat(frames).as("the trace stage is its own class, not a method reference to the run: %s", frames)
                .contains("dev.rein.agent.RunTools$TraceValidatedCalls$Bound.proceed")
                .doesNotContain("dev.rein.agent.Run.traceValidatedCall");
        // one frame per stage of Rein's own, bound to the stage after it, the approval gate too: the chain's link only
        // where the call enters (docs/performance-log.md, 2026-12-07, perf6, perf7; the gate was a link into it, its
        // intercept and a link out of it)
        assertThat(frames).as("the approval gate is bound as Rein's other stages: %s", frames)
                .contains("dev.rein.internal.approval.ApprovalGate$Bound.proceed")
                .doesNotContain("dev.rein.internal.approval.ApprovalGate.intercept");
        assertThat(frames.stream().filter(f -> f.startsWith("dev.rein.tool.ToolChain")).toList())
                .as("the chain's link only where the call enters: %s", frames)
                .hasSize(1);
        assertThat(depthToAgentRun(frames)).as("frames from the wait down to Agent.run: %s", frames).isEqualTo(DEPTH_TOOL_WAIT);
    }

    /**
     * A tool that aborts on interrupt runs on the run's own thread: a handler that blocks there (I/O) parks the run with
     * the handler's stack on top of the loop's.
     */
    @Test
    void aHandlerOnTheRunsThreadHasNoPassThroughFramesUnderIt() {
        AtomicReference<List<String>> seen = new AtomicReference<>();
        Tool tool = Tool.builder("probe").description("reads its stack").abortsOnInterrupt(true).handler((args, context) -> {
            seen.set(frames(Thread.currentThread().getStackTrace()));
            return "ok";
        }).build();
        Agent agent = Agent.builder().model(ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("probe", "{}")),
                        ScriptedModel.text("done")))
                .modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES).tools(tool).build();

        assertThat(agent.run("go").status()).isEqualTo(RunStatus.SUCCEEDED);
        List<String> frames = seen.get();
        assertThat(frames).as("the handler runs under the timeout stage: %s", frames).contains("dev.rein.tool.TimeoutStage$Bound.proceed");
        assertThat(frames).as("the timeout stage calls the rest itself, the handler is called as it is: %s", frames)
                .doesNotContain("dev.rein.internal.concurrent.Timed.runHere")
                .noneMatch(f -> f.startsWith("dev.rein.tool.TimeoutStage") && f.contains(".lambda$") || f.startsWith("dev.rein.tool.HandlerInvocation.lambda$"));
        // the thirteen stages one frame each, with links only into and out of the one not bound (the output truncation)
        // and where the call enters (docs/performance-log.md, 2026-12-07, perf6: before, 29 and 13 links; perf7: 21 and 5
        // links, the approval gate's two among them)
        assertThat(frames.stream().filter(f -> f.startsWith("dev.rein.tool.ToolChain")).toList())
                .as("the chain's links: %s", frames).hasSize(3);
        assertThat(frames.indexOf("dev.rein.tool.ToolExecutor.run") + 1).as("frames from the handler down to the executor: %s", frames)
                .isEqualTo(19);
    }

    /** A model that aborts on interrupt is called on the run's own thread: its stack is the one the run parks with. */
    @Test
    void theRunWaitingForItsModelHasNoPassThroughFrames() throws Exception {
        AtomicReference<List<String>> seen = new AtomicReference<>();
        ScriptedModel script = ScriptedModel.of(ScriptedModel.text("done"));
        Model model = new Model() {
            @Override
            public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
                seen.set(frames(Thread.currentThread().getStackTrace()));
                return script.call(request, context);
            }

            @Override
            public boolean abortsOnInterrupt() {
                return true;
            }
        };
        Agent agent = Agent.builder().model(model).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES).build();
        AtomicReference<RunResult> result = new AtomicReference<>();
        Thread thread = Thread.ofVirtual().start(() -> result.set(agent.run("go")));
        thread.join();

        assertThat(result.get().status()).isEqualTo(RunStatus.SUCCEEDED);
        List<String> frames = seen.get();
        assertThat(frames).as("one frame for Agent.run, not an overload's too: %s", frames)
                .containsOnlyOnce("dev.rein.agent.Agent.run");
        assertThat(frames).as("one frame for ModelCaller.call, not an overload's too: %s", frames)
                .containsOnlyOnce("dev.rein.agent.ModelCaller.call");
        // Rein's six stages (tracing, masking, pricing, retry, deadline, the model) one frame each, bound to the stage
        // after them, entered once through the chain (docs/performance-log.md, 2026-12-07, perf6)
        assertThat(frames.stream().filter(f -> f.startsWith("dev.rein.internal.model.")).toList())
                .as("one frame per stage of Rein's own: %s", frames)
                .containsExactly("dev.rein.internal.model.ModelChain$Innermost.proceed",
                        "dev.rein.internal.model.DeadlineStage$Bound.proceed", "dev.rein.internal.model.RetryStage$Bound.proceed",
                        "dev.rein.internal.model.PricingStage$Bound.proceed", "dev.rein.internal.model.MaskingStage$Bound.proceed",
                        "dev.rein.internal.model.TracingStage$Bound.proceed", "dev.rein.internal.model.ModelChain$Link.proceed",
                        "dev.rein.internal.model.ModelChain.call");
        assertThat(depthToAgentRun(frames)).as("frames from the wait down to Agent.run: %s", frames).isEqualTo(DEPTH_MODEL_WAIT);
    }
}
