package dev.rein.agent;

import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.reply;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolChoice;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.TraceEvent;
import dev.rein.testkit.RecordingListener;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Responses the API can send that carry no usable text: empty content, empty text blocks, cut-off summaries. */
class EmptyAndPartialResponsesTest {
    private final RecordingListener trace = new RecordingListener();

    private Agent.Builder agent(ScriptedModel model) {
        return Agent.builder().model(model).tools(TestTools.echo()).listener(trace);
    }

    @Test
    void anEmptyEndTurnAfterToolResultsIsAskedOnceMoreAndThenFails() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"a\"}")), reply(StopReason.END_TURN, Usage.ZERO),
                reply(StopReason.END_TURN, Usage.ZERO));
        RunResult result = agent(model).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo(Reasons.EMPTY_ANSWER);
        assertThat(result.message()).contains("without an answer");
        assertThat(model.requests()).hasSize(3);
        assertThat(model.lastRequest().messages().get(model.lastRequest().messages().size() - 1).text()).contains("Your last reply was empty");
        assertThat(result.history()).allSatisfy(m -> assertThat(m.content()).isNotEmpty());
    }

    @Test
    void anEmptyTurnAfterWorkThatFollowedAnEarlierNudgeIsNudgedAgain() {
        // "a second one ends the run" means a second empty turn in a row: the model that went back to work after
        // the first nudge was not stuck, so a later empty turn is nudged again instead of failing the run.
        ScriptedModel model = ScriptedModel.of(reply(StopReason.END_TURN, Usage.ZERO), toolCalls(call("echo", "{\"text\":\"a\"}")),
                reply(StopReason.END_TURN, Usage.ZERO), text("終わりました"));
        RunResult result = agent(model).build().run("go");
        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("終わりました");
        assertThat(model.requests()).hasSize(4);
    }

    @Test
    void aReplyOfOnlyInvisibleCharactersIsAnEmptyAnswerToo() {
        // isBlank() knows ASCII and ideographic spaces, not a no-break space, a zero-width space or a BOM.
        for (String invisible : new String[] {"\u00a0", "\u200b", " \ufeff\u2060 ", "\u202f\n"}) {
            ScriptedModel model = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"a\"}")), text(invisible), text(invisible));
            RunResult result = agent(model).build().run("go");
            assertThat(result.status()).as(Json.write(Json.object().put("answer", invisible))).isEqualTo(RunStatus.FAILED);
            assertThat(result.reason()).isEqualTo(Reasons.EMPTY_ANSWER);
            assertThat(model.requests()).hasSize(3);
        }
        RunResult visible = agent(ScriptedModel.of(text("\u00a0東京\u200b"))).build().run("go");
        assertThat(visible.status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void anEmptyEndTurnFollowedByAnAnswerSucceeds() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"a\"}")), reply(StopReason.END_TURN, Usage.ZERO),
                text("the echo said a"));
        RunResult result = agent(model).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("the echo said a");
        assertThat(trace.events(TraceEvent.Intervention.class)).extracting(TraceEvent.Intervention::kind).contains("empty_answer");
    }

    @Test
    void emptyRefusalsAndCutOffsKeepTheirReasons() {
        for (StopReason stop : List.of(StopReason.REFUSAL, StopReason.MAX_TOKENS, StopReason.MODEL_CONTEXT_WINDOW_EXCEEDED)) {
            RunResult result = agent(ScriptedModel.of(reply(stop, Usage.ZERO))).build().run("go");
            assertThat(result.status()).as(stop.name()).isEqualTo(RunStatus.FAILED);
            assertThat(result.reason()).as(stop.name()).isNotEqualTo(Reasons.INTERNAL_ERROR);
        }
    }

    @Test
    void emptyTextBlocksAreNotSentBack() {
        ScriptedModel model = ScriptedModel.of(
                reply(StopReason.TOOL_USE, Usage.ZERO, new TextBlock(""), new ToolUseBlock("toolu_1", "echo", Json.parse("{\"text\":\"a\"}"))),
                text("done"));
        agent(model).build().run("go");
        Message assistant = model.lastRequest().messages().get(1);
        assertThat(assistant.content()).singleElement().isInstanceOf(ToolUseBlock.class);
    }

    @Test
    void thePausedTextAndItsContinuationFormTheAnswer() {
        ScriptedModel model = ScriptedModel.of(reply(StopReason.PAUSE_TURN, Usage.ZERO, new TextBlock("Working on it. ")),
                text("Done."));
        RunResult result = agent(model).build().run("go");
        assertThat(result.answer()).isEqualTo("Working on it. Done.");
    }

    @Test
    void aCutOffOrEmptySummaryIsNeverPresentedAsTheAnswer() {
        ScriptedModel cut = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"a\"}")),
                reply(StopReason.MAX_TOKENS, Usage.ZERO, new TextBlock("Summ")));
        RunResult partial = agent(cut).budget(Budget.builder().maxSteps(1).build()).build().run("go");
        assertThat(partial.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(partial.answer()).startsWith("Stopped before the task was finished").contains("not complete (max_tokens): Summ");
        assertThat(cut.lastRequest().toolChoice()).isEqualTo(ToolChoice.none());

        ScriptedModel empty = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"a\"}")), reply(StopReason.END_TURN, Usage.ZERO));
        RunResult none = agent(empty).budget(Budget.builder().maxSteps(1).build()).build().run("go");
        assertThat(none.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(none.answer()).contains("echo");
    }

    @Test
    void aSummaryOfOnlyInvisibleCharactersIsNotTheAnswerEither() {
        // as for an answer: a no-break space or a zero-width space is no summary, so the run says what it knows
        for (String invisible : new String[] {"\u00a0", "\u200b", " \ufeff\u2060 "}) {
            ScriptedModel model = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"a\"}")), text(invisible));
            RunResult result = agent(model).budget(Budget.builder().maxSteps(1).build()).build().run("go");
            assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
            assertThat(result.answer()).as(Json.write(Json.object().put("summary", invisible)))
                    .isEqualTo("Stopped before the task was finished: the step limit of 1 was reached. Tool calls made: 1 (echo).");
        }
    }

    @Test
    void traceEventsWriteToolChoiceRolesAndStopReasonsAsTheApiDoes() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"a\"}")), text("summary"));
        agent(model).budget(Budget.builder().maxSteps(1).build()).build().run("go");
        List<TraceEvent.ModelRequested> requests = trace.events(TraceEvent.ModelRequested.class);
        var last = Json.mapper().valueToTree(requests.get(requests.size() - 1));
        assertThat(last.at("/request/tool_choice/type").asText()).isEqualTo("none");
        assertThat(last.at("/request/messages/0/role").asText()).isEqualTo("user");
        var response = Json.mapper().valueToTree(trace.events(TraceEvent.ModelResponded.class).get(0));
        assertThat(response.at("/response/stop_reason").asText()).isEqualTo("tool_use");
        assertThat(response.at("/usage/cache_creation_input_tokens").isNumber()).isTrue();
    }
}
