package dev.rein.otel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.model.Message;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.Usage;
import dev.rein.run.RunStatus;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The GenAI conventions' invoke_agent (INTERNAL) span recommends the request's gen_ai.request.max_tokens, temperature,
 * top_p and stop_sequences and gen_ai.response.finish_reasons, as the inference span does; the run span had none of
 * them. They are the agent's own model calls' ("step"): the request parameters of the segment's first step (a context
 * policy's or a critic's call first does not count), the finish reason of the last answer of the agent (a step or the
 * final summary), in the words the chat span gives it. A segment without a model call has none.
 */
class RunSpanGenerationTest {
    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

    private static ModelRequest request(int maxTokens, double temperature) {
        return ModelRequest.builder("m").messages(List.of(Message.user("東京の天気は?"))).maxTokens(maxTokens)
                .temperature(temperature).topP(0.9).stopSequences(List.of("END", "終わり")).build();
    }

    private static void call(RunListener listener, String runId, int step, String purpose, ModelRequest request, StopReason stop) {
        listener.onEvent(new TraceEvent.ModelRequested(runId, step, T.plusMillis(step * 10L), purpose, request));
        listener.onEvent(new TraceEvent.ModelResponded(runId, step, T.plusMillis(step * 10L + 5),
                new ModelResponse("msg_" + step, "m", List.of(new TextBlock("晴れです")), stop, null, Usage.of(7, 3, 0, 0)),
                Usage.of(7, 3, 0, 0), null, null, 5));
    }

    private static Attributes run(String runId) {
        return OTEL.getSpans().stream().filter(s -> s.getName().startsWith("invoke_agent")
                && runId.equals(s.getAttributes().get(GenAiConventions.CONVERSATION_ID))).findFirst().map(SpanData::getAttributes)
                .orElseThrow();
    }

    @Test
    void theRunSpanHasTheAgentsRequestParametersAndTheFinishReasonOfItsLastAnswer() {
        RunListener listener = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("anthropic").build().listener()
                .create("run-g1");
        listener.onEvent(new TraceEvent.RunStarted("run-g1", 0, T, "東京の天気は?", "m", List.of(), Map.of()));
        call(listener, "run-g1", 1, "compaction", request(256, 0.0), StopReason.END_TURN);
        call(listener, "run-g1", 1, "step", request(1024, 0.2), StopReason.TOOL_USE);
        call(listener, "run-g1", 2, "step", request(512, 0.7), StopReason.MAX_TOKENS);
        call(listener, "run-g1", 3, "critic", request(128, 0.0), StopReason.END_TURN);
        listener.onEvent(new TraceEvent.RunFinished("run-g1", 3, T.plusMillis(100), RunStatus.SUCCEEDED, "completed", null, "晴れ",
                Usage.of(21, 9, 0, 0), null));
        listener.close();

        Attributes run = run("run-g1");
        assertThat(run.get(GenAiConventions.REQUEST_MAX_TOKENS)).isEqualTo(1024L);
        assertThat(run.get(GenAiConventions.REQUEST_TEMPERATURE)).isEqualTo(0.2);
        assertThat(run.get(GenAiConventions.REQUEST_TOP_P)).isEqualTo(0.9);
        assertThat(run.get(GenAiConventions.REQUEST_STOP_SEQUENCES)).containsExactly("END", "終わり");
        assertThat(run.get(GenAiConventions.RESPONSE_FINISH_REASONS)).as("the last step's, not the critic's").containsExactly("max_tokens");
    }

    @Test
    void theFinalSummaryIsTheAgentsLastAnswerAndAnOpenAiModelsReasonIsInItsWords() {
        RunListener listener = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("openai").build().listener()
                .create("run-g2");
        listener.onEvent(new TraceEvent.RunStarted("run-g2", 0, T, "goal", "m", List.of(), Map.of()));
        call(listener, "run-g2", 1, "step", request(1024, 0.2), StopReason.TOOL_USE);
        call(listener, "run-g2", 2, "final_summary", request(300, 0.2), StopReason.END_TURN);
        listener.onEvent(new TraceEvent.RunFinished("run-g2", 2, T.plusMillis(100), RunStatus.STOPPED_BUDGET, "max_steps", null,
                "summary", Usage.of(14, 6, 0, 0), null));
        listener.close();

        Attributes run = run("run-g2");
        assertThat(run.get(GenAiConventions.REQUEST_MAX_TOKENS)).isEqualTo(1024L);
        assertThat(run.get(GenAiConventions.RESPONSE_FINISH_REASONS)).containsExactly("stop");
    }

    /**
     * A reason Rein has no value for (a server's own "eos": Rein's UNKNOWN) or maps to a neutral one (Mistral's
     * "model_length": MODEL_CONTEXT_WINDOW_EXCEEDED) is reported as the provider sent it, on the chat span and the
     * run span: the attribute is the provider's vocabulary. Before, the chat span said "unknown" and
     * "model_context_window_exceeded".
     */
    @Test
    void theProvidersOwnFinishReasonIsReportedAsItSentIt() {
        RunListener listener = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("openai").build().listener()
                .create("run-g4");
        listener.onEvent(new TraceEvent.RunStarted("run-g4", 0, T, "goal", "m", List.of(), Map.of()));
        respond(listener, "run-g4", 1, StopReason.UNKNOWN, "eos");
        respond(listener, "run-g4", 2, StopReason.MODEL_CONTEXT_WINDOW_EXCEEDED, "model_length");
        respond(listener, "run-g4", 3, StopReason.TOOL_USE, null); // a model that does not give it: as before
        listener.onEvent(new TraceEvent.RunFinished("run-g4", 3, T.plusMillis(100), RunStatus.FAILED, "provider_error", null, null,
                Usage.of(21, 9, 0, 0), null));
        listener.close();

        assertThat(OTEL.getSpans()).filteredOn(s -> s.getName().startsWith("chat ")
                        && "run-g4".equals(s.getAttributes().get(GenAiConventions.CONVERSATION_ID)))
                .extracting(s -> s.getAttributes().get(GenAiConventions.RESPONSE_FINISH_REASONS))
                .containsExactly(List.of("eos"), List.of("model_length"), List.of("tool_calls"));
        assertThat(run("run-g4").get(GenAiConventions.RESPONSE_FINISH_REASONS)).containsExactly("tool_calls");
    }

    private static void respond(RunListener listener, String runId, int step, StopReason stop, String sent) {
        listener.onEvent(new TraceEvent.ModelRequested(runId, step, T.plusMillis(step * 10L), "step", request(64, 0.0)));
        listener.onEvent(new TraceEvent.ModelResponded(runId, step, T.plusMillis(step * 10L + 5),
                new ModelResponse("msg_" + step, "m", List.of(new TextBlock("…")), stop, null, Usage.of(7, 3, 0, 0), null, sent),
                Usage.of(7, 3, 0, 0), null, null, 5));
    }

    @Test
    void aSegmentWithoutAModelCallHasNone() {
        RunListener listener = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("anthropic").build().listener()
                .create("run-g3");
        listener.onEvent(new TraceEvent.RunStarted("run-g3", 0, T, "goal", "m", List.of(), Map.of()));
        call(listener, "run-g3", 1, "compaction", request(256, 0.0), StopReason.END_TURN);
        listener.onEvent(new TraceEvent.RunFinished("run-g3", 1, T.plusMillis(100), RunStatus.CANCELLED, "cancelled", null, null,
                Usage.of(7, 3, 0, 0), null));
        listener.close();

        Attributes run = run("run-g3");
        assertThat(run.get(GenAiConventions.REQUEST_MAX_TOKENS)).isNull();
        assertThat(run.get(GenAiConventions.REQUEST_TEMPERATURE)).isNull();
        assertThat(run.get(GenAiConventions.RESPONSE_FINISH_REASONS)).isNull();
    }
}
