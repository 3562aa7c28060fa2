package dev.rein.agent;

import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.run.Verdict;
import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.internal.context.HistoryValidator;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.stall.ConsecutiveErrors;
import dev.rein.stall.ExactRepeat;
import dev.rein.stall.StallPolicy;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolOutput;
import dev.rein.trace.TraceEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StallGuardLoopTest {
    private final RecordingListener trace = new RecordingListener();
    private final AtomicInteger searches = new AtomicInteger();
    private final AtomicInteger polls = new AtomicInteger();

    private Tool search() {
        return Tool.builder("search").description("Searches.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}")
                .handler((args, ctx) -> "hits for " + args.get("q").asText() + " #" + searches.incrementAndGet())
                .build();
    }

    private Tool status() {
        return Tool.builder("job_status").description("Status of a job.").polling(true)
                .handler((args, ctx) -> polls.incrementAndGet() < 8 ? "running" : "done")
                .build();
    }

    private Tool broken() {
        return Tool.builder("fetch").description("Fails.").handler((args, ctx) -> ToolOutput.error("HTTP 503 from upstream")).build();
    }

    private Agent.Builder agent(ScriptedModel model) {
        return Agent.builder().model(model).tools(search(), status(), broken()).listener(trace)
                .budget(Budget.builder().maxSteps(60).build());
    }

    private static ToolResultBlock resultOf(Message message, int index) {
        return (ToolResultBlock) message.content().get(index);
    }

    @Test
    void repeatedCallsAreNotRunTheModelIsToldWhyAndTheRunStopsAsStalled() {
        ScriptedModel.Turn same = toolCalls(call("search", "{\"q\":\"rein\"}"));
        ScriptedModel model = ScriptedModel.of(same, same, same, toolCalls(call("search", "{ \"q\" : \"rein\" }")), same, text("never"));

        RunResult result = agent(model).build().run("find rein");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo(Reasons.STALLED);
        assertThat(result.message()).contains("exact_repeat").contains("warned 2 times");
        assertThat(searches).as("calls 3, 4 and 5 never reached the handler").hasValue(2);
        assertThat(model.remaining()).isEqualTo(1);

        ToolResultBlock third = resultOf(model.requests().get(3).messages().get(6), 0);
        assertThat(third.isError()).isTrue();
        assertThat(third.content()).startsWith("[rein]").contains("3 times").contains("was not run").contains("finish");
        assertThat(HistoryValidator.problems(result.history())).isEmpty();
        ToolResultBlock last = resultOf(result.history().get(result.history().size() - 1), 0);
        assertThat(last.content()).startsWith("[rein] Not run: the run is being stopped");

        assertThat(trace.events(TraceEvent.StallDetected.class)).extracting(TraceEvent.StallDetected::action)
                .containsExactly("blocked", "blocked", "stopped");
        assertThat(trace.events(TraceEvent.StallDetected.class)).allSatisfy(e -> {
            assertThat(e.detector()).isEqualTo(ExactRepeat.NAME);
            assertThat(e.callId()).isNotNull();
            assertThat(e.evidence()).containsEntry("tool", "search");
        });
        assertThat(trace.events(TraceEvent.ToolCalled.class)).hasSize(2);
        assertThat(trace.events(TraceEvent.StateChanged.class).get(1).reason()).isEqualTo("stalled");
    }

    @Test
    void aBlockedCallInAParallelResponseDoesNotStopTheOthers() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("search", "{\"q\":\"a\"}"), call("search", "{\"q\":\"a\"}"), call("search", "{\"q\":\"a\"}"),
                        call("search", "{\"q\":\"b\"}")),
                text("done"));
        RunResult result = agent(model).build().run("go");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(searches).hasValue(3);
        Message results = model.requests().get(1).messages().get(2);
        assertThat(results.content()).hasSize(4);
        assertThat(resultOf(results, 2).isError()).isTrue();
        assertThat(resultOf(results, 3).content()).contains("\nhits for b");
        assertThat(HistoryValidator.problems(model.requests().get(1).messages())).isEmpty();
    }

    @Test
    void changedArgumentsAndPollingAreNotStalls() {
        List<ScriptedModel.Turn> turns = new ArrayList<>();
        turns.add(toolCalls(call("search", "{\"q\":\"rein loop\"}")));
        turns.add(toolCalls(call("search", "{\"q\":\"rein loop guards\"}")));
        turns.add(toolCalls(call("search", "{\"q\":\"rein stall detection design\"}")));
        for (int i = 0; i < 8; i++) {
            turns.add(toolCalls(call("job_status", "{}")));
        }
        turns.add(text("the job is done"));
        RunResult result = agent(ScriptedModel.of(turns)).build().run("go");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(polls).hasValue(8);
        assertThat(trace.events(TraceEvent.StallDetected.class)).isEmpty();
    }

    @Test
    void aLongVariedRunTripsNoGuard() {
        List<ScriptedModel.Turn> turns = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            turns.add(i % 7 == 6
                    ? toolCalls(call("job_status", "{}"), call("search", "{\"q\":\"topic " + i + "\"}"))
                    : toolCalls("step " + i, call("search", "{\"q\":\"subject " + (char) ('a' + i % 26) + " volume " + i + "\"}")));
        }
        turns.add(text("report"));
        RunResult result = agent(ScriptedModel.of(turns)).build().run("research");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.steps()).isEqualTo(51);
        assertThat(trace.events(TraceEvent.StallDetected.class)).isEmpty();
        assertThat(trace.events(TraceEvent.Intervention.class)).isEmpty();
    }

    @Test
    void guardsFiringInOneStepEachReachTheModelInOrderAndTheTrace() {
        // step 5: a third identical call (blocked before it ran), a fifth error in a row and a fifth step
        // with nothing new (both warned after the step), with an evaluation prompt: the results in call
        // order, then the warnings in the policy's detector order, then the prompt
        String same = "{\"attempt\":\"same\"}";
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("fetch", same)), toolCalls(call("fetch", same)),
                toolCalls(call("fetch", "{\"attempt\":3}")), toolCalls(call("fetch", "{\"attempt\":4}")),
                toolCalls(call("fetch", "{\"attempt\":5}"), call("fetch", same)),
                text("The upstream keeps failing with HTTP 503."));
        RunResult result = agent(model).reflection(dev.rein.reflection.Reflection.evaluateEachStep()).build().run("fetch it");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        List<Message> sent = model.requests().get(5).messages();
        List<ToolUseBlock> uses = sent.get(sent.size() - 2).toolUses();
        List<ContentBlock> after = sent.get(sent.size() - 1).content();
        assertThat(after).hasSize(5);
        assertThat(resultOf(sent.get(sent.size() - 1), 0).toolUseId()).isEqualTo(uses.get(0).id());
        assertThat(resultOf(sent.get(sent.size() - 1), 0).content()).contains("HTTP 503");
        assertThat(resultOf(sent.get(sent.size() - 1), 1).toolUseId()).isEqualTo(uses.get(1).id());
        assertThat(resultOf(sent.get(sent.size() - 1), 1).isError()).isTrue();
        assertThat(resultOf(sent.get(sent.size() - 1), 1).content()).startsWith("[rein] You have called 'fetch' with these exact arguments 3 times");
        assertThat(((TextBlock) after.get(2)).text()).startsWith("[rein] The last 5 steps produced nothing new");
        assertThat(((TextBlock) after.get(3)).text()).startsWith("[rein] The last 5 tool calls failed");
        assertThat(((TextBlock) after.get(4)).text()).startsWith("[rein] Before your next action, evaluate");
        List<TraceEvent.StallDetected> stalls = trace.events(TraceEvent.StallDetected.class);
        assertThat(stalls).extracting(TraceEvent.StallDetected::detector, TraceEvent.StallDetected::action, TraceEvent.StallDetected::callId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(ExactRepeat.NAME, "blocked", uses.get(1).id()),
                        org.assertj.core.groups.Tuple.tuple(dev.rein.stall.NoProgress.NAME, "warned", null),
                        org.assertj.core.groups.Tuple.tuple(ConsecutiveErrors.NAME, "warned", null));
        assertThat(trace.events(TraceEvent.Intervention.class)).filteredOn(e -> e.kind().equals("reflection")).hasSize(5);
        assertThat(HistoryValidator.problems(result.history())).isEmpty();
    }

    @Test
    void twoGuardsThatStopTheRunInOneStepAreBothInTheTraceAndTheFirstInPolicyOrderNamesTheStop() {
        // every call fails with the same text: from step 5 no_progress and consecutive_errors fire
        // together, warned at steps 5 and 6; at step 7 each has its third finding and would stop the run
        List<ScriptedModel.Turn> turns = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            turns.add(toolCalls(call("fetch", "{\"attempt\":" + i + "}")));
        }
        ScriptedModel model = ScriptedModel.of(turns);
        RunResult result = agent(model).build().run("fetch it");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo(Reasons.STALLED);
        assertThat(result.steps()).isEqualTo(7);
        assertThat(result.message()).contains(dev.rein.stall.NoProgress.NAME);
        assertThat(trace.events(TraceEvent.StallDetected.class))
                .extracting(TraceEvent.StallDetected::detector, TraceEvent.StallDetected::action, TraceEvent.StallDetected::occurrence)
                .as("every detection is a trace event, also the one that did not get to name the stop")
                .containsExactly(org.assertj.core.groups.Tuple.tuple(dev.rein.stall.NoProgress.NAME, "warned", 1),
                        org.assertj.core.groups.Tuple.tuple(ConsecutiveErrors.NAME, "warned", 1),
                        org.assertj.core.groups.Tuple.tuple(dev.rein.stall.NoProgress.NAME, "warned", 2),
                        org.assertj.core.groups.Tuple.tuple(ConsecutiveErrors.NAME, "warned", 2),
                        org.assertj.core.groups.Tuple.tuple(dev.rein.stall.NoProgress.NAME, "stopped", 3),
                        org.assertj.core.groups.Tuple.tuple(ConsecutiveErrors.NAME, "stopped", 3));
        List<TraceEvent.StateChanged> states = trace.events(TraceEvent.StateChanged.class);
        assertThat(states.get(states.size() - 1).reason()).isEqualTo(Reasons.STALLED);
        assertThat(HistoryValidator.problems(result.history())).isEmpty();
    }

    @Test
    void consecutiveErrorsWarnAfterTheResultsThenStopTheRun() {
        List<ScriptedModel.Turn> turns = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            turns.add(toolCalls(call("fetch", "{\"attempt\":" + i + "}")));
        }
        StallPolicy onlyErrors = StallPolicy.builder().withoutAll().consecutiveErrors(5).build();
        ScriptedModel model = ScriptedModel.of(turns);
        RunResult result = agent(model).stallPolicy(onlyErrors).build().run("fetch it");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo(Reasons.STALLED);
        assertThat(result.steps()).isEqualTo(7);
        List<ContentBlock> fifth = model.requests().get(5).messages().get(10).content();
        assertThat(fifth).hasSize(2);
        assertThat(fifth.get(0)).isInstanceOf(ToolResultBlock.class);
        assertThat(fifth.get(1)).isInstanceOfSatisfying(TextBlock.class,
                t -> assertThat(t.text()).startsWith("[rein] The last 5 tool calls failed"));
        assertThat(trace.events(TraceEvent.StallDetected.class)).extracting(TraceEvent.StallDetected::action)
                .containsExactly("warned", "warned", "stopped");
        assertThat(trace.events(TraceEvent.StallDetected.class)).allSatisfy(e -> {
            assertThat(e.detector()).isEqualTo(ConsecutiveErrors.NAME);
            assertThat(e.callId()).isNull();
        });
        assertThat(HistoryValidator.problems(result.history())).isEmpty();
    }

    @Test
    void stallDetectionCanBeTurnedOff() {
        ScriptedModel.Turn same = toolCalls(call("search", "{\"q\":\"rein\"}"));
        RunResult result = agent(ScriptedModel.of(same, same, same, same, same, text("ok")))
                .stallPolicy(StallPolicy.disabled()).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(searches).hasValue(5);
    }

    @Test
    void aRunResumedFromAStoredHistoryKeepsItsStallCounts() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("search", "{\"q\":\"rein\"}")), text("fine"));
        Agent agent = agent(model).build();
        Run run = Run.start("run_resumed", "find rein", agent.config());
        for (int i = 1; i <= 2; i++) {
            run.append(Message.assistant(List.of(new ToolUseBlock("old_" + i, "search", Json.parse("{\"q\":\"rein\"}")))));
            run.append(Message.user(List.of(new ToolResultBlock("old_" + i, "hits for rein", false))));
        }

        RunResult result = new AgentLoop(run).run();

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(searches).as("the third identical call overall was refused").hasValue(0);
        assertThat(trace.events(TraceEvent.StallDetected.class)).singleElement()
                .satisfies(e -> assertThat(e.evidence()).containsEntry("count", 3));
    }

    @Test
    void theFinishToolIsLeftToTheVerifiers() {
        ScriptedModel.Turn finish = toolCalls(call("finish", "{\"status\":\"completed\",\"summary\":\"s\",\"result\":\"r\"}"));
        RunResult result = agent(ScriptedModel.of(finish, finish, finish)).finishTool(true).maxVerificationFailures(3)
                .verifier(answer -> Verdict.fail("not yet")).build().run("go");
        assertThat(result.reason()).isEqualTo(Reasons.VERIFICATION_FAILED);
        assertThat(trace.events(TraceEvent.StallDetected.class)).isEmpty();
    }

    @Test
    void theDefaultPolicyIsOnForEveryAgent() {
        assertThat(Agent.builder().model(ScriptedModel.of()).build().config().guards().stall().detectorNames()).hasSize(6);
    }

    /**
     * A custom detector's evidence need not name the tool, but the trace's StallDetected does, so a tracer can name the
     * blocked call's tool (gen_ai.tool.name, which the GenAI conventions require on an execute_tool span).
     */
    @Test
    void aBlockedCallsTraceNamesItsToolWhenTheDetectorsEvidenceDoesNot() {
        dev.rein.stall.StallDetector quiet = new dev.rein.stall.StallDetector() {
            @Override
            public String name() {
                return "quiet";
            }

            @Override
            public String defaultMessage() {
                return "Not now.";
            }

            @Override
            public java.util.Optional<java.util.Map<String, Object>> checkCall(dev.rein.stall.ProposedCall call) {
                return java.util.Optional.of(java.util.Map.of("seen", 1));
            }
        };
        ScriptedModel model = ScriptedModel.of(toolCalls(call("search", "{\"q\":\"rein\"}")), text("done"));
        agent(model).stallPolicy(dev.rein.stall.StallPolicy.builder().detector(() -> quiet).build()).build().run("find");

        assertThat(trace.events(TraceEvent.StallDetected.class)).first().satisfies(e -> {
            assertThat(e.detector()).isEqualTo("quiet");
            assertThat(e.evidence()).containsEntry("tool", "search").containsEntry("seen", 1); // before: no "tool"
        });
    }
}
