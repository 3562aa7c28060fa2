package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.model.ServerContextEdit;
import dev.rein.model.ServerContextEdits;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FakeReply;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Betas of the user's choosing (a longer context window, interleaved thinking), sent in the
 * {@code anthropic-beta} header as the SDKs' {@code betas} parameter sends them: comma-separated,
 * next to the betas Rein's own features need, on the messages call and on count_tokens.
 */
class AnthropicBetasTest extends FakeApi {

    @Test
    void theBetasOfAnOptionAreSentInTheHeaderOfTheCallAndOfCountTokens() throws Exception {
        var request = request("長い文書を読んで").option(AnthropicBetas.of("context-1m-2025-08-07", "fine-grained-tool-streaming-2025-05-14"));
        server.enqueue(FakeReply.text("ok"));
        call(request);
        assertThat(last().header("anthropic-beta")).isEqualTo("context-1m-2025-08-07,fine-grained-tool-streaming-2025-05-14");

        server.enqueueCountTokens(FakeReply.tokenCount(7));
        assertThat(model.countTokens(request.build())).isEqualTo(7);
        assertThat(last().header("anthropic-beta")).isEqualTo("context-1m-2025-08-07,fine-grained-tool-streaming-2025-05-14");
    }

    @Test
    void theyJoinTheBetasOfServerSideEditsEachNamedOnce() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        call(request("hi").option(new ServerContextEdits(List.of(ServerContextEdit.ClearToolUses.defaults())))
                .option(AnthropicBetas.of("context-management-2025-06-27", "context-1m-2025-08-07")));
        assertThat(last().header("anthropic-beta")).isEqualTo("context-management-2025-06-27,context-1m-2025-08-07");
    }

    @Test
    void anAgentSendsThemWithEveryRequest() {
        server.enqueue(FakeReply.text("はい"));
        RunResult result = Agent.builder().model(model).modelOption(AnthropicBetas.of("context-1m-2025-08-07")).build().run("こんにちは");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(last().header("anthropic-beta")).isEqualTo("context-1m-2025-08-07");
    }

    @Test
    void aNameNoHeaderCanCarryAsOneBetaIsRefusedWhenTheOptionIsMade() {
        assertThatThrownBy(() -> AnthropicBetas.of("context-1m-2025-08-07,output-128k-2025-02-19"))
                .isInstanceOf(ReinException.class).hasMessageContaining("AnthropicBetas.of(\"a\", \"b\")");
        assertThatThrownBy(() -> AnthropicBetas.of(" ")).isInstanceOf(ReinException.class).hasMessageContaining("blank");
        assertThatThrownBy(() -> AnthropicBetas.of("context 1m")).isInstanceOf(ReinException.class).hasMessageContaining("'context 1m'");
        assertThatThrownBy(() -> AnthropicBetas.of()).isInstanceOf(ReinException.class).hasMessageContaining("at least one");
    }

    @Test
    void withInterleavedThinkingATokenBudgetMayExceedMaxTokens() {
        // The extended thinking docs: with interleaved thinking, budget_tokens can exceed max_tokens
        // (it is the budget of the whole turn).
        Agent.builder().model(model).modelName("claude-sonnet-4-5").modelOption(AnthropicThinking.budget(20_000))
                .modelOption(AnthropicBetas.of("interleaved-thinking-2025-05-14")).build();
        assertThatThrownBy(() -> Agent.builder().model(model).modelName("claude-sonnet-4-5").modelOption(AnthropicThinking.budget(20_000))
                .modelOption(AnthropicBetas.of("context-1m-2025-08-07")).build())
                .isInstanceOf(ReinException.class).hasMessageContaining("interleaved-thinking");
    }
}
