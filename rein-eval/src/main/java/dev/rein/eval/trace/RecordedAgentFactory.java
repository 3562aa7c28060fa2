package dev.rein.eval.trace;

import dev.rein.agent.Agent;
import dev.rein.agent.FinishTool;
import dev.rein.budget.ModelPrice;
import dev.rein.replay.RecordedRun;

/**
 * Builds the agent under test for one recorded run: its tools, guards, policies and prompt, the
 * version being checked. Its model is replaced by the recording and its tools are answered from it,
 * so the agent needs no working model; it needs a price for the recorded model when the recorded
 * run had a money budget.
 */
@FunctionalInterface
public interface RecordedAgentFactory {
    Agent create(RecordedRun recorded);

    /**
     * The default when the real tools are not at hand: the recorded system prompt, max_tokens and
     * finish tool, and {@linkplain RecordedRun#standInTools() stand-ins} of the recorded tools. A
     * replay with it checks Rein's own loop (guards, context handling, prompts) against the
     * recording. The recorded model is priced at zero here; a trace that records the price its money
     * limit counted with ({@code model_price}) is replayed at that price instead (see {@link
     * dev.rein.replay.ReplaySession#agent}), so its costs, a money-budget stop and a max_tokens lowered
     * to what the money left buys recur; an older trace's replayed costs are zero.
     */
    static RecordedAgentFactory standIns() {
        return recorded -> {
            Agent.Builder agent = Agent.builder()
                    .model((request, context) -> {
                        throw new IllegalStateException("replaced by the recording");
                    })
                    .modelName(recorded.model())
                    .systemPrompt(recorded.systemPrompt())
                    .tools(recorded.standInTools())
                    .finishTool(recorded.tools().contains(FinishTool.NAME))
                    .price(recorded.model(), ModelPrice.of("0", "0", "0"));
            if (recorded.outputSchema() != null) {
                agent.outputSchema(recorded.outputSchema());
            }
            if (recorded.maxTokens() > 0) {
                agent.maxTokens(recorded.maxTokens());
            }
            return agent.build();
        };
    }
}
