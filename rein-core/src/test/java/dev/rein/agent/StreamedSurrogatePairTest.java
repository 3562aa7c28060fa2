package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.model.Model;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.Usage;
import dev.rein.tool.Secrets;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
import org.junit.jupiter.api.Test;

/**
 * A provider whose text deltas split a surrogate pair (a gateway that cuts its stream by UTF-16
 * units, and an OpenAI-compatible server that escapes each half as {@code \ud83d} and
 * {@code \ude0a} in two chunks): no fragment handed to a listener or a stream consumer holds half
 * a pair, which no UTF-8 writer can write (rein run --json-stream printed "?" for it).
 */
class StreamedSurrogatePairTest {
    private static final String ANSWER = "返金します😊、🦊で終わり😊";

    /** Streams the answer one UTF-16 unit at a time. */
    private static Model unitByUnit() {
        return (request, context) -> {
            for (int i = 0; i < ANSWER.length(); i++) {
                context.stream().onTextDelta(ANSWER.substring(i, i + 1));
            }
            return new ModelResponse("m1", "m", List.of(new TextBlock(ANSWER)), StopReason.END_TURN, null, Usage.NOT_REPORTED);
        };
    }

    private static void assertWellFormedAndWhole(List<String> deltas) {
        assertThat(String.join("", deltas)).isEqualTo(ANSWER);
        for (String delta : deltas) {
            assertThat(delta.codePoints().noneMatch(cp -> cp >= 0xD800 && cp <= 0xDFFF)).as("half a surrogate pair in the delta %s",
                    delta.chars().mapToObj(c -> String.format("U+%04X", c)).collect(Collectors.joining(" "))).isTrue();
        }
    }

    private static Agent.Builder agent() {
        return Agent.builder().model(unitByUnit()).modelName("m").budget(Budget.builder().maxCostUsd((BigDecimal) null).build());
    }

    /** The text deltas a run listener is given, one by one as the run streams them. */
    private static List<String> deltas(Agent.Builder agent) {
        List<String> deltas = new CopyOnWriteArrayList<>();
        RunResult result = agent.listener(id -> new RunListener() {
            @Override
            public void onEvent(TraceEvent event) {}

            @Override
            public void onTextDelta(String text) {
                deltas.add(text);
            }
        }).build().run("返金して");
        assertThat(result.answer()).isEqualTo(ANSWER);
        return deltas;
    }

    @Test
    void noStreamedDeltaHoldsHalfASurrogatePair() {
        assertWellFormedAndWhole(deltas(agent()));
    }

    @Test
    void noStreamedDeltaHoldsHalfASurrogatePairWhenSecretsAreMasked() {
        assertWellFormedAndWhole(deltas(agent().secrets(Secrets.of(Map.of("api_key", "sk-live-0123456789")))));
    }

    @Test
    void aRunStreamsConsumerReadingAsTheTextComesGetsNoHalfPair() {
        List<String> deltas = new java.util.ArrayList<>();
        Model slow = (request, context) -> {
            for (int i = 0; i < ANSWER.length(); i++) {
                context.stream().onTextDelta(ANSWER.substring(i, i + 1));
                Thread.sleep(5);
            }
            return new ModelResponse("m1", "m", List.of(new TextBlock(ANSWER)), StopReason.END_TURN, null, Usage.NOT_REPORTED);
        };
        try (RunStream run = agent().model(slow).build().stream("返金して")) {
            run.stream().forEach(e -> {
                if (e instanceof RunEvent.TextDelta delta) {
                    deltas.add(delta.text());
                }
            });
        }
        assertWellFormedAndWhole(deltas);
    }
}
