package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.model.ToolResultBlock;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.ErrorClass;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.trace.TraceEvent;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 2's budgets in combination with the rest of a step: approvals, parallel reads that use up
 * the time, and the trace of each ending.
 */
class BudgetCombinationsTest {
    private final RecordingListener trace = new RecordingListener();

    @Test
    void aWriteProposedWithAReadThatUsedUpTheDeadlineIsNotPutToAPerson() {
        AtomicInteger sent = new AtomicInteger();
        Tool send = Tool.builder("send").description("Sends.").risk(Risk.WRITE).handler((a, c) -> "sent " + sent.incrementAndGet())
                .build();
        Tool hang = Tool.builder("hang").description("Hangs.").handler((a, c) -> {
            Thread.sleep(60_000);
            return "never";
        }).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("hang", "{}"), call("send", "{}")), text("never"));
        Agent agent = Agent.builder().model(model).tools(hang, send).store(new InMemoryRunStore()).listener(trace)
                .budget(Budget.builder().maxDuration(Duration.ofSeconds(1)).build()).build();

        RunResult result = agent.run("go");

        // the read ran until the deadline; asking a person about the write would only lead to a resume
        // that cannot run it ("the run's deadline has passed"), so the run stops on its deadline now
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("deadline");
        assertThat(result.pendingApprovals()).isEmpty();
        assertThat(trace.events(TraceEvent.ApprovalRequested.class)).isEmpty();
        assertThat(sent).hasValue(0);
        assertThat(model.requests()).hasSize(1);
        // every call of the step still has its result, in call order, the write's saying why it did not run
        var results = result.history().get(result.history().size() - 1).content();
        assertThat(results).extracting(b -> ((ToolResultBlock) b).toolUseId()).containsExactly("toolu_1_1", "toolu_1_2");
        ToolResultBlock write = (ToolResultBlock) results.get(1);
        assertThat(write.isError()).isTrue();
        assertThat(write.content()).contains("deadline has passed").contains("'send' was not called");
        assertThat(trace.events(TraceEvent.ToolCompleted.class)).filteredOn(e -> e.tool().equals("send")).singleElement()
                .satisfies(e -> assertThat(e.errorClass()).isEqualTo(ErrorClass.TIMEOUT.name()));
        // the read ran (and was stopped); the write, never called, is not a call made
        assertThat(result.answer()).contains("Tool calls made: 1 (hang), 1 of them failed.")
                .contains("Tool calls refused before they ran: 1 (send).");
    }

    @Test
    void aDeadlineReachedDuringAModelCallIsTracedAsABudgetStopLikeOneReachedBetweenSteps() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"東京\"}")), ScriptedModel.hang());
        RunResult result = Agent.builder().model(model).tools(TestTools.echo()).listener(trace)
                .budget(Budget.builder().maxDuration(Duration.ofSeconds(1)).build()).build().run("go");

        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("deadline");
        // the budget stop is an intervention of kind budget naming the deadline (the live view's "! budget",
        // OpenTelemetry's rein.budget.stop), as when the deadline is found between steps or after a tool
        assertThat(trace.events(TraceEvent.Intervention.class)).singleElement().satisfies(i -> {
            assertThat(i.kind()).isEqualTo("budget");
            assertThat(i.evidence()).containsEntry("budget", "deadline");
            assertThat(i.message()).isEqualTo(result.message());
        });
        var types = trace.events().stream().map(e -> e.getClass().getSimpleName()).toList();
        assertThat(types.subList(types.size() - 3, types.size())).containsExactly("Intervention", "StateChanged", "RunFinished");
    }

    @Test
    void theJsonlTraceOfAParallelStepAtTheStepLimitHoldsEveryEventTheDocsNameInOrder(@TempDir Path dir) throws Exception {
        // probe (passes): README's Trace and docs/cli.md's field list, for one step with a timeout, a thrown Error,
        // an unknown tool and invalid arguments among valid calls, at the step limit, then the summary
        Path file = dir.resolve("trace.jsonl");
        Tool slow = Tool.builder("slow").description("Hangs.").timeout(Duration.ofMillis(200)).handler((a, c) -> {
            Thread.sleep(60_000);
            return "never";
        }).build();
        Tool err = Tool.builder("err").description("Throws an Error.").handler((a, c) -> {
            throw new AssertionError("壊れた");
        }).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"東京 🌸\"}"), call("slow", "{}"), call("err", "{}"),
                call("nope", "{}"), call("echo", "{\"text\":5}")), text("要約: 東京は晴れ"));
        RunResult result = Agent.builder().model(model).tools(TestTools.echo(), slow, err)
                .listener(dev.rein.trace.JsonlTraceListener.to(file))
                .budget(Budget.builder().maxSteps(1).build()).build().run("東京の天気は？");

        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("max_steps");
        assertThat(result.answer()).isEqualTo("要約: 東京は晴れ");
        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            JsonNode node = Json.parse(line);
            for (String field : List.of("type", "run_id", "step", "time")) {
                assertThat(node.has(field)).as(field + " in " + line).isTrue();
            }
            assertThat(node.path("run_id").asText()).isEqualTo(result.runId());
            lines.add(node);
        }
        List<String> types = lines.stream().map(n -> n.path("type").asText()).toList();
        assertThat(types.get(0)).isEqualTo("run_started");
        assertThat(lines.get(0).path("goal").asText()).isEqualTo("東京の天気は？");
        assertThat(lines.get(0).path("tools")).hasSize(3);
        assertThat(lines.get(0).path("limits").path("max_steps").asInt()).isEqualTo(1);
        assertThat(types.subList(types.size() - 5, types.size()))
                .containsExactly("intervention", "model_request", "model_response", "state_change", "run_finished");
        JsonNode summaryRequest = lines.get(types.size() - 4);
        assertThat(summaryRequest.path("purpose").asText()).isEqualTo("final_summary");
        assertThat(summaryRequest.path("request").path("tool_choice").path("type").asText()).isEqualTo("none");
        assertThat(summaryRequest.path("request").path("tools")).hasSize(3);
        JsonNode response = lines.get(types.size() - 3);
        assertThat(response.has("usage")).isTrue();
        assertThat(response.has("cost_usd")).isTrue();
        assertThat(response.has("total_cost_usd")).isTrue();
        JsonNode finished = lines.get(types.size() - 1);
        assertThat(finished.path("status").asText()).isEqualTo("STOPPED_BUDGET");
        assertThat(finished.path("answer").asText()).isEqualTo("要約: 東京は晴れ");
        // one tool_result per call, each with the fields the docs name; tool_call only for the calls that passed validation
        Map<String, JsonNode> results = new LinkedHashMap<>();
        lines.stream().filter(n -> n.path("type").asText().equals("tool_result")).forEach(n -> results.put(n.path("call_id").asText(), n));
        assertThat(results.keySet()).containsExactlyInAnyOrder("toolu_1_1", "toolu_1_2", "toolu_1_3", "toolu_1_4", "toolu_1_5");
        for (JsonNode r : results.values()) {
            for (String field : List.of("tool", "content", "is_error", "error_class", "source", "duration_millis", "risk")) {
                assertThat(r.has(field)).as(field + " in " + r).isTrue();
            }
        }
        assertThat(results.get("toolu_1_1").path("content").asText()).isEqualTo("echo: 東京 🌸");
        assertThat(results.get("toolu_1_2").path("error_class").asText()).isEqualTo("TIMEOUT");
        assertThat(results.get("toolu_1_3").path("content").asText()).contains("AssertionError").contains("壊れた");
        assertThat(results.get("toolu_1_4").path("error_class").asText()).isEqualTo("UNKNOWN_TOOL");
        assertThat(results.get("toolu_1_4").path("risk").isNull()).isTrue();
        assertThat(results.get("toolu_1_5").path("error_class").asText()).isEqualTo("INVALID_ARGUMENTS");
        assertThat(lines.stream().filter(n -> n.path("type").asText().equals("tool_call")).map(n -> n.path("call_id").asText()))
                .containsExactly("toolu_1_1", "toolu_1_2", "toolu_1_3");
        // the model got every result in call order in one user message
        var blocks = model.lastRequest().messages().get(2).content();
        assertThat(blocks.subList(0, 5)).extracting(b -> ((ToolResultBlock) b).toolUseId())
                .containsExactly("toolu_1_1", "toolu_1_2", "toolu_1_3", "toolu_1_4", "toolu_1_5");
    }
}
