package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.Budget;
import dev.rein.reflection.Reflection;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.TraceEvent;
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
        RecordingListener localTrace = new RecordingListener();
        RunResult local = agent.apply(localTrace).run("A-1 の状況は?");

        RecordingListener trace = new RecordingListener();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult remote = server.start(agent.apply(trace)).start("A-1 の状況は?", "run-guard-" + guard).result();

            assertThat(remote.status()).as("status").isEqualTo(local.status());
            assertThat(remote.reason()).as("reason").isEqualTo(local.reason());
            assertThat(remote.message()).as("message").isEqualTo(local.message());
            assertThat(remote.answer()).as("answer").isEqualTo(local.answer());
            assertThat(remote.steps()).as("steps").isEqualTo(local.steps());
            assertThat(remote.history()).as("history").isEqualTo(local.history());
            assertThat(trace.events(TraceEvent.Intervention.class).stream().map(i -> i.kind()).toList()).as("interventions")
                    .isEqualTo(localTrace.events(TraceEvent.Intervention.class).stream().map(i -> i.kind()).toList());
        }
    }
}
