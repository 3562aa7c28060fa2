package dev.rein.internal.approval;

import dev.rein.approval.ActionHash;
import dev.rein.approval.ApprovalDecision;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.approval.ApprovalRequest;

import dev.rein.internal.text.DeadlineRefusal;
import dev.rein.tool.ErrorClass;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolContext;
import dev.rein.tool.ToolEvents;
import dev.rein.tool.ToolInterceptor;
import dev.rein.tool.ToolInvocation;
import dev.rein.tool.ToolOutcome;
import dev.rein.tool.ToolResult;
import java.time.Clock;
import java.util.Optional;

/**
 * The executor stage that stops risky calls until a person decides. A call the policy flags runs
 * only when the decision recorded for it names the hash of exactly these arguments; otherwise it
 * becomes a request and the run pauses. A call with a recorded decision is held to it even when
 * the policy (of the agent that resumed the run) would not flag it. Nothing in the arguments (an {@code "approved": true}) or
 * in earlier observations counts as a decision.
 */
public final class ApprovalGate implements ToolInterceptor {
    private final ApprovalPolicy policy;
    private final ApprovalLedger ledger;
    private final ToolEvents events;
    private final Clock clock;

    public ApprovalGate(ApprovalPolicy policy, ApprovalLedger ledger, ToolEvents events, Clock clock) {
        this.policy = policy;
        this.ledger = ledger;
        this.events = events;
        this.clock = clock;
    }

    @Override
    public ToolOutcome intercept(ToolInvocation invocation, Chain chain) throws InterruptedException {
        ToolCall call = invocation.call();
        ToolContext context = invocation.context();
        // A recorded decision binds whatever the policy says now: the run may be resumed by an agent
        // whose policy would not have asked, and a person's rejection must still stand there.
        Optional<ApprovalDecision> decision = ledger.decisionFor(call.id());
        if (decision.isEmpty() && !policy.requiresApproval(invocation.tool(), call.arguments(), context.principal())) {
            return chain.proceed(invocation);
        }
        String hash = ActionHash.of(call.name(), call.arguments());
        if (decision.isEmpty()) {
            return ask(invocation, hash);
        }
        ApprovalDecision d = decision.get();
        if (d instanceof ApprovalDecision.Reject reject && reject.actionHash().equals(hash)) {
            return ToolOutcome.of(ToolResult.reinError(call, ErrorClass.REJECTED, "A person rejected this call, so it was not executed. Their reason: "
                    + reject.reason()));
        }
        if (hash.equals(d.approvedHash())) {
            return chain.proceed(invocation);
        }
        events.audit(invocation, "approval_mismatch", "the decision (" + d.name() + ") was for action "
                + ActionHash.shortForm(d.actionHash()) + " but the call now is " + ActionHash.shortForm(hash)
                + "; it was not executed and a new approval is requested");
        return ask(invocation, hash);
    }

    private ToolOutcome ask(ToolInvocation invocation, String hash) {
        ToolCall call = invocation.call();
        ToolContext context = invocation.context();
        if (!clock.instant().isBefore(context.deadline())) {
            // The reads of the step used up the run's time: a resume could not run the call (the timeout
            // stage refuses it), so no person is asked and the run stops on its deadline instead of pausing
            return ToolOutcome.of(ToolResult.reinError(call, ErrorClass.TIMEOUT, DeadlineRefusal.notCalledNorAsked(call.name())));
        }
        ledger.request(new ApprovalRequest(context.runId(), context.step(), call.id(), call.index(), call.name(),
                invocation.tool().risk(), call.arguments(), hash, context.principal().user(), clock.instant()));
        events.audit(invocation, "approval_requested", "tool '" + call.name() + "' (" + invocation.tool().risk()
                + ") waits for a person's decision on action " + hash);
        return new ToolOutcome.Deferred(call.id(), call.name(), hash);
    }
}
