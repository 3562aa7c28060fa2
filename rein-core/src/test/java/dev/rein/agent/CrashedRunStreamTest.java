package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.run.RunStatus;
import dev.rein.state.ForwardingRunStore;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunSnapshot;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A run whose loop itself fails (an Error while it ends) still ends its stream and its trace with the failed status. */
class CrashedRunStreamTest {
    /** A store that fails with an Error, which the loop's own ending does not catch: the loop itself fails. */
    static final class BrokenStore extends ForwardingRunStore {
        BrokenStore() {
            super(new InMemoryRunStore());
        }

        @Override
        public void save(RunSnapshot snapshot) {
            throw new StackOverflowError("the store's serializer recursed without end");
        }
    }

    /** A failure that cannot even be described: its toString throws another one (as an OutOfMemoryError may recur while one is described). */
    static final class Indescribable extends Error {
        @Override
        public String toString() {
            throw new Indescribable();
        }
    }

    /** A store whose failure cannot be described, so the loop's ending and its last resort both fail on it. */
    static final class IndescribablyBrokenStore extends ForwardingRunStore {
        IndescribablyBrokenStore() {
            super(new InMemoryRunStore());
        }

        @Override
        public void save(RunSnapshot snapshot) {
            throw new Indescribable();
        }
    }

    @Test
    void aRunWhoseFailureCannotBeDescribedStillEndsItsStreamAndItsResult() throws Exception {
        Agent agent = Agent.builder().model(ScriptedModel.of(text("答えです"))).store(new IndescribablyBrokenStore()).build();
        try (RunStream s = agent.stream("答えて")) {
            List<RunEvent> events = CompletableFuture.supplyAsync(() -> s.stream().toList()).get(20, TimeUnit.SECONDS);
            RunEvent last = events.get(events.size() - 1);
            assertThat(last).isInstanceOf(RunEvent.Finished.class);
            RunResult r = ((RunEvent.Finished) last).result();
            assertThat(r.status()).isEqualTo(RunStatus.FAILED);
            assertThat(r.reason()).isEqualTo("internal_error");
            assertThat(r.message()).contains(Indescribable.class.getName());
            assertThat(s.result().get(1, TimeUnit.SECONDS)).isEqualTo(r);
        }
    }

    @Test
    void aRunWhoseLoopFailsEndsItsStreamAndItsTraceWithTheFailedStatus() throws Exception {
        List<TraceEvent> traced = new CopyOnWriteArrayList<>();
        RunListener listener = new RunListener() {
            @Override
            public void onEvent(TraceEvent event) {
                traced.add(event);
            }
        };
        Agent agent = Agent.builder().model(ScriptedModel.of(text("答えです"))).store(new BrokenStore())
                .listener(id -> listener).build();
        try (RunStream s = agent.stream("答えて")) {
            List<RunEvent> events = CompletableFuture.supplyAsync(() -> s.stream().toList()).get(20, TimeUnit.SECONDS);
            RunEvent last = events.get(events.size() - 1);
            assertThat(last).isInstanceOf(RunEvent.Finished.class);
            RunResult r = ((RunEvent.Finished) last).result();
            assertThat(r.status()).isEqualTo(RunStatus.FAILED);
            assertThat(r.reason()).isEqualTo("internal_error");
            List<String> types = events.stream().map(RunEvent::type).toList();
            assertThat(types).as("the stream's consumer sees the run finish, as the trace's readers do").contains("run_finished");
            TraceEvent.RunFinished finished = events.stream().filter(e -> e instanceof RunEvent.Trace t && t.event() instanceof TraceEvent.RunFinished)
                    .map(e -> (TraceEvent.RunFinished) ((RunEvent.Trace) e).event()).findFirst().orElseThrow();
            assertThat(finished.status()).isEqualTo(RunStatus.FAILED);
        }
        assertThat(traced).last().isInstanceOf(TraceEvent.RunFinished.class);
    }
}
