package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.reflection.Reflection;
import dev.rein.stall.StallDetector;
import dev.rein.stall.StallPolicy;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What every run of an agent builds alike is made once with its configuration (perf9): the merged call caps, a
 * replay's recorded answers, the reflection prompts and the critique. It was made afresh in every run before; the
 * runs' behaviour is the loop tests' (ReflectionLoopTest, StallGuardLoopTest, the replay tests), unchanged.
 */
class RunPartsTest {
    private static Tool tool(String name) {
        return Tool.builder(name).description("Does " + name + ".").handler((args, ctx) -> "done").build();
    }

    private static Agent.Builder agent() {
        return Agent.builder().model(ScriptedModel.of(ScriptedModel.text("done"))).tools(tool("lookup"), tool("commit"));
    }

    @Test
    void thePartsAreMadeOnceAndMatchWhatEachRunFoundForItself() {
        Reflection.Evaluate evaluate = new Reflection.Evaluate("Did that help?");
        Reflection.Critique critique = Reflection.critic();
        AgentConfig config = agent()
                .budget(Budget.builder().toolCallLimit("lookup", 3).toolCallLimit("commit", 5).build())
                .conversationBudget(Budget.builder().toolCallLimit("lookup", 2).build())
                .reflection(evaluate, critique)
                .build().config();

        RunParts parts = config.runParts();
        assertThat(config.runParts()).isSameAs(parts);
        // the lower cap where both budgets name a tool, as RunTools.callLimits merges them
        assertThat(parts.callLimits()).isEqualTo(Map.of("lookup", 2, "commit", 5)).isEqualTo(RunTools.callLimits(config));
        assertThat(parts.recordedAnswers()).isNull();
        assertThat(parts.critique()).isSameAs(critique);
        assertThat(parts.prompts().promptsAfterToolSteps()).isTrue();
    }

    @Test
    void anAgentWithoutReflectionHasNoPromptsAfterToolSteps() {
        RunParts parts = agent().build().config().runParts();
        assertThat(parts.prompts().promptsAfterToolSteps()).isFalse();
        assertThat(parts.callLimits()).isEmpty();
        assertThat(parts.critique()).isNull();
    }

    @Test
    void everyRunStillGetsFreshDetectorsInThePolicysOrder() {
        StallPolicy policy = StallPolicy.defaults();
        List<StallDetector> first = policy.newDetectors();
        List<StallDetector> second = policy.newDetectors();
        assertThat(first).extracting(StallDetector::name).containsExactlyElementsOf(policy.detectorNames());
        assertThat(second).extracting(StallDetector::name).containsExactlyElementsOf(policy.detectorNames());
        for (int i = 0; i < first.size(); i++) {
            assertThat(second.get(i)).isNotSameAs(first.get(i)); // a detector holds one run's state
        }
    }
}
