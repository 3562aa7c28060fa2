package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.model.Message;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FakeReply;
import org.junit.jupiter.api.Test;

/**
 * The thinking an agent was built with is checked against its own model then; a {@code ModelInterceptor} (a fallback)
 * that switches a step to another model, or a request built by hand, is checked against the model actually sent,
 * before it is sent: the same refusals (between_tools on a model other than Claude Sonnet 5.5, thinking off on a model
 * that always thinks, a budget on a model from Claude 4.7 on) in Rein's words, saying the model was set after the
 * agent was built and how to switch the thinking with it, instead of the API's bare 400.
 */
class SwitchedModelThinkingTest extends FakeApi {

    /** Switches every step to {@code model}. */
    private static ModelInterceptor switchTo(String model) {
        return new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                return chain.proceed(call.withRequest(call.request().withModel(model)));
            }
        };
    }

    private RunResult run(String agentModel, AnthropicThinking thinking, String switchedTo) {
        server.enqueue(FakeReply.text("unused"));
        return Agent.builder().model(model).modelName(agentModel).modelOption(thinking)
                .modelInterceptor(switchTo(switchedTo)).build().run("注文 A-1 は?");
    }

    private static void assertSetLater(RunResult result, String model) {
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.message())
                .contains(model + " was set on the request after that, by a ModelInterceptor or a fallback")
                .contains("request.withModel(\"" + model + "\").withOption(AnthropicThinking.adaptive())");
    }

    @Test
    void betweenToolsSwitchedToAModelOtherThanSonnet55IsRefusedBeforeItIsSent() {
        RunResult result = run("claude-sonnet-5-5", AnthropicThinking.betweenTools(), "claude-opus-5-5");

        assertSetLater(result, "claude-opus-5-5");
        assertThat(result.message()).contains("AnthropicThinking.betweenTools() cannot be sent to claude-opus-5-5")
                .contains("only Claude Sonnet 5.5 takes between_tools thinking");
        assertThat(server.requests()).as("nothing was sent").isEmpty();
    }

    @Test
    void thinkingOffSwitchedToSonnet55IsRefusedSayingToUseBetweenTools() {
        // Claude Sonnet 5 takes thinking off; Claude Sonnet 5.5 always thinks, and a dated id is that model.
        RunResult result = run("claude-sonnet-5", AnthropicThinking.disabled(), "claude-sonnet-5-5-20260929");

        assertSetLater(result, "claude-sonnet-5-5-20260929");
        assertThat(result.message()).contains("AnthropicThinking.disabled() cannot be sent to claude-sonnet-5-5-20260929")
                .contains("this model always thinks").contains("AnthropicThinking.betweenTools()");
        assertThat(server.requests()).as("nothing was sent").isEmpty();
    }

    @Test
    void aBudgetSwitchedToAModelFromClaude47OnIsRefusedBeforeItIsSent() {
        // Claude Sonnet 4.5 takes a budget; Claude Opus 5 does not.
        RunResult result = run("claude-sonnet-4-5", AnthropicThinking.budget(2_000), "claude-opus-5");

        assertSetLater(result, "claude-opus-5");
        assertThat(result.message()).contains("AnthropicThinking.budget(2000) cannot be sent to claude-opus-5")
                .contains("\"thinking.type.enabled\" is not supported for this model");
        assertThat(server.requests()).as("nothing was sent").isEmpty();
    }

    @Test
    void aRequestBuiltByHandIsCheckedAgainstItsModelAndEndsItsCallWithANonRetryableInvalidRequest() {
        server.enqueue(FakeReply.text("unused"));
        ModelException e = catchThrowableOfType(ModelException.class, () -> call(ModelRequest.builder("claude-fable-5-1")
                .maxTokens(2000).addMessage(Message.user("hi")).option(AnthropicThinking.betweenTools())));

        assertThat(e.kind()).isEqualTo(ModelException.Kind.INVALID_REQUEST);
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).contains("AnthropicThinking.betweenTools() cannot be sent to claude-fable-5-1")
                .contains("or the request was built by hand");
        assertThat(server.requests()).as("nothing was sent").isEmpty();
    }

    /** Probe: what the model sent takes is sent, also when it is not the agent's (a model Rein does not list is the API's to judge). */
    @Test
    void thinkingTheSwitchedModelTakesIsSent() {
        server.enqueue(FakeReply.text("A-1 は発送済みです。"));
        RunResult result = Agent.builder().model(model).modelName("claude-sonnet-5").modelOption(AnthropicThinking.disabled())
                .modelInterceptor(switchTo("claude-sonnet-4-5")).build().run("注文 A-1 は?");
        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("A-1 は発送済みです。");
        assertThat(lastBody().path("model").asText()).isEqualTo("claude-sonnet-4-5");
        assertThat(lastBody().at("/thinking/type").asText()).isEqualTo("disabled");

        server.enqueue(FakeReply.text("ok"));
        result = Agent.builder().model(model).modelName("claude-sonnet-4-5").modelOption(AnthropicThinking.betweenTools())
                .modelInterceptor(switchTo("claude-sonnet-5-5")).build().run("hi");
        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(lastBody().at("/thinking/type").asText()).isEqualTo("between_tools");
    }
}
