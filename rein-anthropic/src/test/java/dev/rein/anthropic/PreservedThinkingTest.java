package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.context.ClearToolResults;
import dev.rein.context.ContextPolicy;
import dev.rein.context.StateInPrompt;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelResponse;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.RewrittenHistory;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FakeReply;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolSource;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Preserved thinking (the newest models): a thinking block sent back is checked against its prefix, the system
 * prompt, tools and messages before it, as they were when it was made; a changed prefix is a 400 ("The block is
 * bound to a different conversation") unless the request asks the API to drop such blocks. The fake server checks
 * it as the docs say, for the blocks it made.
 */
class PreservedThinkingTest extends FakeApi {

    private static Tool lookup() {
        return Tool.builder("lookup").description("Looks an order up.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .handler((args, ctx) -> "注文 " + args.get("id").asText() + " は発送済み")
                .build();
    }

    private void twoToolSteps() {
        server.enqueue(
                FakeReply.message().thinking("まず A-1 を調べる", "sig_a1").toolUse("toolu_1", "lookup", "{\"id\":\"A-1\"}").build(),
                FakeReply.message().thinking("次に A-2", "sig_a2").toolUse("toolu_2", "lookup", "{\"id\":\"A-2\"}").build(),
                FakeReply.text("どちらも発送済みです。"));
    }

    @Test
    void anAppendOnlyRunPassesThePrefixCheckAndAsksForNothingMore() {
        // A probe: Rein's default requests only append (the moving cache breakpoint is not part of the prefix).
        twoToolSteps();
        RunResult result = Agent.builder().model(model).modelName("claude-opus-5-5").tools(lookup()).build().run("A-1 と A-2 は?");

        assertThat(result.status()).as(result.toString()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("どちらも発送済みです。");
        assertThat(server.requests().get(2).body().has("thinking")).isFalse();
        assertThat(server.requests().get(2).header("anthropic-beta")).isNull();
    }

    @Test
    void stateInThePromptAsksTheApiToDropThinkingWhosePrefixItChanged() {
        // The state block goes on the latest user message only, so each step changes the message before the
        // previous turn's thinking: without drop_block the API refuses the second step.
        twoToolSteps();
        RunResult result = Agent.builder().model(model).modelName("claude-opus-5-5").tools(lookup())
                .stateInPrompt(StateInPrompt.STATE_ONLY).build().run("A-1 と A-2 は?");

        assertThat(result.status()).as(result.toString()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("どちらも発送済みです。");
        JsonNode first = server.requests().get(0).body();
        assertThat(first.has("thinking")).as("nothing to bind in the first request").isFalse();
        for (int step = 1; step <= 2; step++) {
            JsonNode body = server.requests().get(step).body();
            assertThat(body.get("thinking")).isEqualTo(
                    Json.parse("{\"type\":\"adaptive\",\"block_binding\":{\"prefix_mismatch_behavior\":\"drop_block\"}}"));
            assertThat(server.requests().get(step).header("anthropic-beta")).isEqualTo("thinking-binding-controls-2026-08-01");
        }
        // the thinking itself still goes back unchanged
        assertThat(server.requests().get(1).body().at("/messages/1/content/0")).isEqualTo(
                Json.parse("{\"type\":\"thinking\",\"thinking\":\"まず A-1 を調べる\",\"signature\":\"sig_a1\"}"));
    }

    @Test
    void anAdaptiveThinkingOptionKeepsItsDisplayAndGainsTheBinding() {
        twoToolSteps();
        RunResult result = Agent.builder().model(model).modelName("claude-fable-5-1").tools(lookup())
                .modelOption(AnthropicThinking.adaptive().withDisplay(AnthropicThinking.Display.UPDATES))
                .stateInPrompt(StateInPrompt.withRecentTurns(1)).build().run("A-1 と A-2 は?");

        assertThat(result.status()).as(result.toString()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(server.requests().get(2).body().get("thinking")).isEqualTo(Json.parse("{\"type\":\"adaptive\",\"display\":\"updates\","
                + "\"block_binding\":{\"prefix_mismatch_behavior\":\"drop_block\"}}"));
        assertThat(server.requests().get(2).header("anthropic-beta"))
                .isEqualTo("thinking-display-updates-2026-08-18,thinking-binding-controls-2026-08-01");
    }

    @Test
    void aModelWithoutPreservedThinkingGetsNoBinding() {
        twoToolSteps();
        RunResult result = Agent.builder().model(model).modelName("claude-sonnet-5").tools(lookup())
                .stateInPrompt(StateInPrompt.STATE_ONLY).build().run("A-1 と A-2 は?");

        assertThat(result.status()).as(result.toString()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(server.requests().get(2).body().has("thinking")).isFalse();
    }

    /** The rein command adds its --mcp servers as tool sources: the refusal names that flag and --thinking adaptive too. */
    @Test
    void aRefusalForToolSourcesNamesTheCommandsFlagsToo() {
        ToolSource servers = new ToolSource() {
            @Override
            public long version() {
                return 0;
            }

            @Override
            public List<Tool> tools() {
                return List.of(lookup());
            }
        };
        assertThatThrownBy(() -> Agent.builder().model(model).modelName("claude-sonnet-5-5").toolSource(servers)
                .modelOption(AnthropicThinking.betweenTools()).build())
                .isInstanceOf(ReinException.class)
                .hasMessageContaining("toolSource (the rein command's --mcp)")
                .hasMessageContaining("for the rein command: --thinking adaptive, or no --mcp");
    }

    @Test
    void aBudgetOrBetweenToolsWithARewrittenHistoryIsRefusedWhenTheAgentIsBuilt() {
        // The docs give block_binding with adaptive thinking only, so a budget or between_tools is sent without it and
        // the rewritten prefix met the API's check: the agent was built and its second step failed with the 400
        // "bound to a different conversation".
        // (A budget on these models is refused when the agent is built whatever the settings: every model from Claude
        // 4.7 on refuses one. A request switched to one of them later meets this check: see below.)
        assertThatThrownBy(() -> Agent.builder().model(model).modelName("claude-sonnet-5-5").tools(lookup())
                .modelOption(AnthropicThinking.betweenTools()).stateInPrompt(StateInPrompt.STATE_ONLY).build())
                .isInstanceOf(ReinException.class)
                .hasMessageContaining("AnthropicThinking.betweenTools()").hasMessageContaining("claude-sonnet-5-5")
                .hasMessageContaining("stateInPrompt").hasMessageContaining("bound to a different conversation")
                .hasMessageContaining("use AnthropicThinking.adaptive() (or no thinking option)");
        assertThatThrownBy(() -> Agent.builder().model(model).modelName("claude-sonnet-5-5-20261015").tools(lookup())
                .modelOption(AnthropicThinking.betweenTools())
                .contextPolicy(ContextPolicy.builder().clearToolResults(ClearToolResults.client()).build()).build())
                .isInstanceOf(ReinException.class)
                .hasMessageContaining("AnthropicThinking.betweenTools()").hasMessageContaining("client-side tool result clearing")
                .hasMessageContaining("use AnthropicThinking.adaptive() (or no thinking option)");
        assertThat(server.requests()).isEmpty();
        // each alone is fine: a budget on a model that does not bind its thinking, or with a history only appended to
        // (server-side clearing is the API's own), and adaptive thinking with the rewrite
        Agent.builder().model(model).modelName("claude-sonnet-4-5").modelOption(AnthropicThinking.budget(2_000))
                .stateInPrompt(StateInPrompt.STATE_ONLY).build();
        Agent.builder().model(model).modelName("claude-sonnet-5-5").modelOption(AnthropicThinking.betweenTools())
                .contextPolicy(ContextPolicy.builder().clearToolResults(ClearToolResults.server()).build()).build();
        Agent.builder().model(model).modelName("claude-haiku-5-5").modelOption(AnthropicThinking.adaptive())
                .stateInPrompt(StateInPrompt.STATE_ONLY).build();
    }

    @Test
    void aRequestBuiltByHandWithARewrittenHistoryAndABudgetIsRefusedBeforeItIsSent() {
        // between_tools: a budget on these models is refused first, as no model from Claude 4.7 on takes one
        ModelRequest request = ModelRequest.builder("claude-sonnet-5-5").maxTokens(8_000).addMessage(Message.user("注文は?"))
                .option(AnthropicThinking.betweenTools()).option(new RewrittenHistory(List.of("memory_recall"))).build();

        server.enqueue(FakeReply.text("unused"));
        assertThatThrownBy(() -> call(request)).isInstanceOfSatisfying(ModelException.class, e -> {
            assertThat(e.kind()).isEqualTo(ModelException.Kind.INVALID_REQUEST);
            assertThat(e.retryable()).isFalse();
            assertThat(e.getMessage()).contains("memoryInjection").contains("use AnthropicThinking.adaptive() (or no thinking option)");
        });
        assertThat(server.requests()).isEmpty();
    }

    /**
     * An interceptor that switches a step to a model with preserved thinking is not seen when the agent is built: the
     * request is refused before it is sent, saying that the model came from the request (a model interceptor or
     * fallback), which thinking and settings do not go with it, and what to change.
     */
    @Test
    void aStepSwitchedToAModelThatBindsItsThinkingIsRefusedSayingWhatToChange() {
        server.enqueue(FakeReply.text("unused"));
        ModelInterceptor switchToSonnet55 = new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                return chain.proceed(call.withRequest(call.request().withModel("claude-sonnet-5-5")));
            }
        };
        // Claude Sonnet 4.5, before Claude 4.7, is left to the API, so the agent is built (between_tools with the
        // rewrite). (A budget switched to one of these models is refused first: none from Claude 4.7 on takes one.)
        RunResult result = Agent.builder().model(model).modelName("claude-sonnet-4-5").tools(lookup())
                .modelOption(AnthropicThinking.betweenTools()).stateInPrompt(StateInPrompt.STATE_ONLY)
                .modelInterceptor(switchToSonnet55).build().run("A-1 は?");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(server.requests()).isEmpty();
        assertThat(result.message())
                .contains("AnthropicThinking.betweenTools() cannot be sent to claude-sonnet-5-5").contains("stateInPrompt")
                .contains("bound to a different conversation")
                .contains("claude-sonnet-5-5 was set on the request after that, by a ModelInterceptor or a fallback")
                .contains("request.withModel(\"claude-sonnet-5-5\").withOption(AnthropicThinking.adaptive())");
    }
}
