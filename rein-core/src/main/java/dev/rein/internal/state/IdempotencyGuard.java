package dev.rein.internal.state;

import dev.rein.internal.chain.Bindable;
import dev.rein.state.IdempotencyRecord;
import dev.rein.state.RunStore;
import dev.rein.state.StoreException;

import dev.rein.approval.ActionHash;
import dev.rein.internal.secret.MaskedText;
import dev.rein.internal.text.Fence;
import dev.rein.tool.ErrorClass;
import dev.rein.tool.Risk;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolEvents;
import dev.rein.tool.ToolInterceptor;
import dev.rein.tool.ToolInvocation;
import dev.rein.tool.ToolOutcome;
import dev.rein.tool.ToolResult;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * The executor stage that makes side effects effectively-once. For a WRITE or IRREVERSIBLE call it
 * writes an intent (call and idempotency key) before the handler runs and the result after. A call
 * whose key is already completed is answered from the record and not executed again; a call whose
 * key has only an intent was in flight when its process stopped, and is delivered again with the
 * same key, so an external system that deduplicates by key applies it once.
 */
public final class IdempotencyGuard implements ToolInterceptor, Bindable<ToolInterceptor.Chain> {
    private final RunStore store;
    private final ToolEvents events;
    private final Clock clock;

    public IdempotencyGuard(RunStore store, ToolEvents events, Clock clock) {
        this.store = store;
        this.events = events;
        this.clock = clock;
    }

    @Override
    public ToolOutcome intercept(ToolInvocation invocation, Chain chain) throws InterruptedException {
        return bind(chain).proceed(invocation);
    }

    @Override
    public Chain bind(Chain next) {
        return new Bound(next);
    }

    /**
     * This stage bound to the rest of the chain: one frame per stage on a waiting run's stack (see Bindable). Spelled
     * here, as the approval gate's is, not inherited as dev.rein.tool's stages do (BuiltInToolStage, whose Javadoc says
     * why).
     */
    private final class Bound implements Chain {
        private final Chain next;

        Bound(Chain next) {
            this.next = next;
        }

        @Override
        public ToolOutcome proceed(ToolInvocation invocation) throws InterruptedException {
            if (invocation.tool().risk() == Risk.READ) {
                return next.proceed(invocation);
            }
            ToolCall call = invocation.call();
            String key = invocation.context().idempotencyKey();
            String hash = ActionHash.of(call.name(), call.arguments());
            IdempotencyRecord intent;
            try {
                Optional<IdempotencyRecord> existing = store.idempotency(key);
                if (existing.isPresent() && !existing.get().actionHash().equals(hash)) {
                    events.audit(invocation, "idempotency_conflict", "key " + key + " was recorded for another action");
                    return ToolOutcome.of(ToolResult.reinError(call, ErrorClass.EXECUTION_FAILED, "This call was not executed: its"
                            + " idempotency key " + key + " is already recorded for a different action."));
                }
                if (existing.isPresent() && existing.get().status() == IdempotencyRecord.Status.COMPLETED) {
                    events.audit(invocation, "idempotent_replay", "key " + key + " is recorded as completed; the recorded result"
                            + " is used and the tool is not called again");
                    return ToolOutcome.of(replay(call, existing.get().result()));
                }
                int deliveries = existing.map(IdempotencyRecord::deliveries).orElse(0) + 1;
                if (existing.isPresent()) {
                    events.audit(invocation, "redelivery", "key " + key + " was in flight when the run stopped; delivering it again"
                            + " with the same key (delivery " + deliveries + ")");
                }
                Instant now = clock.instant();
                intent = new IdempotencyRecord(key, invocation.context().runId(), invocation.context().step(), call.id(), call.name(),
                        hash, call.arguments(), IdempotencyRecord.Status.INTENT, null, deliveries,
                        existing.map(IdempotencyRecord::createdAt).orElse(now), now);
                store.putIdempotency(intent);
            } catch (StoreException e) {
                // the store's message is outside text (a database's words, which may quote the call's values): fenced as data
                // in Rein's own refusal, which the model gets unwrapped; masked before the fence's cut, which could leave part
                // of a secret that the masking of the whole result no longer knows (a secret found is audited here)
                String said = MaskedText.masked(e.getMessage(), invocation.context().secrets().known(), "the run store's error"
                        + " for tool '" + call.name() + "'", audit -> events.audit(invocation, "secret_masked", audit));
                return ToolOutcome.of(ToolResult.reinError(call, ErrorClass.EXECUTION_FAILED, "This call was not executed because its"
                        + " intent could not be recorded; the store said:\n" + Fence.quoted(said, "run store")
                        + "\nWithout the record a resume could repeat it."));
            }
            ToolOutcome outcome = next.proceed(invocation);
            if (!(outcome instanceof ToolOutcome.Done done)) {
                return outcome;
            }
            try {
                store.putIdempotency(intent.completed(done.result(), clock.instant()));
            } catch (StoreException e) {
                events.audit(invocation, "completion_not_recorded", "the call ran but its completion could not be recorded: "
                        + e.getMessage() + "; a resume will deliver it again with the same key " + key);
            }
            return outcome;
        }
    }

    private static ToolResult replay(ToolCall call, ToolResult recorded) {
        if (recorded == null) {
            return ToolResult.reinError(call, ErrorClass.EXECUTION_FAILED, "(the call completed earlier, but its result was not kept)");
        }
        // a resume answers the call from this record alone, so its part for the person comes from here too, and Rein's mark
        // on its note: rebuilt without it, a note Rein wrote was traced as the tool's and wrapped as untrusted data
        return new ToolResult(call.id(), call.name(), recorded.content(), recorded.isError(), recorded.errorClass(),
                recorded.source(), recorded.observedAt(), recorded.duration(), null, recorded.reinMessage(), recorded.userContent());
    }
}
