package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.cli.demo.DemoScripts;
import dev.rein.model.ToolUseBlock;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.builtin.BuiltinTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoTest {
    private static RunResult hundredDaysAt(String instant) {
        DemoScripts.Demo demo = DemoScripts.hundredDays();
        Clock clock = Clock.fixed(Instant.parse(instant), ZoneOffset.UTC);
        return Agent.builder().model(demo.model()).tools(BuiltinTools.all(clock)).build().run(demo.goal());
    }

    @Test
    void theWorkedExampleAnswersFromTheRealToolResults() {
        // 2026-10-01 in Tokyo is day 274; + 100 = day 374, i.e. 2027-01-09, across the year end.
        RunResult result = hundredDaysAt("2026-10-01T03:00:00Z");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).contains("今日(2026年10月1日(木)、Asia/Tokyo)から100日後は、2027年1月9日(土)です。");
        assertThat(result.steps()).isEqualTo(3);
    }

    @Test
    void theDateIsTokyosEvenWhenUtcIsStillOnTheDayBefore() {
        // 20:00 UTC on 31 December is already 1 January in Tokyo: day 1 + 100 = 11 April 2027.
        RunResult result = hundredDaysAt("2026-12-31T20:00:00Z");
        assertThat(result.answer()).contains("2027年1月1日(金)").contains("2027年4月11日(日)");
    }

    @Test
    void theParallelDemoProposesFourCallsInOneResponse() {
        DemoScripts.Demo demo = DemoScripts.parallelCalls();
        ScriptedModel model = demo.model();
        RunResult result = Agent.builder().model(model).tools(BuiltinTools.all()).build().run(demo.goal());
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.history().get(1).content()).filteredOn(ToolUseBlock.class::isInstance).hasSize(4);
        assertThat(result.answer()).contains("Tokyo: ").contains("London: ").contains("New York: ").contains("1234 × 5678 = 7006652");
    }

    @Test
    void demoCommandLabelsTheScriptedModelAndWritesTheTrace(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("demo.jsonl");
        InProcessCli.Outcome outcome = new InProcessCli().run("demo", "--trace", trace.toString());

        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(outcome.stdout()).contains("a SCRIPTED model plays the LLM: no API key").contains("answer (scripted model):")
                .contains("trace of both runs (one JSON event per line): " + trace);
        LocalDate target = LocalDate.now(ZoneId.of("Asia/Tokyo")).plusDays(100);
        assertThat(outcome.stdout()).contains(target.getMonthValue() + "月" + target.getDayOfMonth() + "日");
        assertThat(Files.readAllLines(trace)).filteredOn(line -> line.contains("\"type\":\"run_finished\"")).hasSize(2);
    }
}
