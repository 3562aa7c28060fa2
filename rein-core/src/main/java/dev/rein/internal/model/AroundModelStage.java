package dev.rein.internal.model;

import dev.rein.ReinException;
import dev.rein.model.Model;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelResponse;
import dev.rein.provider.ForwardingModel;
import java.util.List;

/**
 * Puts the models of the application's stages ({@link ModelInterceptor#aroundModel}) around the
 * model each attempt reaches, whichever stage chose it, just before the deadline stage: a stage's
 * wrapper is then around a fallback model set by a stage further in too, on whatever thread the
 * deadline stage runs the model.
 */
public final class AroundModelStage implements BuiltInStage {
    private final List<ModelInterceptor> stages;

    /** @param stages the application's stages, outermost first */
    public AroundModelStage(List<ModelInterceptor> stages) {
        this.stages = List.copyOf(stages);
    }

    @Override
    public Chain bind(Chain next) {
        return new Bound(next);
    }

    /** This stage bound to the rest of the chain: one frame per stage on a waiting run's stack (see BuiltInStage). */
    private final class Bound extends BuiltInStage.Bound {
        Bound(Chain next) {
            super(next);
        }

        @Override
        public ModelResponse proceed(ModelCall call) throws ModelException, InterruptedException {
            return next.proceed(wrapped(call));
        }

        @Override
        public long proceedCount(ModelCall call) throws ModelException, InterruptedException {
            return next.proceedCount(wrapped(call));
        }
    }

    /**
     * The model as the stages wrapped it, remembering the client it wraps: a failure of the client is
     * named by the client's class, not by a stage's wrapper ({@link ModelChain#MODEL}).
     */
    static final class Wrapped extends ForwardingModel {
        private final Model client;

        Wrapped(Model outer, Model client) {
            super(outer);
            this.client = client;
        }

        Model client() {
            return client;
        }
    }

    /** The model a failure names: the client inside the stages' wrappers. */
    static Model client(Model model) {
        return model instanceof Wrapped w ? w.client() : model;
    }

    /** The innermost stage wraps first, so the first one added is outermost, as in the chain. */
    private ModelCall wrapped(ModelCall call) {
        ModelCall wrapped = call;
        for (int i = stages.size() - 1; i >= 0; i--) {
            Model model;
            try {
                model = stages.get(i).aroundModel(wrapped);
            } catch (ReinException e) {
                throw e;
            } catch (RuntimeException e) {
                // named here: bound to the stages after it, this stage has no chain link of its own to name it
                throw ModelChain.threw(this, e);
            }
            if (model == null) {
                throw new ReinException("model-call stage " + stages.get(i) + " returned null from aroundModel;"
                        + " return the call's model when the stage has nothing to put around it");
            }
            if (model != wrapped.model()) {
                wrapped = wrapped.withModel(model);
            }
        }
        return wrapped == call ? call : wrapped.withModel(new Wrapped(wrapped.model(), call.model()));
    }

    @Override
    public String toString() {
        return "around-model";
    }
}
