package dev.rein.examples;

import dev.rein.internal.text.Counts;
import dev.rein.agent.RunResult;
import dev.rein.json.Json;
import dev.rein.trace.RunListener;
import dev.rein.trace.RunListenerFactory;
import dev.rein.trace.TraceEvent;
import java.io.PrintStream;
import java.util.Locale;

/**
 * Prints a run as it happens, one line per action: the model's remarks, each tool call and its
 * result, and every time the runtime stepped in. Long text is shortened for the console only,
 * with a note of how much was left out.
 */
public final class ConsoleTrace implements RunListener {
    private static final int WIDTH = 240;
    private final PrintStream out;

    private ConsoleTrace(PrintStream out) {
        this.out = out;
    }

    /** A listener factory printing every run to {@code out}. */
    public static RunListenerFactory to(PrintStream out) {
        return runId -> new ConsoleTrace(out);
    }

    @Override
    public void onEvent(TraceEvent event) {
        switch (event) {
            case TraceEvent.ModelResponded r when !r.response().text().isBlank() ->
                    print(r.step(), "model", Display.line(r.response().text(), WIDTH));
            case TraceEvent.ToolCalled c -> print(c.step(), "→ " + c.tool(), Display.line(Json.write(c.arguments()), WIDTH));
            case TraceEvent.ToolCompleted c -> print(c.step(), c.isError() ? "← error " + c.errorClass().toLowerCase(Locale.ROOT) : "← ok",
                    Display.line(c.content(), WIDTH));
            // The runtime's own messages are shown whole: they are what the model is told.
            case TraceEvent.Intervention i -> printBlock(i.step(), "[rein] " + i.kind(), i.message());
            case TraceEvent.StallDetected s -> print(s.step(), "[rein] stall " + s.action(), Display.line(s.message(), WIDTH));
            case TraceEvent.OutputTruncated t -> print(t.step(), "[rein] truncated", t.tool() + (t.part() == null ? " output" : " output for the person") + ": showed " + t.shownChars()
                    + " of " + t.totalChars() + " characters");
            case TraceEvent.ApprovalRequested a -> print(a.step(), "[rein] approval needed", a.tool() + " " + Json.write(a.arguments())
                    + " waits for a person (action " + a.actionHash().substring(0, 12) + ")");
            // a decision stored before deciders were recorded comes back from the snapshot without one; a person's words are
            // shown with their control characters visible, as everything else on this console
            case TraceEvent.ApprovalDecided d -> print(d.step(), "[person] " + d.decision(), Display.visible(d.tool(), false)
                    + (d.decidedBy() == null || d.decidedBy().isBlank() ? "" : " by " + Display.visible(d.decidedBy(), false))
                    + (d.reason() == null || d.reason().isBlank() ? "" : ": " + Display.line(d.reason(), WIDTH)));
            case TraceEvent.RunResumed r -> print(r.step(), "[rein] resumed", "the run continues from its stored state");
            default -> { }
        }
    }

    private void printBlock(int step, String what, String text) {
        synchronized (out) {
            out.printf("  %2d  %-24s %s%n", step, what, Display.indent(text, "").replace("\n", "\n" + " ".repeat(31)));
        }
    }

    private void print(int step, String what, String text) {
        synchronized (out) {
            out.printf("  %2d  %-24s %s%n", step, what, text);
        }
    }

    /** Prints only the runtime's interventions (refused answers, budget stops, workflow routes). */
    public static final class InterventionsOnly implements RunListener {
        private final PrintStream out;

        public InterventionsOnly(PrintStream out) {
            this.out = out;
        }

        @Override
        public void onEvent(TraceEvent event) {
            if (event instanceof TraceEvent.Intervention i && !i.kind().equals("workflow")) {
                synchronized (out) {
                    out.println("    [rein] " + i.kind() + ": " + Display.line(i.message(), WIDTH));
                }
            }
        }
    }

    /** Prints how a run ended: status, reason, counters and the answer. */
    public static void printResult(RunResult result, PrintStream out) {
        out.printf("%n= %s (%s) after %s, USD %s%n", result.status(), result.reason(), Counts.of(result.steps(), "step"),
                result.costUsd().toPlainString());
        if (result.message() != null && !result.message().isBlank() && !result.succeeded()) {
            out.println("  " + Display.visible(result.message(), false));
        }
        if (result.answer() != null && !result.answer().isBlank()) {
            out.println(Display.indent(result.answer(), "  | "));
        }
    }
}
