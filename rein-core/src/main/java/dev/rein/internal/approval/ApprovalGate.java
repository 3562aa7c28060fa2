package dev.rein.internal.approval;

import dev.rein.approval.ActionHash;
import dev.rein.approval.ApprovalDecision;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.approval.ApprovalRequest;
import dev.rein.internal.chain.Bindable;
import dev.rein.internal.replay.RecordedAnswers;
import dev.rein.internal.secret.MaskedText;
import dev.rein.internal.text.DeadlineRefusal;
import dev.rein.internal.text.Fence;
import dev.rein.state.IdempotencyRecord;
import dev.rein.state.RunStore;
import dev.rein.state.StoreException;
import dev.rein.tool.Risk;
import dev.rein.tool.ErrorClass;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolChainException;
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
 * in earlier observations counts as a decision. A side effect recorded as completed under its
 * idempotency key (it ran before its process died, when no approval was asked) is not put to a
 * person by a stricter policy on resume: nothing a person decides could undo it, and the
 * idempotency stage answers it from its record.
 */
public final class ApprovalGate implements ToolInterceptor, Bindable<ToolInterceptor.Chain> {
    private final ApprovalPolicy policy;
    private final ApprovalLedger ledger;
    private final ToolEvents events;
    private final Clock clock;
    /** Where completed side effects are recorded; null when none is kept. */
    private final RunStore store;
    /** A replay's recorded answers, which decide the hold of a stand-in tool's call; null outside a replay. */
    private final RecordedAnswers recorded;

    public ApprovalGate(ApprovalPolicy policy, ApprovalLedger ledger, ToolEvents events, Clock clock) {
        this(policy, ledger, events, clock, null);
    }

    public ApprovalGate(ApprovalPolicy policy, ApprovalLedger ledger, ToolEvents events, Clock clock, RunStore store) {
        this(policy, ledger, events, clock, store, null);
    }

    /** With {@code recorded} (a replay's recorded answers, or null) asked before the policy: see {@link RecordedAnswers#holds}. */
    public ApprovalGate(ApprovalPolicy policy, ApprovalLedger ledger, ToolEvents events, Clock clock, RunStore store,
                        RecordedAnswers recorded) {
        this.recorded = recorded;
        this.policy = policy;
        this.ledger = ledger;
        this.events = events;
        this.clock = clock;
        this.store = store;
    }

    @Override
    public ToolOutcome intercept(ToolInvocation invocation, Chain chain) throws InterruptedException {
        return bind(chain).proceed(invocation);
    }

    @Override
    public Chain bind(Chain next) {
        return new Bound(next);
    }

    /** Its bound form names a failure of its own work itself, as this gate's (the policy's as the policy's). */
    @Override
    public boolean namesOwnFailures() {
        return true;
    }

    /**
     * This stage bound to the rest of the chain: one frame on a waiting run's stack, as Rein's other stages (see
     * Bindable), not a link into it, its {@code intercept} and the link out of it. The gate's own work is done in
     * {@link #answer} before the call is passed on, and a failure of it is named here as that link named it: this stage
     * threw and the call was not run. Spelled here, as the idempotency guard's is, not inherited as dev.rein.tool's
     * stages do (BuiltInToolStage, whose Javadoc says why).
     */
    private final class Bound implements Chain {
        private final Chain next;

        Bound(Chain next) {
            this.next = next;
        }

        @Override
        public ToolOutcome proceed(ToolInvocation invocation) throws InterruptedException {
            ToolOutcome answer;
            try {
                answer = answer(invocation);
            } catch (ToolChainException e) {
                throw e; // the policy threw: named as the policy
            } catch (RuntimeException e) {
                throw ToolChainException.threw("tool-chain stage " + ApprovalGate.class.getName(), invocation, e, false);
            }
            return answer != null ? answer : next.proceed(invocation);
        }
    }

    /** What the gate answers in place of the call (a refusal, a request for a decision), or null when the call goes on. */
    private ToolOutcome answer(ToolInvocation invocation) {
        ToolCall call = invocation.call();
        ToolContext context = invocation.context();
        // A recorded decision binds whatever the policy says now: the run may be resumed by an agent
        // whose policy would not have asked, and a person's rejection must still stand there.
        Optional<ApprovalDecision> decision = ledger.decisionFor(call.id());
        if (decision.isEmpty() && !requiresApproval(invocation)) {
            return null;
        }
        String hash = ActionHash.of(call.name(), call.arguments());
        if (decision.isEmpty()) {
            return completedEarlier(invocation, hash) ? null : ask(invocation, hash);
        }
        ApprovalDecision d = decision.get();
        if (d instanceof ApprovalDecision.Reject reject && reject.actionHash().equals(hash)) {
            return ToolOutcome.of(ToolResult.reinError(call, ErrorClass.REJECTED, rejected(invocation, reject.reason())));
        }
        if (hash.equals(d.approvedHash())) {
            return null;
        }
        events.audit(invocation, "approval_mismatch", "the decision (" + d.name() + ") was for action "
                + ActionHash.shortForm(d.actionHash()) + " but the call now is " + ActionHash.shortForm(hash)
                + "; it was not executed and a new approval is requested");
        return ask(invocation, hash);
    }

    /**
     * The refusal of a call a person rejected. Their words are outside text (they may have pasted a page, or the model's
     * own arguments): fenced, and masked before the fence's cut at 500 characters, since a reason stored in clear (decided
     * where the secrets were not known) could hold a secret across the cut, whose first part the masking of the whole
     * result no longer knows; a secret found is audited here, as that masking would have.
     */
    private String rejected(ToolInvocation invocation, String reason) {
        if (ApprovalDecision.Reject.NO_REASON.equals(reason)) {
            return "A person rejected this call, so it was not executed. They gave no reason."; // Rein's words: nothing to fence
        }
        String masked = MaskedText.masked(reason, invocation.context().secrets().known(), "the rejection reason for tool '"
                + invocation.tool().name() + "'", audit -> events.audit(invocation, "secret_masked", audit));
        return "A person rejected this call, so it was not executed. Their reason, quoted:\n"
                + Fence.quoted(masked, "rejection reason");
    }

    /** The policy's answer; one that throws is a programmer error naming the policy, and the call is not run. */
    private boolean requiresApproval(ToolInvocation invocation) {
        Optional<Boolean> asRecorded = recorded == null ? Optional.empty() : recorded.holds(invocation);
        if (asRecorded.isPresent()) {
            return asRecorded.get();
        }
        try {
            return policy.requiresApproval(invocation.tool(), invocation.call().arguments(), invocation.context().principal());
        } catch (RuntimeException e) {
            throw ToolChainException.threw("the approval policy " + policy.getClass().getName(), invocation, e, false);
        }
    }

    /** Whether this exact side effect is recorded as completed under the call's idempotency key. */
    private boolean completedEarlier(ToolInvocation invocation, String hash) {
        if (store == null || invocation.tool().risk() == Risk.READ) {
            return false;
        }
        try {
            return store.idempotency(invocation.context().idempotencyKey())
                    .filter(r -> r.status() == IdempotencyRecord.Status.COMPLETED && hash.equals(r.actionHash()))
                    .isPresent();
        } catch (StoreException e) {
            return false; // not known to have completed: a person is asked, as for any new call
        }
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
