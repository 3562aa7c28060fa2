package dev.rein.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.internal.state.IdempotencyGuard;
import dev.rein.json.Json;
import dev.rein.retry.RetryPolicy;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A stage of Rein's own, bound one to the next, that throws (a bug of Rein's or of a listener it calls): the run ends
 * internal_error with a ToolChainException naming that stage, never a tool error the model sees (rev110).
 */
class BoundStageFailureTest {

    private static ToolContext context() {
        return new ToolContext("run_1", 1, "c1", "run_1:1:0", Instant.now().plusSeconds(60), Principal.ANONYMOUS, Secrets.NONE);
    }

    @Test
    void aStageThatThrowsBelowTheTimeoutStageIsAChainBreachNamingIt() {
        for (boolean onRunThread : new boolean[] {false, true}) {
            AtomicInteger calls = new AtomicInteger();
            Tool flaky = Tool.builder("flaky").description("d").abortsOnInterrupt(onRunThread).handler((a, c) -> {
                if (calls.incrementAndGet() == 1) {
                    throw new RetryableToolException("overloaded");
                }
                return "ok";
            }).build();
            ToolEvents events = new ToolEvents() {
                @Override
                public void retrying(ToolInvocation invocation, int attempt, ToolResult failed, Duration delay) {
                    throw new IllegalStateException("listener bug");
                }
            };
            ToolExecutor executor = ToolExecutor.builder(ToolRegistry.of(flaky)).events(events)
                    .retryPolicy(new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(2), 0)).build();
            assertThatThrownBy(() -> executor.execute(new ToolCall("c1", "flaky", Json.parse("{}"), 0), context()))
                    .as("handler on the run's thread: %s", onRunThread)
                    .isInstanceOf(ToolChainException.class)
                    .hasMessageStartingWith("tool-chain stage dev.rein.tool.ToolRetry threw IllegalStateException: listener bug")
                    .hasMessageContaining("may or may not have run");
        }
    }

    @Test
    void aStageThatThrowsIsNamedAsItselfAndNotSaidToHaveLetTheToolRun() {
        InMemoryRunStore real = new InMemoryRunStore();
        RunStore store = (RunStore) Proxy.newProxyInstance(RunStore.class.getClassLoader(), new Class<?>[] {RunStore.class},
                (p, m, a) -> {
                    if (m.getName().equals("idempotency")) {
                        throw new IllegalStateException("store bug");
                    }
                    try {
                        return m.invoke(real, a);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        AtomicInteger calls = new AtomicInteger();
        Tool write = Tool.builder("w").description("d").risk(Risk.WRITE).handler((a, c) -> {
            calls.incrementAndGet();
            return "ok";
        }).build();
        for (boolean gate : new boolean[] {false, true}) {
            ToolExecutor.Builder b = ToolExecutor.builder(ToolRegistry.of(write))
                    .idempotency(new IdempotencyGuard(store, ToolEvents.NONE, Clock.systemUTC()));
            if (gate) {
                b.approvalGate((inv, chain) -> chain.proceed(inv));
            }
            ToolExecutor executor = b.build();
            assertThatThrownBy(() -> executor.execute(new ToolCall("c1", "w", Json.parse("{}"), 0), context()))
                    .as("with an approval gate: %s", gate)
                    .isInstanceOf(ToolChainException.class)
                    .hasMessageStartingWith("tool-chain stage dev.rein.internal.state.IdempotencyGuard threw IllegalStateException: store bug")
                    .hasMessageContaining("may or may not have run")
                    .hasMessageNotContaining("the tool may have run");
        }
        assertThat(calls).hasValue(0);
    }
}
