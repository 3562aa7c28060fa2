package dev.rein.tool;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.json.Json;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A call or a context made by a caller of the executor outside a run (another engine, a test) with null where a value
 * belongs: a ReinException naming the field and what to give, not a bare NullPointerException ('id', 'runId').
 */
class ToolCallInputsTest {
    private static final Instant DEADLINE = Instant.parse("2026-12-05T12:00:00Z");

    @Test
    void aCallWithoutItsIdNameOrArgumentsIsRefusedNamingIt() {
        assertThatThrownBy(() -> new ToolCall(null, "lookup", Json.parse("{}"), 0)).isInstanceOf(ReinException.class)
                .hasMessageContaining("a tool call was given no id (null)");
        assertThatThrownBy(() -> new ToolCall("call_1", null, Json.parse("{}"), 0)).isInstanceOf(ReinException.class)
                .hasMessageContaining("tool call call_1 was given no tool name (null)");
        assertThatThrownBy(() -> new ToolCall("call_1", "lookup", null, 0)).isInstanceOf(ReinException.class)
                .hasMessageContaining("tool call call_1 (lookup) was given no arguments (null)");
    }

    @Test
    void aContextWithoutItsRunCallKeyOrDeadlineIsRefusedNamingIt() {
        assertThatThrownBy(() -> new ToolContext(null, 1, "call_1", "k", DEADLINE, null, null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("no run id (null)");
        assertThatThrownBy(() -> new ToolContext("run_1", 1, null, "k", DEADLINE, null, null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("no call id (null)");
        assertThatThrownBy(() -> new ToolContext("run_1", 1, "call_1", null, DEADLINE, null, null))
                .isInstanceOf(ReinException.class).hasMessageContaining("no idempotency key (null)");
        assertThatThrownBy(() -> new ToolContext("run_1", 1, "call_1", "k", null, null, null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("no deadline (null)").hasMessageContaining("Instant.MAX");
    }
}
