package dev.rein.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.core.ObjectMappers;
import com.openai.models.ReasoningEffort;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.rein.ReinException;
import dev.rein.json.Json;
import dev.rein.model.ParallelToolCalls;
import dev.rein.model.ToolChoice;
import dev.rein.testkit.openai.ChatReply;
import java.util.List;
import org.junit.jupiter.api.Test;

/** reasoning_effort and parallel_tool_calls: sent as the official SDK writes them, and only when asked. */
class ReasoningOptionsTest extends FakeChat {

    @Test
    void nothingIsSentForThemUnlessARequestAsks() throws Exception {
        server.enqueue(ChatReply.text("ok"));
        call(request("hi").tools(List.of(tool("search"))));
        assertThat(lastBody().has("reasoning_effort")).isFalse();
        assertThat(lastBody().has("parallel_tool_calls")).isFalse();
    }

    @Test
    void reasoningEffortAndOneCallPerResponseAreSentAsTheSdkWritesThem() throws Exception {
        server.enqueue(ChatReply.text("ok"));
        call(request("考えて").tools(List.of(tool("search"))).option(OpenAiReasoningEffort.LOW).option(ParallelToolCalls.DISABLED));

        JsonNode sdk = Json.parse(ObjectMappers.jsonMapper().valueToTree(ChatCompletionCreateParams.builder()
                .model("gpt-test").addUserMessage("x").reasoningEffort(ReasoningEffort.LOW).parallelToolCalls(false)
                .build()._body()).toString());
        assertThat(lastBody().get("reasoning_effort")).isEqualTo(sdk.get("reasoning_effort"))
                .isEqualTo(Json.parse("\"low\""));
        assertThat(lastBody().get("parallel_tool_calls")).isEqualTo(sdk.get("parallel_tool_calls"))
                .isEqualTo(Json.parse("false"));
    }

    @Test
    void oneCallPerResponseIsNotSentWithoutToolsWhichTheApiRefuses() throws Exception {
        server.enqueue(ChatReply.text("a"), ChatReply.text("b"));
        call(request("x").option(ParallelToolCalls.DISABLED));
        assertThat(lastBody().has("parallel_tool_calls")).isFalse();
        call(request("x").tools(List.of(tool("search"))).toolChoice(ToolChoice.none()).option(ParallelToolCalls.ALLOWED));
        assertThat(lastBody().get("parallel_tool_calls")).as("allowed is the default: nothing to send").isNull();
    }

    @Test
    void aLevelWithoutAConstantIsSentAsGivenAndABlankOneIsRefused() throws Exception {
        server.enqueue(ChatReply.text("ok"));
        call(request("x").option(OpenAiReasoningEffort.of("max")));
        assertThat(lastBody().get("reasoning_effort").asText()).isEqualTo("max");
        assertThatThrownBy(() -> OpenAiReasoningEffort.of("")).isInstanceOf(ReinException.class)
                .hasMessageContaining("minimal, low, medium or high");
    }

    @Test
    void theSystemPromptGoesAsADeveloperMessageWhenAsked() throws Exception {
        // OpenAI's reasoning models (o1 and newer) take their instructions as a developer message,
        // which replaces the system message for them; the SDK has a message type of its own for it.
        server.enqueue(ChatReply.text("a"), ChatReply.text("b"));
        call(request("こんにちは").system("日本語で答えて").option(OpenAiSystemRole.DEVELOPER));
        JsonNode sdk = Json.parse(ObjectMappers.jsonMapper().valueToTree(ChatCompletionCreateParams.builder()
                .model("gpt-test").addDeveloperMessage("日本語で答えて").build()._body()).toString());
        assertThat(lastBody().path("messages").get(0)).isEqualTo(sdk.path("messages").get(0))
                .isEqualTo(Json.parse("{\"content\":\"日本語で答えて\",\"role\":\"developer\"}"));

        call(request("x").system("be brief"));
        assertThat(lastBody().path("messages").get(0).path("role").asText()).as("the default").isEqualTo("system");
        assertThatThrownBy(() -> OpenAiSystemRole.of("assistant")).isInstanceOf(ReinException.class)
                .hasMessageContaining("system or developer");
    }

    @Test
    void aSeedIsSentAsTheSdkWritesItAndOnlyWhenSet() throws Exception {
        // Compatible servers (vLLM, Ollama, llama.cpp) sample reproducibly with a seed; OpenAI on a best-effort basis.
        server.enqueue(ChatReply.text("a"), ChatReply.text("b"));
        call(request("x").option(OpenAiSeed.of(42)));
        @SuppressWarnings("deprecation")
        JsonNode sdk = Json.parse(ObjectMappers.jsonMapper().valueToTree(ChatCompletionCreateParams.builder()
                .model("gpt-test").addUserMessage("x").seed(42L).build()._body()).toString());
        assertThat(lastBody().get("seed")).isEqualTo(sdk.get("seed")).isEqualTo(Json.parse("42"));
        call(request("x"));
        assertThat(lastBody().has("seed")).isFalse();
    }
}
