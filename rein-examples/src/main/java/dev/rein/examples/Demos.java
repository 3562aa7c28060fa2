package dev.rein.examples;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import java.io.PrintStream;

/** What the single-run demos share: print the goal, run with a console trace, print the ending. */
public final class Demos {
    private Demos() {}

    /** Runs {@code agent} on {@code goal}, printing each step and the result to {@code out}. */
    public static RunResult run(Agent agent, String goal, PrintStream out) {
        out.println("Goal: " + goal);
        RunResult result = agent.withListener(ConsoleTrace.to(out)).run(goal);
        ConsoleTrace.printResult(result, out);
        return result;
    }

    /** The exit code of a demo: {@link Examples#OK} when it ended as intended. */
    public static int exitCode(boolean asIntended) {
        return asIntended ? Examples.OK : Examples.NOT_AS_INTENDED;
    }
}
