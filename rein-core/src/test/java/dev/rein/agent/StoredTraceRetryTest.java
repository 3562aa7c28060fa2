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
        FlakyStore store = new FlakyStore(3, 3);
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
        assertThat(store.appends.get()).as("the first event is tried when it comes, the held ones again at the end (the"
                + " retry interval has not passed in between)").isEqualTo(2);
    }

    /** A store whose every append waits {@code waitMillis} for a lock, then fails, as a SQLite file another process locks. */
    static final class LockedStore extends ForwardingRunStore {
        final AtomicInteger appends = new AtomicInteger();
        private final long waitMillis;
        volatile boolean locked = true;

        LockedStore(long waitMillis) {
            super(new InMemoryRunStore());
            this.waitMillis = waitMillis;
        }

        @Override
        public void appendEvent(String runId, TraceEvent event) {
            appends.incrementAndGet();
            if (locked) {
                try {
                    Thread.sleep(waitMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new StoreException("cannot append an event of run " + runId + ": the database is locked");
            }
            super.appendEvent(runId, event);
        }
    }

    /**
     * Before: once an append had failed, every later event tried the held ones again, and against a SQLite file
     * another process locks each try waits the 10 s busy timeout, so a run of 30 events stalled for 5 minutes.
     * Now the store is asked again only once the retry interval has passed (and at the run's end).
     */
    @Test
    void aStoreThatFailedIsNotAskedAgainAtEveryEventSoALockedStoreDoesNotStallTheRun() {
        LockedStore store = new LockedStore(300);
        Tool echo = Tool.builder("echo").description("echoes").inputSchema("{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}")
                .handler((args, ctx) -> args.get("text").asText()).build();
        Agent agent = Agent.builder()
                .model(ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"一\"}")), toolCalls(call("echo", "{\"text\":\"二\"}")),
                        toolCalls(call("echo", "{\"text\":\"三\"}")), text("終わりました")))
                .tools(echo).store(store).build();
        long start = System.nanoTime();
        RunResult result = agent.run("三回言って");
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(store.appends.get()).as("the first event's try, and the held ones' at the run's end").isEqualTo(2);
        assertThat(millis).as("two waits for the lock, not one per event").isLessThan(3_000);
    }

    /** Held events are tried again while the run goes on once the interval has passed, and stored in their place. */
    @Test
    void heldEventsAreTriedAgainOnceTheIntervalHasPassedAndStoredInOrder() throws Exception {
        LockedStore store = new LockedStore(0);
        StoreListener listener = new StoreListener(store, "run_1", java.time.Duration.ofMillis(300));
        java.util.function.IntFunction<TraceEvent> event = i -> new TraceEvent.Audit("run_1", i, java.time.Instant.now(), "a", "t",
                "c", "u", "t", "出来事" + i);
        listener.onEvent(event.apply(1));
        store.locked = false;
        listener.onEvent(event.apply(2));
        assertThat(store.appends.get()).as("within the interval the event is held without asking the store").isEqualTo(1);
        Thread.sleep(400);
        listener.onEvent(event.apply(3));
        assertThat(store.appends.get()).isEqualTo(4);
        listener.onEvent(event.apply(4));
        listener.close();
        assertThat(store.events("run_1")).extracting(StoredEvent::step).containsExactly(1, 2, 3, 4);
    }
}
