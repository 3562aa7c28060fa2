package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunSnapshot;
import dev.rein.state.RunSummary;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import java.lang.reflect.RecordComponent;
import org.junit.jupiter.api.Test;

/**
 * A run an older Rein saved under an id with a control character (now refused as a run id): Runs.list() lists it, so
 * Runs reads it (find, show, pending) and ends it (cancel), escaping the id where it quotes it; a decision on it is
 * refused saying why (it cannot be resumed) and what to do instead. An id with half a surrogate pair is still refused
 * before any look-up (a database would look up another id).
 */
class LegacyRunIdTest {
    private static final String OLD = "run_1\nINFO forged";

    private static Tool commit() {
        return Tool.builder("commit").description("Commits.").risk(Risk.WRITE).handler((args, ctx) -> "committed").build();
    }

    /** A run paused for approval, saved under OLD as an older version could. */
    private static Agent agentWithAnOldPausedRun(InMemoryRunStore store) throws Exception {
        Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("commit", "{}")))).tools(commit())
                .approvalPolicy(ApprovalPolicy.tools("commit")).store(store).runIds(() -> "run_new").build();
        RunResult paused = agent.run("commit it");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        store.save(renamed(store.load("run_new").orElseThrow(), OLD));
        return agent;
    }

    private static RunSnapshot renamed(RunSnapshot snapshot, String id) throws Exception {
        RecordComponent[] components = RunSnapshot.class.getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
            String name = components[i].getName();
            values[i] = name.equals("runId") ? id : name.equals("version") ? 1L : components[i].getAccessor().invoke(snapshot);
        }
        return RunSnapshot.class.getDeclaredConstructor(types).newInstance(values);
    }

    @Test
    void anOldRunUnderAnIdWithAControlCharacterCanBeReadAndCancelledThroughRuns() throws Exception {
        InMemoryRunStore store = new InMemoryRunStore();
        Agent agent = agentWithAnOldPausedRun(store);
        assertThat(agent.runs().list()).extracting(RunSummary::runId).contains(OLD);

        // before: each was refused as 'Runs was given run id 'run_1\x0aINFO forged', which no run has', though list() gave it
        assertThat(agent.runs().find(OLD)).isPresent();
        assertThat(agent.runs().show(OLD)).isNotNull();
        assertThat(agent.runs().pending(OLD)).hasSize(1);
        String hash = agent.runs().pending(OLD).get(0).actionHash();

        assertThatThrownBy(() -> agent.runs().approve(OLD, hash, "alice")).isInstanceOf(ReinException.class)
                .hasMessageContaining("'run_1\\x0aINFO forged'")
                .hasMessageContaining("U+000A (a line feed)")
                .hasMessageContaining("cannot be resumed")
                .hasMessageContaining("Runs.cancel");
        assertThat(agent.runs().pending(OLD)).hasSize(1);

        assertThatThrownBy(() -> agent.resume(OLD)).isInstanceOf(ReinException.class)
                .hasMessageEndingWith("cannot be continued: read it with agent.runs().show and end it with agent.runs().cancel)");

        RunSnapshot cancelled = agent.runs().cancel(OLD, "saved by an older version");
        assertThat(cancelled.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(store.load(OLD).orElseThrow().status()).isEqualTo(RunStatus.CANCELLED);
        assertThatThrownBy(() -> agent.runs().cancel(OLD, null)).isInstanceOf(ReinException.class)
                .hasMessage("run run_1\\x0aINFO forged already ended CANCELLED; there is nothing to cancel");
    }

    @Test
    void anIdWithAControlCharacterNoRunHasIsNotFoundSaidWithItsEscapesAndHalfAPairIsStillRefused() {
        Agent agent = Agent.builder().model(ScriptedModel.of()).store(new InMemoryRunStore()).build();
        assertThat(agent.runs().find("run_2\r")).isEmpty();
        assertThatThrownBy(() -> agent.runs().show("run_2\r")).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("there is no run 'run_2\\x0d' in the store");
        assertThatThrownBy(() -> agent.runs().find("run_" + "😀".substring(0, 1))).isInstanceOf(ReinException.class)
                .hasMessageContaining("half a UTF-16 surrogate pair");
    }
}
