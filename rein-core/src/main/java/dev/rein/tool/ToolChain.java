package dev.rein.tool;

import dev.rein.internal.chain.Bindable;
import dev.rein.internal.chain.Suspects;
import java.util.Arrays;
import java.util.List;

/**
 * Runs a list of interceptors in order and polices their contract: a stage passes on the call it
 * was given (same call id, same tool under the same name; the arguments may change, e.g. an approved edit), returns a
 * result for that call and never null nor throws, and the last stage answers. A breach is a
 * {@link ToolChainException} naming the stage.
 *
 * <p>Made once per executor. Each stage of Rein's own ({@link Bindable}) is bound once to the stage after it, so it is
 * one frame on the stack the run's thread waits with while its tool call runs, not its {@code intercept} and a
 * {@link Link#proceed}: at thousands of runs in flight every frame of that stack is copied to the heap at each park
 * (docs/performance-log.md, 2026-12-07, perf6). A link stays around each application's stage (the link it is given
 * polices it, the link into it names its failures) and where a run of Rein's own stages is entered.
 */
final class ToolChain {
    private final List<ToolInterceptor> stages;
    /** Each stage of Rein's own bound to the rest of the chain; null for an application's stage. */
    private final ToolInterceptor.Chain[] bound;
    private final Link first;

    @SuppressWarnings("unchecked")
    ToolChain(List<ToolInterceptor> stages) {
        this.stages = List.copyOf(stages);
        this.bound = new ToolInterceptor.Chain[this.stages.size()];
        for (int i = bound.length - 1; i >= 0; i--) {
            if (this.stages.get(i) instanceof Bindable<?> own) {
                ToolInterceptor.Chain next = i + 1 == bound.length ? null : bound[i + 1] != null ? bound[i + 1] : new Link(i + 1, null);
                bound[i] = ((Bindable<ToolInterceptor.Chain>) own).bind(next);
            }
        }
        this.first = new Link(0, null);
    }

    /**
     * Where a call enters: {@code start().proceed(invocation)}. The caller proceeds itself, so no frame of this class's
     * sits under the first stage's while the call runs.
     */
    ToolInterceptor.Chain start() {
        return first;
    }

    /**
     * The chain as seen by the stage before {@code index}: proceeding runs stage {@code index}, an application's with the
     * next link, one of Rein's bound to the rest, and names a failure of the stage it runs (of a run of Rein's own
     * stages, bound one to the next, the one its stack trace shows threw: see thrower). A link given to an application's
     * stage ({@code received} not null) polices that stage; the one into the chain or from a stage of Rein's is shared.
     */
    private final class Link implements ToolInterceptor.Chain {
        private final int index;
        /** The call the application's stage before {@code index} was given; null when no application's stage is before it. */
        private final ToolInvocation received;
        /** Whether the stage given this link passed the call on (the timeout stage does so on another thread). */
        private volatile boolean proceeded;

        Link(int index, ToolInvocation received) {
            this.index = index;
            this.received = received;
        }

        @Override
        public ToolOutcome proceed(ToolInvocation invocation) throws InterruptedException {
            if (received != null) {
                proceeded = true;
                police(invocation);
            } else if (invocation == null) {
                throw new NullPointerException("invocation");
            }
            ToolInterceptor stage = stages.get(index);
            ToolInterceptor.Chain own = bound[index];
            Link rest = own == null ? new Link(index + 1, invocation) : null;
            ToolOutcome outcome;
            try {
                outcome = own != null ? own.proceed(invocation) : stage.intercept(invocation, rest);
            } catch (ToolChainException | dev.rein.ConfigurationException passedOn) {
                // a setting that cannot work (a tool's input schema the validator overflows on): configuration_error, as a
                // model-chain stage's; no breach of the contract
                throw passedOn;
            } catch (RuntimeException e) {
                // a stage that throws broke the contract (it answers, never throws): the developer's error, never the model's
                if (own == null) {
                    throw ToolChainException.threw("tool-chain stage " + stage.getClass().getName(), invocation, e, rest.proceeded);
                }
                // one of a run of Rein's own stages, bound one to the next, threw: whether it had passed the call on is not
                // known here
                throw ToolChainException.threwUnsure(thrower(index, e), invocation, e);
            }
            if (outcome == null) {
                throw breach(stage, "returned null instead of an outcome");
            }
            if (!outcome.callId().equals(invocation.call().id())) {
                throw breach(stage, "returned the outcome of call " + outcome.callId() + " for call " + invocation.call().id());
            }
            return outcome;
        }

        /** The application's stage before this link passed on the call it was given. */
        private void police(ToolInvocation invocation) {
            ToolInterceptor caller = stages.get(index - 1);
            if (invocation == null) {
                throw breach(caller, "proceeded with null");
            }
            if (index >= stages.size()) {
                throw breach(caller, "proceeded past the last stage, which must answer the call");
            }
            if (!invocation.call().id().equals(received.call().id()) || invocation.tool() != received.tool()
                    || !invocation.call().name().equals(received.call().name())) {
                throw breach(caller, "changed the call id or the tool (from " + describe(received)
                        + " to " + describe(invocation) + ")");
            }
        }
    }

    /**
     * Which of the run of Rein's own stages from {@code index} (bound one to the next, up to an application's stage) threw
     * {@code e}, named for the message: the one of the first frame of its stack trace that is such a stage's (its bound
     * form's, or a method of the stage's own). Where that tells no one stage (no such frame, as in an exception with no
     * stack trace; a frame of a class two stages of the run share) it says the stages it may have been (see Suspects),
     * by their simple names (Rein's own, so these are unambiguous; nine full names made a message of some 330
     * characters), the approval gate and the handler's stage left out when no frame tells (they
     * {@code namesOwnFailures}). Looked for only once something has thrown, so the bound chain costs nothing for it.
     */
    private String thrower(int index, RuntimeException e) {
        int end = index;
        while (end < bound.length && bound[end] != null) {
            end++;
        }
        return Suspects.threw("tool-chain", e, stages.subList(index, end), Arrays.asList(bound).subList(index, end),
                stage -> stage.getClass().getName(), stage -> stage.getClass().getSimpleName());
    }

    private static String describe(ToolInvocation invocation) {
        String named = invocation.call().name().equals(invocation.tool().name()) ? ""
                : " named '" + invocation.call().name() + "'";
        return "call " + invocation.call().id() + named + " of tool '" + invocation.tool().name() + "'";
    }

    private static ToolChainException breach(ToolInterceptor stage, String what) {
        String name = stage.getClass().getName();
        return new ToolChainException("tool-chain stage " + name + " " + what
                + "; a stage must pass on the call it was given and return a result for it");
    }
}
