package dev.rein.agent;

import dev.rein.internal.approval.ApprovalGate;
import dev.rein.internal.chain.Bindable;
import dev.rein.internal.replay.RecordedAnswers;
import dev.rein.internal.secret.MaskedText;
import dev.rein.internal.state.IdempotencyGuard;
import dev.rein.tool.ToolEvents;
import dev.rein.tool.ToolExecutor;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolContext;
import dev.rein.tool.ToolInterceptor;
import dev.rein.tool.ToolInvocation;
import dev.rein.tool.ToolOutcome;
import dev.rein.tool.ToolRegistry;
import dev.rein.tool.ToolResult;
import dev.rein.trace.TraceEvent;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedSet;

/** Builds a run's executor: the agent's tools and limits, with the run's approvals, store and trace plugged in. */
final class RunTools {
    private RunTools() {}

    /**
     * Records each call that passed validation, with the arguments as validated. A class of its own, not a method
     * reference to the run: a lambda's frame would sit under every tool call's wait too (hidden from stack traces, but
     * copied to the heap with the rest of the stack at each park; docs/performance-log.md, 2026-12-07, perf5).
     */
    private record TraceValidatedCalls(Run run) implements ToolInterceptor, Bindable<ToolInterceptor.Chain> {
        @Override
        public ToolOutcome intercept(ToolInvocation invocation, Chain chain) throws InterruptedException {
            return bind(chain).proceed(invocation);
        }

        @Override
        public Chain bind(Chain next) {
            return new Bound(next);
        }

        /**
         * This stage bound to the rest of the chain: one frame per stage on a waiting run's stack (see Bindable). Spelled
         * here, not inherited as dev.rein.tool's stages do (BuiltInToolStage): that base is not public API.
         */
        private final class Bound implements Chain {
            private final Chain next;

            Bound(Chain next) {
                this.next = next;
            }

            @Override
            public ToolOutcome proceed(ToolInvocation invocation) throws InterruptedException {
                ToolCall call = invocation.call();
                run.emit(new TraceEvent.ToolCalled(run.runId, run.step(), run.now(), call.id(), call.name(), call.arguments()));
                return next.proceed(invocation);
            }
        }
    }

    /** A replay's recorded answers among the agent's interceptors, or null (no replay). */
    static RecordedAnswers recordedAnswers(AgentConfig config) {
        return config.runParts().recordedAnswers(); // found once per agent
    }

    static ToolExecutor executor(Run run, ToolRegistry tools, Map<String, Integer> callCounts) {
        SafetyConfig safety = run.config.safety();
        ToolEvents events = events(run);
        // a replay's recorded answers: the executor runs them after Rein's checks, and the gate asks them first
        RecordedAnswers recorded = recordedAnswers(run.config);
        ToolExecutor.Builder builder = ToolExecutor.builder(tools)
                .defaultTimeout(run.config.toolTimeout())
                .interceptor(new TraceValidatedCalls(run))
                .interceptors(run.config.interceptors())
                .callLimits(run.config.runParts().callLimits()) // merged once per agent
                .callCounts(callCounts)
                .outputStage(run.config.guards().context().truncationStage(run.outputs, new RunTracer(run)))
                .scopePolicy(safety.scopePolicy())
                .approvalGate(new ApprovalGate(safety.approvalPolicy(), run.approvals, events, run.config.clock(), safety.store(),
                        recorded))
                .idempotency(new IdempotencyGuard(safety.store(), events, run.config.clock()))
                .retryPolicy(safety.toolRetryPolicy())
                .strictProvenance(safety.strictProvenance())
                .maxArgumentBytes(safety.maxArgumentBytes())
                .events(events);
        if (recorded != null) {
            builder.recordedAnswers(recorded);
        }
        return builder.build();
    }

    /**
     * The per-tool caps: the agent's budget's and the conversation budget's, the lower one where both
     * name a tool. The counts already cover every turn of the run, so a conversation's cap holds
     * across turns as its other limits do; before, it was ignored.
     */
    static Map<String, Integer> callLimits(AgentConfig config) {
        Map<String, Integer> limits = new HashMap<>(config.budget().toolCallLimits());
        if (config.conversationBudget() != null) {
            config.conversationBudget().toolCallLimits().forEach((tool, cap) -> limits.merge(tool, cap, Math::min));
        }
        return limits;
    }

    /** The names of the run's known secrets {@code text} holds in any spelling masking looks for, sorted. */
    static SortedSet<String> secretsIn(Run run, String text) {
        return MaskedText.namesIn(text, run.secrets.known());
    }

    /** Records an audit event of the run. */
    static void audit(Run run, String kind, String tool, String callId, String detail) {
        run.emit(new TraceEvent.Audit(run.runId, run.step(), run.now(), kind, tool, callId, run.principal.user(),
                run.principal.tenant(), detail));
    }

    private static ToolEvents events(Run run) {
        return new ToolEvents() {
            @Override
            public void retrying(ToolInvocation invocation, int attempt, ToolResult failed, Duration delay) {
                run.emit(new TraceEvent.ToolRetry(run.runId, invocation.context().step(), run.now(), invocation.call().id(),
                        invocation.call().name(), attempt, failed.errorClass().name(), failed.content(), delay.toMillis()));
            }

            @Override
            public void audit(ToolCall call, ToolContext context, String kind, String detail) {
                RunTools.audit(run, kind, call.name(), call.id(), detail);
            }
        };
    }
}
