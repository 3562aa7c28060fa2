package dev.rein.agent;

import dev.rein.internal.approval.ApprovalGate;
import dev.rein.internal.state.IdempotencyGuard;
import dev.rein.tool.ToolEvents;
import dev.rein.tool.ToolExecutor;
import dev.rein.tool.ToolInvocation;
import dev.rein.tool.ToolRegistry;
import dev.rein.tool.ToolResult;
import dev.rein.trace.TraceEvent;
import java.time.Duration;
import java.util.Map;

/** Builds a run's executor: the agent's tools and limits, with the run's approvals, store and trace plugged in. */
final class RunTools {
    private RunTools() {}

    static ToolExecutor executor(Run run, ToolRegistry tools, Map<String, Integer> callCounts) {
        SafetyConfig safety = run.config.safety();
        ToolEvents events = events(run);
        return ToolExecutor.builder(tools)
                .defaultTimeout(run.config.toolTimeout())
                .interceptor(run::traceValidatedCall)
                .interceptors(run.config.interceptors())
                .callLimits(run.config.budget().toolCallLimits())
                .callCounts(callCounts)
                .outputStage(run.config.guards().context().truncationStage(run.outputs, new RunTracer(run)))
                .scopePolicy(safety.scopePolicy())
                .approvalGate(new ApprovalGate(safety.approvalPolicy(), run.approvals, events, run.config.clock()))
                .idempotency(new IdempotencyGuard(safety.store(), events, run.config.clock()))
                .retryPolicy(safety.toolRetryPolicy())
                .strictProvenance(safety.strictProvenance())
                .maxArgumentBytes(safety.maxArgumentBytes())
                .events(events)
                .build();
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
            public void audit(ToolInvocation invocation, String kind, String detail) {
                RunTools.audit(run, kind, invocation.call().name(), invocation.call().id(), detail);
            }
        };
    }
}
