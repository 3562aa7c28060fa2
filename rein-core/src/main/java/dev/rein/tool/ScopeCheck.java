package dev.rein.tool;

import dev.rein.internal.text.Fence;
import java.util.Optional;

/** Refuses calls the run's principal is not allowed to make; nothing the model says changes that. */
final class ScopeCheck extends BuiltInToolStage {
    private final ScopePolicy policy;
    private final ToolEvents events;

    ScopeCheck(ScopePolicy policy, ToolEvents events) {
        this.policy = policy;
        this.events = events;
    }

    @Override
    public Chain bind(Chain next) {
        return new Bound(next);
    }

    /** This stage bound to the rest of the chain: one frame per stage on a waiting run's stack (see BuiltInToolStage). */
    private final class Bound extends BuiltInToolStage.Bound {
        Bound(Chain next) {
            super(next);
        }

        @Override
        public ToolOutcome proceed(ToolInvocation invocation) throws InterruptedException {
            Optional<String> denied;
            try {
                denied = policy.deny(invocation.context().principal(), invocation.tool(), invocation.call().arguments());
            } catch (RuntimeException e) { // named as the policy, not as this stage
                throw ToolChainException.threw("the scope policy " + policy.getClass().getName(), invocation, e, false);
            }
            if (denied == null) { // the application's policy broke its contract: a programmer error, never shown to the model
                throw new ToolChainException("the scope policy " + policy.getClass().getName() + " returned null for call "
                        + invocation.call().id() + " of tool '" + invocation.tool().name() + "', which was not run; ScopePolicy.deny"
                        + " must return Optional.empty() to allow the call or Optional.of(reason) to deny it");
            }
            if (denied.isEmpty()) {
                return next.proceed(invocation);
            }
            // the built-in policy's reason is Rein's own words; another policy's may quote the model's arguments (a
            // recipient, a path), so it is fenced as data, as Rein's other messages fence what they quote; masked before
            // the fence's cut, which could leave part of a secret that the masking of the whole result no longer knows
            String why = policy == ScopePolicy.REQUIRED_SCOPES ? "Permission denied: " + denied.get() + ". "
                    : "Permission denied by the scope policy, which says:\n" + Fence.quoted(MaskedQuote.of(denied.get(),
                    invocation, events, "the scope policy's deny reason"), "scope policy") + "\n";
            return ToolOutcome.of(ToolResult.reinError(invocation.call(), ErrorClass.PERMISSION_DENIED, why
                    + "The tool was not called. Do not try again; continue without it or tell the user what permission is missing."));
        }
    }
}
