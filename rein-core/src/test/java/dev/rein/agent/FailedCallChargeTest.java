package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.budget.Budget;
import dev.rein.json.Json;
import dev.rein.model.Model;
import dev.rein.model.ModelException;
import dev.rein.model.Usage;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.retry.RetryPolicy;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The usage a provider reported for a failed call (which it bills) is charged to the run's budget,
 * each attempt once, retried ones too; the trace records it, and a replay spends the same.
 */
class FailedCallChargeTest {
    private Tool search() {
        return Tool.builder("search").description("Searches.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}")
                .handler((args, ctx) -> "result for " + args.get("q").asText())
                .build();
    }

    private Agent.Builder agent(Model model) {
        return Agent.builder().model(model).systemPrompt("You research.").tools(search())
                .retryPolicy(new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(2), 0));
    }

    private static ModelException failed(boolean retryable, Usage usage) {
        return new ModelException(ModelException.Kind.SERVER_ERROR, 0, "the response ended with finish_reason error",
                retryable, null, "req_1", null, usage);
    }

    private static List<JsonNode> events(Path trace, String type) throws Exception {
        return Files.readAllLines(trace).stream().map(Json::parse).filter(e -> type.equals(e.path("type").asText())).toList();
    }

    @Test
    void aRetriedAttemptsReportedUsageIsChargedAndARunItsUsageStoppedReplaysIdentically(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        Budget budget = Budget.builder().maxInputTokens(1000L).build();
        // 900 input tokens billed for the failed attempt and 100 for the retry's answer reach the limit: no step 2
        RunResult recorded = agent(ScriptedModel.of(ScriptedModel.fail(failed(true, Usage.of(900, 0, 0, 0))),
                toolCalls(call("search", "{\"q\":\"a\"}")), text("summary: a")))
                .budget(budget).listener(JsonlTraceListener.to(trace)).build().run("research");

        assertThat(recorded.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(recorded.usage().inputTokens()).isEqualTo(900 + 100 + 100); // the attempt, the step, the summary
        assertThat(recorded.costUsd()).isEqualByComparingTo("0.0039"); // 1100 input at $3/M, 40 output at $15/M
        JsonNode retry = events(trace, "model_retry").get(0);
        assertThat(retry.path("usage").path("input_tokens").asLong()).isEqualTo(900);
        assertThat(retry.path("cost_usd").decimalValue()).isEqualByComparingTo("0.0027");

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of()).budget(budget).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.result().status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(report.result().usage()).isEqualTo(recorded.usage());
        assertThat(report.result().costUsd()).isEqualByComparingTo(recorded.costUsd());
    }

    @Test
    void aCallThatFailedForGoodIsChargedItsReportedUsageAndReplaysTheSame(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        RunResult recorded = agent(ScriptedModel.of(toolCalls(call("search", "{\"q\":\"a\"}")),
                ScriptedModel.fail(failed(false, Usage.of(500, 40, 0, 0)))))
                .listener(JsonlTraceListener.to(trace)).build().run("research");

        assertThat(recorded.status()).isEqualTo(RunStatus.FAILED);
        assertThat(recorded.reason()).isEqualTo("provider_error");
        assertThat(recorded.usage()).isEqualTo(Usage.of(600, 60, 0, 0));
        // 600 input at $3/M and 60 output at $15/M
        assertThat(recorded.costUsd()).isEqualByComparingTo(new BigDecimal("0.0018").add(new BigDecimal("0.0009")));
        JsonNode failedEvent = events(trace, "model_failed").get(0);
        assertThat(failedEvent.path("usage").path("input_tokens").asLong()).isEqualTo(500);
        assertThat(failedEvent.path("cost_usd").decimalValue()).isEqualByComparingTo("0.0021");
        assertThat(failedEvent.path("total_cost_usd").decimalValue()).isEqualByComparingTo(recorded.costUsd());

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of()).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.result().usage()).isEqualTo(recorded.usage());
        assertThat(report.result().costUsd()).isEqualByComparingTo(recorded.costUsd());
    }

    @Test
    void aFailureWithoutReportedUsageChargesNothingAndIsTracedAsBefore(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        RunResult recorded = agent(ScriptedModel.of(ScriptedModel.fail(failed(true, Usage.NOT_REPORTED)),
                ScriptedModel.fail(failed(false, null))))
                .listener(JsonlTraceListener.to(trace)).build().run("research");

        assertThat(recorded.usage()).isEqualTo(Usage.ZERO);
        for (JsonNode e : List.of(events(trace, "model_retry").get(0), events(trace, "model_failed").get(0))) {
            assertThat(e.has("usage")).as(e.toString()).isFalse();
            assertThat(e.has("cost_usd")).as(e.toString()).isFalse();
            assertThat(e.has("total_cost_usd")).as(e.toString()).isFalse();
        }
    }
}
