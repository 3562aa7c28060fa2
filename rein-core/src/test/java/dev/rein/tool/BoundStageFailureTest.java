package dev.rein.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.approval.ApprovalPolicy;
import dev.rein.approval.ApprovalState;
import dev.rein.internal.approval.ApprovalGate;
import dev.rein.internal.approval.ApprovalLedger;
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
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
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

    /** A tool that fails passingly on its first call and answers after. */
    private static Tool flakyOnce() {
        AtomicInteger calls = new AtomicInteger();
        return Tool.builder("flaky").description("d").handler((a, c) -> {
            if (calls.incrementAndGet() == 1) {
                throw new RetryableToolException("overloaded");
            }
            return "ok";
        }).build();
    }

    /** A listener throwing what {@code thrown} makes, there (its stack trace the listener's), when a retry is announced. */
    private static ToolEvents throwingOnRetry(Supplier<RuntimeException> thrown) {
        return new ToolEvents() {
            @Override
            public void retrying(ToolInvocation invocation, int attempt, ToolResult failed, Duration delay) {
                throw thrown.get();
            }
        };
    }

    /**
     * An exception with no stack trace (the JIT's fast-throw NullPointerException once
     * -XX:-OmitStackTraceInFastThrow is off) shows no stage that threw it: the message says it was one of the run's,
     * and does not name the first of them as if that were known.
     */
    @Test
    void aStageThrowingWithoutAStackTraceIsOneOfTheRunNotItsFirst() {
        IllegalStateException noTrace = new IllegalStateException("listener bug");
        noTrace.setStackTrace(new StackTraceElement[0]);
        ToolExecutor executor = ToolExecutor.builder(ToolRegistry.of(flakyOnce())).events(throwingOnRetry(() -> noTrace))
                .retryPolicy(new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(2), 0)).build();
        assertThatThrownBy(() -> executor.execute(new ToolCall("c1", "flaky", Json.parse("{}"), 0), context()))
                .isInstanceOf(ToolChainException.class)
                .hasMessageStartingWith("one of the tool-chain stages ArgumentValidation, ScopeCheck, CallLimits, CallOrder,"
                        + " TimeoutStage, ToolRetry, Provenance, SecretMasking threw IllegalStateException: listener bug")
                .hasMessageContaining("may or may not have run");
    }

    /**
     * The approval gate names its own failures itself and the handler's stage catches the handler's: neither can have
     * thrown what reaches the chain, so neither is among the stages it may have been (rev119 probe A).
     */
    @Test
    void theGateAndTheHandlersStageAreNotAmongTheStagesThatMayHaveThrown() {
        IllegalStateException noTrace = new IllegalStateException("listener bug");
        noTrace.setStackTrace(new StackTraceElement[0]);
        ToolExecutor executor = ToolExecutor.builder(ToolRegistry.of(flakyOnce())).events(throwingOnRetry(() -> noTrace))
                .approvalGate(new ApprovalGate(ApprovalPolicy.tools("other"), new ApprovalLedger(ApprovalState.NONE),
                        ToolEvents.NONE, Clock.systemUTC()))
                .retryPolicy(new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(2), 0)).build();
        assertThatThrownBy(() -> executor.execute(new ToolCall("c1", "flaky", Json.parse("{}"), 0), context()))
                .isInstanceOf(ToolChainException.class)
                .hasMessageStartingWith("one of the tool-chain stages ArgumentValidation, ScopeCheck, CallLimits, CallOrder,"
                        + " TimeoutStage, ToolRetry, Provenance, SecretMasking threw IllegalStateException: listener bug");
    }

    /** Two stages of one class in one run: their frames do not say which of them threw, so the message does not either. */
    @Test
    void aStageOfAClassTheRunHoldsTwiceIsNotNamedAsTheEarlier() throws Exception {
        ToolChain chain = new ToolChain(List.of(new ToolRetry(new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(2), 0),
                        ToolEvents.NONE, d -> { }),
                new ToolRetry(new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(2), 0),
                        throwingOnRetry(() -> new IllegalStateException("listener bug")), d -> { }),
                new HandlerInvocation(List.of(), ToolEvents.NONE)));
        Tool flaky = flakyOnce();
        ToolCall call = new ToolCall("c1", "flaky", Json.parse("{}"), 0);
        assertThatThrownBy(() -> chain.start().proceed(new ToolInvocation(call, flaky, context())))
                .isInstanceOf(ToolChainException.class)
                .hasMessageStartingWith("one of the 2 ToolRetry stages threw IllegalStateException: listener bug");
    }

    /**
     * The approval gate is bound to the stages after it as Rein's others are (perf7), with no link into it to name its
     * failures: one of its own work is named as before, as the gate's, before the call was passed on, so not run.
     */
    @Test
    void theApprovalGateThatThrowsIsNamedAndSaysTheCallWasNotRun() {
        AtomicInteger calls = new AtomicInteger();
        Tool write = Tool.builder("w").description("d").risk(Risk.WRITE).handler((a, c) -> {
            calls.incrementAndGet();
            return "ok";
        }).build();
        ToolEvents events = new ToolEvents() {
            @Override
            public void audit(ToolInvocation invocation, String kind, String detail) {
                throw new IllegalStateException("audit bug");
            }
        };
        ToolExecutor executor = ToolExecutor.builder(ToolRegistry.of(write))
                .approvalGate(new ApprovalGate(ApprovalPolicy.tools("w"), new ApprovalLedger(ApprovalState.NONE), events,
                        Clock.systemUTC()))
                .build();
        assertThatThrownBy(() -> executor.execute(new ToolCall("c1", "w", Json.parse("{}"), 0), context()))
                .isInstanceOf(ToolChainException.class)
                .hasMessageStartingWith("tool-chain stage dev.rein.internal.approval.ApprovalGate threw IllegalStateException: audit bug"
                        + " for call c1 of tool 'w', before passing the call on: it was not run");
        assertThat(calls).hasValue(0);
    }
}
