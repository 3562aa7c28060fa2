package dev.rein.provider;

import dev.rein.ReinException;
import dev.rein.internal.collect.NullElements;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelOption;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import java.util.List;

/**
 * A model that sends provider options with every request, for code that builds agents from a model alone (the eval
 * harness, the examples), where {@code Agent.Builder.modelOption} is not the caller's to set: e.g. OpenAI's
 * {@code reasoning_effort} or Claude's extended thinking given on the command line for every agent of a suite. A call
 * or token count gets each option whose type its request has none of; the request's own option of that type wins, so
 * a stage or {@code ModelInterceptor} that switches an option with the model (as a fallback that moves a call to a
 * model taking other thinking settings: {@code request.withModel(m).withOption(o)}) keeps its choice below the stages.
 *
 * <p>An agent built with it ({@code Agent.builder().model(optioned)}) takes the options as its own request options, as
 * if given with {@code modelOption} (each replacing one of its type the agent sets), so its run's trace
 * ({@code model_request}), its stored requests and its checks at build (such as a thinking budget below max_tokens) see
 * what is sent, and a stage that changes one of them changes what is sent. That holds for the model given to the agent
 * itself: wrap this one around any other wrapper, not inside it (inside, the agent's own options of their types would
 * win). As every {@link ForwardingModel}, it keeps the wrapped model's defaults, its answer to
 * {@link #abortsOnInterrupt()}, and {@link #close()} closes it.
 */
public final class OptionedModel extends ForwardingModel {
    private final List<ModelOption> options;

    private OptionedModel(Model model, List<ModelOption> options) {
        super(model);
        this.options = options;
    }

    /**
     * {@code model}, sending {@code options} with every call and token count whose request has none of their type;
     * {@code model} itself when there are none.
     *
     * @param model   the model calls go to
     * @param options the options every request gets that has none of its type
     * @return the model
     * @throws ReinException when the model or the options list is null, or an option in it is
     */
    public static Model of(Model model, List<? extends ModelOption> options) {
        if (model == null) {
            throw new ReinException("OptionedModel was given no model to wrap (null): pass the model its calls go to");
        }
        if (options == null) {
            throw new ReinException("OptionedModel was given no options (null): pass the options every request gets,"
                    + " or List.of() for none");
        }
        int at = NullElements.firstNull(options); // one pass whatever the list (a LinkedList too)
        if (at >= 0) {
            throw new ReinException("OptionedModel's option " + (at + 1) + " is null: leave it out, or give the option");
        }
        List<ModelOption> copy = List.copyOf(options);
        return copy.isEmpty() ? model : new OptionedModel(model, copy);
    }

    /** The options every request without one of their type gets, in the order given. */
    public List<ModelOption> options() {
        return options;
    }

    @Override
    public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
        return super.call(withOptions(request), context);
    }

    @Override
    public long countTokens(ModelRequest request) throws ModelException, InterruptedException {
        return super.countTokens(withOptions(request));
    }

    private ModelRequest withOptions(ModelRequest request) {
        ModelRequest sent = request;
        for (ModelOption option : options) {
            // the request's own option of the type is a choice made above (the agent's, a stage's): it wins
            if (request.option(option.getClass()).isEmpty()) {
                sent = sent.withOption(option);
            }
        }
        return sent;
    }
}
