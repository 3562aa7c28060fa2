package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Which thread runs the loop of a run whose caller waits for it ({@code run}, {@code resume}, {@code reply}): a
 * virtual caller's own thread, so a run holds one thread where it held two; a platform caller's run a virtual
 * thread of its own. The caller's interrupt cancels the run either way and stays set; no interrupt of Rein's
 * (a cancel, a deadline's alarm) is left on the caller's thread.
 */
class RunOnCallerThreadTest {

    /** A model recording the thread of each call; its first call blocks until released or interrupted. */
    private static final class Recording implements Model {
        final List<Thread> threads = new CopyOnWriteArrayList<>();
        final List<String> names = new CopyOnWriteArrayList<>();
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final ScriptedModel script;
        final boolean blocks;

        Recording(boolean blocks, ScriptedModel.Turn... responses) {
            this.blocks = blocks;
            this.script = ScriptedModel.of(responses);
        }

        @Override
        public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
            threads.add(Thread.currentThread());
            names.add(Thread.currentThread().getName());
            entered.countDown();
            if (blocks && threads.size() == 1) {
                release.await();
            }
            return script.call(request, context);
        }

        @Override
        public boolean abortsOnInterrupt() {
            return true;
        }
    }

    private static Agent.Builder agent(Model model) {
        return Agent.builder().model(model).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)
                .budget(Budget.builder().maxDuration(Duration.ofSeconds(60)).build());
    }

    /** What a virtual thread named {@code caller} saw: the run's result, its name after, its interrupt status after. */
    private record Seen(RunResult result, String nameAfter, boolean interruptedAfter) {}

    private static Seen onVirtualThread(java.util.function.Supplier<RunResult> work, AtomicReference<Thread> started) throws Exception {
        AtomicReference<Seen> seen = new AtomicReference<>();
        Thread thread = Thread.ofVirtual().name("caller").unstarted(() -> {
            RunResult result = work.get();
            seen.set(new Seen(result, Thread.currentThread().getName(), Thread.currentThread().isInterrupted()));
        });
        started.set(thread);
        thread.start();
        assertThat(thread.join(Duration.ofSeconds(30))).isTrue();
        return seen.get();
    }

    @Test
    void aVirtualCallersThreadRunsTheLoopItselfNamedAfterTheRunMeanwhile() throws Exception {
        Recording model = new Recording(false, ScriptedModel.text("done"));
        AtomicReference<Thread> caller = new AtomicReference<>();
        Seen seen = onVirtualThread(() -> agent(model).build().run("go"), caller);

        assertThat(seen.result().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(model.threads).containsExactly(caller.get());
        assertThat(model.names).containsExactly("rein-run-" + seen.result().runId());
        assertThat(seen.nameAfter()).isEqualTo("caller");
        assertThat(seen.interruptedAfter()).isFalse();
    }

    @Test
    void aPlatformCallersRunRunsOnAVirtualThreadOfItsOwn() {
        Recording model = new Recording(false, ScriptedModel.text("done"));
        RunResult result = agent(model).build().run("go");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(model.threads).singleElement().satisfies(t -> assertThat(t.isVirtual()).isTrue())
                .isNotSameAs(Thread.currentThread());
        assertThat(model.names).containsExactly("rein-run-" + result.runId());
    }

    @Test
    void interruptingTheVirtualCallerCancelsTheRunAndItsInterruptStaysSet() throws Exception {
        Recording model = new Recording(true, ScriptedModel.text("never"));
        AtomicReference<Thread> caller = new AtomicReference<>();
        Thread.ofVirtual().start(() -> {
            try {
                if (model.entered.await(30, TimeUnit.SECONDS)) {
                    caller.get().interrupt();
                }
            } catch (InterruptedException ignored) {
                // the test ends anyway
            }
        });
        Seen seen = onVirtualThread(() -> agent(model).build().run("go"), caller);

        assertThat(seen.result().status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(seen.result().message()).isEqualTo("the run was cancelled");
        assertThat(seen.interruptedAfter()).isTrue();
        assertThat(seen.nameAfter()).isEqualTo("caller");
    }

    @Test
    void interruptingAPlatformCallerCancelsTheRunAlikeAndItsInterruptStaysSet() throws Exception {
        Recording model = new Recording(true, ScriptedModel.text("never"));
        AtomicReference<RunResult> result = new AtomicReference<>();
        AtomicReference<Boolean> interruptedAfter = new AtomicReference<>();
        Thread caller = Thread.ofPlatform().start(() -> {
            result.set(agent(model).build().run("go"));
            interruptedAfter.set(Thread.currentThread().isInterrupted());
        });
        assertThat(model.entered.await(30, TimeUnit.SECONDS)).isTrue();
        caller.interrupt();
        assertThat(caller.join(Duration.ofSeconds(30))).isTrue();

        assertThat(result.get().status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(result.get().message()).isEqualTo("the run was cancelled");
        assertThat(interruptedAfter.get()).isTrue();
    }

    @Test
    void aVirtualCallerAlreadyInterruptedGetsACancelledRunAndKeepsItsInterrupt() throws Exception {
        Recording model = new Recording(false, ScriptedModel.text("done"));
        Seen seen = onVirtualThread(() -> {
            Thread.currentThread().interrupt();
            return agent(model).build().run("go");
        }, new AtomicReference<>());

        assertThat(seen.result().status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(seen.interruptedAfter()).isTrue();
        assertThat(model.threads).isEmpty();
    }

    @Test
    void aPlatformCallerAlreadyInterruptedGetsACancelledRunAndKeepsItsInterrupt() {
        Recording model = new Recording(false, ScriptedModel.text("done"));
        Thread.currentThread().interrupt();
        RunResult result;
        try {
            result = agent(model).build().run("go");
        } finally {
            assertThat(Thread.interrupted()).isTrue();
        }
        assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(model.threads).isEmpty();
    }

    @Test
    void theDeadlinesAlarmLeavesNoInterruptOnTheCallersThread() throws Exception {
        Recording model = new Recording(true, ScriptedModel.text("never"));
        Seen seen = onVirtualThread(() -> Agent.builder().model(model).modelName(ScriptedModel.DEFAULT_NAME)
                .prices(ScriptedModel.PRICES).budget(Budget.builder().maxDuration(Duration.ofSeconds(2)).build()).build()
                .run("go"), new AtomicReference<>());

        assertThat(seen.result().status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(seen.result().reason()).isEqualTo("deadline");
        assertThat(seen.interruptedAfter()).isFalse();
    }

    @Test
    void aToolThatAbortsOnInterruptRunsOnTheCallersThreadAndAnyOtherOnAThreadOfItsOwn() throws Exception {
        List<String> toolThreads = new CopyOnWriteArrayList<>();
        Tool inline = Tool.builder("inline").description("Runs here.").abortsOnInterrupt(true)
                .handler((args, ctx) -> {
                    toolThreads.add(Thread.currentThread().getName());
                    return "ok";
                }).build();
        Tool own = Tool.builder("own").description("Runs on its own thread.")
                .handler((args, ctx) -> {
                    toolThreads.add(Thread.currentThread().getName());
                    return "ok";
                }).build();
        Recording model = new Recording(false, ScriptedModel.toolCalls(ScriptedModel.call("inline", "{}")),
                ScriptedModel.toolCalls(ScriptedModel.call("own", "{}")), ScriptedModel.text("done"));
        Seen seen = onVirtualThread(() -> agent(model).tools(inline, own).build().run("go"), new AtomicReference<>());

        assertThat(seen.result().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(toolThreads).containsExactly("rein-run-" + seen.result().runId(), "rein-tool-own");
    }

    /** A tool that runs another agent on the run's thread: the inner run takes the thread and gives it back as it was. */
    @Test
    void anAgentRunInsideAToolOnTheRunsThreadGivesTheThreadBackAsItWas() throws Exception {
        Recording innerModel = new Recording(false, ScriptedModel.text("inner answer"));
        Agent inner = agent(innerModel).build();
        List<String> namesAroundInner = new CopyOnWriteArrayList<>();
        Tool delegate = Tool.builder("delegate").description("Asks another agent.").abortsOnInterrupt(true)
                .handler((args, ctx) -> {
                    namesAroundInner.add(Thread.currentThread().getName());
                    RunResult innerResult = inner.run("inner goal");
                    namesAroundInner.add(Thread.currentThread().getName());
                    return innerResult.answer();
                }).build();
        Recording outerModel = new Recording(false, ScriptedModel.toolCalls(ScriptedModel.call("delegate", "{}")),
                ScriptedModel.text("outer answer"));
        AtomicReference<Thread> caller = new AtomicReference<>();
        Seen seen = onVirtualThread(() -> agent(outerModel).tools(delegate).build().run("go"), caller);

        assertThat(seen.result().status()).isEqualTo(RunStatus.SUCCEEDED);
        String outerName = "rein-run-" + seen.result().runId();
        assertThat(namesAroundInner).containsExactly(outerName, outerName);
        assertThat(innerModel.threads).containsExactly(caller.get());
        assertThat(innerModel.names).singleElement().isNotEqualTo(outerName).asString().startsWith("rein-run-");
        assertThat(seen.nameAfter()).isEqualTo("caller");
        assertThat(seen.interruptedAfter()).isFalse();
    }

    @Test
    void aReplyFromAVirtualCallerRunsOnItsThreadToo() throws Exception {
        Recording model = new Recording(false, ScriptedModel.text("first answer"), ScriptedModel.text("second answer"));
        Agent agent = agent(model).build();
        RunResult first = agent.run("go");
        AtomicReference<Thread> caller = new AtomicReference<>();
        Seen seen = onVirtualThread(() -> agent.reply(first.runId(), "and then?"), caller);

        assertThat(seen.result().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(seen.result().answer()).isEqualTo("second answer");
        assertThat(model.threads.get(1)).isSameAs(caller.get());
    }
}
