package dev.rein.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.json.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * ToolExecutor.Builder is public API: a bad value is refused when it is given, with a ReinException naming the setter and
 * what to pass. Before, a null interceptor or default timeout was taken and every call then came back to the model as
 * "Tool 't' could not be run: NullPointerException", a zero timeout timed every call out, a cap of 0 or less refused every
 * call, and null maps or policies threw a bare NullPointerException.
 */
class ToolExecutorBuilderTest {
    private static final Tool TOOL = Tool.builder("t").description("d").handler((a, c) -> "ok").build();

    private static ToolExecutor.Builder builder() {
        return ToolExecutor.builder(ToolRegistry.of(TOOL));
    }

    @Test
    void badValuesAreRefusedWhenGivenNamingTheSetter() {
        assertRefused(() -> ToolExecutor.builder(null), "builder");
        assertRefused(() -> builder().interceptor(null), "interceptor");
        assertRefused(() -> builder().interceptors(null), "interceptors");
        assertRefused(() -> builder().interceptors(Arrays.asList((ToolInterceptor) null)), "interceptors");
        assertRefused(() -> builder().outputStage(null), "outputStage");
        assertRefused(() -> builder().defaultTimeout(null), "defaultTimeout");
        assertRefused(() -> builder().defaultTimeout(Duration.ZERO), "defaultTimeout");
        assertRefused(() -> builder().defaultTimeout(Duration.ofSeconds(-1)), "defaultTimeout");
        assertRefused(() -> builder().defaultTimeout(Duration.ofNanos(10)), "defaultTimeout");
        assertRefused(() -> builder().callLimits(null), "callLimits");
        assertRefused(() -> builder().callLimits(Map.of("t", 0)), "callLimits");
        Map<String, Integer> nullCap = new HashMap<>();
        nullCap.put("t", null);
        assertRefused(() -> builder().callLimits(nullCap), "callLimits");
        assertRefused(() -> builder().callCounts(null), "callCounts");
        assertRefused(() -> builder().callCounts(Map.of("t", -1)), "callCounts");
        assertRefused(() -> builder().scopePolicy(null), "scopePolicy");
        assertRefused(() -> builder().approvalGate(null), "approvalGate");
        assertRefused(() -> builder().idempotency(null), "idempotency");
        assertRefused(() -> builder().retryPolicy(null), "retryPolicy");
        assertRefused(() -> builder().events(null), "events");
    }

    @Test
    void goodValuesStillWork() throws Exception {
        ToolExecutor executor = builder().defaultTimeout(Duration.ofMillis(1)).defaultTimeout(Duration.ofSeconds(5))
                .callLimits(Map.of("t", 1)).callCounts(Map.of("t", 0)).interceptors(List.of()).build();
        ToolContext context = new ToolContext("run_1", 1, "c1", "run_1:1:0", Instant.now().plusSeconds(60), Principal.ANONYMOUS,
                Secrets.NONE);
        assertThat(executor.execute(new ToolCall("c1", "t", Json.parse("{}"), 0), context).isError()).isFalse();
        assertThat(executor.execute(new ToolCall("c2", "t", Json.parse("{}"), 1), context).errorClass())
                .isEqualTo(ErrorClass.LIMIT_REACHED);
    }

    private static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String setter) {
        assertThatThrownBy(call).isInstanceOf(ReinException.class).hasMessageContaining(setter).hasMessageContaining("pass");
    }
}
