package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.ModelPrice;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelResponse;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FakeReply;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Probe for the check before sending (60bf09d1) and the dated-id rule (fb81595e, ModelIds): a model Rein does not
 * list, a newer one or an id that extends a listed one otherwise than by a date, is the API's to judge, so every kind
 * of thinking is sent to it, whether the agent was built for it or a stage switched to it (the API may still refuse
 * it, as it refuses between_tools on any model but Claude Sonnet 5.5).
 */
class UnlistedModelThinkingTest extends FakeApi {
    /** A price for the unlisted models, which the default money limit needs. */
    private static final ModelPrice PRICE = ModelPrice.of("3", "0.3", "15");

    private static ModelInterceptor switchTo(String model) {
        return new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                return chain.proceed(call.withRequest(call.request().withModel(model)));
            }
        };
    }

    @Test
    void everyThinkingIsSentToAModelReinDoesNotListBuiltForOrSwitchedTo() {
        List<AnthropicThinking> kinds = List.of(AnthropicThinking.disabled(), AnthropicThinking.budget(2_000),
                AnthropicThinking.betweenTools());
        for (String unlisted : List.of("claude-opus-6", "claude-sonnet-5-5-fast", "claude-opus-5-5-1")) {
            for (AnthropicThinking thinking : kinds) {
                String type = thinking.type().name().toLowerCase(java.util.Locale.ROOT);
                server.enqueue(FakeReply.text("注文 A-1 は発送済みです。"));
                RunResult built = Agent.builder().model(model).modelName(unlisted).price(unlisted, PRICE)
                        .modelOption(thinking).build()
                        .run("注文 A-1 は?");
                assertSent(built, unlisted, type);
                if (built.status() == RunStatus.SUCCEEDED) {
                    assertThat(built.answer()).isEqualTo("注文 A-1 は発送済みです。");
                }
                assertThat(lastBody().path("model").asText()).isEqualTo(unlisted);
                assertThat(lastBody().at("/thinking/type").asText()).isEqualTo(type);

                server.enqueue(FakeReply.text("ok"));
                RunResult switched = Agent.builder().model(model).modelName("claude-sonnet-4-5").modelOption(thinking)
                        .price(unlisted, PRICE).modelInterceptor(switchTo(unlisted)).build().run("hi");
                assertSent(switched, unlisted, type);
                assertThat(lastBody().path("model").asText()).isEqualTo(unlisted);
                assertThat(lastBody().at("/thinking/type").asText()).isEqualTo(type);
            }
        }
    }

    /**
     * The run's request reached the API: answered, or, for between_tools, refused by the API itself (the fake server
     * takes it only on Claude Sonnet 5.5, as the thinking troubleshooting page says), not by Rein before it was sent.
     */
    private static void assertSent(RunResult result, String model, String type) {
        if (type.equals("between_tools")) {
            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.message()).as(model).contains("HTTP 400").doesNotContain("cannot be sent to")
                    .doesNotContain("cannot be used on");
        } else {
            assertThat(result.status()).as(model + " " + type + ": " + result.message()).isEqualTo(RunStatus.SUCCEEDED);
        }
    }
}
