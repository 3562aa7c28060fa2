package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.model.ModelCall;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelResponse;
import dev.rein.model.TraceContextHeaders;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Trace headers a tracing stage puts on each model call (new ones every call) are not part of what the model is asked:
 * a replay of an agent that has such a stage does not take them for a change, and traces do not hold them.
 */
class ReplayTraceHeadersTest {
    private static final AtomicInteger SPANS = new AtomicInteger();

    /** What a tracing integration does: a new traceparent for every call. */
    private static final ModelInterceptor TRACING = new ModelInterceptor() {
        @Override
        public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
            String span = String.format("%016x", SPANS.incrementAndGet());
            return chain.proceed(call.withRequest(call.request().withOption(new TraceContextHeaders(
                    Map.of("traceparent", "00-0af7651916cd43dd8448eb211c80319c-" + span + "-01")))));
        }
    };

    private static Agent.Builder agent(ScriptedModel model) {
        Tool search = Tool.builder("search").description("Searches.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}")
                .handler((args, ctx) -> "晴れ").build();
        return Agent.builder().model(model).systemPrompt("You research.").tools(search).modelInterceptor(TRACING);
    }

    @Test
    void aReplayOfAnAgentThatSetsNewTraceHeadersOnEveryCallDoesNotDiverge(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        RunResult recorded = agent(ScriptedModel.of(toolCalls(call("search", "{\"q\":\"東京\"}")), text("東京は晴れです")))
                .listener(JsonlTraceListener.to(trace)).build().run("東京の天気は?");
        assertThat(recorded.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(Files.readString(trace)).doesNotContain("traceparent");

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of()).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.result().answer()).isEqualTo("東京は晴れです");
    }

    @Test
    void anIntegrationCanTellTheModelAReplayAnswersWith(@TempDir Path dir) {
        Path trace = dir.resolve("run.jsonl");
        ScriptedModel live = ScriptedModel.of(text("done"));
        agent(live).listener(JsonlTraceListener.to(trace)).build().run("go");

        assertThat(Replay.answersFromRecording(Replay.from(trace).session().model())).isTrue();
        assertThat(Replay.answersFromRecording(live)).isFalse();
        assertThat(Replay.answersFromRecording(null)).isFalse();
    }
}
