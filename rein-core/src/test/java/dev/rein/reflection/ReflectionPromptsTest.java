package dev.rein.reflection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReflectionPromptsTest {
    /** Guards skips building a step's calls when the flag is false, so the flag must never hide a prompt. */
    @Test
    void promptsAfterToolStepsIsTrueExactlyWhenSomeStepGetsAPrompt() {
        ToolUseBlock use = new ToolUseBlock("t1", "commit", Json.mapper().createObjectNode());
        ToolResultBlock result = new ToolResultBlock("t1", "ok", false);
        List<List<Reflection>> configs = List.of(List.of(), List.of(Reflection.none()), List.of(Reflection.critic()),
                List.of(Reflection.critic(), Reflection.evaluateEachStep()), List.of(Reflection.checkpoint(3)),
                List.of(Reflection.checkpointAtPhaseEnd(PhaseEnd.afterTool("commit"))),
                List.of(Reflection.none(), Reflection.critic()));
        for (List<Reflection> strategies : configs) {
            ReflectionPrompts prompts = new ReflectionPrompts(strategies);
            boolean anyPrompt = false;
            for (int step = 1; step <= 12; step++) {
                anyPrompt |= !prompts.afterToolStep(step, List.of(use), List.of(result)).isEmpty();
            }
            assertThat(prompts.promptsAfterToolSteps()).as(strategies.toString()).isEqualTo(anyPrompt);
        }
    }
}
