package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.model.ModelException;
import dev.rein.testkit.FakeReply;
import org.junit.jupiter.api.Test;

/**
 * A thinking budget the API refuses (the extended thinking docs and the SDK's
 * {@code ThinkingConfigEnabled}: "Must be ≥1024 and less than {@code max_tokens}") fails when the
 * option or the agent is made, saying what to change, not with the API's 400 at the first call.
 */
class ThinkingBudgetTest extends FakeApi {
    private static final String TAKES_BUDGETS = "claude-sonnet-4-5";

    /**
     * The thinking troubleshooting docs: every model from Claude 4.7 on (the default Claude Sonnet 5, and Opus 5 too)
     * refuses a budget with a 400 ("thinking.type.enabled" is not supported for this model) and takes adaptive
     * thinking. Such an agent is refused when it is built, naming the model and what to use instead; the agent was
     * built, and its first call failed.
     */
    @Test
    void aBudgetOnAModelFromClaude47OnIsRefusedWhenTheAgentIsBuilt() {
        for (String name : new String[] {AnthropicProvider.DEFAULT_MODEL, "claude-opus-5", "claude-opus-4-7-20260416",
                "claude-haiku-5-5"}) {
            assertThatThrownBy(() -> Agent.builder().model(model).modelName(name).modelOption(AnthropicThinking.budget(2_000))
                    .build())
                    .as(name).isInstanceOf(ReinException.class)
                    .hasMessageContaining("AnthropicThinking.budget(2000) cannot be used on " + name)
                    .hasMessageContaining("\"thinking.type.enabled\" is not supported for this model")
                    .hasMessageContaining("use AnthropicThinking.adaptive()").hasMessageContaining("AnthropicEffort")
                    .hasMessageContaining("--thinking adaptive");
            assertThat(AnthropicThinking.refusesBudgets(name)).as(name).isTrue();
            Agent.builder().model(model).modelName(name).modelOption(AnthropicThinking.adaptive())
                    .modelOption(AnthropicEffort.LOW).build();
        }
        assertThat(server.requests()).as("nothing was sent").isEmpty();
        // earlier models, Claude Mythos Preview (both modes) and models Rein does not know are left to the API
        for (String name : new String[] {TAKES_BUDGETS, "claude-opus-4-6"}) {
            Agent.builder().model(model).modelName(name).modelOption(AnthropicThinking.budget(2_000)).build();
        }
        for (String name : new String[] {TAKES_BUDGETS, "claude-opus-4-6", "claude-mythos-preview", "claude-test"}) {
            assertThat(AnthropicThinking.refusesBudgets(name)).as(name).isFalse();
        }
        assertThat(AnthropicThinking.refusesBudgets("claude-opus-5-5")).isTrue();
    }

    /** The rule the rein command refuses --thinking between_tools by is the one an agent is built by (a probe). */
    @Test
    void refusesBetweenToolsIsTheRuleAnAgentIsBuiltBy() {
        for (String name : new String[] {AnthropicProvider.DEFAULT_MODEL, "claude-opus-5", "claude-opus-5-5-20261101"}) {
            assertThat(AnthropicThinking.refusesBetweenTools(name)).as(name).isTrue();
            assertThatThrownBy(() -> Agent.builder().model(model).modelName(name).modelOption(AnthropicThinking.betweenTools())
                    .build()).as(name).isInstanceOf(ReinException.class).hasMessageContaining("only Claude Sonnet 5.5");
        }
        // Claude Sonnet 5.5 takes it; earlier models and models Rein does not know are left to the API
        assertThat(AnthropicThinking.refusesBetweenTools("claude-test")).isFalse();
        for (String name : new String[] {"claude-sonnet-5-5", "claude-sonnet-5-5-20261101", TAKES_BUDGETS}) {
            assertThat(AnthropicThinking.refusesBetweenTools(name)).as(name).isFalse();
            Agent.builder().model(model).modelName(name).modelOption(AnthropicThinking.betweenTools()).build();
        }
    }

    @Test
    void aBudgetBelowTheApisMinimumIsRefusedWhenTheOptionIsMade() {
        assertThatThrownBy(() -> AnthropicThinking.budget(500)).isInstanceOf(ReinException.class)
                .hasMessageContaining("at least 1024").hasMessageContaining("500");
        assertThat(AnthropicThinking.budget(1024).budgetTokens()).isEqualTo(1024);
    }

    @Test
    void aBudgetNotBelowTheAgentsMaxTokensFailsWhenTheAgentIsBuiltNotAtTheFirstCall() {
        // The agent's default max tokens is 8192: a 10,000-token budget cannot fit. (Claude Sonnet 4.5 takes budgets.)
        assertThatThrownBy(() -> Agent.builder().model(model).modelName(TAKES_BUDGETS).modelOption(AnthropicThinking.budget(10_000)).build())
                .isInstanceOf(ReinException.class)
                .hasMessageContaining("10000").hasMessageContaining("8192")
                .hasMessageContaining("maxTokens");
        assertThatThrownBy(() -> Agent.builder().model(model).modelName(TAKES_BUDGETS).maxTokens(4096)
                .modelOption(AnthropicThinking.budget(4096)).build())
                .as("equal is not less").isInstanceOf(ReinException.class).hasMessageContaining("4096");
        assertThat(server.requests()).as("nothing was sent").isEmpty();

        Agent.builder().model(model).modelName(TAKES_BUDGETS).maxTokens(16_000).modelOption(AnthropicThinking.budget(10_000)).build();
        Agent.builder().model(model).modelOption(AnthropicThinking.adaptive()).build();
    }

    @Test
    void aRequestBuiltByHandWithABudgetNotBelowItsMaxTokensIsRefusedBeforeItIsSent() {
        server.enqueue(FakeReply.text("unused"));
        assertThatThrownBy(() -> call(request("考えて").maxTokens(2048).option(AnthropicThinking.budget(2048))))
                .isInstanceOfSatisfying(ModelException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ModelException.Kind.INVALID_REQUEST);
                    assertThat(e.retryable()).isFalse();
                    assertThat(e.getMessage()).contains("2048").contains("max tokens");
                });
        assertThat(server.requests()).isEmpty();
    }
}
