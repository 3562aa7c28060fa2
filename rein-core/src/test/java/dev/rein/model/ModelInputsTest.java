package dev.rein.model;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.json.Json;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * The model SPI's records are built by code outside Rein (a provider, a ModelInterceptor, a test): a null where a value
 * is needed is a ReinException naming the field and what to give, not a bare NullPointerException ('id'), which a run
 * would report as "internal error: java.lang.NullPointerException: id".
 */
class ModelInputsTest {
    private static void refused(ThrowingCallable call, String... words) {
        assertThatThrownBy(call).isInstanceOf(ReinException.class).message().contains(words);
    }

    @Test
    void blocksGivenNullSayWhatToGive() {
        refused(() -> new ToolUseBlock(null, "t", Json.object()), "tool_use block", "id", "give");
        refused(() -> new ToolUseBlock("toolu_1", null, Json.object()), "toolu_1", "name", "give");
        refused(() -> new ToolUseBlock("toolu_1", "t", null), "toolu_1", "input", "Json.object()");
        refused(() -> new ThinkingBlock(null, "sig"), "thinking block", "thinking", "give");
        refused(() -> new ThinkingBlock("x", null), "thinking block", "signature", "give");
        refused(() -> new RedactedThinkingBlock(null), "redacted thinking block", "data", "give");
        refused(() -> new ToolDefinition(null, "d", Json.object()), "tool definition", "name", "give");
        refused(() -> new ToolDefinition("t", null, Json.object()), "tool definition 't'", "description", "give");
        refused(() -> new ToolDefinition("t", "d", null), "tool definition 't'", "inputSchema", "give");
        refused(() -> new ToolChoice.Tool(null), "ToolChoice.Tool", "name", "give");
    }

    @Test
    void requestsGivenNullOrNoRoomSayWhatToGive() {
        refused(() -> ModelRequest.builder(null).build(), "model request", "model", "give");
        refused(() -> ModelRequest.builder("m").maxTokens(0).build(), "maxTokens", "0", "give");
        refused(() -> ModelRequest.builder("m").messages(null), "messages", "List.of()");
        refused(() -> ModelRequest.builder("m").messages(Arrays.asList(Message.user("a"), null)), "message 2 of 2", "leave it out");
        refused(() -> ModelRequest.builder("m").addMessage(null), "addMessage", "give");
        ModelRequest request = ModelRequest.builder("m").build();
        refused(() -> request.withModel(null), "withModel", "give");
        refused(() -> request.withOption(null), "option", "give");
        refused(() -> ModelOptions.NONE.with(null), "option", "give");
    }

    @Test
    void samplingSettingsNoModelTakesAreRefusedNamingTheSettingAndWhatToGive() {
        // an interceptor's or a provider's request: sent as set, a NaN went out as "NaN" for the server to refuse mid-run
        refused(() -> ModelRequest.builder("m").temperature(Double.NaN).build(), "temperature", "NaN", "at least 0", "null");
        refused(() -> ModelRequest.builder("m").temperature(-0.5).build(), "temperature", "-0.5", "at least 0");
        refused(() -> ModelRequest.builder("m").temperature(Double.POSITIVE_INFINITY).build(), "temperature", "Infinity");
        refused(() -> ModelRequest.builder("m").topP(Double.NaN).build(), "topP", "NaN", "from 0 to 1", "null");
        refused(() -> ModelRequest.builder("m").topP(1.5).build(), "topP", "1.5", "from 0 to 1");
        refused(() -> ModelRequest.builder("m").topP(-0.1).build(), "topP", "-0.1", "from 0 to 1");
        refused(() -> ModelRequest.builder("m").topK(-1).build(), "topK", "-1", "0 or more", "null");
        refused(() -> ModelRequest.builder("m").stopSequences(null), "stopSequences", "List.of()");
        refused(() -> ModelRequest.builder("m").stopSequences(Arrays.asList("END", null)), "stop sequence 2 of 2", "leave it out");
        // what a provider takes is still taken, unset stays unset
        ModelRequest fine = ModelRequest.builder("m").temperature(0.0).topP(1.0).topK(0).build();
        org.assertj.core.api.Assertions.assertThat(fine.topP()).isEqualTo(1.0);
        org.assertj.core.api.Assertions.assertThat(ModelRequest.builder("m").build().temperature()).isNull();
    }

    @Test
    void responsesGivenNullSayWhatToGive() {
        refused(() -> new ModelResponse("r", null, List.of(), StopReason.END_TURN, null, null), "ModelResponse", "model");
        refused(() -> new ModelResponse("r", "m", null, StopReason.END_TURN, null, null), "ModelResponse", "content", "List.of()");
        refused(() -> new ModelResponse("r", "m", Arrays.asList(new TextBlock("a"), null), StopReason.END_TURN, null, null),
                "ModelResponse", "block 2 of 2", "leave it out");
        refused(() -> new ModelResponse("r", "m", List.of(), null, null, null), "ModelResponse", "stopReason", "StopReason.UNKNOWN");
    }

    @Test
    void callsGivenNullSayWhatToGive() {
        Model model = (request, context) -> null;
        ModelRequest request = ModelRequest.builder("m").build();
        ModelCallContext context = ModelCallContext.until(Instant.MAX);
        ModelCall call = new ModelCall(model, request, "step", context);
        refused(() -> call.withRequest(null), "model call", "request", "give");
        refused(() -> call.withModel(null), "model call", "model", "give");
        refused(() -> new ModelCall(model, request, null, context), "model call", "purpose", "give");
        refused(() -> new ModelCall(model, request, "step", null), "model call", "context", "give");
        refused(() -> ModelCallContext.until(null), "deadline", "Instant.MAX");
    }

    /** A model whose response is built wrong ends the run with the record's own words, not a NullPointerException's. */
    @Test
    void aRunWhoseModelBuildsAResponseWithoutContentSaysWhatWasLeftOut() {
        Model broken = (request, context) -> new ModelResponse("r", request.model(), null, StopReason.END_TURN, null, null);
        dev.rein.agent.RunResult result = dev.rein.agent.Agent.builder().model(broken).modelName("m")
                .price("m", dev.rein.budget.ModelPrice.of("0", "0", "0")).build().run("go");
        org.assertj.core.api.Assertions.assertThat(result.status()).isEqualTo(dev.rein.run.RunStatus.FAILED);
        org.assertj.core.api.Assertions.assertThat(result.message()).contains("content is null: give its blocks")
                .doesNotContain("NullPointerException");
    }
}
