package dev.rein.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.agent.Agent;
import dev.rein.approval.ApprovalRequest;
import dev.rein.agent.RunEvent;
import dev.rein.agent.RunResult;
import dev.rein.agent.RunStream;
import dev.rein.json.Json;
import java.util.List;

/**
 * {@code rein run --json-stream} (and {@code rein resume}, {@code rein reply}): one JSON object per line on stdout as the run goes (trace events
 * by their trace names, {@code text_delta}, {@code events_dropped}), then the {@code --json} result
 * object with {@code "type":"result"} first. Reading stdout slowly never holds up the run: the
 * stream's buffer marks what it had to leave out.
 */
final class JsonStream {
    private JsonStream() {}

    /** {@code grace}: how long a run cancelled by Ctrl-C has to wind down and be reported. */
    static int run(Agent agent, String goal, CliEnvironment env, java.time.Duration grace, RunReport report) {
        return run(agent, a -> a.stream(goal), env, grace, report);
    }

    /** A run, a resumption or a reply turn ({@code start}) streamed so ({@code rein resume/reply --json-stream}). */
    static int run(Agent agent, java.util.function.Function<Agent, RunStream> start, CliEnvironment env, java.time.Duration grace,
                   RunReport report) {
        RunStream stream = start.apply(agent);
        CancelOnInterrupt guard = CancelOnInterrupt.install(stream.handle(), env, grace);
        RunResult result = null;
        boolean readerGone = false;
        for (RunEvent event : stream) {
            if (event instanceof RunEvent.Finished finished) {
                result = finished.result();
            } else if (!readerGone) {
                env.out().println(line(event));
                // stdout's reader went away ('| head -3'): nobody consumes the run any more, so it is
                // cancelled, as a library's stream consumer that stops cancels it (and SIGPIPE ends a tool)
                if (env.out().checkError()) {
                    readerGone = true;
                    stream.cancel();
                }
            }
        }
        if (result == null) { // the main thread was interrupted: the run was cancelled, wait for its result
            result = stream.result().join();
        }
        if (readerGone) {
            env.err().println("rein: standard output was closed by its reader (or could not be written) while run " + result.runId()
                    + " was streamed, so the run was cancelled: it ended " + result.status() + " at step " + result.steps()
                    + "; " + SuggestedCommand.forRun("rein show", result.runId()) + " shows it");
        }
        result = report.shown(result);
        ObjectNode last = Json.object().put("type", "result");
        List<ApprovalRequest> pending = result.waitingForApproval() ? agent.runs().pending(result.runId()) : List.of();
        last.setAll(ResultJson.of(result, pending));
        env.out().println(ResultJson.line(last));
        env.out().flush();
        if (!result.succeeded()) {
            env.err().println(report.summary(result));
        }
        int code = report.checkStored(result, ExitCodes.of(result.status()));
        env.err().flush();
        guard.reported(code);
        return code;
    }

    /** A trace event is written exactly as the JSONL trace writes it (numbers such as 1.00 keep their form). */
    private static String line(RunEvent event) {
        return switch (event) {
            case RunEvent.Trace trace -> Json.write(trace.event());
            case RunEvent.TextDelta delta -> ResultJson.line(Json.object().put("type", delta.type()).put("text", delta.text()));
            case RunEvent.EventsDropped gap -> {
                ObjectNode node = Json.object().put("type", gap.type()).put("count", gap.count());
                node.set("by_type", Json.mapper().valueToTree(gap.byType()));
                yield ResultJson.line(node);
            }
            case RunEvent.Finished finished -> ResultJson.line(ResultJson.of(finished.result(), List.of()));
        };
    }
}
