package dev.rein.temporal;

import static dev.rein.temporal.SameAsLocal.assertSameAsLocal;

import dev.rein.agent.Agent;
import dev.rein.temporal.SameAsLocal.Also;
import dev.rein.budget.Budget;
import dev.rein.reflection.Reflection;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The guards an activity keeps in the run's snapshot between steps (the stall detector's record of calls, the reflection
 * prompts' schedule) act on Temporal as they act locally, although each step's effects are activities of their own.
 */
class TemporalGuardsTest {
    private static ScriptedModel repeating() {
        List<ScriptedModel.Turn> turns = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            turns.add(ScriptedModel.toolCalls(ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}")));
        }
        turns.add(ScriptedModel.text("A-1 は配達済みです。"));
        return ScriptedModel.of(turns);
    }

    private static ScriptedModel lookups() {
        List<ScriptedModel.Turn> turns = new ArrayList<>();
        for (int i = 1; i <= 7; i++) {
            turns.add(ScriptedModel.toolCalls(ScriptedModel.call("lookup_order", "{\"id\":\"A-" + i + "\"}")));
        }
        turns.add(ScriptedModel.text("すべて配達済みです。"));
        return ScriptedModel.of(turns);
    }

    @ParameterizedTest
    @ValueSource(strings = {"stall", "evaluate", "checkpoint"})
    void aGuardActsAsLocally(String guard) {
        Function<RecordingListener, Agent> agent = trace -> {
            Agent.Builder b = Orders.agent(guard.equals("stall") ? repeating() : lookups(), trace, Orders.lookup())
                    .budget(Budget.builder().maxSteps(14).maxDuration(Duration.ofMinutes(10)).build());
            if (guard.equals("evaluate")) {
                b.reflection(Reflection.evaluateEachStep());
            } else if (guard.equals("checkpoint")) {
                b.reflection(Reflection.checkpoint(3));
            }
            return b.build();
        };
        assertSameAsLocal(agent, "A-1 の状況は?", "run-guard-" + guard, Also.MESSAGE, Also.HISTORY, Also.INTERVENTIONS);
    }
}
