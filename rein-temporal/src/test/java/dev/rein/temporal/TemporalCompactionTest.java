package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.Budget;
import dev.rein.context.Compaction;
import dev.rein.context.ContextPolicy;
import dev.rein.json.Json;
import dev.rein.model.Model;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.testkit.RecordingListener;
import dev.rein.trace.TraceEvent;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A context policy that compacts the history before a step (in ReinCallModel) acts on Temporal as locally: the same
 * compaction calls, history, steps and usage (probe).
 */
class TemporalCompactionTest {
    /** Looks up and answers; a request without tools (the compaction's) is answered with a summary. */
    private static Model model() {
        AtomicInteger steps = new AtomicInteger();
        return (request, context) -> {
            if (request.tools().isEmpty()) {
                return new ModelResponse("msg_summary", request.model(), List.of(new TextBlock("要約: 注文を順に調べている。")),
                        StopReason.END_TURN, null, Usage.of(400, 30, 0, 0));
            }
            int n = steps.incrementAndGet();
            if (n > 8) {
                return new ModelResponse("msg_" + n, request.model(), List.of(new TextBlock("すべて配達済みです。")),
                        StopReason.END_TURN, null, Usage.of(500, 10, 0, 0));
            }
            return new ModelResponse("msg_" + n, request.model(), List.of(new ToolUseBlock("toolu_" + n, "lookup_order",
                    Json.parse("{\"id\":\"A-" + n + "\"}"))), StopReason.TOOL_USE, null, Usage.of(300 * n, 20, 0, 0));
        };
    }

    @Test
    void aCompactionBeforeAStepActsAsLocally() {
        Function<RecordingListener, Agent> agent = trace -> Agent.builder().model(model()).modelName("m")
                .tools(Orders.lookup()).listener(trace)
                .budget(Budget.builder().maxSteps(12).maxCostUsd((java.math.BigDecimal) null).maxDuration(Duration.ofMinutes(10)).build())
                .contextPolicy(ContextPolicy.builder().compaction(new Compaction(dev.rein.context.Side.CLIENT, 60, 2, null)).build()).build();
        RecordingListener localTrace = new RecordingListener();
        RunResult local = agent.apply(localTrace).run("A-1 から A-8 の状況は?");
        assertThat(localTrace.events(TraceEvent.Intervention.class)).as("the local run compacted").isNotEmpty();

        RecordingListener trace = new RecordingListener();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult remote = server.start(agent.apply(trace)).start("A-1 から A-8 の状況は?", "run-compaction").result();

            assertThat(remote.status()).as("status").isEqualTo(local.status());
            assertThat(remote.reason()).as("reason").isEqualTo(local.reason());
            assertThat(remote.answer()).as("answer").isEqualTo(local.answer());
            assertThat(remote.steps()).as("steps").isEqualTo(local.steps());
            assertThat(remote.usage()).as("usage").isEqualTo(local.usage());
            assertThat(remote.history()).as("history").isEqualTo(local.history());
            assertThat(trace.events(TraceEvent.Intervention.class).stream().map(i -> i.kind()).toList()).as("interventions")
                    .isEqualTo(localTrace.events(TraceEvent.Intervention.class).stream().map(i -> i.kind()).toList());
            assertThat(trace.events(TraceEvent.class).stream().map(e -> e.getClass().getSimpleName()).toList())
                    .as("trace events").isEqualTo(localTrace.events(TraceEvent.class).stream()
                            .map(e -> e.getClass().getSimpleName()).toList());
        }
    }
}
