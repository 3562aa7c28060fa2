package dev.rein.otel.internal;

import dev.rein.tool.ToolHandler;
import dev.rein.tool.ToolInterceptor;
import dev.rein.tool.ToolInvocation;
import dev.rein.tool.ToolOutcome;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;

/**
 * Makes a tool call's span current around the rest of the pipeline and, because the executor runs
 * the handler on a thread of its own (under the call's timeout), again around the handler call
 * on that thread ({@link #aroundHandler}): spans the handler creates are the call's children.
 */
final class ToolContextPropagation implements ToolInterceptor {
    private final Telemetry telemetry;

    ToolContextPropagation(Telemetry telemetry) {
        this.telemetry = telemetry;
    }

    @Override
    public ToolOutcome intercept(ToolInvocation invocation, Chain chain) throws InterruptedException {
        RunTelemetry run = telemetry.run(invocation.context().runId());
        if (run != null) {
            run.tools().resolved(invocation.call().id(), invocation.tool());
        }
        Context context = telemetry.toolContext(invocation.context().runId(), invocation.call().id());
        if (context == null) {
            return chain.proceed(invocation);
        }
        try (Scope ignored = context.makeCurrent()) {
            return chain.proceed(invocation);
        }
    }

    @Override
    public ToolHandler aroundHandler(ToolInvocation invocation, ToolHandler handler) {
        Context context = telemetry.toolContext(invocation.context().runId(), invocation.call().id());
        if (context == null) {
            return handler;
        }
        return (arguments, toolContext) -> {
            try (Scope ignored = context.makeCurrent()) {
                return handler.handle(arguments, toolContext);
            }
        };
    }
}
