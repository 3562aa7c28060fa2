package dev.rein.bench;

import dev.rein.agent.Agent;
import dev.rein.budget.ModelPrice;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.Model;
import dev.rein.model.ModelResponse;
import dev.rein.model.Role;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.tool.Tool;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Rein's agent loop without a provider: the same agent as {@link ReinClient} over an in-process
 * model that answers as the fake server does (a text and one {@code lookup} call per step, then a
 * final text). What it costs per step is the loop's own work: guards, tool pipeline, trace, store.
 */
final class ReinInProcessClient implements Client {
    private final Agent agent;
    private final AtomicLong ids = new AtomicLong();

    ReinInProcessClient(int steps) {
        if (steps < 2) {
            throw new IllegalArgumentException("rein-inprocess answers a fixed number of steps; use it with LoopBench");
        }
        Model model = (request, context) -> {
            int turn = 0;
            for (Message m : request.messages()) {
                turn += m.role() == Role.ASSISTANT ? 1 : 0;
            }
            boolean last = turn >= steps - 1;
            List<ContentBlock> content = last
                    ? List.of(new TextBlock("All " + turn + " items were looked up; the answer is 42."))
                    : List.of(new TextBlock("Looking up item " + turn + "."), new ToolUseBlock("toolu_" + ids.incrementAndGet(),
                            "lookup", Json.parse("{\"q\":\"item " + turn + "-0\"}")));
            return new ModelResponse("msg_" + ids.incrementAndGet(), request.model(), content,
                    last ? StopReason.END_TURN : StopReason.TOOL_USE, null, Usage.of(100, 20, 0, 0));
        };
        Tool lookup = Tool.builder("lookup")
                .description(Scenario.TOOL_DESCRIPTION)
                .inputSchema(Scenario.SCHEMA)
                .handler((args, context) -> Scenario.lookup(args.path("q").asText()))
                .build();
        this.agent = ReinClient.agent(model, lookup).price(Scenario.MODEL, ModelPrice.of("3", "0.3", "15")).build();
    }

    @Override
    public int run() {
        return ReinClient.runToEnd(agent);
    }
}
