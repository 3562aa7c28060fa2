package dev.rein.otel.internal;

import dev.rein.tool.Tool;
import dev.rein.tool.ToolHandler;
import dev.rein.tool.ToolInterceptor;
import dev.rein.tool.ToolInvocation;
import dev.rein.tool.ToolResult;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Makes a tool call's span current around the rest of the pipeline and, because the executor runs
 * the handler on a thread of its own (under the call's timeout), again inside the handler: the
 * handler is wrapped once per tool and finds its call's span by run and call id.
 */
final class ToolContextPropagation implements ToolInterceptor {
    private final Telemetry telemetry;
    /** Wrapped tools by original (identity), so a call does not rebuild its tool. */
    private final Map<Tool, Tool> wrapped = Collections.synchronizedMap(new WeakHashMap<>());

    ToolContextPropagation(Telemetry telemetry) {
        this.telemetry = telemetry;
    }

    @Override
    public ToolResult intercept(ToolInvocation invocation, Chain chain) throws InterruptedException {
        RunTelemetry run = telemetry.run(invocation.context().runId());
        if (run != null) {
            run.tools().resolved(invocation.call().id(), invocation.tool());
        }
        Context context = telemetry.toolContext(invocation.context().runId(), invocation.call().id());
        if (context == null) {
            return chain.proceed(invocation);
        }
        Tool tool = wrapped.computeIfAbsent(invocation.tool(), this::wrap);
        try (Scope ignored = context.makeCurrent()) {
            return chain.proceed(new ToolInvocation(invocation.call(), tool, invocation.context()));
        }
    }

    private Tool wrap(Tool tool) {
        ToolHandler handler = tool.handler();
        return tool.withHandler((arguments, context) -> {
            Context span = telemetry.toolContext(context.runId(), context.callId());
            if (span == null) {
                return handler.handle(arguments, context);
            }
            try (Scope ignored = span.makeCurrent()) {
                return handler.handle(arguments, context);
            }
        });
    }
}
