package dev.rein.agent;

import dev.rein.budget.BudgetMeter;
import dev.rein.context.OutputStore;
import dev.rein.model.Message;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolExecutor;
import dev.rein.tool.ToolInterceptor;
import dev.rein.tool.ToolInvocation;
import dev.rein.tool.ToolResult;
import dev.rein.trace.RunListener;
import dev.rein.trace.RunListenerFactory;
import dev.rein.trace.TraceEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The mutable state of one run, owned by its loop thread (cancel may come from any thread). */
final class Run {
    final String runId;
    final String goal;
    final AgentConfig config;
    final Instant startedAt;
    final BudgetMeter meter;
    final ToolExecutor executor;
    final Recorder recorder;
    final OutputStore outputs;
    final List<Message> history = new ArrayList<>();
    RunStatus status = RunStatus.RUNNING;
    int verificationFailures;
    private volatile boolean cancelled;
    private volatile Thread thread;

    private Run(String runId, String goal, AgentConfig config) {
        this.runId = runId;
        this.goal = goal;
        this.config = config;
        this.startedAt = config.clock().instant();
        this.meter = new BudgetMeter(config.budget(), config.prices(), config.modelName(), config.clock(), startedAt);
        List<RunListener> listeners = new ArrayList<>();
        for (RunListenerFactory factory : config.listeners()) {
            listeners.add(factory.create(runId));
        }
        this.recorder = new Recorder(listeners);
        this.outputs = config.guards().context().storeForRun();
        this.executor = ToolExecutor.builder(config.tools())
                .defaultTimeout(config.toolTimeout())
                .interceptor(this::traceValidatedCall)
                .interceptors(config.interceptors())
                .callLimits(config.budget().toolCallLimits())
                .outputStage(config.guards().context().truncationStage(outputs, new RunTracer(this)))
                .build();
        history.add(Message.user(goal));
    }

    /** Records each call that passed validation, with the arguments as validated. */
    private ToolResult traceValidatedCall(ToolInvocation invocation, ToolInterceptor.Chain chain) throws InterruptedException {
        ToolCall call = invocation.call();
        emit(new TraceEvent.ToolCalled(runId, step(), now(), call.id(), call.name(), call.arguments()));
        return chain.proceed(invocation);
    }

    static Run start(String runId, String goal, AgentConfig config) {
        return new Run(runId, goal, config);
    }

    int step() {
        return meter.steps();
    }

    void emit(TraceEvent event) {
        recorder.emit(event);
    }

    Instant now() {
        return config.clock().instant();
    }

    void bindThread(Thread thread) {
        this.thread = thread;
    }

    void cancel() {
        cancelled = true;
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }

    boolean cancelled() {
        return cancelled;
    }
}
