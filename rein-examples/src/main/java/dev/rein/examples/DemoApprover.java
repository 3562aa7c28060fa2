package dev.rein.examples;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.approval.ApprovalRequest;
import dev.rein.state.Runs;
import java.io.PrintStream;
import java.util.Objects;
import java.util.function.Function;

/**
 * The person who approves or rejects in a demo. A demo has no one to ask, so this stand-in
 * decides by a fixed rule and says so; in an application the decision comes from a person, in
 * another process if need be ({@code rein approve RUN}).
 */
public final class DemoApprover {
    /** What the stand-in decides for one request. */
    public record Decision(boolean approved, String reason) {
        public static Decision approve() {
            return new Decision(true, "");
        }

        public static Decision reject(String reason) {
            return new Decision(false, Objects.requireNonNull(reason, "reason"));
        }
    }

    static final String NAME = "demo-approver";
    private final Function<ApprovalRequest, Decision> rule;
    private final Function<ApprovalRequest, String> details;

    private DemoApprover(Function<ApprovalRequest, Decision> rule, Function<ApprovalRequest, String> details) {
        this.rule = rule;
        this.details = details;
    }

    /** A stand-in deciding each request by {@code rule}. */
    public static DemoApprover deciding(Function<ApprovalRequest, Decision> rule) {
        return new DemoApprover(Objects.requireNonNull(rule, "rule"), request -> "");
    }

    /**
     * The same stand-in, also shown {@code details} of each request: what the action refers to
     * (the full text of a draft to be sent), read from the system of record.
     */
    public DemoApprover showing(Function<ApprovalRequest, String> details) {
        return new DemoApprover(rule, Objects.requireNonNull(details, "details"));
    }

    /**
     * Runs {@code agent} on {@code goal}; each time the run pauses for approval, shows the
     * pending actions, decides them by the rule through the agent's run store, and resumes, until
     * the run ends. Prints everything to {@code out}.
     */
    public RunResult run(Agent agent, String goal, PrintStream out) {
        out.println("Goal: " + goal);
        Agent traced = agent.withListener(ConsoleTrace.to(out));
        RunResult result = traced.run(goal);
        while (result.waitingForApproval()) {
            ConsoleTrace.printResult(result, out);
            Runs runs = traced.runs();
            for (ApprovalRequest request : result.pendingApprovals()) {
                Decision decision = rule.apply(request);
                out.println("  " + NAME + " (a stand-in for a person) sees: " + request.describe());
                String shown = details.apply(request);
                if (!shown.isBlank()) {
                    out.println(Display.indent(shown, "    | "));
                }
                if (decision.approved()) {
                    out.println("  " + NAME + " approves.");
                    runs.approve(result.runId(), request.actionHash(), NAME);
                } else {
                    out.println("  " + NAME + " rejects: " + decision.reason());
                    runs.reject(result.runId(), request.actionHash(), decision.reason(), NAME);
                }
            }
            out.println();
            result = traced.resume(result.runId());
        }
        ConsoleTrace.printResult(result, out);
        return result;
    }
}
