package dev.rein.cli;

import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.agent.FinishTool;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.model.ModelException;
import dev.rein.replay.RecordedRun;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.tool.Tool;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code rein replay TRACE.jsonl}: re-run a recorded run with this Rein and report where it behaves otherwise. */
@Command(name = "replay", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        header = "Re-run a recorded run from its trace and report the first divergence.",
        description = {"Re-runs the run a JSONL trace recorded ('rein run --trace', the library's JsonlTraceListener,"
                + " 'rein eval --traces') with this version of Rein and the CLI's tools: every model call is answered"
                + " with the recorded response and every tool call with the recorded result, so nothing runs for real."
                + " Each request the loop builds is compared with the recorded one; the first that differs is reported"
                + " with its step and what changed.", "",
                "Exit codes: 0 reproduced exactly, 1 diverged or ended otherwise, 2 usage error (e.g. no such trace)."})
final class ReplayCommand implements Callable<Integer> {
    private final CliEnvironment env;

    @ExampleValue("run.jsonl")
    @Parameters(index = "0", paramLabel = "TRACE", description = "The JSONL trace file.")
    Path trace;

    @ExampleValue("run_3f1c9a7e5b2d4c8e6a0b")
    @Option(names = "--run", paramLabel = "ID", description = "Which run of the trace to replay (required when it holds several).")
    String run;

    @Option(names = "--live-read-tools", description = "Run READ tools for real instead of answering them from the trace.")
    boolean liveReadTools;

    @Option(names = "--stop-at-divergence", description = "Stop the replay (CANCELLED) at the first divergence instead of continuing.")
    boolean stopAtDivergence;

    ReplayCommand(CliEnvironment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        if (java.nio.file.Files.notExists(trace, java.nio.file.LinkOption.NOFOLLOW_LINKS) && !underAFile(trace)) {
            // the library's "no such trace file" said nothing of what a trace is or where one comes from
            throw new UsageException("no such trace file: " + trace + (trace.isAbsolute() ? "" : " (in "
                    + Path.of("").toAbsolutePath() + ")") + "; give TRACE, a JSONL trace file: 'rein run --trace FILE' writes one"
                    + " (so do rein resume and rein reply with --trace, 'rein demo', which prints where, and 'rein eval SUITE"
                    + " --traces DIR'); a run started without --trace has none to replay");
        }
        Replay replay = Replay.from(trace).run(run).liveReadTools(liveReadTools).stopAtDivergence(stopAtDivergence);
        RecordedRun recorded;
        try {
            recorded = replay.recorded();
        } catch (dev.rein.replay.NotATraceException e) {
            // the library names the line; a person who gave another file also needs to hear what to give
            throw new UsageException(switch (e.problem()) {
                case NOT_JSON -> e.getMessage() + "; give a trace 'rein run --trace FILE' wrote (one JSON event per line), or"
                        + " fix that line";
                case NOT_AN_EVENT, NO_EVENTS -> e.getMessage() + "; give a trace 'rein run --trace FILE' wrote";
                case EVENTS_DROPPED -> e.getMessage(); // it already says to replay the --trace file
            });
        } catch (ReinException e) {
            throw new UsageException(e.getMessage());
        }
        ReplayReport report = replay.replay(agent(recorded, env));
        env.out().println(describe(recorded, report, standIns(recorded, env)));
        return report.reproduced() ? ExitCodes.SUCCEEDED : ExitCodes.FAILED;
    }

    /** Whether the nearest existing folder on the way to {@code file} is a file instead (the library says that so). */
    private static boolean underAFile(Path file) {
        for (Path at = file.toAbsolutePath().getParent(); at != null; at = at.getParent()) {
            if (java.nio.file.Files.exists(at)) {
                return !java.nio.file.Files.isDirectory(at);
            }
        }
        return false;
    }

    /**
     * An agent like the CLI's for the recorded run: its system prompt and max_tokens, and its tools
     * from the CLI's catalog, or stand-ins built from the trace for tools the CLI does not have (a
     * trace of the eval harness or of an application). It calls no model, so it needs no provider: the recorded model is
     * priced from the price table that lists it ({@link ProviderModels#pricing}), whatever REIN_PROVIDER says.
     */
    static Agent agent(RecordedRun recorded, CliEnvironment env) {
        ToolCatalog catalog = CliHome.of(env.env()).tools();
        List<Tool> tools = recorded.standInTools().stream().map(standIn -> catalog.find(standIn.name()).orElse(standIn)).toList();
        PriceTable prices = ProviderModels.pricing(recorded.model(), env.env());
        Agent.Builder agent = Agent.builder()
                .model((request, context) -> {
                    throw new ModelException(ModelException.Kind.OTHER, 0, "replaced by the recording", false, null, null, null);
                })
                .modelName(recorded.model())
                .systemPrompt(recorded.systemPrompt())
                .tools(tools)
                .prices(prices)
                .finishTool(recorded.tools().contains(FinishTool.NAME));
        if (prices.find(recorded.model()).isEmpty()) {
            agent.price(recorded.model(), ModelPrice.of("0", "0", "0")); // a replay costs nothing; an unknown model is priced at zero
        }
        if (recorded.outputSchema() != null) {
            agent.outputSchema(recorded.outputSchema());
        }
        if (recorded.maxTokens() > 0) {
            agent.maxTokens(recorded.maxTokens());
        }
        return agent.build();
    }

    /** The recorded tools this CLI does not have: they are answered from the trace by stand-ins. */
    static List<String> standIns(RecordedRun recorded, CliEnvironment env) {
        ToolCatalog catalog = CliHome.of(env.env()).tools();
        return recorded.toolDefinitions().stream().map(d -> d.name()).filter(name -> catalog.find(name).isEmpty()).toList();
    }

    static String describe(RecordedRun recorded, ReplayReport report, List<String> standIns) {
        StringBuilder out = new StringBuilder("replayed run " + report.runId() + ": " + report.modelCalls() + " of "
                + recorded.modelCalls() + " recorded model calls\n");
        if (!standIns.isEmpty()) {
            out.append("tools this CLI does not have, answered from the trace only: ").append(String.join(", ", standIns))
                    .append('\n');
        }
        out.append(report.firstDivergence().map(d -> "first divergence: " + d.description()).orElse("no divergence")).append('\n');
        out.append("recorded ending: ").append(report.recordedStatus() == null
                ? "none (the trace has no run_finished: the recording stopped before the run ended)"
                : report.recordedStatus() + "/" + report.recordedReason()).append('\n');
        out.append("replayed ending: ").append(report.result().status()).append('/').append(report.result().reason())
                .append(report.sameEnding() ? " (as recorded)" : sameStatus(report) ? " (differs: another answer)"
                        : " (differs)");
        return Text.visibleLines(out.toString());
    }

    private static boolean sameStatus(ReplayReport report) {
        return report.result().status().name().equals(report.recordedStatus()) && report.result().reason().equals(report.recordedReason());
    }
}
