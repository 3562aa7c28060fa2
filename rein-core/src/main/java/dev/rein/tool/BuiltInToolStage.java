package dev.rein.tool;

import dev.rein.internal.chain.Bindable;

/**
 * A tool stage of Rein's own in this package: {@link ToolChain} binds it once to the stage after it, so passing a call
 * on is one frame per stage (its bound form's {@code proceed}, which is the stage's work) instead of its
 * {@code intercept} and a link's {@code proceed} (see {@link Bindable}). What every such stage spelled alike is here: a
 * stage declares its {@code bind} and a {@link Bound} with its work, nothing else. The work stays in the stage's own
 * bound class, not in a method of the stage a shared bound form would call: that would be a second frame per stage.
 *
 * <p>Rein's stages in other packages spell the binding themselves, three copies of a few lines: the idempotency guard
 * ({@code internal.state}), the approval gate ({@code internal.approval}, bound since perf7) and the run's
 * {@code tool_call} trace ({@code agent}). They cannot extend this base: it would have to be public here, which is API,
 * or sit in an internal package this one uses, which names {@link ToolInterceptor}: a package cycle. The guard and the
 * gate could share a base of their own in a further internal package (this one does not use them), but that would be a
 * third base for the same few lines, and the trace's stage, a record, could not extend it.
 */
abstract class BuiltInToolStage implements ToolInterceptor, Bindable<ToolInterceptor.Chain> {

    /** Outside a chain that binds it (a test, a chain of the application's own): bound to {@code chain} for this call. */
    @Override
    public final ToolOutcome intercept(ToolInvocation invocation, Chain chain) throws InterruptedException {
        return bind(chain).proceed(invocation);
    }

    /** A stage bound to the rest of the chain, {@code next} (null after the last stage, which answers). */
    abstract static class Bound implements Chain {
        final Chain next;

        Bound(Chain next) {
            this.next = next;
        }
    }
}
