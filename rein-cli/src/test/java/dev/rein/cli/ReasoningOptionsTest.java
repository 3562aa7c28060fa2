package dev.rein.cli;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.agent.Agent;
import dev.rein.eval.AgentFactory;
import dev.rein.eval.Suite;
import dev.rein.eval.Task;
import dev.rein.eval.env.FileTreeEnvironment;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ReasoningOptionsTest {
    private final AtomicInteger environments = new AtomicInteger();
    private final AtomicInteger builds = new AtomicInteger();

    private Suite suite(int maxTokens) {
        AgentFactory<FileTreeEnvironment> agent = (env, model) -> {
            builds.incrementAndGet();
            return Agent.builder().model(model.model()).modelName(model.name()).maxTokens(maxTokens).build();
        };
        return Suite.builder("s").task(Task.builder("t", () -> {
            environments.incrementAndGet();
            return new FileTreeEnvironment(Map.of());
        }).goal("g").agent(agent).script(text("done")).build()).build();
    }

    /**
     * rein eval --model and rein example with --thinking or --reasoning-effort check each task's agent before any trial.
     * Before: the agent was built twice, each time in a fresh environment (for the code example, about four temporary
     * git repositories per task); now one environment and one build when the agent takes the options.
     */
    @Test
    void eachTasksAgentIsBuiltOnceInOneEnvironmentWhenItTakesTheOptions() {
        ReasoningOptions options = new ReasoningOptions();
        options.thinking = "4000";
        options.requireRoomIn(suite(16000), "claude-sonnet-4-5", null);
        assertThat(environments).hasValue(1);
        assertThat(builds).hasValue(1);
    }

    /** A refused option still names the agent's max_tokens, learned in the same environment. */
    @Test
    void aBudgetNotBelowTheAgentsMaxTokensIsStillSaidInTheOptionsTerms() {
        ReasoningOptions options = new ReasoningOptions();
        options.thinking = "4000";
        assertThatThrownBy(() -> options.requireRoomIn(suite(2000), "claude-sonnet-4-5", "agent.max_tokens in the suite"))
                .isInstanceOf(UsageException.class).hasMessage("--thinking 4000 must be below max_tokens, which is 2000 for the"
                        + " agent of task 't', as the API wants thinking's budget below it: give a budget below 2000 (or"
                        + " --thinking adaptive), or raise agent.max_tokens in the suite");
        assertThat(environments).hasValue(1);
    }
}
