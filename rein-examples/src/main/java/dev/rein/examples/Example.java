package dev.rein.examples;

import dev.rein.eval.Suite;
import dev.rein.testkit.ScriptedModel;
import java.io.PrintStream;
import java.util.List;

/**
 * One worked example: an agent for a use case, with its tools, its fake world, its loop profile
 * (steps, budget, guards), a script that drives it offline and an evaluation suite.
 */
public interface Example {
    /** The name the command line uses ({@code rein example NAME}). */
    String name();

    /** One line: what the example shows. */
    String description();

    /** The scripted model's replies for the offline demo, in order. */
    List<ScriptedModel.Turn> demoScript();

    /**
     * Runs the demo with {@code model}, printing what happens to {@code out}.
     *
     * @return 0 when the demo ended as intended, 1 otherwise
     */
    int demo(DemoModel model, PrintStream out) throws InterruptedException;

    /**
     * Whether the demo has a tool-calling agent, to be offered further tools ({@link DemoModel#offered}, e.g. an MCP
     * server's with {@code rein example NAME --mcp}); false for a demo whose model steps only classify or extract.
     */
    default boolean offersTools() {
        return true;
    }

    /** The evaluation suite: tasks of several categories, each with scripts so it runs offline. */
    Suite suite();
}
