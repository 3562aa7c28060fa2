package dev.rein.internal.model;

import dev.rein.internal.chain.Bindable;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelResponse;

/**
 * A model-call stage of Rein's own. {@link ModelChain} binds it once to the stage after it, so passing a call on is one
 * frame per stage ({@link Bound#proceed}) instead of the stage's {@code intercept} and the chain's {@code proceed}: a
 * run waiting for its model parks with this stack, and at thousands of runs in flight each frame of it is copied to the
 * heap at each park (docs/performance-log.md, 2026-12-07, perf6). The chain's contract checks police the application's
 * stages; these keep the contract by construction (ModelChainTest).
 */
public interface BuiltInStage extends ModelInterceptor, Bindable<ModelInterceptor.Chain> {

    /** This stage with {@code next} as the rest of the chain (null after the innermost stage). */
    @Override
    Chain bind(Chain next);

    @Override
    default ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
        return bind(chain).proceed(call);
    }

    @Override
    default long interceptCount(ModelCall call, Chain chain) throws ModelException, InterruptedException {
        return bind(chain).proceedCount(call);
    }

    /** A stage bound to the rest of the chain: its {@code proceed} is the stage's work; a token count passes on by default. */
    abstract class Bound implements Chain {
        protected final Chain next;
        /** The chain this is bound in, set by it (null when bound outside one, through intercept): names a failure below. */
        ModelChain chain;

        protected Bound(Chain next) {
            this.next = next;
        }

        @Override
        public long proceedCount(ModelCall call) throws ModelException, InterruptedException {
            return next.proceedCount(call);
        }
    }
}
