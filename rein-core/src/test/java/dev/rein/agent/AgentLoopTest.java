package dev.rein.agent;

import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.Role;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolChoice;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.trace.TraceEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

class AgentLoopTest {
    private final RecordingListener trace = new RecordingListener();

    private Agent.Builder agent(ScriptedModel model) {
        return Agent.builder().model(model).systemPrompt("be brief").tools(TestTools.echo()).listener(trace);
    }

    @Test
    void answerWithoutToolUseEndsTheRunSucceeded() {
        ScriptedModel model = ScriptedModel.of(text("hello"));
        RunResult result = agent(model).build().run("say hello");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.reason()).isEqualTo(Reasons.COMPLETED);
        assertThat(result.answer()).isEqualTo("hello");
        assertThat(result.steps()).isEqualTo(1);
        assertThat(model.lastRequest().systemText()).isEqualTo("be brief");
        assertThat(model.lastRequest().tools()).extracting(d -> d.name()).containsExactly("echo");
    }

    @Test
    void everyToolUseIsAnsweredInOrderAndTheAssistantTurnIsKeptUnchanged() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls("let me check", call("echo", "{\"text\":\"a\"}"), call("echo", "{\"text\":\"b\"}"), call("nope", "{}")),
                text("done"));
        RunResult result = agent(model).build().run("go");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        List<Message> sent = model.requests().get(1).messages();
        assertThat(sent).hasSize(3);
        Message assistant = sent.get(1);
        assertThat(assistant.role()).isEqualTo(Role.ASSISTANT);
        assertThat(assistant.content().get(0)).isEqualTo(new TextBlock("let me check"));
        List<ToolUseBlock> uses = assistant.toolUses();
        Message results = sent.get(2);
        assertThat(results.role()).isEqualTo(Role.USER);
        assertThat(results.content()).hasSize(3);
        for (int i = 0; i < 3; i++) {
            ContentBlock block = results.content().get(i);
            assertThat(block).isInstanceOf(ToolResultBlock.class);
            assertThat(((ToolResultBlock) block).toolUseId()).isEqualTo(uses.get(i).id());
        }
        assertThat(((ToolResultBlock) results.content().get(0)).content())
                .startsWith("<untrusted_data source=\"tool:echo\" tool=\"echo\"").contains("\necho: a\n");
        ToolResultBlock unknown = (ToolResultBlock) results.content().get(2);
        assertThat(unknown.isError()).isTrue();
        assertThat(unknown.content()).contains("Unknown tool 'nope'").contains("echo");
    }

    @Test
    void maxTokensIsAFailureNotAnAnswer() {
        ScriptedModel model = ScriptedModel.of(ScriptedModel.reply(StopReason.MAX_TOKENS, Usage.ZERO, new TextBlock("The answer is")));
        RunResult result = agent(model).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo("max_tokens");
        assertThat(result.answer()).isEmpty();
    }

    @Test
    void budgetExhaustionMakesOneSummaryCallWithToolsAndToolChoiceNone() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("echo", "{\"text\":\"1\"}")),
                toolCalls(call("echo", "{\"text\":\"2\"}")),
                text("Known: 1 and 2. Unfinished: the rest."));
        RunResult result = agent(model).budget(dev.rein.budget.Budget.builder().maxSteps(2).build()).build().run("go");

        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("max_steps");
        assertThat(result.answer()).isEqualTo("Known: 1 and 2. Unfinished: the rest.");
        var summary = model.lastRequest();
        assertThat(summary.toolChoice()).isEqualTo(ToolChoice.none());
        assertThat(summary.tools()).isNotEmpty();
        assertThat(summary.systemText()).isEqualTo("be brief");
        assertThat(trace.events(TraceEvent.RunFinished.class)).singleElement()
                .satisfies(f -> assertThat(f.status()).isEqualTo(RunStatus.STOPPED_BUDGET));
    }
}
