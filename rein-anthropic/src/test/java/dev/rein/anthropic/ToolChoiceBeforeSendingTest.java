package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rein.json.Json;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ToolChoice;
import dev.rein.testkit.FakeReply;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A forced tool choice the API cannot follow, in a request built by hand: the Messages API's {@code tool_choice}
 * {@code any} makes the model use one of the request's tools and {@code tool} the one it names, and the API refuses
 * a tool choice without tools (400 "tool_choice may only be specified while providing tools."). Rein knows before
 * sending, so it refuses such a request itself, at count_tokens too, and sends nothing. Server tools are tools too.
 */
class ToolChoiceBeforeSendingTest extends FakeApi {

    private ModelException refused(ModelRequest.Builder request) {
        ModelException e = refusedMessages(request);
        ModelException counted = catchThrowableOfType(ModelException.class, () -> model.countTokens(request.build()));
        assertThat(counted).as("count_tokens refuses it too").isNotNull();
        assertThat(counted.getMessage()).isEqualTo(e.getMessage());
        return e;
    }

    private ModelException refusedMessages(ModelRequest.Builder request) {
        ModelException e = catchThrowableOfType(ModelException.class, () -> call(request));
        assertThat(e).as("refused before sending").isNotNull();
        assertThat(e.kind()).isEqualTo(ModelException.Kind.INVALID_REQUEST);
        assertThat(e.retryable()).isFalse();
        return e;
    }

    @Test
    void anyOrANamedToolWithoutToolsIsRefusedBeforeSending() {
        assertThat(refused(request("こんにちは").toolChoice(ToolChoice.any())).getMessage())
                .contains("ToolChoice.any()").contains("no tools").contains("ToolChoice.auto()");
        assertThat(refused(request("こんにちは").toolChoice(ToolChoice.tool("search"))).getMessage())
                .contains("ToolChoice.tool(\"search\")").contains("no tools");
        assertThat(server.requests()).as("nothing was sent").isEmpty();
    }

    @Test
    void aNamedToolTheRequestDoesNotHaveIsRefusedNamingTheToolsItHas() {
        ModelException e = refused(request("x").tools(List.of(tool("search"), tool("fetch")))
                .option(AnthropicServerTools.webSearch(2)).toolChoice(ToolChoice.tool("serach")));
        assertThat(e.getMessage()).contains("ToolChoice.tool(\"serach\")").contains("web_search, search, fetch");
        assertThat(server.requests()).isEmpty();
    }

    /**
     * The extended thinking docs: with thinking, tool choice auto or none only; any or a named tool is a 400 ("Thinking
     * may not be enabled when tool_choice forces tool use."), which Rein knows from the request's own thinking option.
     */
    @Test
    void aForcedToolChoiceWithThinkingOnIsRefusedBeforeSending() throws Exception {
        for (AnthropicThinking thinking : List.of(AnthropicThinking.adaptive(), AnthropicThinking.budget(2000))) {
            for (ToolChoice choice : List.of(ToolChoice.any(), ToolChoice.tool("search"))) {
                // count_tokens is left to the API (countTokensOfAForcedToolChoiceWithThinkingOnIsLeftToTheApi).
                ModelException e = refusedMessages(request("x").maxTokens(4000).tools(List.of(tool("search"))).option(thinking)
                        .toolChoice(choice));
                assertThat(e.getMessage()).contains("Thinking may not be enabled when tool_choice forces tool use.")
                        .contains("ToolChoice.auto()").startsWith("the request could not be built");
            }
        }
        assertThat(server.requests()).isEmpty();
        server.enqueue(FakeReply.text("a"));
        call(request("x").maxTokens(4000).tools(List.of(tool("search"))).option(AnthropicThinking.disabled())
                .toolChoice(ToolChoice.any()));
        assertThat(lastBody().get("tool_choice")).isEqualTo(Json.parse("{\"type\":\"any\"}"));
    }

    /**
     * The refusal is of generation: the extended thinking docs say a thinking model cannot be made to call a tool, and
     * the token counting docs take the same inputs (thinking and tool_choice among them) and name no such refusal, so a
     * count of such a request is the API's to answer, and Rein sends it with both fields as given.
     */
    @Test
    void countTokensOfAForcedToolChoiceWithThinkingOnIsLeftToTheApi() throws Exception {
        server.enqueueCountTokens(FakeReply.tokenCount(57));
        long counted = model.countTokens(request("東京の天気").tools(List.of(tool("search"))).option(AnthropicThinking.adaptive())
                .toolChoice(ToolChoice.any()).build());
        assertThat(counted).isEqualTo(57);
        assertThat(lastBody().get("tool_choice")).isEqualTo(Json.parse("{\"type\":\"any\"}"));
        assertThat(lastBody().path("thinking").path("type").asText()).isEqualTo("adaptive");
    }

    @Test
    void serverToolsAreToolsForAnyAndForANamedChoice() throws Exception {
        server.enqueue(FakeReply.text("a"), FakeReply.text("b"));
        call(request("x").option(AnthropicServerTools.webSearch(1)).toolChoice(ToolChoice.any()));
        assertThat(lastBody().get("tool_choice")).isEqualTo(Json.parse("{\"type\":\"any\"}"));
        call(request("x").option(AnthropicServerTools.webSearch(1)).toolChoice(ToolChoice.tool("web_search")));
        assertThat(lastBody().get("tool_choice")).isEqualTo(Json.parse("{\"type\":\"tool\",\"name\":\"web_search\"}"));
    }
}
