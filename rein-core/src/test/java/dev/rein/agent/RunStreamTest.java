package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.hang;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** agent.stream(goal): events as they happen, a bounded buffer that never holds up the run, cancellation. */
class RunStreamTest {
    private static Agent agent(ScriptedModel model) {
        return Agent.builder().model(model).tools(TestTools.echo()).build();
    }

    private static ScriptedModel echoes(int steps) {
        List<ScriptedModel.Turn> turns = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            turns.add(toolCalls("step " + i + " ", call("echo", "{\"text\":\"" + i + "\"}")));
        }
        turns.add(text("all done"));
        return ScriptedModel.of(turns);
    }

    @Test
    void theEventsArriveInOrderWithTheTraceNamesAndTheResultLast() {
        try (RunStream stream = agent(echoes(2)).stream("echo twice")) {
            List<RunEvent> events = stream.stream().toList();
            List<String> types = events.stream().map(RunEvent::type).toList();
            assertThat(types.get(0)).isEqualTo("run_started");
            assertThat(types).containsSubsequence("model_request", "text_delta", "model_response", "tool_call", "tool_result",
                    "model_request", "text_delta", "run_finished", "result");
            assertThat(types.get(types.size() - 1)).isEqualTo("result");
            assertThat(((RunEvent.Finished) events.get(events.size() - 1)).result().answer()).isEqualTo("all done");
            assertThat(events).filteredOn(e -> e instanceof RunEvent.TextDelta).extracting(e -> ((RunEvent.TextDelta) e).text())
                    .contains("step 0 ", "all done");
        }
    }

    @Test
    void aConsumerThatReadsNothingDoesNotHoldUpTheRunAndIsToldWhatItMissed() throws Exception {
        RunStream stream = agent(echoes(12)).stream("echo twelve times", 8);

        RunResult result = stream.result().get(30, TimeUnit.SECONDS); // nobody has read an event yet
        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);

        List<RunEvent> events = stream.stream().toList();
        // the buffer, a marker and the text joined behind it (text is never left out), the last gap and the result
        assertThat(events).hasSizeLessThanOrEqualTo(8 + 2 + 2);
        RunEvent.EventsDropped gap = (RunEvent.EventsDropped) events.stream().filter(e -> e instanceof RunEvent.EventsDropped)
                .findFirst().orElseThrow();
        assertThat(gap.count()).isGreaterThan(40);
        assertThat(gap.byType()).containsKeys("tool_call", "tool_result", "model_response");
        assertThat(events.get(events.size() - 1)).isEqualTo(new RunEvent.Finished(result));
    }

    @Test
    void aSlowConsumerDoesNotBreakTheDeadline() throws Exception {
        Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"x\"}")), hang()))
                .tools(TestTools.echo()).budget(Budget.builder().maxDuration(Duration.ofMillis(800)).build()).build();
        RunStream stream = agent.stream("wait", 2);
        CountDownLatch release = new CountDownLatch(1);
        List<String> seen = new CopyOnWriteArrayList<>();
        Thread consumer = Thread.ofVirtual().start(() -> stream.forEach(e -> {
            seen.add(e.type());
            try {
                release.await(); // a consumer stuck on its first event
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
        }));

        RunResult result = stream.result().get(30, TimeUnit.SECONDS);
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("deadline");
        release.countDown();
        consumer.join(10_000);
        assertThat(seen).endsWith("result");
        assertThat(seen).contains("events_dropped");
    }

    @Test
    void aSubscriberGetsWhatItRequestsAndCancellingStopsTheRun() throws Exception {
        Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"x\"}")), hang()))
                .tools(TestTools.echo()).build();
        RunStream stream = agent.stream("hang");
        List<String> seen = new CopyOnWriteArrayList<>();
        CountDownLatch three = new CountDownLatch(3);
        stream.subscribe(new Flow.Subscriber<>() {
            Flow.Subscription subscription;

            public void onSubscribe(Flow.Subscription s) {
                subscription = s;
                s.request(1);
            }

            public void onNext(RunEvent item) {
                seen.add(item.type());
                three.countDown();
                if (seen.size() == 3) {
                    subscription.cancel();
                } else {
                    subscription.request(1);
                }
            }

            public void onError(Throwable t) {
                seen.add("error");
            }

            public void onComplete() {
                seen.add("complete");
            }
        });

        assertThat(three.await(10, TimeUnit.SECONDS)).isTrue();
        RunResult result = stream.result().get(30, TimeUnit.SECONDS);
        assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(seen).hasSize(3).doesNotContain("complete", "error");
        assertThat(seen.stream().collect(Collectors.joining(","))).startsWith("run_started,state_change");
    }

    @Test
    void aNonPositiveRequestIsAnErrorSignalledAfterOnSubscribeReturnsAndOnTheDeliveryThread() throws Exception {
        Agent agent = Agent.builder().model(ScriptedModel.of(hang())).tools(TestTools.echo()).build();
        RunStream stream = agent.stream("hang");
        List<String> seen = new CopyOnWriteArrayList<>();
        CountDownLatch ended = new CountDownLatch(1);
        stream.subscribe(new Flow.Subscriber<>() {
            volatile boolean subscribing;

            public void onSubscribe(Flow.Subscription s) {
                subscribing = true;
                s.request(0);
                s.request(-1); // a second bad request is not a second error
                subscribing = false;
            }

            public void onNext(RunEvent item) {
                seen.add("next");
            }

            public void onError(Throwable t) {
                // Signals are serial (rule 1.3): never inside onSubscribe, never on the caller's thread.
                seen.add("error " + t.getClass().getSimpleName() + (subscribing ? " inside onSubscribe" : "")
                        + (Thread.currentThread().getName().startsWith("rein-stream-") ? " on the delivery thread"
                        : " on " + Thread.currentThread().getName()));
                ended.countDown();
            }

            public void onComplete() {
                seen.add("complete");
                ended.countDown();
            }
        });

        assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(stream.result().get(30, TimeUnit.SECONDS).status()).isEqualTo(RunStatus.CANCELLED);
        Thread.sleep(100); // nothing may follow the error
        assertThat(seen).containsExactly("error IllegalArgumentException on the delivery thread");
    }
}
