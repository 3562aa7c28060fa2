package dev.rein.eval;

import dev.rein.agent.Agent;

/**
 * Builds the agent under test for one trial, from that trial's environment (whose tools it
 * uses) and model. Called once per trial; the harness attaches its trace recorder to the result.
 *
 * <pre>{@code
 * AgentFactory<OrdersDb> factory = (db, model) -> Agent.builder()
 *         .model(model.model()).modelName(model.name())
 *         .tools(db.tools())
 *         .build();
 * }</pre>
 */
@FunctionalInterface
public interface AgentFactory<E extends Environment> {
    Agent create(E environment, TrialModel model);
}
