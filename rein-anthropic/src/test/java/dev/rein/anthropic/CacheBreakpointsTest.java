package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.ModelRequest;
import dev.rein.model.RedactedThinkingBlock;
import dev.rein.model.ThinkingBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CacheBreakpointsTest {

    private static ModelRequest.Builder request() {
        return ModelRequest.builder("m").option(AnthropicOptions.caching(PromptCaching.DEFAULT)).addMessage(Message.user("go"));
    }

    @Test
    void disabledCachingPlansNothing() {
        assertThat(CacheBreakpoints.plan(request().option(AnthropicOptions.caching(PromptCaching.DISABLED)).system("s").build()))
                .isEqualTo(CacheBreakpoints.Plan.NONE);
    }

    @Test
    void aHistoryEndingInThinkingFallsBackToTheLastCacheableBlock() {
        ModelRequest r = request().addMessage(Message.assistant(List.of(
                new ThinkingBlock("t", "s"), new RedactedThinkingBlock("r")))).build();
        CacheBreakpoints.Plan plan = CacheBreakpoints.plan(r);
        assertThat(plan.blocks()).containsExactly(new CacheBreakpoints.Position(0, 0));
    }

    @Test
    void withoutAFixedPrefixAllFourBreakpointsServeTheConversation() {
        List<ContentBlock> uses = new ArrayList<>();
        List<ContentBlock> results = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            uses.add(new ToolUseBlock("t" + i, "x", Json.object()));
            results.add(new ToolResultBlock("t" + i, "r", false));
        }
        CacheBreakpoints.Plan plan = CacheBreakpoints.plan(
                request().addMessage(Message.assistant(uses)).addMessage(Message.user(results)).build());
        assertThat(plan.system()).isFalse();
        assertThat(plan.tool()).isEqualTo(-1);
        assertThat(plan.count()).isEqualTo(CacheBreakpoints.MAX_BREAKPOINTS);
        assertThat(plan.blocks()).contains(new CacheBreakpoints.Position(2, 39));
    }
}
