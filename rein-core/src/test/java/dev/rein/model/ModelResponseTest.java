package dev.rein.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelResponseTest {
    private static final ToolUseBlock USE = new ToolUseBlock("toolu_1", "lookup", JsonNodeFactory.instance.objectNode().put("q", "検索"));

    private static ModelResponse response(ContentBlock... blocks) {
        return new ModelResponse("msg_1", "test-model", List.of(blocks), StopReason.TOOL_USE, null, Usage.ZERO);
    }

    @Test
    void aTurnWithoutEmptyTextIsKeptAsItIs() {
        ModelResponse response = response(new TextBlock("見てみます"), USE);

        Message message = response.toHistoryMessage().orElseThrow();

        assertThat(message.role()).isEqualTo(Role.ASSISTANT);
        assertThat(message.content()).containsExactly(new TextBlock("見てみます"), USE);
        assertThat(message.content()).isSameAs(response.content());
    }

    @Test
    void emptyTextBlocksAreDroppedAndTheRestKeepTheirOrder() {
        Message message = response(new TextBlock(""), USE, new TextBlock(""), new TextBlock("done")).toHistoryMessage().orElseThrow();

        assertThat(message.content()).containsExactly(USE, new TextBlock("done"));
    }

    @Test
    void nothingIsLeftOfAResponseWithOnlyEmptyTextOrNoContent() {
        assertThat(response(new TextBlock("")).toHistoryMessage()).isEmpty();
        assertThat(response().toHistoryMessage()).isEmpty();
    }
}
