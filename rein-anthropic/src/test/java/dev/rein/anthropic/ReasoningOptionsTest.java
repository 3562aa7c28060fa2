package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.anthropic.core.ObjectMappers;
import com.anthropic.models.beta.messages.BetaThinkingConfigAdaptive;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.OutputConfig;
import com.anthropic.models.messages.ThinkingConfigAdaptive;
import com.anthropic.models.messages.ThinkingConfigEnabled;
import com.anthropic.models.messages.ToolChoiceAny;
import com.anthropic.models.messages.ToolChoiceAuto;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.ReinException;
import dev.rein.json.Json;
import dev.rein.model.ModelRequest;
import dev.rein.model.OutputSchema;
import dev.rein.model.ParallelToolCalls;
import dev.rein.model.ToolChoice;
import dev.rein.testkit.FakeReply;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Thinking, effort and one-call-per-response: each sent in the API's shape, compared with what the
 * official SDK writes for the same settings.
 */
class ReasoningOptionsTest extends FakeApi {

    @Test
    void nothingIsSentForThemUnlessARequestAsks() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        call(request("hi").tools(List.of(tool("search"))));
        JsonNode body = lastBody();
        assertThat(body.has("thinking")).isFalse();
        assertThat(body.has("output_config")).isFalse();
        assertThat(body.has("tool_choice")).isFalse();
    }

    @Test
    void thinkingWithABudgetIsSentAsTheSdkWritesIt() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        call(request("考えて").maxTokens(16_000).option(AnthropicThinking.budget(10_000)));

        assertThat(lastBody().get("thinking")).isEqualTo(Json.parse("{\"type\":\"enabled\",\"budget_tokens\":10000}"));
        assertThat(lastBody().get("thinking")).isEqualTo(sdk(MessageCreateParams.builder()
                .thinking(ThinkingConfigEnabled.builder().budgetTokens(10_000).build())).get("thinking"));
    }

    @Test
    void adaptiveThinkingWithADisplayAndAnEffortAreSentAsTheSdkWritesThem() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        call(request("hi").option(AnthropicThinking.adaptive().withDisplay(AnthropicThinking.Display.SUMMARIZED))
                .option(AnthropicEffort.MEDIUM));

        JsonNode expected = sdk(MessageCreateParams.builder()
                .thinking(ThinkingConfigAdaptive.builder().display(ThinkingConfigAdaptive.Display.SUMMARIZED).build())
                .outputConfig(OutputConfig.builder().effort(OutputConfig.Effort.MEDIUM).build()));
        assertThat(lastBody().get("thinking")).isEqualTo(expected.get("thinking"))
                .isEqualTo(Json.parse("{\"type\":\"adaptive\",\"display\":\"summarized\"}"));
        assertThat(lastBody().get("output_config")).isEqualTo(expected.get("output_config"))
                .isEqualTo(Json.parse("{\"effort\":\"medium\"}"));
    }

    @Test
    void theUpdatesDisplayIsSentWithTheBetaThatDefinesIt() throws Exception {
        // The API's third display value, "updates" (progress notes between tool calls), is a beta:
        // thinking-display-updates-2026-08-18, as the SDK's BetaThinkingConfigAdaptive.Display knows it.
        server.enqueue(FakeReply.text("ok"), FakeReply.text("ok"));
        model.countTokens(request("hi").option(AnthropicThinking.adaptive().withDisplay(AnthropicThinking.Display.UPDATES))
                .option(AnthropicBetas.of("context-1m-2025-08-07")).build());
        assertThat(last().header("anthropic-beta")).isEqualTo("thinking-display-updates-2026-08-18,context-1m-2025-08-07");
        call(request("hi").option(AnthropicThinking.adaptive().withDisplay(AnthropicThinking.Display.UPDATES)));

        assertThat(lastBody().get("thinking")).isEqualTo(Json.parse("{\"type\":\"adaptive\",\"display\":\"updates\"}"))
                .isEqualTo(sdkBeta(BetaThinkingConfigAdaptive.builder().display(BetaThinkingConfigAdaptive.Display.UPDATES).build()));
        assertThat(last().header("anthropic-beta")).isEqualTo("thinking-display-updates-2026-08-18");
        call(request("hi").option(AnthropicThinking.adaptive().withDisplay(AnthropicThinking.Display.OMITTED)));
        assertThat(last().header("anthropic-beta")).as("summarized and omitted need no beta").isNull();
    }

    /**
     * The models that always think refuse thinking off with a 400 at any effort (Claude Opus 5.5's and Fable 5.1's "What's
     * new", which Mythos 5.1 shares; Fable 5 and Mythos 5: the thinking troubleshooting table; Sonnet 5.5: its "What's
     * new", pointing to between_tools). An agent with disabled() on one was built, and its first call failed.
     */
    @Test
    void thinkingOffOnAModelThatAlwaysThinksIsRefusedWhenTheAgentIsBuilt() {
        for (String name : List.of("claude-opus-5-5", "claude-fable-5", "claude-fable-5-1", "claude-mythos-5",
                "claude-mythos-5-1-20261015")) {
            assertThatThrownBy(() -> dev.rein.agent.Agent.builder().model(model).modelName(name)
                    .modelOption(AnthropicThinking.disabled()).build())
                    .isInstanceOf(ReinException.class).hasMessageContaining("AnthropicThinking.disabled()")
                    .hasMessageContaining(name).hasMessageContaining("always thinks")
                    .hasMessageContaining("AnthropicThinking.adaptive()").hasMessageContaining("AnthropicEffort")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("betweenTools"));
        }
        assertThatThrownBy(() -> dev.rein.agent.Agent.builder().model(model).modelName("claude-sonnet-5-5")
                .modelOption(AnthropicThinking.disabled()).build())
                .isInstanceOf(ReinException.class).hasMessageContaining("AnthropicThinking.betweenTools()");
        assertThat(server.requests()).isEmpty();
        // models that take thinking off, and one Rein does not list, are left as they were
        dev.rein.agent.Agent.builder().model(model).modelName("claude-sonnet-5").modelOption(AnthropicThinking.disabled()).build();
        dev.rein.agent.Agent.builder().model(model).modelName("claude-sonnet-4-5").modelOption(AnthropicThinking.disabled()).build();
    }

    /**
     * The thinking troubleshooting page: only Claude Sonnet 5.5 accepts between_tools (the API refuses it elsewhere with
     * a 400). An agent with it on another model of the list Rein knows (the default claude-sonnet-5 among them, as
     * {@code rein run --thinking between_tools} without --model builds one) was built, and its first call failed.
     */
    @Test
    void betweenToolsOnAModelOtherThanSonnet55IsRefusedWhenTheAgentIsBuilt() {
        for (String name : List.of("claude-sonnet-5", "claude-opus-5-5", "claude-opus-4-7-20260416")) {
            assertThatThrownBy(() -> dev.rein.agent.Agent.builder().model(model).modelName(name)
                    .modelOption(AnthropicThinking.betweenTools()).build())
                    .isInstanceOf(ReinException.class).hasMessageContaining("AnthropicThinking.betweenTools()")
                    .hasMessageContaining(name).hasMessageContaining("only Claude Sonnet 5.5")
                    .hasMessageContaining("AnthropicThinking.adaptive()").hasMessageContaining("--thinking adaptive");
        }
        assertThat(server.requests()).isEmpty();
        dev.rein.agent.Agent.builder().model(model).modelName("claude-sonnet-5-5-20261015").modelOption(AnthropicThinking.betweenTools())
                .build();
        // a model outside the list of those from Claude 4.7 on (an older one, or one newer than Rein knows) is left to the API
        dev.rein.agent.Agent.builder().model(model).modelName("claude-sonnet-4-5").modelOption(AnthropicThinking.betweenTools())
                .build();
    }

    @Test
    void betweenToolsThinkingAtEffortXhighOrMaxIsRefusedBeforeAnythingIsSent() {
        // Claude Sonnet 5.5's "What's new": between_tools works at effort low, medium and high; xhigh or max is a 400.
        for (AnthropicEffort effort : List.of(AnthropicEffort.XHIGH, AnthropicEffort.MAX)) {
            assertThatThrownBy(() -> dev.rein.agent.Agent.builder().model(model).modelName("claude-sonnet-5-5")
                    .modelOption(AnthropicThinking.betweenTools()).modelOption(effort).build())
                    .isInstanceOf(ReinException.class).hasMessageContaining("between_tools")
                    .hasMessageContaining(effort.level()).hasMessageContaining("AnthropicThinking.adaptive()");
        }
        dev.rein.agent.Agent.builder().model(model).modelName("claude-sonnet-5-5").modelOption(AnthropicThinking.betweenTools())
                .modelOption(AnthropicEffort.HIGH).build();
    }

    @Test
    void thinkingOffOnClaudeOpus5AtEffortXhighOrMaxIsRefusedWhenTheAgentIsBuilt() {
        // Claude Opus 5's "What's new": thinking off is taken at effort high or below; xhigh or max is a 400.
        for (AnthropicEffort effort : List.of(AnthropicEffort.XHIGH, AnthropicEffort.MAX)) {
            for (String name : List.of("claude-opus-5", "claude-opus-5-20260724")) {
                assertThatThrownBy(() -> dev.rein.agent.Agent.builder().model(model).modelName(name)
                        .modelOption(AnthropicThinking.disabled()).modelOption(effort).build())
                        .isInstanceOf(ReinException.class).hasMessageContaining("AnthropicThinking.disabled()")
                        .hasMessageContaining(name).hasMessageContaining("effort " + effort.level())
                        .hasMessageContaining("AnthropicThinking.adaptive()").hasMessageContaining("low, medium or high");
            }
        }
        dev.rein.agent.Agent.builder().model(model).modelName("claude-opus-5").modelOption(AnthropicThinking.disabled())
                .modelOption(AnthropicEffort.HIGH).build();
        dev.rein.agent.Agent.builder().model(model).modelName("claude-opus-5").modelOption(AnthropicThinking.disabled()).build();
    }

    @Test
    void aDisplayIsRefusedForBetweenToolsThinkingWhichHasNone() {
        // The API's between_tools config has only a type (ThinkingConfigBetweenTools): its progress notes always come back.
        assertThatThrownBy(() -> AnthropicThinking.betweenTools().withDisplay(AnthropicThinking.Display.UPDATES))
                .isInstanceOf(ReinException.class).hasMessageContaining("between_tools")
                .hasMessageContaining("AnthropicThinking.adaptive().withDisplay");
    }

    @Test
    void disabledThinkingIsSentSoARequestCanTurnItOff() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        call(request("hi").option(AnthropicThinking.disabled()));
        assertThat(lastBody().get("thinking")).isEqualTo(Json.parse("{\"type\":\"disabled\"}"));
    }

    @Test
    void effortAndStructuredOutputShareOneOutputConfig() throws Exception {
        server.enqueue(FakeReply.text("{}"));
        OutputSchema schema = OutputSchema.fromJson("Verdict", "{\"type\":\"object\",\"properties\":{}}");
        call(request("hi").option(schema).option(AnthropicStructuredOutput.ENABLED).option(AnthropicEffort.of("low")));

        assertThat(lastBody().get("output_config")).isEqualTo(
                Json.parse("{\"effort\":\"low\",\"format\":{\"type\":\"json_schema\",\"schema\":{\"type\":\"object\","
                        + "\"properties\":{},\"additionalProperties\":false}}}"));
    }

    @Test
    void oneToolCallPerResponseIsSentOnTheToolChoiceAsTheSdkWritesIt() throws Exception {
        server.enqueue(FakeReply.text("a"), FakeReply.text("b"), FakeReply.text("c"), FakeReply.text("d"));
        ModelRequest.Builder withTools = request("x").tools(List.of(tool("search"))).option(ParallelToolCalls.DISABLED);

        call(withTools);
        assertThat(lastBody().get("tool_choice")).isEqualTo(sdk(MessageCreateParams.builder()
                .toolChoice(ToolChoiceAuto.builder().disableParallelToolUse(true).build())).get("tool_choice"));
        call(withTools.toolChoice(ToolChoice.any()));
        assertThat(lastBody().get("tool_choice")).isEqualTo(sdk(MessageCreateParams.builder()
                .toolChoice(ToolChoiceAny.builder().disableParallelToolUse(true).build())).get("tool_choice"));
        call(withTools.toolChoice(ToolChoice.none()));
        assertThat(lastBody().get("tool_choice")).as("none has no calls to limit").isEqualTo(Json.parse("{\"type\":\"none\"}"));
        call(request("x").option(ParallelToolCalls.DISABLED));
        assertThat(lastBody().has("tool_choice")).as("without tools there is nothing to say").isFalse();
    }

    @Test
    void badSettingsAreRefusedWhenTheOptionIsMadeSayingWhatToUse() {
        assertThatThrownBy(() -> AnthropicThinking.budget(0)).isInstanceOf(ReinException.class)
                .hasMessageContaining("budgetTokens of at least 1024").hasMessageContaining("AnthropicThinking.adaptive()");
        assertThatThrownBy(() -> new AnthropicThinking(AnthropicThinking.Type.ADAPTIVE, 2048, null))
                .isInstanceOf(ReinException.class).hasMessageContaining("AnthropicThinking.budget(2048)");
        assertThatThrownBy(() -> AnthropicThinking.disabled().withDisplay(AnthropicThinking.Display.OMITTED))
                .isInstanceOf(ReinException.class).hasMessageContaining("not for disabled thinking");
        assertThatThrownBy(() -> AnthropicEffort.of(" ")).isInstanceOf(ReinException.class)
                .hasMessageContaining("low, medium, high");
    }

    /** The {@code thinking} object the official SDK's beta types write for {@code thinking}. */
    private static JsonNode sdkBeta(BetaThinkingConfigAdaptive thinking) {
        return Json.parse(ObjectMappers.jsonMapper().valueToTree(thinking).toString());
    }

    /** The body the official SDK writes for {@code params} (with the fields every request needs). */
    private static JsonNode sdk(MessageCreateParams.Builder params) {
        MessageCreateParams built = params.model("claude-test").maxTokens(256).addUserMessage("x").build();
        return Json.parse(ObjectMappers.jsonMapper().valueToTree(built._body()).toString());
    }
}
