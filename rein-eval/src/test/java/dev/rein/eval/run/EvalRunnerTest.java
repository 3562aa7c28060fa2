package dev.rein.eval.run;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.eval.AgentFactory;
import dev.rein.eval.Environment;
import dev.rein.eval.FailureKind;
import dev.rein.eval.Graders;
import dev.rein.eval.Suite;
import dev.rein.eval.Task;
import dev.rein.eval.TaskCategory;
import dev.rein.eval.env.FileTreeEnvironment;
import dev.rein.eval.report.EvalReport;
import dev.rein.json.Json;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.ErrorClass;
import dev.rein.tool.Principal;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolInterceptor;
import dev.rein.tool.ToolOutcome;
import dev.rein.tool.ToolResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EvalRunnerTest {
    /** A counter world whose one tool also measures how many trials are inside a tool call at once. */
    static final class CounterEnv implements Environment {
        private final AtomicInteger active;
        private final AtomicInteger maxActive;
        private final CountDownLatch overlap;
        private int count;

        CounterEnv(AtomicInteger active, AtomicInteger maxActive, CountDownLatch overlap) {
            this.active = active;
            this.maxActive = maxActive;
            this.overlap = overlap;
        }

        @Override
        public synchronized void reset() {
            count = 0;
        }

        @Override
        public synchronized JsonNode snapshot() {
            return Json.object().put("count", count);
        }

        synchronized int count() {
            return count;
        }

        Tool bump() {
            return Tool.builder("bump").description("Adds one to the counter.")
                    .handler((args, ctx) -> {
                        int now = active.incrementAndGet();
                        maxActive.accumulateAndGet(now, Math::max);
                        try {
                            overlap.countDown();
                            // Holds the first trials until another one is inside too: proof they overlap.
                            if (!overlap.await(20, TimeUnit.SECONDS)) {
                                return "no other trial ran at the same time";
                            }
                            synchronized (this) {
                                count++;
                                return "count is now " + count;
                            }
                        } finally {
                            active.decrementAndGet();
                        }
                    })
                    .build();
        }
    }

    private static AgentFactory<CounterEnv> counterAgent() {
        return (env, model) -> Agent.builder().model(model.model()).modelName(model.name()).tools(env.bump()).build();
    }

    @Test
    void trialsRunConcurrentlyEachInItsOwnEnvironment() throws Exception {
        AtomicInteger active = new AtomicInteger();
        AtomicInteger maxActive = new AtomicInteger();
        CountDownLatch overlap = new CountDownLatch(2);
        Set<CounterEnv> instances = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        Suite suite = Suite.builder("counter").task(Task.builder("bump-once", () -> {
                    CounterEnv env = new CounterEnv(active, maxActive, overlap);
                    instances.add(env);
                    return env;
                })
                .goal("Bump the counter once.")
                .agent(counterAgent())
                .script(toolCalls(call("bump", "{}")), text("bumped"))
                .grader(Graders.<CounterEnv>outcomeWithReason("counted once", env -> env.count() == 1 ? null : "count is " + env.count()))
                .grader(Graders.answerContains("bumped"))
                .build()).build();

        EvalResult result = EvalRunner.builder().trials(16).parallelism(4).build().run(suite);

        assertThat(result.trials()).hasSize(16).allMatch(TrialOutcome::passed);
        assertThat(result.trials()).extracting(TrialOutcome::trial).containsExactlyElementsOf(
                java.util.stream.IntStream.range(0, 16).boxed().toList());
        assertThat(instances).hasSize(16);
        assertThat(result.trials()).extracting(TrialOutcome::stateHash).containsOnly(result.trials().get(0).stateHash());
        assertThat(maxActive.get()).isBetween(2, 4);
        assertThat(active.get()).isZero();
    }

    @Test
    void infrastructureErrorsAreCountedApartFromTheAgent() throws Exception {
        Map<String, String> files = Map.of("a.txt", "alpha");
        AgentFactory<FileTreeEnvironment> agent = (env, model) -> Agent.builder().model(model.model()).modelName(model.name())
                .tools(env.readTools()).build();
        Suite suite = Suite.builder("infra")
                .task(Task.builder("fine", () -> new FileTreeEnvironment(files)).goal("Read a.txt").agent(agent)
                        .script(toolCalls(call("read_file", "{\"path\":\"a.txt\"}")), text("alpha")).build())
                .task(Task.<FileTreeEnvironment>builder("environment-breaks", () -> {
                            throw new IllegalStateException("disk full");
                        }).goal("Read a.txt").agent(agent).script(text("alpha")).build())
                .task(Task.builder("agent-breaks", () -> new FileTreeEnvironment(files)).goal("Read a.txt")
                        .agent((env, model) -> {
                            throw new ReinException("no price for model 'x'");
                        }).script(text("alpha")).build())
                .task(Task.builder("script-too-short", () -> new FileTreeEnvironment(files)).goal("Read a.txt").agent(agent)
                        .script(toolCalls(call("read_file", "{\"path\":\"a.txt\"}"))).build())
                .task(Task.builder("grader-breaks", () -> new FileTreeEnvironment(files)).goal("Read a.txt").agent(agent)
                        .script(text("alpha"))
                        .grader(trial -> {
                            throw new IllegalArgumentException("bad pointer");
                        }).build())
                .task(Task.builder("harness-timeout", () -> new FileTreeEnvironment(files)).goal("Read a.txt").agent(agent)
                        .script(ScriptedModel.hang()).timeout(Duration.ofMillis(300)).build())
                .build();

        EvalResult result = EvalRunner.builder().trials(2).build().run(suite);

        assertThat(result.trialsOf("fine")).allMatch(TrialOutcome::passed);
        assertThat(result.trials().stream().filter(t -> !t.taskId().equals("fine")))
                .allMatch(t -> t.verdict() == Verdict.INFRA_ERROR && t.failureKind() == null);
        assertThat(result.trialsOf("environment-breaks").get(0).infraError())
                .isEqualTo("the environment could not be set up: IllegalStateException: disk full");
        assertThat(result.trialsOf("agent-breaks").get(0).infraError())
                .isEqualTo("the agent could not be built: ReinException: no price for model 'x'");
        assertThat(result.trialsOf("script-too-short").get(0).infraError()).startsWith("provider_error: ")
                .contains("no reply left");
        assertThat(result.trialsOf("grader-breaks").get(0).infraError()).isEqualTo("grader #2 failed: IllegalArgumentException: bad pointer");
        assertThat(result.trialsOf("harness-timeout").get(0).infraError()).contains("harness timeout of 300 ms").contains("max_seconds in a suite file");

        EvalReport.Summary s = EvalReport.of(result).summary();
        assertThat(s.trials()).isEqualTo(12);
        assertThat(s.infraErrors()).isEqualTo(10);
        assertThat(s.graded()).isEqualTo(2);
        assertThat(s.successRate()).isEqualTo(1.0);
        assertThat(s.failureKinds().values()).containsOnly(0);
        assertThat(EvalReport.of(result).tasks().get(1).metrics().passAtK()).isEmpty();
    }

    @Test
    void aGraderOrFactoryThatThrowsAnErrorIsThatTrialsInfrastructureErrorAndNoTrialIsLost() throws Exception {
        Map<String, String> files = Map.of("a.txt", "alpha");
        AgentFactory<FileTreeEnvironment> agent = (env, model) -> Agent.builder().model(model.model()).modelName(model.name())
                .tools(env.readTools()).build();
        Suite suite = Suite.builder("errors")
                .task(Task.builder("fine", () -> new FileTreeEnvironment(files)).goal("Read a.txt").agent(agent)
                        .script(text("alpha")).build())
                // an assertion library's check inside a grader fails with an AssertionError, not an exception
                .task(Task.builder("grader-asserts", () -> new FileTreeEnvironment(files)).goal("Read a.txt").agent(agent)
                        .script(text("alpha"))
                        .grader(trial -> {
                            throw new AssertionError("expected 'beta' but was 'alpha'");
                        }).build())
                .task(Task.<FileTreeEnvironment>builder("class-missing", () -> {
                            throw new NoClassDefFoundError("com/example/OrdersDb");
                        }).goal("Read a.txt").agent(agent).script(text("alpha")).build())
                .task(Task.builder("agent-asserts", () -> new FileTreeEnvironment(files)).goal("Read a.txt")
                        .agent((env, model) -> {
                            throw new AssertionError("no tools");
                        }).script(text("alpha")).build())
                .build();

        EvalResult result = EvalRunner.builder().trials(2).build().run(suite);

        assertThat(result.trials()).hasSize(8);
        assertThat(result.trialsOf("fine")).allMatch(TrialOutcome::passed);
        assertThat(result.trialsOf("grader-asserts").get(0).infraError())
                .isEqualTo("grader #2 failed: AssertionError: expected 'beta' but was 'alpha'");
        assertThat(result.trialsOf("class-missing").get(1).infraError())
                .isEqualTo("the environment could not be set up: NoClassDefFoundError: com/example/OrdersDb");
        assertThat(result.trialsOf("agent-asserts").get(0).infraError()).isEqualTo("the agent could not be built: AssertionError: no tools");
    }

    /**
     * A progress view that throws (the application's own, with a bug) is ignored as a run listener that throws is: every
     * trial still runs and is reported. Before, its exception escaped the trial's task and the evaluation failed with
     * "the evaluation harness failed", every result lost.
     */
    @Test
    void aProgressViewThatThrowsLosesNoTrial() throws Exception {
        AgentFactory<FileTreeEnvironment> agent = (env, model) -> Agent.builder().model(model.model()).modelName(model.name())
                .tools(env.readTools()).build();
        Suite suite = Suite.builder("progress").trials(3)
                .task(Task.builder("say", () -> new FileTreeEnvironment(Map.of())).goal("Say alpha").agent(agent)
                        .script(text("alpha")).build())
                .build();
        AtomicInteger finishedCalls = new AtomicInteger();
        Progress broken = new Progress() {
            @Override
            public void started(String name, int totalTrials) {
                throw new IllegalStateException("the view was not ready");
            }

            @Override
            public void trialFinished(TrialOutcome outcome, int done, int total) {
                finishedCalls.incrementAndGet();
                throw new AssertionError("the view's own check");
            }

            @Override
            public void finished() {
                throw new IllegalStateException("the view was closed");
            }
        };

        EvalResult result = EvalRunner.builder().progress(broken).build().run(suite);

        assertThat(result.trials()).hasSize(3).allMatch(TrialOutcome::passed);
        assertThat(finishedCalls).as("each trial is still reported to it").hasValue(3);
    }

    @Test
    void aTrialsDurationIsItsOwnRunNotTheTimeItWaitedForItsTurn() throws Exception {
        // one trial at a time, each about 1 s: the third waits some 2 s before it starts, which is not its duration
        AgentFactory<FileTreeEnvironment> agent = (env, model) -> Agent.builder().model(model.model()).modelName(model.name())
                .tools(env.readTools()).build();
        Suite suite = Suite.builder("durations").trials(3)
                .task(Task.builder("wait", () -> new FileTreeEnvironment(Map.of("a.txt", "alpha"))).goal("Say alpha").agent(agent)
                        .script(ScriptedModel.delayed(Duration.ofMillis(1000), text("alpha"))).build())
                .build();

        EvalResult result = EvalRunner.builder().parallelism(1).build().run(suite);

        assertThat(result.trials()).hasSize(3).allSatisfy(t -> assertThat(t.durationMs()).isGreaterThanOrEqualTo(1000L));
        // the first trial also pays for a cold start; the last one ran warm after waiting for both others
        assertThat(result.trials().get(2).durationMs()).as("the last trial's duration").isLessThan(1900L);
    }

    @Test
    void moreTrialsInAllThanCanBeCountedAreRefusedBeforeAnyStarts() {
        AgentFactory<FileTreeEnvironment> agent = (env, model) -> Agent.builder().model(model.model()).modelName(model.name())
                .tools(env.readTools()).build();
        Suite suite = Suite.builder("huge")
                .task(Task.builder("a", () -> new FileTreeEnvironment(Map.of())).goal("Say a").agent(agent).script(text("a")).build())
                .task(Task.builder("b", () -> new FileTreeEnvironment(Map.of())).goal("Say b").agent(agent).script(text("b")).build())
                .build();
        // 2 tasks x 2,000,000,000 trials overflowed the count into a negative total
        assertThatThrownBy(() -> EvalRunner.builder().trials(2_000_000_000).build().run(suite))
                .isInstanceOf(ReinException.class)
                .hasMessageContaining("2 tasks")
                .hasMessageContaining("2000000000 trials")
                .hasMessageContaining("give fewer trials");
    }

    @Test
    void aTrialsThreadStartsOnlyWhenItsTurnComes() throws Exception {
        // Before, every trial's thread was started up front and waited there for its turn: 2,000,000,000
        // trials grew the JVM past 5.8 GB. Now the trials waiting for their turn hold no thread.
        CountDownLatch inside = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        AgentFactory<FileTreeEnvironment> agent = (env, model) -> Agent.builder().model(model.model()).modelName(model.name())
                .tools(Tool.builder("hold").description("Holds.").handler((args, ctx) -> {
                    inside.countDown();
                    return release.await(20, TimeUnit.SECONDS) ? "held" : "not released";
                }).build()).build();
        Suite suite = Suite.builder("turns").trials(12)
                .task(Task.builder("hold", () -> new FileTreeEnvironment(Map.of())).goal("Hold").agent(agent)
                        .script(toolCalls(call("hold", "{}")), text("done")).build())
                .build();
        java.util.concurrent.CompletableFuture<EvalResult> running = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return EvalRunner.builder().parallelism(2).build().run(suite);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            assertThat(inside.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(trialThreads()).as("threads of trials, 2 running and none waiting for a turn").isEqualTo(2);
        } finally {
            release.countDown();
        }
        assertThat(running.get(60, TimeUnit.SECONDS).trials()).hasSize(12);
    }

    /** The live threads running a trial's task, counted in a JVM thread dump (jcmd's lists virtual threads too). */
    private static long trialThreads() throws Exception {
        java.nio.file.Path dump = java.nio.file.Files.createTempDirectory("threads").resolve("dump.txt");
        java.nio.file.Path launcher = java.nio.file.Path.of(ProcessHandle.current().info().command().orElseThrow());
        Process jcmd = new ProcessBuilder(launcher.resolveSibling("jcmd").toString(), "-J-Dsun.tools.attach.attachTimeout=120000",
                Long.toString(ProcessHandle.current().pid()), "Thread.dump_to_file", dump.toString()).redirectErrorStream(true).start();
        String said = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(jcmd.waitFor()).as(said).isZero();
        String text = java.nio.file.Files.readString(dump);
        java.nio.file.Files.delete(dump);
        java.nio.file.Files.delete(dump.getParent());
        // one stack per thread, threads separated by a blank line; a trial's task is a lambda of runAll
        return java.util.Arrays.stream(text.split("\\R\\R")).filter(stack -> stack.contains("EvalRunner.lambda$runAll")).count();
    }

    /** Denies a call unless the principal holds every scope the tool requires (a stand-in for the executor's scope check). */
    private static final ToolInterceptor SCOPES = (invocation, chain) -> {
        Principal who = invocation.context().principal();
        List<String> missing = invocation.tool().requiredScopes().stream().filter(s -> !who.hasScope(s)).sorted().toList();
        return missing.isEmpty() ? chain.proceed(invocation) : ToolOutcome.of(ToolResult.error(invocation.call(), ErrorClass.PERMISSION_DENIED,
                "Permission denied: missing scope " + String.join(", ", missing)));
    };

    @Test
    void permissionRefusalsAndSafeRefusals() throws Exception {
        Map<String, String> files = Map.of("old.log", "x");
        AgentFactory<FileTreeEnvironment> agent = (env, model) -> Agent.builder().model(model.model()).modelName(model.name())
                .tools(env.readTools()).tools(env.writeTools()).toolInterceptor(SCOPES).finishTool(true).build();
        Suite suite = Suite.builder("permissions")
                .task(Task.builder("delete-without-scope", () -> new FileTreeEnvironment(files))
                        .category(TaskCategory.PERMISSION_REFUSAL)
                        .goal("Delete old.log")
                        .agent(agent)
                        .script(toolCalls(call("delete_file", "{\"path\":\"old.log\"}")),
                                text("I may not delete files here; an administrator has to do it."))
                        .grader(Graders.mustNotCall("delete_file"))
                        .build())
                .task(Task.builder("gives-up", () -> new FileTreeEnvironment(files))
                        .goal("Summarise old.log")
                        .agent(agent)
                        .script(toolCalls(call("finish", "{\"status\":\"failed\",\"summary\":\"not sure\",\"result\":\"I cannot\"}")))
                        .build())
                .build();

        EvalResult result = EvalRunner.builder().trials(1).build().run(suite);

        TrialOutcome refused = result.trialsOf("delete-without-scope").get(0);
        assertThat(refused.verdict()).isEqualTo(Verdict.PASSED);
        assertThat(refused.toolCalls()).isEmpty();
        assertThat(refused.sideEffects()).isEmpty();
        TrialOutcome gaveUp = result.trialsOf("gives-up").get(0);
        assertThat(gaveUp.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(gaveUp.failureKind()).isEqualTo(FailureKind.WRONG_OUTCOME);
        assertThat(gaveUp.safeRefusal()).isTrue();
        EvalReport.Summary s = EvalReport.of(result).summary();
        assertThat(s.safeRefusals()).isEqualTo(1);
        assertThat(s.safeRefusalRate()).isEqualTo(0.5);
        assertThat(s.unsafe()).isZero();
    }

    @Test
    void offlineRunsNeedAScriptForEveryTask() {
        Suite suite = Suite.builder("unscripted").task(Task.builder("t", () -> new FileTreeEnvironment(Map.of()))
                .goal("anything").agent((env, model) -> Agent.builder().model(model.model()).build()).build()).build();
        assertThatThrownBy(() -> EvalRunner.builder().build().run(suite)).isInstanceOf(ReinException.class)
                .hasMessageContaining("these tasks have no script: t");
    }

    @Test
    void aRealModelIsSharedAndScriptsAreIgnored() throws Exception {
        ScriptedModel shared = ScriptedModel.of(text("one"), text("two"));
        Suite suite = Suite.builder("real").task(Task.builder("t", () -> new FileTreeEnvironment(Map.of()))
                .goal("say something").agent((env, model) -> Agent.builder().model(model.model()).modelName(model.name()).build())
                .build()).build();
        EvalResult result = EvalRunner.builder().trials(2).parallelism(1).models(TrialModels.shared(shared, "claude-haiku-4-5"))
                .build().run(suite);
        assertThat(result.model()).isEqualTo("claude-haiku-4-5");
        assertThat(result.trials()).extracting(TrialOutcome::answer).containsExactlyInAnyOrder("one", "two");
        assertThat(shared.requests()).extracting(r -> r.model()).containsOnly("claude-haiku-4-5");
    }

    @Test
    void progressPrintsPlainLinesWhenNotOnATerminal() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        Suite suite = Suite.builder("lines").task(Task.builder("t", () -> new FileTreeEnvironment(Map.of())).goal("hi")
                .agent((env, model) -> Agent.builder().model(model.model()).build()).script(text("hello")).build()).build();
        EvalRunner.builder().trials(3).progress(Progress.lines(err)).build().run(suite);
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(out).startsWith("eval lines: 3 trials\n").contains("3/3 (100%) passed 3, failed 0, unsafe 0, infra errors 0")
                .doesNotContain("\r");
        bytes.reset();
        EvalRunner.builder().trials(1).progress(Progress.lines(err)).build().run(suite);
        assertThat(bytes.toString(StandardCharsets.UTF_8)).startsWith("eval lines: 1 trial\n"); // not "1 trials"
    }

    @Test
    void progressOfMoreTrialsThanAnIntCanCountTimesAHundredShowsTheirShare() {
        // 30 million trials of 40 million done: 100 x 30,000,000 is beyond an int; the line said (-32%), and the
        // bar's 16 x 200,000,000 made it draw a negative number of marks, which threw
        TrialOutcome passed = new TrialOutcome("t", TaskCategory.SHOULD_SUCCEED, 0, Verdict.PASSED, null, false, false, "succeeded",
                "completed", "", "", 1, java.math.BigDecimal.ZERO, 1, null, List.of(), List.of(), List.of(), "run", null);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        Progress lines = Progress.lines(err);
        lines.started("big", 40_000_000);
        lines.trialFinished(passed, 30_000_000, 40_000_000);
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("30000000/40000000 (75%)");
        bytes.reset();
        Progress bar = Progress.bar(err, 120);
        bar.started("big", 200_000_000);
        bar.trialFinished(passed, 150_000_000, 200_000_000);
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("[############----] 150000000/200000000");
    }

    @Test
    void theRedrawnBarFitsAnEightyColumnTerminal() throws Exception {
        // a line longer than the terminal wraps, and a carriage return then redraws only its last row:
        // every redraw left a row behind ('files-demo [###...] 12/12  passed 7, failed 2, unsafe 1, infra errors 0' is 98)
        for (String name : List.of("files-demo", "a-suite-with-a-rather-long-name-for-its-progress-bar", "メモの検索とリリース日の確認")) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
            Suite suite = Suite.builder(name).task(Task.builder("t", () -> new FileTreeEnvironment(Map.of())).goal("hi")
                    .agent((env, model) -> Agent.builder().model(model.model()).build()).script(text("hello")).build()).build();
            EvalRunner.builder().trials(120).parallelism(4).progress(Progress.bar(err)).build().run(suite);
            String out = bytes.toString(StandardCharsets.UTF_8);
            assertThat(out).contains("120/120").contains("passed 120");
            for (String drawn : out.split("[\\r\\n]")) {
                int columns = drawn.codePoints().map(c -> c < 0x1100 ? 1 : 2).sum(); // wide (CJK) characters take two
                assertThat(columns).as("'%s'", drawn).isLessThan(80);
            }
            assertThat(out).as("the suite's name or its start is shown").contains(name.substring(0, 3));
        }
    }

    /** Before: a name was cut between code points, so the vowel sign of हि (a spacing mark) was cut off its letter. */
    @Test
    void theProgressBarCutsANameBetweenGraphemeClusters() {
        assertThat(ProgressBar.fit("a\u0939\u093F", 2)).isEqualTo("a");
        assertThat(ProgressBar.fit("a\u0939\u093F", 3)).isEqualTo("a\u0939\u093F");
        assertThat(ProgressBar.fit("\u0939\u093Fa", 1)).as("a first cluster wider than the room is cut inside").isEqualTo("\u0939");
        // rev128: an emoji sequence is one cluster of two columns, kept whole (before: half a flag at 3 columns)
        String flag = "\uD83C\uDDEF\uD83C\uDDF5";
        assertThat(ProgressBar.fit(flag + "abc", 3)).isEqualTo(flag + "a");
        assertThat(ProgressBar.fit("\uD83D\uDC68\u200D\uD83D\uDC69x", 2)).isEqualTo("\uD83D\uDC68\u200D\uD83D\uDC69");
    }

    @Test
    void theRedrawnBarFitsANarrowerTerminal() throws Exception {
        // the bar was up to 79 columns whatever the terminal's width: on 40 columns (COLUMNS=40) every redraw wrapped
        for (int width : new int[] {40, 24, 12}) {
            for (String name : List.of("files-demo", "メモの検索とリリース日の確認")) {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
                Suite suite = Suite.builder(name).task(Task.builder("t", () -> new FileTreeEnvironment(Map.of())).goal("hi")
                        .agent((env, model) -> Agent.builder().model(model.model()).build()).script(text("hello")).build()).build();
                EvalRunner.builder().trials(120).parallelism(4).progress(Progress.bar(err, width)).build().run(suite);
                String out = bytes.toString(StandardCharsets.UTF_8);
                assertThat(out).as(width + " " + name).contains("120/120");
                for (String drawn : out.split("[\\r\\n]")) {
                    int columns = drawn.codePoints().map(c -> c < 0x1100 ? 1 : 2).sum();
                    assertThat(columns).as("%d: '%s'", width, drawn).isLessThan(width);
                }
            }
        }
        assertThat(ProgressBar.columns(Map.of("COLUMNS", "40"))).isEqualTo(40);
        assertThat(ProgressBar.columns(Map.of("COLUMNS", "x"))).isEqualTo(80);
        assertThat(ProgressBar.columns(Map.of())).isEqualTo(80);
    }

    /**
     * A suite's name cut to fit the bar is cut between characters as a terminal shows them: a combining mark takes no
     * column and stays with its letter (before, each counted one column, so a cut could leave 'e' without its accent).
     */
    @Test
    void theBarCutsASuitesNameNeverBetweenALetterAndItsMark() {
        String name = "x" + "e\u0301".repeat(40);
        for (int width = 20; width <= 140; width++) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            ProgressBar bar = new ProgressBar(new PrintStream(bytes, true, StandardCharsets.UTF_8), true, width);
            bar.started(name, 3);
            String drawn = bytes.toString(StandardCharsets.UTF_8).replace("\r", "");
            String shown = drawn.startsWith("x") ? drawn.substring(0, drawn.indexOf(' ')) : ""; // the rest starts with ' '
            assertThat(shown).as("%d: '%s'", width, drawn).doesNotContainPattern("e(?!\u0301)");
        }
    }

    @Test
    void theBarIsDrawnWhenTheLauncherSaysStderrIsATerminalAndLinesWhenNot() throws Exception {
        // the JDK console knows only stdin and stdout: 'rein eval S 2> log' at a terminal wrote the redrawn bar
        // (carriage returns) into the log, and 'rein eval S > out' printed plain lines on the terminal
        boolean forced = "true".equalsIgnoreCase(System.getenv("CI")) || "dumb".equals(System.getenv("TERM"));
        String before = System.getProperty("rein.stderr.tty");
        try {
            for (boolean tty : new boolean[] {true, false}) {
                System.setProperty("rein.stderr.tty", Boolean.toString(tty));
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
                Suite suite = Suite.builder("tty").task(Task.builder("t", () -> new FileTreeEnvironment(Map.of())).goal("hi")
                        .agent((env, model) -> Agent.builder().model(model.model()).build()).script(text("hello")).build()).build();
                EvalRunner.builder().trials(2).progress(Progress.auto(err)).build().run(suite);
                String out = bytes.toString(StandardCharsets.UTF_8);
                if (tty && !forced) {
                    assertThat(out).as("stderr a terminal").startsWith("\rtty [").contains("2/2");
                } else {
                    assertThat(out).as("stderr not a terminal").doesNotContain("\r").startsWith("eval tty: 2 trials\n");
                }
            }
        } finally {
            if (before == null) {
                System.clearProperty("rein.stderr.tty");
            } else {
                System.setProperty("rein.stderr.tty", before);
            }
        }
    }

    @Test
    void trialsFinishingTogetherReachTheProgressViewWithTheirCountInOrder() throws Exception {
        // Seen in CI: "3/3 passed 2" then "2/3 passed 3", when the count was taken outside the report.
        List<Integer> seen = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        Progress recording = new Progress() {
            @Override
            public void trialFinished(TrialOutcome outcome, int done, int total) {
                Thread.yield(); // a later trial's thread may overtake here, unless the runner reports one at a time
                seen.add(done);
            }
        };
        Suite suite = Suite.builder("many").task(Task.builder("t", () -> new FileTreeEnvironment(Map.of())).goal("hi")
                .agent((env, model) -> Agent.builder().model(model.model()).build()).script(text("hello")).build()).build();
        EvalRunner.builder().trials(40).parallelism(8).progress(recording).build().run(suite);
        assertThat(seen).isEqualTo(java.util.stream.IntStream.rangeClosed(1, 40).boxed().toList());
    }

    /** A trace folder that cannot be made says why in words, not with the bare path of what is in the way. */
    @Test
    void aTraceFolderUnderAFileSaysTheFileIsInTheWay(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("runs"), "not a folder");
        Suite suite = Suite.builder("one").task(Task.builder("t", () -> new CounterEnv(new AtomicInteger(), new AtomicInteger(), new CountDownLatch(1))).goal("Bump the counter once.")
                .agent(counterAgent()).script(text("done")).build()).build();

        assertThatThrownBy(() -> EvalRunner.builder().traces(file.resolve("traces")).build().run(suite))
                .isInstanceOf(ReinException.class)
                .hasMessage("cannot create the trace folder " + file.resolve("traces") + ": " + file + " is a file, not a directory");
    }

    /**
     * A folder where a trial's trace file goes is that trial's infrastructure error saying so. Before: "the trace file
     * X could not be replaced: X", the bare path the JDK's DirectoryNotEmptyException carries.
     */
    @Test
    void aFolderWhereATraceFileGoesIsSaidToBeAFolder(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path traces = dir.resolve("トレース");
        java.nio.file.Path inTheWay = java.nio.file.Files.createDirectories(traces.resolve("t.0.jsonl"));
        java.nio.file.Files.writeString(inTheWay.resolve("keep.txt"), "x");
        Suite suite = Suite.builder("one").task(Task.builder("t", () -> new CounterEnv(new AtomicInteger(), new AtomicInteger(), new CountDownLatch(1))).goal("Bump the counter once.")
                .agent(counterAgent()).script(text("done")).build()).build();

        EvalResult result = EvalRunner.builder().trials(1).traces(traces).build().run(suite);

        assertThat(result.trialsOf("t")).singleElement().satisfies(trial -> assertThat(trial.infraError()).isEqualTo(
                "the trace file " + inTheWay + " is a folder, not a file; move it out of the trace folder " + traces));
    }
}
