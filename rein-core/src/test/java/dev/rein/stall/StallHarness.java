package dev.rein.stall;

import dev.rein.internal.stall.StallMonitor;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Drives a {@link StallMonitor} the way the loop does, and keeps the history the loop would keep. */
final class StallHarness {
    /** One proposed call and what the tool would return if it ran. */
    record Call(String tool, String json, String result, boolean error) {}

    /** What happened to one step's calls. */
    record Outcome(List<StallMonitor.CallDecision> decisions, StallMonitor.StepReview review, int executed) {
        boolean blocked(int i) {
            return decisions.get(i) instanceof StallMonitor.CallDecision.Block;
        }

        boolean stopped() {
            return decisions.stream().anyMatch(StallMonitor.CallDecision.Stop.class::isInstance) || review.stop().isPresent();
        }

        boolean quiet() {
            return decisions.stream().allMatch(StallMonitor.CallDecision.Allow.class::isInstance)
                    && review.warnings().isEmpty() && review.stop().isEmpty();
        }
    }

    final StallMonitor monitor;
    final Map<String, Tool> tools = new HashMap<>();
    final List<Message> history = new ArrayList<>(List.of(Message.user("goal")));
    private int step;
    private int ids;

    StallHarness(StallPolicy policy) {
        this.monitor = new StallMonitor(policy);
        tool("search", Risk.READ, false, null);
        tool("read", Risk.READ, false, null);
        tool("status", Risk.READ, true, null);
        tool("write_file", Risk.WRITE, false, "path");
        tool("send", Risk.WRITE, false, null);
    }

    StallHarness() {
        this(StallPolicy.defaults());
    }

    void tool(String name, Risk risk, boolean polling, String resourceArgument) {
        tools.put(name, Tool.builder(name).description(name).risk(risk).polling(polling).resourceArgument(resourceArgument)
                .handler((a, c) -> "unused").build());
    }

    static Call ok(String tool, String json, String result) {
        return new Call(tool, json, result, false);
    }

    static Call fail(String tool, String json) {
        return new Call(tool, json, "Tool '" + tool + "' failed", true);
    }

    Outcome step(Call... calls) {
        step++;
        List<ContentBlock> uses = new ArrayList<>();
        List<ContentBlock> results = new ArrayList<>();
        List<StallMonitor.CallDecision> decisions = new ArrayList<>();
        List<Observed> observed = new ArrayList<>();
        for (Call c : calls) {
            String id = "toolu_" + (++ids);
            ToolUseBlock use = new ToolUseBlock(id, c.tool(), Json.parse(c.json()));
            uses.add(use);
            ProposedCall proposed = ProposedCall.of(id, c.tool(), use.input(), tools.get(c.tool()), step);
            StallMonitor.CallDecision decision = monitor.beforeCall(proposed);
            decisions.add(decision);
            switch (decision) {
                case StallMonitor.CallDecision.Allow a -> {
                    results.add(new ToolResultBlock(id, c.result(), c.error()));
                    observed.add(new Observed(proposed, c.result(), c.error()));
                }
                case StallMonitor.CallDecision.Block b -> results.add(new ToolResultBlock(id, b.finding().message(), true));
                case StallMonitor.CallDecision.Stop s -> results.add(new ToolResultBlock(id, StallMonitor.stopNotice(s.finding()), true));
            }
        }
        StallMonitor.StepReview review = monitor.afterStep(observed);
        review.warnings().forEach(w -> results.add(new TextBlock(w.message())));
        history.add(Message.assistant(uses));
        history.add(Message.user(results));
        return new Outcome(decisions, review, observed.size());
    }
}
