package dev.rein.tool;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * The single gate between a proposed tool call and its effect. Every call passes the same
 * pipeline of stages, assembled in {@link #stages()}; whatever happens comes back as a
 * {@link ToolResult} with an error flag. Nothing a model proposes can get around it.
 *
 * <p>One executor serves one run (per-tool call counts live here).
 */
public final class ToolExecutor {
    /** The default per-call timeout. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private final ToolRegistry registry;
    private final List<ToolInterceptor> stages;

    private ToolExecutor(Builder b) {
        this.registry = b.registry;
        this.stages = stages(b);
    }

    public static Builder builder(ToolRegistry registry) {
        return new Builder(registry);
    }

    /**
     * The pipeline, in order: validate, the caller's stages, per-tool caps, the output stages
     * (truncation: they see the handler's raw output), then the handler.
     */
    private static List<ToolInterceptor> stages(Builder b) {
        List<ToolInterceptor> stages = new ArrayList<>();
        stages.add(new ArgumentValidation());
        stages.addAll(b.interceptors);
        stages.add(new CallLimits(b.callLimits));
        stages.addAll(b.outputStages);
        stages.add(new HandlerInvocation(b.defaultTimeout));
        return List.copyOf(stages);
    }

    public ToolRegistry registry() {
        return registry;
    }

    /**
     * Executes one call. Never throws for anything the tool or the model did.
     *
     * @throws InterruptedException when the run is cancelled while the call is in flight (the
     *                              handler is interrupted too)
     */
    public ToolResult execute(ToolCall call, ToolContext context) throws InterruptedException {
        Instant start = Instant.now();
        Optional<Tool> tool = registry.find(call.name());
        ToolResult result = tool.isPresent() ? runStages(new ToolInvocation(call, tool.get(), context)) : unknownTool(call);
        return result.withDuration(Duration.between(start, Instant.now()));
    }

    private ToolResult runStages(ToolInvocation invocation) throws InterruptedException {
        try {
            return ToolChain.run(stages, invocation);
        } catch (RuntimeException e) {
            return ToolResult.error(invocation.call(), ErrorClass.EXECUTION_FAILED,
                    "Tool '" + invocation.call().name() + "' could not be run: " + e.getClass().getSimpleName()
                            + ": " + e.getMessage());
        }
    }

    private ToolResult unknownTool(ToolCall call) {
        return ToolResult.error(call, ErrorClass.UNKNOWN_TOOL, "Unknown tool '" + call.name()
                + "'. Available tools: " + (registry.isEmpty() ? "(none)" : String.join(", ", registry.names()))
                + ". Call one of these by its exact name.");
    }

    /**
     * Executes the calls of one model response concurrently, each on its own virtual thread with
     * its own timeout, and returns their results in call order.
     */
    public List<ToolResult> executeAll(List<ToolCall> calls, Function<ToolCall, ToolContext> contexts)
            throws InterruptedException {
        if (calls.size() == 1) {
            ToolCall only = calls.get(0);
            return List.of(execute(only, contexts.apply(only)));
        }
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<ToolResult>> futures = new ArrayList<>();
            for (ToolCall call : calls) {
                ToolContext context = contexts.apply(call);
                futures.add(pool.submit(() -> execute(call, context)));
            }
            List<ToolResult> results = new ArrayList<>();
            try {
                for (Future<ToolResult> future : futures) {
                    results.add(future.get());
                }
            } catch (InterruptedException e) {
                futures.forEach(f -> f.cancel(true));
                throw e;
            } catch (ExecutionException e) {
                futures.forEach(f -> f.cancel(true));
                throw new InterruptedException("tool calls interrupted: " + e.getCause());
            }
            return results;
        }
    }

    /** Builder for {@link ToolExecutor}. */
    public static final class Builder {
        private final ToolRegistry registry;
        private final List<ToolInterceptor> interceptors = new ArrayList<>();
        private final List<ToolInterceptor> outputStages = new ArrayList<>();
        private Duration defaultTimeout = DEFAULT_TIMEOUT;
        private Map<String, Integer> callLimits = Map.of();

        private Builder(ToolRegistry registry) {
            this.registry = registry;
        }

        /** Adds a stage after argument validation, before the per-tool caps and the handler. */
        public Builder interceptor(ToolInterceptor interceptor) {
            interceptors.add(interceptor);
            return this;
        }

        public Builder interceptors(List<ToolInterceptor> list) {
            interceptors.addAll(list);
            return this;
        }

        /**
         * Adds a stage right around the handler, after every other stage: it sees the handler's raw
         * result before the caller's stages do (output truncation goes here).
         */
        public Builder outputStage(ToolInterceptor stage) {
            outputStages.add(stage);
            return this;
        }

        public Builder defaultTimeout(Duration timeout) {
            this.defaultTimeout = timeout;
            return this;
        }

        /** Per-tool call caps for the run, by tool name (a tool's own {@code maxCalls} applies otherwise). */
        public Builder callLimits(Map<String, Integer> limits) {
            this.callLimits = Map.copyOf(limits);
            return this;
        }

        public ToolExecutor build() {
            return new ToolExecutor(this);
        }
    }
}
