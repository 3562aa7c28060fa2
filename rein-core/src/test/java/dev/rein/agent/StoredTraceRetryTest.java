package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.run.RunStatus;
import dev.rein.state.ForwardingRunStore;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.StoreException;
import dev.rein.state.StoredEvent;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The run's trace in its store ({@code rein show}'s trace summary) loses no event to a store that
 * fails for a while (a lock another process held past the wait, a connection to PostgreSQL that
 * broke and is opened again): an event that could not be appended is tried again, in its place.
 */
class StoredTraceRetryTest {
    /** Fails the appends from the {@code from}-th to the {@code to}-th, then works again. */
    static final class FlakyStore extends ForwardingRunStore {
        private final AtomicInteger appends = new AtomicInteger();
        private final int from;
        private final int to;

        FlakyStore(int from, int to) {
            super(new InMemoryRunStore());
            this.from = from;
            this.to = to;
        }

        @Override
        public void appendEvent(String runId, TraceEvent event) {
            int n = appends.incrementAndGet();
            if (n >= from && n <= to) {
                throw new StoreException("cannot append an event of run " + runId + ": the database is locked");
            }
            super.appendEvent(runId, event);
        }
    }

    @Test
    void eventsTheStoreFailedToAppendForAWhileAreStoredInTheirPlaceWhenItWorksAgain() {
        List<TraceEvent> traced = new CopyOnWriteArrayList<>();
        FlakyStore store = new FlakyStore(3, 5);
        Agent agent = Agent.builder()
                .model(ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"こんにちは\"}")), text("終わりました")))
                .tools(Tool.builder("echo").description("echoes").inputSchema("{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}")
                        .handler((args, ctx) -> args.get("text").asText()).build())
                .store(store)
                .listener(id -> new RunListener() {
                    @Override
                    public void onEvent(TraceEvent event) {
                        traced.add(event);
                    }
                })
                .build();
        RunResult result = agent.run("挨拶して");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        List<String> expected = traced.stream().filter(e -> !(e instanceof TraceEvent.ModelRequested))
                .map(e -> dev.rein.state.SnapshotCodec.event(0, e).type()).toList();
        assertThat(store.events(result.runId()).stream().map(StoredEvent::type).toList())
                .as("every event is stored once, in the order of the trace").isEqualTo(expected);
    }

    @Test
    void eventsTheStoreStillFailsAtTheRunsEndAreTriedAgainThenAndTheRunIsNotHeldUp() {
        FlakyStore store = new FlakyStore(1, Integer.MAX_VALUE);
        Agent agent = Agent.builder().model(ScriptedModel.of(text("答えです"))).store(store).build();
        RunResult result = agent.run("答えて");
        assertThat(result.status()).as("the run's own state was saved; its trace in the store is what is missing")
                .isEqualTo(RunStatus.SUCCEEDED);
        assertThat(store.events(result.runId())).isEmpty();
        assertThat(store.appends.get()).as("each event is tried when it comes, the held ones again before it and at the end")
                .isGreaterThan(5);
    }
}
