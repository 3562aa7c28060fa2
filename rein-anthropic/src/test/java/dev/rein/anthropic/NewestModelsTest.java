package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.model.ModelException;
import dev.rein.model.ModelException.Kind;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ToolChoice;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FakeReply;
import dev.rein.testkit.RecordingListener;
import dev.rein.tool.Tool;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Claude Opus 5.5, Sonnet 5.5 and Fable 5.1 against the fake server, which refuses what their "What's new" pages
 * say they refuse: thinking off or with a budget, a forced tool choice. The refusals say what to do in Rein's terms;
 * an agent sends none of it by default; thinking blocks (empty at the default display) go back unchanged, also to
 * another model, whose API drops those it cannot read.
 */
class NewestModelsTest extends FakeApi {

    private ModelException refusal(dev.rein.model.ModelRequest.Builder request) {
        return catchThrowableOfType(ModelException.class, () -> call(request));
    }

    /**
     * A model Rein lists is refused before anything is sent (SwitchedModelThinkingTest); the API's own refusal, of a model
     * Rein does not list (a newer one), gets the same advice after the API's words.
     */
    @Test
    void thinkingOffOrWithABudgetOnAModelThatAlwaysThinksSaysToUseAdaptiveThinkingAndEffort() {
        for (AnthropicThinking thinking : List.of(AnthropicThinking.disabled(), AnthropicThinking.budget(1024))) {
            String type = thinking.type().name().toLowerCase(java.util.Locale.ROOT);
            String api = "\"thinking.type." + type + "\" is not supported for this model. Use \"thinking.type.adaptive\" and"
                    + " \"output_config.effort\" to control thinking behavior.";
            server.enqueue(FakeReply.error(dev.rein.testkit.ApiErrorType.INVALID_REQUEST, api));
            ModelException e = refusal(dev.rein.model.ModelRequest.builder("claude-opus-6").maxTokens(2000)
                    .addMessage(dev.rein.model.Message.user("hi")).option(thinking));
            assertThat(e.kind()).isEqualTo(Kind.INVALID_REQUEST);
            assertThat(e.retryable()).isFalse();
            assertThat(e.getMessage()).isEqualTo(api
                    + (type.equals("disabled") ? ErrorMapper.ALWAYS_THINKS_ADVICE : ErrorMapper.NO_BUDGET_ADVICE));
        }
        assertThat(ErrorMapper.ALWAYS_THINKS_ADVICE).contains("AnthropicThinking.adaptive()").contains("AnthropicEffort")
                .contains("--thinking");
        assertThat(server.requests()).hasSize(2);
    }

    /**
     * The thinking troubleshooting docs: every model from Claude 4.7 on refuses a budget, also those that may think
     * less or not at all (Claude Sonnet 5, Opus 5): the refusal says to use adaptive thinking and effort, not that the
     * model always thinks. (An agent with a budget on such a model is refused when it is built: ThinkingBudgetTest; a
     * request built by hand, before it is sent.)
     */
    @Test
    void aBudgetRefusedByAModelThatMayStillTurnThinkingOffSaysToUseAdaptiveThinkingNotThatItAlwaysThinks() {
        String api = "\"thinking.type.enabled\" is not supported for this model. Use \"thinking.type.adaptive\" and"
                + " \"output_config.effort\" to control thinking behavior.";
        ModelException e = refusal(dev.rein.model.ModelRequest.builder("claude-sonnet-5").maxTokens(4000)
                .addMessage(dev.rein.model.Message.user("hi")).option(AnthropicThinking.budget(2000)));

        assertThat(e.kind()).isEqualTo(Kind.INVALID_REQUEST);
        assertThat(e.getMessage()).contains("\"thinking.type.enabled\" is not supported for this model").doesNotContain("always thinks")
                .contains("every model from Claude 4.7 on").contains("AnthropicThinking.adaptive()").contains("AnthropicEffort")
                .contains("--thinking adaptive");
        assertThat(server.requests()).as("refused before it was sent").isEmpty();
        // the API's own words, for a model Rein does not list
        server.enqueue(FakeReply.error(dev.rein.testkit.ApiErrorType.INVALID_REQUEST, api));
        e = refusal(dev.rein.model.ModelRequest.builder("claude-sonnet-6").maxTokens(4000)
                .addMessage(dev.rein.model.Message.user("hi")).option(AnthropicThinking.budget(2000)));
        assertThat(e.getMessage()).startsWith(api).doesNotContain("always thinks")
                .contains("takes no thinking budget").contains("AnthropicThinking.adaptive()").contains("AnthropicEffort")
                .contains("--thinking adaptive");
    }

    @Test
    void aForcedToolChoiceOnAModelThatRefusesItSaysToLeaveTheChoiceToTheModel() {
        for (String model : List.of("claude-opus-5-5", "claude-sonnet-5-5", "claude-fable-5-1")) {
            for (ToolChoice choice : List.of(ToolChoice.any(), ToolChoice.tool("lookup"))) {
                ModelException e = refusal(dev.rein.model.ModelRequest.builder(model).maxTokens(2000)
                        .addMessage(dev.rein.model.Message.user("hi")).tools(List.of(tool("lookup"))).toolChoice(choice));
                assertThat(e.kind()).isEqualTo(Kind.INVALID_REQUEST);
                assertThat(e.getMessage()).isEqualTo("tool_choice: type \"tool\" and \"any\" are not supported for this model."
                        + ErrorMapper.NO_FORCED_TOOL_CHOICE_ADVICE);
            }
        }
        assertThat(ErrorMapper.NO_FORCED_TOOL_CHOICE_ADVICE).contains("ToolChoice.auto()")
                .contains("AnthropicStructuredOutput");
        // Other invalid requests keep the API's words alone.
        server.enqueue(FakeReply.error(dev.rein.testkit.ApiErrorType.INVALID_REQUEST, "messages.0.content: Field required"));
        assertThat(refusal(request("hi")).getMessage()).isEqualTo("messages.0.content: Field required");
    }

    /**
     * Claude Sonnet 5.5 turns off thinking before the first tool call with {@code {"type": "between_tools"}} (its
     * "What's new" page: it refuses {@code disabled}); Rein could not send that type.
     */
    @Test
    void thinkingOnlyBetweenToolCallsIsSentAsTheBetweenToolsType() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        call(dev.rein.model.ModelRequest.builder("claude-sonnet-5-5").maxTokens(2000)
                .addMessage(dev.rein.model.Message.user("hi")).option(AnthropicThinking.betweenTools())
                .option(AnthropicEffort.LOW));
        assertThat(lastBody().get("thinking")).isEqualTo(dev.rein.json.Json.parse("{\"type\":\"between_tools\"}"));
        assertThat(AnthropicThinking.betweenTools().type()).isEqualTo(AnthropicThinking.Type.BETWEEN_TOOLS);
        assertThat(ErrorMapper.ALWAYS_THINKS_ADVICE).contains("AnthropicThinking.betweenTools()");
    }

    private static Tool lookup() {
        return Tool.builder("lookup_order").description("Looks up an order by id.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .handler((args, ctx) -> "order " + args.get("id").asText() + ": 配送遅延")
                .build();
    }

    /**
     * Probe: an agent on a model that refuses thinking off and forced tool choices sends neither; the thinking blocks
     * of a tool-using turn, empty at the default display ("omitted"), go back unchanged, before and after a fallback
     * to another model (the API drops, without an error, the blocks the other model cannot read: its preserved
     * thinking docs); the answer and the streamed text are the text blocks' alone.
     */
    @Test
    void anAgentOnTheNewestModelsSendsThinkingBlocksBackUnchangedAlsoToAFallbackModel() {
        server.enqueue(
                FakeReply.message().thinking("", "sig-fable-1").toolUse("toolu_1", "lookup_order", "{\"id\":\"A-104\"}").build(),
                FakeReply.message().thinking("", "sig-opus-2").text("A-104 は配送遅延です。").build());
        RecordingListener trace = new RecordingListener();
        ModelInterceptor fallbackAfterFirstCall = new ModelInterceptor() {
            private int calls;

            @Override
            public dev.rein.model.ModelResponse intercept(dev.rein.model.ModelCall call, Chain chain)
                    throws ModelException, InterruptedException {
                return chain.proceed(calls++ == 0 ? call : call.withRequest(call.request().withModel("claude-opus-5-5")));
            }
        };

        RunResult result = Agent.builder().model(model).modelName("claude-fable-5-1").tools(lookup())
                .modelInterceptor(fallbackAfterFirstCall).listener(trace).build().run("Why is A-104 late?");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("A-104 は配送遅延です。");
        assertThat(trace.streamedText()).isEqualTo("A-104 は配送遅延です。");
        JsonNode first = server.requests().get(0).body();
        JsonNode second = server.requests().get(1).body();
        for (JsonNode body : List.of(first, second)) {
            assertThat(body.has("thinking")).isFalse();
            assertThat(body.has("tool_choice")).isFalse();
        }
        assertThat(first.get("model").asText()).isEqualTo("claude-fable-5-1");
        assertThat(second.get("model").asText()).isEqualTo("claude-opus-5-5");
        assertThat(second.at("/messages/1/content/0").toString())
                .isEqualTo("{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"sig-fable-1\"}");
        assertThat(second.at("/messages/1/content/1/id").asText()).isEqualTo("toolu_1");
    }

    /**
     * Probe over the wire: a reflection critic on a model that refuses a forced tool choice (its review asks for the
     * verdict tool) has that 400 from the API and asks again letting the model choose; the run's later reviews ask so
     * from the start.
     */
    @Test
    void aCriticOnAModelThatRefusesAForcedChoiceReviewsByAskingAgainWithTheChoiceLeftToTheModel() {
        server.enqueue(
                FakeReply.text("42"),
                FakeReply.toolUse("toolu_v1", "verdict", "{\"approved\":false,\"problems\":[\"give the unit\"]}"),
                FakeReply.text("42 km"),
                FakeReply.toolUse("toolu_v2", "verdict", "{\"approved\":true,\"problems\":[]}"));

        RunResult result = Agent.builder().model(model).modelName("claude-opus-5-5")
                .reflection(dev.rein.reflection.Reflection.critic().maxRounds(2)).build().run("How far is it?");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("42 km");
        assertThat(server.pendingReplies()).isZero();
        List<String> choices = server.requests().stream()
                .map(r -> r.body().path("tool_choice").path("type").asText("(auto)")).toList();
        List<String> tools = server.requests().stream().map(r -> r.body().at("/tools/0/name").asText("-")).toList();
        // The worker's step, the critic's forced ask (refused), its ask again (auto: left out, the API's default),
        // the worker's step, the critic's ask.
        assertThat(tools).containsExactly("-", "verdict", "verdict", "-", "verdict");
        assertThat(choices).containsExactly("(auto)", "tool", "(auto)", "(auto)", "(auto)");
    }
}
