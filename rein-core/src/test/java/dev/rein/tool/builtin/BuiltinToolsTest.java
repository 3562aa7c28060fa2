package dev.rein.tool.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.json.Json;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.ErrorClass;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolContext;
import dev.rein.tool.ToolExecutor;
import dev.rein.tool.ToolRegistry;
import dev.rein.tool.ToolResult;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class BuiltinToolsTest {
    // The calculator with a 30 s cap instead of 1 s: a test's timing must not depend on the machine's
    // load (CalculatorLimitsTest tests the cap itself).
    private final ToolExecutor executor = ToolExecutor.builder(ToolRegistry.of(
            BuiltinTools.currentTime(Clock.fixed(Instant.parse("2026-12-01T01:05:11Z"), ZoneOffset.UTC)),
            BuiltinTools.calculate(new Calculator(Calculator.Limits.DEFAULT.withTimeLimit(java.time.Duration.ofSeconds(30))))))
            .build();

    private ToolResult run(String tool, String args) throws InterruptedException {
        return executor.execute(new ToolCall("c", tool, Json.parse(args), 0), ToolContext.standalone("c"));
    }

    @Test
    void currentTimeInAZone() throws Exception {
        ToolResult r = run("get_current_time", "{\"timezone\":\"Asia/Tokyo\"}");
        assertThat(r.isError()).isFalse();
        assertThat(r.content()).isEqualTo("2026-12-01T10:05:11+09:00[Asia/Tokyo] (Tuesday)");
        assertThat(r.source()).isEqualTo("system-clock");
        assertThat(run("get_current_time", "{}").content()).startsWith("2026-12-01T01:05:11Z");
    }

    @Test
    void withoutAClockOfItsOwnTheClockToolReadsTheRunsClock() throws Exception {
        // issue 10: all time comes from the agent's Clock; BuiltinTools.all() read the system clock instead
        Instant fixed = Instant.parse("2020-01-02T03:04:05Z");
        ScriptedModel model = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("get_current_time", "{}")),
                ScriptedModel.text("done"));
        RunResult result = Agent.builder().model(model).tools(BuiltinTools.all()).clock(Clock.fixed(fixed, ZoneOffset.UTC))
                .build().run("what time is it?");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(((dev.rein.model.ToolResultBlock) model.lastRequest().messages().get(2).content().get(0)).content()).contains("2020-01-02T03:04:05Z (Thursday)");
    }

    @Test
    void anUnknownZoneIsAnErrorResultNamingIt() throws Exception {
        ToolResult r = run("get_current_time", "{\"timezone\":\"Mars/Olympus\"}");
        assertThat(r.isError()).isTrue();
        assertThat(r.content()).contains("Mars/Olympus").contains("Asia/Tokyo");
    }

    @Test
    void calculateAndItsRefusals() throws Exception {
        assertThat(run("calculate", "{\"expression\":\"(1200 - 350) * 1.1\"}").content()).isEqualTo("935");
        for (String refused : List.of("9**9**9", "10**10**10", "1/0")) {
            ToolResult r = run("calculate", "{\"expression\":\"" + refused + "\"}");
            assertThat(r.isError()).as(refused).isTrue();
            assertThat(r.errorClass()).isEqualTo(ErrorClass.EXECUTION_FAILED);
            assertThat(r.content()).startsWith("Cannot calculate: ");
        }
        assertThat(run("calculate", "{\"expression\":\"" + "(".repeat(10_000) + "1" + ")".repeat(10_000) + "\"}").isError()).isTrue();
        assertThat(run("calculate", "{\"expression\":\"" + "1+".repeat(50_000) + "1\"}").content()).contains("limit");
    }

    @Test
    void bothRunOnTheCallersThread() {
        // Neither waits, and the calculator stops once interrupted: no thread of their own per call.
        assertThat(BuiltinTools.all(Clock.systemUTC())).allSatisfy(tool -> assertThat(tool.abortsOnInterrupt()).as(tool.name()).isTrue());
    }

    @Test
    void toolsCanBePickedByName() {
        assertThat(BuiltinTools.named(List.of("calculate"), Clock.systemUTC())).extracting(t -> t.name()).containsExactly("calculate");
        assertThatThrownBy(() -> BuiltinTools.named(List.of("search"), Clock.systemUTC()))
                .isInstanceOf(ReinException.class).hasMessageContaining("'search'").hasMessageContaining("calculate");
    }
}
