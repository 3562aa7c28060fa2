package dev.rein.cli;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.cli.demo.DemoScripts;
import dev.rein.cli.demo.DemoScripts.Demo;
import dev.rein.tool.builtin.BuiltinTools;
import dev.rein.trace.JsonlTraceListener;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rein demo}: two runs of the real loop, the real built-in tools and a real trace file,
 * with a scripted model standing in for the LLM, so it works offline and without a key.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        header = "Watch Rein work, offline and without a key (scripted model).",
        description = {"Shows what Rein does, offline and without an API key: a SCRIPTED model (not an LLM) drives"
                + " the real loop, the real built-in tools and a real trace file through two runs:",
                "  1. the worked example \"今日から100日後は何月何日?\":",
                "     get_current_time, then calculate, then the answer;",
                "  2. one response with four tool calls, executed in parallel.",
                "The live view goes to stderr, the answers to stdout. Exit code 0 when both runs succeed.", ""})
final class DemoCommand implements Callable<Integer> {
    private final CliEnvironment env;

    @ExampleValue("demo.jsonl")
    @Option(names = "--trace", paramLabel = "FILE", description = "Append the trace of both runs to FILE (default: a new file in the temp directory).")
    Path trace;

    DemoCommand(CliEnvironment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        Path file = trace != null ? trace : newTraceFile();
        TraceFile.checkWritable(file);
        TraceFile.requireOwnFile(file, "--trace", CliHome.of(env.env()), java.util.Map.of(), "trace", "demo.jsonl");
        PrintStream out = env.out();
        out.println("Rein demo — a SCRIPTED model plays the LLM: no API key, no network, nothing billed.");
        out.println("The agent loop, the built-in tools and the trace file are the real ones; token counts and costs are simulated.");
        List<Demo> demos = DemoScripts.all();
        int exitCode = ExitCodes.SUCCEEDED;
        try (StatusLine line = new StatusLine(env.err(), env.terminal().animated(), Terminal.columns(env.env()))) {
            for (int i = 0; i < demos.size(); i++) {
                Demo demo = demos.get(i);
                out.println();
                out.println("[" + (i + 1) + "/" + demos.size() + "] " + demo.title());
                out.println("goal: " + demo.goal());
                Agent agent = Agent.builder()
                        .model(demo.model())
                        .tools(BuiltinTools.all())
                        .listener(runId -> new LiveView(line))
                        .listener(JsonlTraceListener.to(file))
                        .build();
                int code = Foreground.run(agent, demo.goal(), env, result -> report(result, file));
                if (exitCode == ExitCodes.SUCCEEDED) {
                    exitCode = code;
                }
            }
        }
        out.println();
        out.println("trace of both runs (one JSON event per line): " + file);
        return exitCode;
    }

    private int report(RunResult result, Path file) {
        env.out().println("answer (scripted model):");
        env.out().println(result.answer() == null ? "" : result.answer().strip().indent(2).stripTrailing());
        env.err().println(new RunReport(env, false, false, file, id -> java.util.List.of(), null, false).unkept().summary(result));
        return ExitCodes.of(result.status());
    }

    private static Path newTraceFile() {
        try {
            return Files.createTempFile("rein-demo-", ".jsonl");
        } catch (IOException e) {
            throw new UsageException("cannot create a trace file in the temp directory (" + e.getMessage()
                    + "); give one with --trace FILE");
        }
    }
}
