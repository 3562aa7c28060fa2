package dev.rein.stall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.json.Json;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolContext;
import dev.rein.tool.ToolInvocation;
import dev.rein.tool.ToolOutput;
import java.util.HashMap;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * What an application's stall detector returns (a Finding) and what its tool interceptor builds (withCall,
 * withContext): a null part is a ReinException naming it and what to give, not a bare NullPointerException.
 */
class SpiInputsTest {
    private static void refused(ThrowingCallable call, String... words) {
        assertThatThrownBy(call).isInstanceOf(ReinException.class).message().contains(words);
    }

    @Test
    void aFindingGivenNullSaysWhatToGive() {
        refused(() -> new Finding(null, "c", "m", Map.of(), 1), "finding", "detector", "give");
        refused(() -> new Finding("d", "c", null, Map.of(), 1), "finding of detector 'd'", "message", "give");
        refused(() -> new Finding("d", "c", "m", null, 1), "finding of detector 'd'", "evidence", "Map.of()");
        Map<String, Object> withNull = new HashMap<>();
        withNull.put("k", null);
        refused(() -> new Finding("d", "c", "m", withNull, 1), "finding of detector 'd'", "evidence 'k'", "null");
        assertThat(new Finding("d", null, "m", Map.of("k", 1), 1).callId()).isNull();
    }

    @Test
    void anInvocationGivenNullSaysWhatToGive() {
        Tool tool = Tool.builder("t").description("d").inputSchema("{\"type\":\"object\"}")
                .handler((args, ctx) -> ToolOutput.text("ok")).build();
        ToolCall call = new ToolCall("c1", "t", Json.object(), 0);
        ToolContext context = new ToolContext("run_1", 1, "c1", "key", java.time.Instant.MAX, null, null);
        ToolInvocation invocation = new ToolInvocation(call, tool, context);
        refused(() -> invocation.withCall(null), "tool invocation", "call", "give");
        refused(() -> invocation.withContext(null), "tool invocation", "context", "give");
        refused(() -> new ToolInvocation(call, null, context), "tool invocation", "tool", "give");
    }
}
