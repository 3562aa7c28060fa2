package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.model.Model;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ThinkingBlock;
import dev.rein.model.Usage;
import dev.rein.tool.Secrets;
import dev.rein.trace.RunListener;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The model's thinking reaches a run's listeners through {@code onThinkingDelta} as it streams (a live view is not
 * quiet while the model thinks), apart from the text, and masked as the text is: a secret split across fragments
 * never reaches a listener.
 */
class StreamedThinkingTest {
    private static final String SECRET = "sk-live-0123456789";

    @Test
    void thinkingFragmentsReachListenersMaskedAndApartFromTheText() {
        String thinking = "鍵 " + SECRET + " は使わない。";
        Model model = (request, context) -> {
            // the secret split across two fragments, as a stream may cut it
            context.stream().onThinkingDelta(thinking.substring(0, 8));
            context.stream().onThinkingDelta(thinking.substring(8));
            context.stream().onTextDelta("完了");
            return new ModelResponse("m1", "m", List.of(new ThinkingBlock(thinking, "sig"), new TextBlock("完了")),
                    StopReason.END_TURN, null, Usage.NOT_REPORTED);
        };
        List<String> heard = new CopyOnWriteArrayList<>();
        RunResult result = Agent.builder().model(model).modelName("m")
                .budget(Budget.builder().maxCostUsd((BigDecimal) null).build())
                .secrets(Secrets.of(Map.of("api_key", SECRET)))
                .listener(id -> new RunListener() {
                    @Override
                    public void onThinkingDelta(String fragment) {
                        heard.add("thinking:" + fragment);
                    }

                    @Override
                    public void onTextDelta(String text) {
                        heard.add("text:" + text);
                    }
                }).build().run("やって");

        assertThat(result.answer()).isEqualTo("完了");
        String allThinking = String.join("", heard.stream().filter(e -> e.startsWith("thinking:")).map(e -> e.substring(9)).toList());
        assertThat(allThinking).doesNotContain(SECRET).startsWith("鍵 ").endsWith(" は使わない。");
        assertThat(heard).last().isEqualTo("text:完了");
        assertThat(heard.stream().filter(e -> e.startsWith("text:"))).containsExactly("text:完了");
    }
}
