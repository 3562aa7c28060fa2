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

    @Test
    void aBudgetBelowTheApisMinimumIsRefusedWhenTheOptionIsMade() {
        assertThatThrownBy(() -> AnthropicThinking.budget(500)).isInstanceOf(ReinException.class)
                .hasMessageContaining("at least 1024").hasMessageContaining("500");
        assertThat(AnthropicThinking.budget(1024).budgetTokens()).isEqualTo(1024);
    }

    @Test
    void aBudgetNotBelowTheAgentsMaxTokensFailsWhenTheAgentIsBuiltNotAtTheFirstCall() {
        // The agent's default max tokens is 8192: a 10,000-token budget cannot fit.
        assertThatThrownBy(() -> Agent.builder().model(model).modelOption(AnthropicThinking.budget(10_000)).build())
                .isInstanceOf(ReinException.class)
                .hasMessageContaining("10000").hasMessageContaining("8192")
                .hasMessageContaining("maxTokens");
        assertThatThrownBy(() -> Agent.builder().model(model).maxTokens(4096).modelOption(AnthropicThinking.budget(4096)).build())
                .as("equal is not less").isInstanceOf(ReinException.class).hasMessageContaining("4096");
        assertThat(server.requests()).as("nothing was sent").isEmpty();

        Agent.builder().model(model).maxTokens(16_000).modelOption(AnthropicThinking.budget(10_000)).build();
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
