package dev.rein.otel.internal;

import dev.rein.tool.ToolHandler;
import dev.rein.tool.ToolInterceptor;
import dev.rein.tool.ToolInvocation;
import dev.rein.tool.ToolOutcome;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Makes a tool call's span current around the rest of the pipeline and, because the executor runs
 * the handler on a thread of its own (under the call's timeout), again around the handler call
 * on that thread ({@link #aroundHandler}): spans the handler creates are the call's children.
 * The handler is also given the span's W3C trace context in {@code ToolContext.traceContext()},
 * for a tool that calls another process (an MCP server, whose request {@code _meta} carries it)
 * where no instrumented client would.
 */
final class ToolContextPropagation implements ToolInterceptor {
    private final Telemetry telemetry;
    private final TextMapPropagator propagator;

    ToolContextPropagation(Telemetry telemetry, TextMapPropagator propagator) {
        this.telemetry = telemetry;
        this.propagator = propagator;
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
        Map<String, String> carried = new LinkedHashMap<>();
        propagator.inject(context, carried, (carrier, name, value) -> carrier.put(name, value));
        return (arguments, toolContext) -> {
            try (Scope ignored = context.makeCurrent()) {
                return handler.handle(arguments, carried.isEmpty() ? toolContext : toolContext.withTraceContext(carried));
            }
        };
    }
}
