package dev.rein.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** "Reported nothing" is not "reported zero", and an estimate keeps its mark through sums, traces and snapshots. */
class UsageTest {
    @Test
    void aResponseWithoutUsageIsNotReportedAndDiffersFromAReportOfZero() {
        ModelResponse none = new ModelResponse("r", "m", List.of(new TextBlock("hi")), StopReason.END_TURN, null, null);
        ModelResponse zero = new ModelResponse("r", "m", List.of(new TextBlock("hi")), StopReason.END_TURN, null, Usage.ZERO);
        assertThat(none.usage()).isSameAs(Usage.NOT_REPORTED);
        assertThat(none.usage().notReported()).isTrue();
        assertThat(zero.usage().notReported()).isFalse();
        assertThat(none).isNotEqualTo(zero);
    }

    @Test
    void aSumWithAnEstimateIsAnEstimate() {
        Usage sum = Usage.of(10, 2, 0, 0).plus(Usage.estimate(100, 20));
        assertThat(sum.estimated()).isTrue();
        assertThat(sum.inputTokens()).isEqualTo(110);
        assertThat(Usage.of(10, 2, 0, 0).plus(Usage.of(1, 1, 0, 0)).estimated()).isFalse();
        assertThat(Usage.estimate(5, 5).withCacheWriteDetail("1h", 0).estimated()).isTrue();
    }

    @Test
    void theMarkIsWrittenOnlyWhenEstimatedAndReadBack() throws Exception {
        assertThat(Json.write(Usage.of(1, 2, 3, 4))).doesNotContain("estimated");
        String estimated = Json.write(Usage.estimate(100, 20));
        assertThat(estimated).contains("\"estimated\":true");
        assertThat(Json.mapper().readValue(estimated, Usage.class)).isEqualTo(Usage.estimate(100, 20));
        assertThat(Json.storedMapper().readValue(Json.storedMapper().writeValueAsString(Usage.estimate(7, 8)), Usage.class))
                .isEqualTo(Usage.estimate(7, 8));
        // a trace or snapshot written before the mark existed reads as reported usage
        assertThat(Json.mapper().readValue("{\"input_tokens\":1,\"output_tokens\":2,\"cache_read_input_tokens\":3,"
                + "\"cache_creation_input_tokens\":4}", Usage.class)).isEqualTo(Usage.of(1, 2, 3, 4));
    }

    @Test
    void serverToolUsesAreSummedAndKeptThroughTracesAndSnapshots() throws Exception {
        Usage searched = Usage.of(10, 2, 0, 0).withServerToolUses("web_search", 3);
        Usage sum = searched.plus(Usage.of(1, 1, 0, 0).withServerToolUses("web_search", 2).withServerToolUses("web_fetch", 1));
        assertThat(sum.serverToolUses()).isEqualTo(java.util.Map.of("web_search", 5L, "web_fetch", 1L));
        assertThat(sum.inputTokens()).isEqualTo(11);

        assertThat(Json.write(Usage.of(1, 2, 3, 4))).as("none, not written").doesNotContain("server_tool_uses");
        String written = Json.write(searched);
        assertThat(written).contains("\"server_tool_uses\":{\"web_search\":3}");
        assertThat(Json.mapper().readValue(written, Usage.class)).isEqualTo(searched);
        assertThat(Json.storedMapper().readValue(Json.storedMapper().writeValueAsString(sum), Usage.class)).isEqualTo(sum);
    }

    @Test
    void reasoningTokensArePartOfTheOutputSummedAndKeptThroughTracesAndSnapshots() throws Exception {
        Usage reasoned = Usage.of(50, 300, 0, 0).withReasoningOutputTokens(256);
        assertThat(reasoned.outputTokens()).as("a part of the output, not added to it").isEqualTo(300);
        assertThat(Usage.of(1, 10, 0, 0).withReasoningOutputTokens(99).reasoningOutputTokens()).as("held at the output").isEqualTo(10);
        assertThat(reasoned.plus(Usage.of(1, 20, 0, 0).withReasoningOutputTokens(4)).reasoningOutputTokens()).isEqualTo(260);

        assertThat(Json.write(Usage.of(1, 2, 3, 4))).as("none, not written").doesNotContain("reasoning");
        String written = Json.write(reasoned);
        assertThat(written).contains("\"reasoning_output_tokens\":256");
        assertThat(Json.mapper().readValue(written, Usage.class)).isEqualTo(reasoned);
        assertThat(Json.storedMapper().readValue(Json.storedMapper().writeValueAsString(reasoned), Usage.class)).isEqualTo(reasoned);
    }

    /** 'token counts cannot be negative' named neither the count nor its value, nor what to give instead. */
    @Test
    void aNegativeCountNamesItsFieldItsValueAndWhatToGive() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Usage.of(-5, 3, 0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the usage's input_tokens (inputTokens) cannot be negative, was -5: give the tokens the call"
                        + " used, 0 or more (0 when the provider reported none)");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Usage.of(1, 3, 0, -2))
                .hasMessageStartingWith("the usage's cache_creation_input_tokens (cacheWriteInputTokens) cannot be negative, was -2:");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Usage(1, 3, 0, 0, java.util.Map.of(), false, java.util.Map.of(), -1))
                .hasMessageStartingWith("the usage's reasoning_output_tokens (reasoningOutputTokens) cannot be negative, was -1:");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Usage.of(1, 1, 0, 5).withCacheWriteDetail("1h", -3))
                .hasMessage("the usage's cache write detail '1h' cannot be negative, was -3: give the cache write tokens of"
                        + " each write class, 0 or more");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Usage.of(1, 1, 0, 5).withServerToolUses("web_search", -1))
                .hasMessage("the usage's server tool uses of 'web_search' cannot be negative, was -1: give the uses the"
                        + " call made, 0 or more");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Usage.of(1, 1, 0, 5).withCacheWriteDetail("1h", 7))
                .hasMessage("the cache write detail {1h=7} exceeds the cache writes, 5: the detail's entries are a part of"
                        + " cache_creation_input_tokens (cacheWriteInputTokens), so give it at least their sum, 7");
    }
}
