package dev.rein.temporal;

import static dev.rein.temporal.SameAsLocal.assertSameAsLocal;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.temporal.SameAsLocal.Also;
import dev.rein.temporal.SameAsLocal.Ran;
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
        Ran local = SameAsLocal.local(agent, "A-1 から A-8 の状況は?");
        assertThat(local.trace().events(TraceEvent.Intervention.class)).as("the local run compacted").isNotEmpty();

        assertSameAsLocal(SameAsLocal.onTemporal(agent, "A-1 から A-8 の状況は?", "run-compaction"), local,
                Also.USAGE, Also.HISTORY, Also.INTERVENTIONS, Also.TRACE_EVENTS);
    }
}
