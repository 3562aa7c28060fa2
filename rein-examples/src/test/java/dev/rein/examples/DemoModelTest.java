package dev.rein.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.examples.date.DateAssistant;
import dev.rein.examples.date.DateWorld;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Extra tools given to a demo (rein example --mcp) are offered next to the example's own. */
class DemoModelTest {
    @Test
    void offeredToolsJoinTheExamplesOwn() {
        Tool extra = Tool.builder("extra_lookup").description("An extra tool.").handler((args, context) -> "x").build();
        DemoModel plain = new DemoModel(ScriptedModel.of(ScriptedModel.text("hi")), "claude-sonnet-5", true);
        Agent own = DateAssistant.agent(DateWorld.fixed(), plain.trialModel());
        assertThat(plain.offer(own)).isSameAs(own);
        Agent offered = plain.offering(List.of(extra)).offer(own);
        assertThat(offered.config().tools().names()).contains("extra_lookup").containsAll(own.config().tools().names());
    }
}
