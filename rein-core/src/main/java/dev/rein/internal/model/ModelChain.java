package dev.rein.internal.model;

import dev.rein.ReinException;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import java.util.List;

/**
 * Runs a model call through a list of stages in order and polices their contract: each stage
 * proceeds at most once (unless it {@link ModelInterceptor#retries()}), keeps the conversation of the
 * call it was given and never returns null. A breach is a {@link ReinException} naming the stage.
 */
public final class ModelChain {
    /** The innermost stage: calls the model itself. */
    public static final ModelInterceptor MODEL = new ModelInterceptor() {
        @Override
        public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
            ModelResponse response;
            try {
                response = call.model().call(call.request(), call.context());
            } catch (ModelException e) {
                throw withMessage(e, call);
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception | Error e) {
                // The provider's client failed, not a stage: a provider error the run reports. An Error
                // (AssertionError, StackOverflowError) or a checked exception thrown past the signature
                // is the client's failure too, as for a tool's handler.
                throw new ModelException(ModelException.Kind.OTHER, 0, "the model client " + client(call)
                        + " failed with " + e.getClass().getSimpleName() + ": " + e.getMessage(), false, null, null, e);
            }
            if (response == null) {
                throw new ModelException(ModelException.Kind.MALFORMED_RESPONSE, 0, "the model returned no response"
                        + " (model client " + client(call) + ")");
            }
            return response;
        }

        @Override
        public long interceptCount(ModelCall call, Chain chain) throws ModelException, InterruptedException {
            try {
                return call.model().countTokens(call.request());
            } catch (ModelException e) {
                throw withMessage(e, call);
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception | Error e) {
                // As for a call: the provider's client failed, so the count is unknown and the run estimates
                throw new ModelException(ModelException.Kind.OTHER, 0, "the model client " + client(call)
                        + " failed to count tokens with "
                        + e.getClass().getSimpleName() + ": " + e.getMessage(), false, null, null, e);
            }
        }

        /**
         * {@code e}, or when the client gave it no message, the same failure saying whose it was and
         * what kind: the run's message would otherwise end in "failed: null".
         */
        private static ModelException withMessage(ModelException e, ModelCall call) {
            if (e.getMessage() != null && !e.getMessage().isBlank()) {
                return e;
            }
            String status = e.httpStatus() > 0 ? " (HTTP " + e.httpStatus() + ")" : "";
            ModelException named = new ModelException(e.kind(), e.httpStatus(), "the model client " + client(call)
                    + " failed with a ModelException of kind " + e.kind() + status + " and no message", e.retryable(),
                    e.retryAfter(), e.requestId(), e.reportedUsage().orElse(null), e);
            return named;
        }

        /** The model asked for and the client's class, so a failure says whose it was (several providers may be in use). */
        private static String client(ModelCall call) {
            Class<?> type = AroundModelStage.client(call.model()).getClass(); // not a stage's wrapper (telemetry's)
            String name = type.isSynthetic() || type.isAnonymousClass() || type.isHidden() ? "" : " (" + type.getName() + ")";
            return "for model '" + call.request().model() + "'" + name;
        }

        @Override
        public String toString() {
            return "model";
        }
    };

    private final List<ModelInterceptor> stages;

    public ModelChain(List<ModelInterceptor> stages) {
        this.stages = List.copyOf(stages);
        if (this.stages.isEmpty() || this.stages.get(this.stages.size() - 1) != MODEL) {
            throw new IllegalArgumentException("the last stage of a model chain must be ModelChain.MODEL");
        }
    }

    public List<ModelInterceptor> stages() {
        return stages;
    }

    public ModelResponse call(ModelCall call) throws ModelException, InterruptedException {
        return new Link(0, call).proceed(call);
    }

    public long count(ModelCall call) throws ModelException, InterruptedException {
        return new Link(0, call).proceedCount(call);
    }

    /** The chain as seen by stage {@code index}: proceeding runs stage {@code index} with the next link. */
    private final class Link implements ModelInterceptor.Chain {
        private final int index;
        private final ModelCall received;
        private int proceeded;

        Link(int index, ModelCall received) {
            this.index = index;
            this.received = received;
        }

        @Override
        public ModelResponse proceed(ModelCall call) throws ModelException, InterruptedException {
            ModelInterceptor stage = enter(call);
            ModelResponse response;
            try {
                response = stage.intercept(call, new Link(index + 1, call));
            } catch (ModelException e) {
                throw withoutMessage(e) ? named(stage, e) : e;
            } catch (ReinException e) {
                throw e; // a breach, or a stage further in that threw: already named
            } catch (RuntimeException e) {
                throw threw(stage, e);
            }
            if (response == null) {
                throw breach(stage, "returned null instead of a response");
            }
            return response;
        }

        @Override
        public long proceedCount(ModelCall call) throws ModelException, InterruptedException {
            ModelInterceptor stage = enter(call);
            try {
                return stage.interceptCount(call, new Link(index + 1, call));
            } catch (ReinException e) {
                throw e;
            } catch (RuntimeException e) {
                throw threw(stage, e);
            }
        }

        private ModelInterceptor enter(ModelCall call) {
            if (call == null) {
                // a stage passing on null broke the contract: name it, as for the other breaches
                throw index > 0 ? breach(stages.get(index - 1), "proceeded with null instead of a call")
                        : new NullPointerException("call");
            }
            if (index >= stages.size()) {
                throw breach(stages.get(stages.size() - 1), "proceeded past the model");
            }
            if (index > 0) {
                ModelInterceptor caller = stages.get(index - 1);
                if (++proceeded > 1 && !caller.retries()) {
                    throw breach(caller, "proceeded more than once with one call");
                }
                if (!sameConversation(received.request(), call.request())) {
                    throw breach(caller, "changed the conversation (system prompt, tools or messages) of the call");
                }
            }
            return stages.get(index);
        }
    }

    /** A plain ModelException a stage threw with no message: the run's message would end in "failed: null". */
    private static boolean withoutMessage(ModelException e) {
        return e.getClass() == ModelException.class && (e.getMessage() == null || e.getMessage().isBlank());
    }

    /** {@code e} saying which stage failed the call and how, its kind, status, retryability and request id kept. */
    private static ModelException named(ModelInterceptor stage, ModelException e) {
        String status = e.httpStatus() > 0 ? " (HTTP " + e.httpStatus() + ")" : "";
        return new ModelException(e.kind(), e.httpStatus(), "model-call stage " + name(stage) + " failed the call with a"
                + " ModelException of kind " + e.kind() + status + " and no message", e.retryable(), e.retryAfter(),
                e.requestId(), e.reportedUsage().orElse(null), e);
    }

    private static boolean sameConversation(ModelRequest a, ModelRequest b) {
        return a == b || (a.system().equals(b.system()) && a.tools().equals(b.tools()) && a.messages().equals(b.messages()));
    }

    private static ReinException breach(ModelInterceptor stage, String what) {
        return new ReinException("model-call stage " + name(stage) + " " + what
                + "; a stage must proceed at most once (unless it retries()), keep the conversation and return a response");
    }

    /**
     * An application stage's unchecked exception, named: it is a bug in that stage, not a provider
     * failure, and "internal error: IllegalStateException" alone would not say whose.
     */
    private static ReinException threw(ModelInterceptor stage, RuntimeException e) {
        return new ReinException("model-call stage " + name(stage) + " threw " + e
                + "; a stage reports a failed call as a ModelException, so the run ended here", e);
    }

    private static String name(ModelInterceptor stage) {
        String own = stage.toString();
        return own.contains("@") || own.contains("$$Lambda") ? stage.getClass().getName() : own;
    }
}
