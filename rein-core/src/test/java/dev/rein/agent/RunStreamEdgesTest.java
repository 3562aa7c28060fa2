package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.hang;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.json.Json;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.JsonlTraceListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** agent.stream(goal) against the trace it mirrors, and consumers that fail. */
class RunStreamEdgesTest {
    @Test
    void aStreamReadInTimeHoldsEveryTraceEventInTheTracesOrderThenTheResult(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        ScriptedModel model = ScriptedModel.of(toolCalls("東京を調べます 🗼", call("echo", "{\"text\":\"𠮷野家 🦊\"}")),
                toolCalls(call("echo", "{\"text\":\"二回目\"}")), text("答え: 𠮷野家 🦊"));
        List<RunEvent> events;
        try (RunStream stream = Agent.builder().model(model).tools(TestTools.echo()).listener(JsonlTraceListener.to(trace))
                .build().stream("調べて 🦊")) {
            events = stream.stream().toList();
        }
        List<String> traced = Files.readAllLines(trace).stream().map(l -> Json.parse(l).path("type").asText()).toList();
        List<String> streamed = events.stream().filter(e -> e instanceof RunEvent.Trace).map(RunEvent::type).toList();
        assertThat(streamed).isEqualTo(traced);
        assertThat(events.get(events.size() - 1)).isInstanceOf(RunEvent.Finished.class);
        assertThat(events).filteredOn(e -> e instanceof RunEvent.TextDelta).extracting(e -> ((RunEvent.TextDelta) e).text())
                .contains("東京を調べます 🗼", "答え: 𠮷野家 🦊");
    }

    /**
     * The text of a call made on the run's behalf (here the critic's review) is streamed too, after that call's
     * model_request, whose purpose tells it from the step's own text, as docs/replay.md says a consumer showing
     * text live can tell.
     */
    @Test
    void textOfACallOnTheRunsBehalfFollowsItsModelRequestNamingItsPurpose() {
        ScriptedModel critic = ScriptedModel.of(toolCalls("確認します", call("verdict", "{\"approved\":true,\"problems\":[]}")));
        List<RunEvent> events;
        try (RunStream stream = Agent.builder().model(ScriptedModel.of(text("答え: 42")))
                .reflection(dev.rein.reflection.Reflection.critic(critic, ScriptedModel.DEFAULT_NAME)).build().stream("go")) {
            events = stream.stream().toList();
        }
        String lastPurpose = null;
        java.util.Map<String, String> purposeOfText = new java.util.HashMap<>();
        for (RunEvent e : events) {
            if (e instanceof RunEvent.Trace t && t.event() instanceof dev.rein.trace.TraceEvent.ModelRequested r) {
                lastPurpose = r.purpose();
            } else if (e instanceof RunEvent.TextDelta d) {
                purposeOfText.merge(lastPurpose, d.text(), String::concat);
            }
        }
        assertThat(purposeOfText).containsEntry("step", "答え: 42").containsEntry("critic", "確認します");
    }

    @Test
    void aSubscriberWhoseOnNextThrowsAnErrorCancelsTheRun() throws Exception {
        RunStream stream = Agent.builder().model(ScriptedModel.of(hang())).build().stream("wait");
        CountDownLatch subscribed = new CountDownLatch(1);
        stream.subscribe(new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                subscribed.countDown();
                s.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(RunEvent item) {
                throw new AssertionError("a test's assertion failed in onNext");
            }

            @Override
            public void onError(Throwable t) {}

            @Override
            public void onComplete() {}
        });
        RunResult result = stream.result().get(10, TimeUnit.SECONDS);
        assertThat(result.status()).as("the consumer stopped, so the run is cancelled").isEqualTo(RunStatus.CANCELLED);
    }

    @Test
    void aSubscriberWhoseOnSubscribeThrowsCancelsTheRun() throws Exception {
        RunStream stream = Agent.builder().model(ScriptedModel.of(hang())).build().stream("wait");
        assertThatThrownBy(() -> stream.subscribe(new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                throw new IllegalStateException("cannot start");
            }

            @Override
            public void onNext(RunEvent item) {}

            @Override
            public void onError(Throwable t) {}

            @Override
            public void onComplete() {}
        })).hasMessage("cannot start");
        RunResult result = stream.result().get(10, TimeUnit.SECONDS);
        assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
    }
    @Test
    void aSubscriberThatRequestsNoMoreLeavesTheDeliveryThreadWaitingNotPolling() throws Exception {
        RunStream stream = Agent.builder().model(ScriptedModel.of(text("答え"))).build().stream("go");
        java.util.concurrent.atomic.AtomicReference<Thread> delivery = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicReference<Flow.Subscription> subscription = new java.util.concurrent.atomic.AtomicReference<>();
        stream.subscribe(new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                subscription.set(s);
                s.request(1); // one event, to learn the delivery thread; then no more
            }

            @Override
            public void onNext(RunEvent item) {
                delivery.set(Thread.currentThread());
            }

            @Override
            public void onError(Throwable t) {}

            @Override
            public void onComplete() {}
        });
        stream.result().get(10, TimeUnit.SECONDS);
        Thread.State state = null;
        for (int attempt = 0; attempt < 100 && state != Thread.State.WAITING; attempt++) {
            Thread.sleep(20);
            state = delivery.get() == null ? null : delivery.get().getState();
        }
        // it waits for a request, a cancel or the end; before, it woke every 100 ms to look (TIMED_WAITING)
        assertThat(state).isEqualTo(Thread.State.WAITING);
        subscription.get().cancel();
        delivery.get().join(5000);
        assertThat(delivery.get().isAlive()).as("a cancel still ends the delivery").isFalse();
    }
}
