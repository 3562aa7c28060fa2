package dev.rein.internal.model;

import dev.rein.ReinException;
import dev.rein.internal.chain.Suspects;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import java.util.Arrays;
import java.util.List;

/**
 * Runs a model call through a list of stages in order and polices their contract: each stage
 * proceeds at most once (unless it {@link ModelInterceptor#retries()}), keeps the conversation of the
 * call it was given and never returns null. A breach is a {@link ReinException} naming the stage.
 */
public final class ModelChain {
    /** The innermost stage: calls the model itself. */
    public static final ModelInterceptor MODEL = new BuiltInStage() {
        @Override
        public Chain bind(Chain next) {
            return Innermost.INSTANCE;
        }

        /** Every failure of the model's client is answered in Innermost as a ModelException saying whose it was. */
        @Override
        public boolean namesOwnFailures() {
            return true;
        }

        @Override
        public String toString() {
            return "model";
        }
    };

    /** {@link #MODEL}'s work: the call to the model's client, whose failures it names. */
    private static final class Innermost implements ModelInterceptor.Chain {
        static final Innermost INSTANCE = new Innermost();

        @Override
        public ModelResponse proceed(ModelCall call) throws ModelException, InterruptedException {
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
        public long proceedCount(ModelCall call) throws ModelException, InterruptedException {
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
    }

    private final List<ModelInterceptor> stages;
    /** Each stage of Rein's own ({@link BuiltInStage}) bound to the rest of the chain; null for an application's stage. */
    private final ModelInterceptor.Chain[] bound;
    /** Where a call enters the chain. */
    private final Link first;

    public ModelChain(List<ModelInterceptor> stages) {
        this.stages = List.copyOf(stages);
        if (this.stages.isEmpty() || this.stages.get(this.stages.size() - 1) != MODEL) {
            throw new IllegalArgumentException("the last stage of a model chain must be ModelChain.MODEL");
        }
        // Bound once, from the model out: a stage of Rein's own passes a call straight to the next of Rein's own, so
        // each is one frame on the stack a run parks with while it waits for its model (docs/performance-log.md,
        // 2026-12-07, perf6), and to an application's stage through a link that names that stage's failures.
        this.bound = new ModelInterceptor.Chain[this.stages.size()];
        for (int i = bound.length - 1; i >= 0; i--) {
            if (this.stages.get(i) instanceof BuiltInStage own) {
                ModelInterceptor.Chain next = i + 1 == bound.length ? null : bound[i + 1] != null ? bound[i + 1] : new Link(i + 1, null);
                bound[i] = own.bind(next);
                if (bound[i] instanceof BuiltInStage.Bound b) {
                    b.chain = this;
                }
            }
        }
        this.first = new Link(0, null);
    }

    public List<ModelInterceptor> stages() {
        return stages;
    }

    public ModelResponse call(ModelCall call) throws ModelException, InterruptedException {
        return first.proceed(call);
    }

    public long count(ModelCall call) throws ModelException, InterruptedException {
        return first.proceedCount(call);
    }

    /**
     * The chain as seen by the stage before {@code index}: proceeding runs stage {@code index}, an application's with the
     * next link, one of Rein's bound to the rest, and names a failure of the stage it runs (of a run of Rein's own
     * stages, bound one to the next, the one its stack trace shows threw: see thrower). A link given to an application's
     * stage ({@code received} not null) polices that stage; the one into the chain or from a stage of Rein's is shared.
     */
    private final class Link implements ModelInterceptor.Chain {
        private final int index;
        /** The call the application's stage before {@code index} was given; null when no application's stage is before it. */
        private final ModelCall received;
        private int proceeded;

        Link(int index, ModelCall received) {
            this.index = index;
            this.received = received;
        }

        @Override
        public ModelResponse proceed(ModelCall call) throws ModelException, InterruptedException {
            ModelInterceptor stage = enter(call);
            ModelInterceptor.Chain own = bound[index];
            ModelResponse response;
            try {
                response = own != null ? own.proceed(call) : stage.intercept(call, new Link(index + 1, call));
            } catch (ModelException e) {
                throw withoutMessage(e) ? named(stage, e) : e;
            } catch (ReinException e) {
                throw e; // a breach, or a stage further in that threw: already named
            } catch (RuntimeException e) {
                throw own == null ? threw(stage, e) : threw(thrower(index, e), e);
            }
            if (response == null) {
                throw breach(stage, "returned null instead of a response");
            }
            return response;
        }

        @Override
        public long proceedCount(ModelCall call) throws ModelException, InterruptedException {
            ModelInterceptor stage = enter(call);
            ModelInterceptor.Chain own = bound[index];
            try {
                return own != null ? own.proceedCount(call) : stage.interceptCount(call, new Link(index + 1, call));
            } catch (ReinException e) {
                throw e;
            } catch (RuntimeException e) {
                throw own == null ? threw(stage, e) : threw(thrower(index, e), e);
            }
        }

        private ModelInterceptor enter(ModelCall call) {
            if (received == null) {
                // into the chain, or from a stage of Rein's own: nothing to police
                if (call == null) {
                    throw new NullPointerException("call");
                }
                return stages.get(index);
            }
            ModelInterceptor caller = stages.get(index - 1);
            if (call == null) {
                // a stage passing on null broke the contract: name it, as for the other breaches
                throw breach(caller, "proceeded with null instead of a call");
            }
            if (++proceeded > 1 && !caller.retries()) {
                throw breach(caller, "proceeded more than once with one call");
            }
            if (!sameConversation(received.request(), call.request())) {
                throw breach(caller, "changed the conversation (system prompt, tools or messages) of the call");
            }
            return stages.get(index);
        }
    }

    /**
     * {@code e}, which a built-in stage below {@code above} (bound in this chain) threw, named as the stage that threw it
     * (or the stages it may have been, see thrower).
     */
    ReinException threwBelow(BuiltInStage.Bound above, RuntimeException e) {
        for (int i = 0; i < bound.length; i++) {
            if (bound[i] == above) {
                return threw(thrower(i + 1, e), e); // not the last stage: the model's is built-in and proceeds nowhere
            }
        }
        return threw(stages.get(0), e);
    }

    /**
     * Which of the run of built-in stages from {@code index} (bound one to the next, up to an application's stage) threw
     * {@code e}, named for the message: the one of the first frame of its stack trace that is such a stage's (its bound
     * form's, or a method of the stage's own). Where that tells no one stage (no such frame, as in an exception with no
     * stack trace; a frame of a class two stages of the run share) it says the stages it may have been (see Suspects);
     * with no frame, the model's own is left out (it answers every failure of the model's client itself: it
     * {@code namesOwnFailures}). Looked for only once something has thrown, so the bound chain costs nothing for it.
     */
    private String thrower(int index, RuntimeException e) {
        int end = index;
        while (end < bound.length && bound[end] != null) {
            end++;
        }
        return Suspects.threw("model-call", e, stages.subList(index, end), Arrays.asList(bound).subList(index, end),
                ModelChain::name, ModelChain::name);
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
    static ReinException threw(ModelInterceptor stage, RuntimeException e) {
        return threw("model-call stage " + name(stage), e);
    }

    /** As {@link #threw(ModelInterceptor, RuntimeException)}, for {@code who} (see thrower). */
    private static ReinException threw(String who, RuntimeException e) {
        return new ReinException(who + " threw " + e + "; a stage reports a failed call as a ModelException, so the run ended here", e);
    }

    private static String name(ModelInterceptor stage) {
        String own = stage.toString();
        return own.contains("@") || own.contains("$$Lambda") ? stage.getClass().getName() : own;
    }
}
