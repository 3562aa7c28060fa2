package dev.rein.agent;

import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolContext;
import dev.rein.tool.ToolResult;
import dev.rein.trace.TraceEvent;
import java.util.List;

/** The act stage: hands the proposed calls to the executor and traces each result. */
final class ToolStage {
    private final Run run;

    ToolStage(Run run) {
        this.run = run;
    }

    List<ToolResult> execute(List<ToolCall> calls) throws InterruptedException {
        int step = run.step();
        List<ToolResult> results = run.executor.executeAll(calls, call -> context(step, call));
        for (ToolResult r : results) {
            run.emit(new TraceEvent.ToolCompleted(run.runId, step, run.now(), r.callId(), r.toolName(), r.content(),
                    r.isError(), r.errorClass().name(), r.source(), r.duration().toMillis()));
        }
        return results;
    }

    private ToolContext context(int step, ToolCall call) {
        return new ToolContext(run.runId, step, call.id(), idempotencyKey(run.runId, step, call.index()),
                run.meter.deadline(), run.config.principal(), run.config.secrets());
    }

    /** Stable across retries and resumes of the same call: derived only from its position in the run. */
    static String idempotencyKey(String runId, int step, int index) {
        return runId + ":" + step + ":" + index;
    }
}
