package dev.rein.model;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.run.Verdict;
import dev.rein.tool.ToolOutput;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Messages, blocks, tool outputs and verdicts that an application (a verifier, a tool handler, a model of its own, a
 * history it builds) makes with null where a value belongs: a ReinException saying what is missing and what to give,
 * not a bare NullPointerException ('text', 'content', 'missing') or IllegalArgumentException.
 */
class BadBlockInputsTest {

    @Test
    void aMessageWithoutRoleOrContentIsRefusedSayingWhat() {
        assertThatThrownBy(() -> new Message(null, List.of(new TextBlock("x")))).isInstanceOf(ReinException.class)
                .hasMessageContaining("no role (null)");
        assertThatThrownBy(() -> Message.user((List<ContentBlock>) null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("no content (null)");
        assertThatThrownBy(() -> Message.assistant(List.of())).isInstanceOf(ReinException.class)
                .hasMessageContaining("at least one content block");
        assertThatThrownBy(() -> Message.user(Arrays.asList(new TextBlock("a"), null))).isInstanceOf(ReinException.class)
                .hasMessageContaining("content block 2 of 2 is null");
    }

    @Test
    void blocksWithoutTheirTextOrIdAreRefusedSayingWhat() {
        assertThatThrownBy(() -> Message.user((String) null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("a text block was given no text (null)");
        assertThatThrownBy(() -> new ToolResultBlock(null, "ok", false)).isInstanceOf(ReinException.class)
                .hasMessageContaining("no tool_use id (null)");
        assertThatThrownBy(() -> new ToolResultBlock("toolu_1", null, false)).isInstanceOf(ReinException.class)
                .hasMessageContaining("toolu_1").hasMessageContaining("no content (null)");
    }

    @Test
    void aToolOutputOrAVerdictWithoutItsWordsIsRefusedSayingWhat() {
        assertThatThrownBy(() -> ToolOutput.text(null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("a tool output was given no content (null)");
        assertThatThrownBy(() -> ToolOutput.error(null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("no content (null)");
        assertThatThrownBy(() -> Verdict.fail((List<String>) null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("a failing verdict was given no reasons (null)");
        assertThatThrownBy(() -> Verdict.fail((String[]) null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("a failing verdict was given no reasons (null)");
    }
}
