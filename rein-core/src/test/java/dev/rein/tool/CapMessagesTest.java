package dev.rein.tool;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.agent.SafetyConfig;
import dev.rein.budget.Budget;
import org.junit.jupiter.api.Test;

/** A cap configured out of range says what to give instead, not only what was wrong. */
class CapMessagesTest {
    @Test
    void aToolsMaxCallsBelowOneSaysWhatToGive() {
        assertThatThrownBy(() -> Tool.builder("search").description("Searches.").maxCalls(0).handler((a, c) -> "x").build())
                .isInstanceOf(ReinException.class)
                .hasMessage("tool 'search': maxCalls must be at least 1, was 0: give the most calls a run may make of it,"
                        + " or leave maxCalls unset (null) for no cap");
    }

    @Test
    void aPerToolCallLimitBelowOneSaysWhatToGive() {
        assertThatThrownBy(() -> Budget.builder().toolCallLimit("search", 0).build())
                .isInstanceOf(ReinException.class)
                .hasMessage("the call limit of tool 'search' must be at least 1, was 0: give the most calls a run may make"
                        + " of it, or leave the tool out of toolCallLimits for no cap");
    }

    @Test
    void maxArgumentBytesBelowOneSaysWhatToGive() {
        String expected = "maxArgumentBytes must be positive, was 0: give the largest arguments object a tool call may"
                + " have, in bytes of JSON (the default is 262144, 256 KiB)";
        assertThatThrownBy(() -> SafetyConfig.builder().maxArgumentBytes(0).build())
                .isInstanceOf(ReinException.class).hasMessage(expected);
        assertThatThrownBy(() -> ToolExecutor.builder(ToolRegistry.of()).maxArgumentBytes(0))
                .isInstanceOf(ReinException.class).hasMessage(expected);
    }
}
