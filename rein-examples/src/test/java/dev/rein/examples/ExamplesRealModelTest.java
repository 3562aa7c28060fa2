package dev.rein.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.openai.OpenAiReasoningEffort;
import dev.rein.testkit.FakeMessagesServer;
import dev.rein.testkit.FakeReply;
import dev.rein.testkit.openai.ChatReply;
import dev.rein.testkit.openai.FakeChatCompletionsServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The examples on a real provider (the OpenAI one, against the fake Chat Completions server): options, close, Ctrl-C. */
class ExamplesRealModelTest {
    private final FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
    private final Map<String, String> env = Map.of("REIN_PROVIDER", "openai", "OPENAI_API_KEY", "sk-test",
            "OPENAI_BASE_URL", server.baseUrl());
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @AfterEach
    void stop() {
        Thread.interrupted(); // a test that interrupted this thread leaves nothing behind
        server.close();
    }

    private PrintStream stream(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }

    private void enqueueAnswers(int count) {
        for (int i = 0; i < count; i++) {
            server.enqueue(ChatReply.text("100日後です。"));
        }
    }

    /** The options (the CLI's --reasoning-effort) go with every request of every trial, as with the demo's. */
    @Test
    void theOptionsGoWithEveryRequestOfTheEvaluationAndTheDemo() {
        enqueueAnswers(200);
        Examples.evaluate("date", false, 1, "gpt-5", env, null, List.of(OpenAiReasoningEffort.LOW), null, false,
                stream(out), stream(err));
        assertThat(server.requests()).isNotEmpty().allSatisfy(request ->
                assertThat(request.body().path("reasoning_effort").asText()).isEqualTo("low"));
        int before = server.requestCount();

        Examples.run("date", false, "gpt-5", env, null, List.of(OpenAiReasoningEffort.MEDIUM), List.of(), null, stream(out),
                stream(err));
        assertThat(server.requestCount()).isGreaterThan(before);
        assertThat(server.lastRequest().body().path("reasoning_effort").asText()).isEqualTo("medium");
        assertThat(server.lastRequest().body().get("tools")).isNotEmpty();
    }

    /**
     * The evaluation's real model is closed when it ends, as the demo's is: its HTTP client's selector thread ends then,
     * not whenever the garbage collector finds the client. Before: the thread was still running after evaluate returned.
     */
    @Test
    void theEvaluationClosesItsRealModelsHttpClient() throws Exception {
        try (FakeMessagesServer anthropic = FakeMessagesServer.start()) {
            for (int i = 0; i < 200; i++) {
                anthropic.enqueue(FakeReply.text("100日後です。"));
            }
            Map<String, String> claude = Map.of("REIN_PROVIDER", "anthropic", "ANTHROPIC_API_KEY", "sk-ant-test",
                    "ANTHROPIC_BASE_URL", anthropic.baseUrl());
            Set<Thread> before = selectorThreads();
            int code = Examples.evaluate("date", false, 1, null, claude, null, null, stream(out), stream(err));
            assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isNotEqualTo(Examples.USAGE);
            assertThat(anthropic.requestCount()).isPositive();
            long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            Set<Thread> left = selectorThreads();
            left.removeAll(before);
            while (!left.isEmpty() && System.nanoTime() < until) {
                Thread.sleep(50);
                left = selectorThreads();
                left.removeAll(before);
            }
            assertThat(left).as("the JDK HTTP client's threads still running").isEmpty();
        }
    }

    private static Set<Thread> selectorThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().matches("HttpClient-\\d+-SelectorManager"))
                .collect(Collectors.toSet());
    }

    /**
     * Ctrl-C in the CLI interrupts the thread running the demo: the agent cancels its run in flight (its ending shown), and
     * the demo returns 130, as documented. Before: 1, as if the example had run and not ended as intended.
     */
    @Test
    void anInterruptedDemoEndsItsRunCancelledAndReturns130() throws Exception {
        server.enqueue(new ChatReply.Hang());
        Thread demo = Thread.currentThread();
        Thread interrupter = Thread.ofVirtual().start(() -> {
            server.takeRequest(Duration.ofSeconds(30));
            demo.interrupt();
        });
        int code = Examples.run("date", false, "gpt-4.1-mini", env, null, List.of(), List.of(), null, stream(out),
                stream(err));
        boolean interrupted = Thread.interrupted();
        interrupter.join();
        assertThat(code).as(out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8))
                .isEqualTo(Examples.INTERRUPTED);
        assertThat(interrupted).as("the interrupt is kept for the caller").isTrue();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("CANCELLED");
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("rein example: interrupted" + System.lineSeparator());
    }
}
